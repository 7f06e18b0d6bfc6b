/** What one scheduled purge removed: trashed records, changes, and the change log's purge mark after it. */
export interface PurgeReport {
  trash: number;
  changes: number;
  purgedThrough: number;
}

export interface PurgeSchedule {
  /** Stops the schedule; a purge in progress finishes its current batch first (each batch is one transaction). */
  stop(): Promise<void>;
}

/**
 * Runs the retention of `tabula serve` on a schedule, as the reclaim sweep runs: first after
 * `firstDelayMs`, then `intervalMs` after each run ends, never two at once in one process. The
 * trash goes first (its files to the reclaim queue), then the change log beyond its days. Several
 * processes may run it at once: each batch is taken by the statement that deletes it.
 */
export function startPurgeSchedule(
  purge: { purgeTrash(): Promise<number>; purgeChanges(): Promise<{ purged: number; purgedThrough: number }> },
  options: { intervalMs: number; firstDelayMs: number; onReport?: (report: PurgeReport) => void; onError: (error: unknown) => void },
): PurgeSchedule {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const schedule = (delayMs: number) => {
    if (stopped) return;
    // setTimeout takes at most 2^31-1 ms (about 24.8 days); a longer interval would fire at once.
    timer = setTimeout(run, Math.min(delayMs, 2 ** 31 - 1));
    timer.unref();
  };
  function run() {
    timer = undefined;
    running = (async () => {
      try {
        const trash = await purge.purgeTrash();
        const changes = await purge.purgeChanges();
        options.onReport?.({ trash, changes: changes.purged, purgedThrough: changes.purgedThrough });
      } catch (error) {
        try {
          options.onError(error);
        } catch {
          // A logger that throws must not stop the schedule.
        }
      }
    })().finally(() => {
      running = undefined;
      schedule(options.intervalMs);
    });
  }

  schedule(options.firstDelayMs);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
