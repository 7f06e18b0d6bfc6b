import { describe, expect, it } from 'vitest';
import { startReclaimSchedule, type SweepOptions, type SweepReport } from '../../src/modules/files/reclaim.service.js';

const empty: SweepReport = { deleted: 0, orphans: 0, adopted: 0, failed: 0 };
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A stand-in for the reclaim service whose sweeps take `durationMs`, counting how many overlap. */
function fakeReclaim(durationMs: number, fail: (run: number) => boolean = () => false) {
  const state = { runs: 0, running: 0, maxRunning: 0, signals: [] as AbortSignal[] };
  return {
    state,
    async sweep(options: SweepOptions = {}): Promise<SweepReport> {
      state.runs++;
      state.running++;
      state.maxRunning = Math.max(state.maxRunning, state.running);
      state.signals.push(options.signal!);
      try {
        const started = Date.now();
        while (Date.now() - started < durationMs && !options.signal?.aborted) await wait(5);
        if (fail(state.runs)) throw new Error(`sweep ${state.runs} failed`);
        return { ...empty, deleted: state.runs };
      } finally {
        state.running--;
      }
    },
  };
}

describe('the scheduled reclaim sweep', () => {
  it('runs first after firstDelayMs, then again intervalMs after each sweep ends, never two at once', async () => {
    const reclaim = fakeReclaim(40);
    const reports: SweepReport[] = [];
    const schedule = startReclaimSchedule(reclaim, { intervalMs: 10, firstDelayMs: 30, onReport: (report) => reports.push(report), onError: () => undefined });
    await wait(15);
    expect(reclaim.state.runs).toBe(0);
    await wait(300);
    await schedule.stop();
    expect(reclaim.state.runs).toBeGreaterThanOrEqual(3);
    expect(reclaim.state.maxRunning).toBe(1);
    expect(reports.map((report) => report.deleted)).toEqual(Array.from({ length: reports.length }, (_, index) => index + 1));
  });

  it('a failed sweep is reported to onError and the schedule goes on', async () => {
    const reclaim = fakeReclaim(1, (run) => run === 1);
    const errors: unknown[] = [];
    const schedule = startReclaimSchedule(reclaim, {
      intervalMs: 5,
      firstDelayMs: 1,
      onError: (error) => {
        errors.push(error);
        throw new Error('a logger that throws');
      },
    });
    await wait(100);
    await schedule.stop();
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('sweep 1 failed');
    expect(reclaim.state.runs).toBeGreaterThan(1);
  });

  it('stop aborts a sweep in progress, waits for it, and schedules nothing more', async () => {
    const reclaim = fakeReclaim(10_000);
    const schedule = startReclaimSchedule(reclaim, { intervalMs: 1, firstDelayMs: 1, onError: () => undefined });
    await wait(30);
    expect(reclaim.state.running).toBe(1);
    const started = Date.now();
    await schedule.stop();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(reclaim.state.running).toBe(0);
    expect(reclaim.state.signals[0].aborted).toBe(true);
    const runs = reclaim.state.runs;
    await wait(30);
    expect(reclaim.state.runs).toBe(runs);
  });

  it('stop before the first sweep cancels it', async () => {
    const reclaim = fakeReclaim(1);
    const schedule = startReclaimSchedule(reclaim, { intervalMs: 1, firstDelayMs: 20, onError: () => undefined });
    await schedule.stop();
    await wait(40);
    expect(reclaim.state.runs).toBe(0);
  });
});
