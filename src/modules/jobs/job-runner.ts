import crypto from 'node:crypto';
import os from 'node:os';
import type { Database } from '../../db/database.js';
import { acquireLease, recordRunEnd, recordRunStart, releaseLease, renewLease } from './job-leases.repository.js';

export interface JobRunnerSettings {
  /** How long a lease lasts without renewal: a killed holder's job is taken over within this plus one poll (`TABULA_JOB_LEASE`). */
  leaseMs: number;
  /** Test hook: every run holds its lease this long before its work starts, so a test can kill a holder mid-job. */
  holdBeforeRunMs?: number;
}

/** What `/metrics` and the log can say about this process's runs. */
export interface JobRunCounts {
  [job: string]: { done: number; failed: number; handedBack: number };
}

/** Longest a scheduled job waits between two looks at whether it is due (a lease shorter than this polls faster). */
const longestPollMs = 30_000;

/**
 * Runs background work in one process at a time across every process on the database: each
 * job takes its lease row (job_leases) before it runs, renews it while it runs, and gives it back
 * when it ends. A process killed mid-job stops renewing; once the lease expires another process
 * takes the job over. Leases measure real time (the system clock), never the service's clock.
 * On SQLite there is one process, but it goes the same way.
 */
export function createJobRunner(deps: { database: Database; settings: JobRunnerSettings }) {
  const { db } = deps.database;
  const { leaseMs } = deps.settings;
  /** Names this process in lease rows and the log of runs; unique even when a pid is reused. */
  const holder = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
  const held = new Map<string, AbortController>();
  const counts: JobRunCounts = {};
  const at = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString();

  function count(job: string, outcome: 'done' | 'failed' | 'handed back') {
    const entry = (counts[job] ??= { done: 0, failed: 0, handedBack: 0 });
    if (outcome === 'done') entry.done++;
    else if (outcome === 'failed') entry.failed++;
    else entry.handedBack++;
  }

  /** Runs `work` holding the lease `name`, which the caller has just taken. */
  async function hold<T>(name: string, work: (signal: AbortSignal) => Promise<T>, outer: AbortSignal | undefined, nextRunAt: () => string | null): Promise<T | undefined> {
    const controller = new AbortController();
    const abortFromOuter = () => controller.abort(outer?.reason);
    outer?.addEventListener('abort', abortFromOuter);
    held.set(name, controller);
    // Renewed three times per lease: two renewals may fail (a database blip) before another process may take it.
    const renewal = setInterval(() => {
      renewLease(db, name, holder, at(leaseMs)).then(
        (still) => {
          if (!still) controller.abort(new Error(`the lease of ${name} expired and another process took it`));
        },
        () => undefined,
      );
    }, Math.max(1, Math.floor(leaseMs / 3)));
    renewal.unref();
    let outcome: 'done' | 'failed' | 'handed back' = 'handed back';
    let runId: number | undefined;
    try {
      runId = await recordRunStart(db, name, holder, at());
      if (deps.settings.holdBeforeRunMs) await abortableDelay(deps.settings.holdBeforeRunMs, controller.signal);
      if (controller.signal.aborted) return undefined;
      try {
        const result = await work(controller.signal);
        outcome = controller.signal.aborted ? 'handed back' : 'done';
        return result;
      } catch (error) {
        outcome = 'failed';
        throw error;
      }
    } finally {
      clearInterval(renewal);
      outer?.removeEventListener('abort', abortFromOuter);
      held.delete(name);
      count(name, outcome);
      // A failed run waits for its next turn like a done one (no retry storm); one handed back is due at once.
      await releaseLease(db, name, holder, { counts: outcome !== 'handed back', nextRunAt: outcome === 'handed back' ? null : nextRunAt() }).catch(() => undefined);
      if (runId !== undefined) await recordRunEnd(db, runId, at(), outcome).catch(() => undefined);
    }
  }

  return {
    holder,
    leaseMs,

    /** How often a scheduled job of `intervalMs` looks whether it is due: a killed holder's job moves on within lease + poll. */
    pollIntervalMs(intervalMs: number): number {
      return Math.max(1, Math.min(intervalMs, Math.ceil(leaseMs / 2), longestPollMs));
    },

    /**
     * Runs `work` if job `name` is due (its last run, in any process, ended `intervalMs` ago or
     * more) and no live process holds it; then it is next due `intervalMs` after this run ends.
     * Answers undefined when it did not run here. `signal` (stopping) hands the lease back.
     */
    async runIfDue<T>(name: string, intervalMs: number, work: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T | undefined> {
      if (signal?.aborted) return undefined;
      if (!(await acquireLease(db, name, holder, { now: at(), expiresAt: at(leaseMs), due: true }))) return undefined;
      return hold(name, work, signal, () => at(intervalMs));
    },

    /** Runs `work` unless another process runs job `name` now (an index build on one table); undefined if so. */
    async runExclusive<T>(name: string, work: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
      if (!(await acquireLease(db, name, holder, { now: at(), expiresAt: at(leaseMs), due: false }))) return undefined;
      return hold(name, work, undefined, () => null);
    },

    /** Runs finished here since start, by job and outcome. */
    runCounts(): JobRunCounts {
      return structuredClone(counts);
    },

    /** Asks every job running here to stop; each hands its lease back as it ends. */
    abortAll(): void {
      for (const controller of held.values()) controller.abort(new Error('the process is stopping'));
    },
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
