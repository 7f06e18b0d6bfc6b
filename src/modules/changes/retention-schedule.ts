import { startRepeatingTask, type RepeatingTask } from '../../shared/repeating-task.js';

/** What one scheduled purge removed: trashed records, changes, and the change log's purge mark after it. */
export interface PurgeReport {
  trash: number;
  changes: number;
  purgedThrough: number;
}

/** Stopping waits for a purge in progress to finish its current batch (each batch is one transaction). */
export type PurgeSchedule = RepeatingTask;

/**
 * Runs the retention of `tabula serve` on a schedule, as the reclaim sweep runs: first after
 * `firstDelayMs`, then `intervalMs` after each run ends, never two at once in one process. The
 * trash goes first (its files to the reclaim queue), then the change log beyond its days. `serve`
 * passes purges that run under job leases (cli/background-jobs.ts), so one process at a time
 * purges; a command run beside it is still safe: each batch is taken by the statement that deletes it.
 */
export function startPurgeSchedule(
  purge: { purgeTrash(): Promise<number>; purgeChanges(): Promise<{ purged: number; purgedThrough: number }> },
  options: { intervalMs: number; firstDelayMs: number; onReport?: (report: PurgeReport) => void; onError: (error: unknown) => void },
): PurgeSchedule {
  return startRepeatingTask(
    async () => {
      const trash = await purge.purgeTrash();
      const changes = await purge.purgeChanges();
      options.onReport?.({ trash, changes: changes.purged, purgedThrough: changes.purgedThrough });
    },
    options,
  );
}
