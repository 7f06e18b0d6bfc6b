import { describe, expect, it } from 'vitest';
import { createFreshRun, createFreshRuns, createSharedRuns, nextTurn } from '../../src/shared/fresh-runs.js';

/** A run whose every start is recorded and whose end the test decides. */
function controlledRuns() {
  const started: Array<{ key: string; finish: (value: number) => void; fail: (error: Error) => void }> = [];
  const run = (key: string) =>
    new Promise<number>((resolve, reject) => {
      started.push({ key, finish: resolve, fail: reject });
    });
  return { started, run };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('createFreshRuns', () => {
  it('runs at once when nothing runs for the key', async () => {
    const { started, run } = controlledRuns();
    const ask = createFreshRuns(run);
    const first = ask('t');
    await turn();
    started[0].finish(1);
    expect(await first).toBe(1);
    expect(started).toHaveLength(1);
  });

  it('never answers a call with a run that began before it: a call during a run waits for the next, shared by all who asked meanwhile', async () => {
    const { started, run } = controlledRuns();
    const ask = createFreshRuns(run);
    const early = ask('t');
    await turn();
    const late = [ask('t'), ask('t'), ask('t')];
    await turn();
    expect(started).toHaveLength(1); // the next run waits for the current one
    started[0].finish(1);
    expect(await early).toBe(1);
    await turn();
    expect(started).toHaveLength(2);
    started[1].finish(2);
    expect(await Promise.all(late)).toEqual([2, 2, 2]);
    expect(started).toHaveLength(2);
  });

  it('keeps keys apart', async () => {
    const { started, run } = controlledRuns();
    const ask = createFreshRuns(run);
    const a = ask('a');
    const b = ask('b');
    await turn();
    expect(started.map((s) => s.key)).toEqual(['a', 'b']);
    started[1].finish(20);
    started[0].finish(10);
    expect([await a, await b]).toEqual([10, 20]);
  });

  it('hands a failure to the callers of that run only; the next run starts all the same', async () => {
    const { started, run } = controlledRuns();
    const ask = createFreshRuns(run);
    const failing = ask('t');
    await turn();
    const next = ask('t');
    started[0].fail(new Error('database unavailable'));
    await expect(failing).rejects.toThrow('database unavailable');
    await turn();
    started[1].finish(3);
    expect(await next).toBe(3);
    // Idle again: a new call starts a run at once.
    const again = ask('t');
    await turn();
    expect(started).toHaveLength(3);
    started[2].finish(4);
    expect(await again).toBe(4);
  });
});

describe('createFreshRun', () => {
  it('is the same without a key', async () => {
    let runs = 0;
    const ask = createFreshRun(async () => ++runs);
    const [a, b] = [ask(), ask()];
    expect(await a).toBe(1);
    expect(await b).toBe(2);
    expect(await ask()).toBe(3);
  });
});

describe('createSharedRuns', () => {
  it('runs the run each call brings; the calls that wait share the last one brought', async () => {
    const ask = createSharedRuns<string, string>();
    let release!: () => void;
    const first = ask('t', () => new Promise((resolve) => (release = () => resolve('first'))));
    const second = ask('t', async () => 'second');
    const third = ask('t', async () => 'third');
    release();
    expect(await first).toBe('first');
    expect([await second, await third]).toEqual(['third', 'third']);
    expect(await ask('t', async () => 'alone')).toBe('alone');
  });
});

describe('beginAfter', () => {
  it('serves every call made before the run began with that run, and a call made after it began with the next', async () => {
    const { started, run } = controlledRuns();
    let open!: () => void;
    const gate = () => new Promise<void>((resolve) => (open = resolve));
    const ask = createFreshRuns(run, { beginAfter: gate });
    const together = [ask('t'), ask('t'), ask('t')];
    await turn();
    expect(started).toHaveLength(0); // not begun until the gate opens
    open();
    await turn();
    expect(started).toHaveLength(1);
    const after = ask('t'); // the run has begun: this call must not share it
    started[0].finish(1);
    expect(await Promise.all(together)).toEqual([1, 1, 1]);
    open();
    await turn();
    expect(started).toHaveLength(2);
    started[1].finish(2);
    expect(await after).toBe(2);
  });

  it('with nextTurn, the calls of one turn share one run', async () => {
    let runs = 0;
    const ask = createFreshRuns(async (key: string) => `${key}${++runs}`, { beginAfter: nextTurn });
    expect(await Promise.all([ask('t'), ask('t'), ask('u'), ask('t')])).toEqual(['t1', 't1', 'u2', 't1']);
    expect(await ask('t')).toBe('t3');
  });
});
