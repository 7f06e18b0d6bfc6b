/** A background task `tabula serve` repeats (the reclaim sweep, the retention purge). */
export interface RepeatingTask {
  /** Stops scheduling; `signal` is aborted, and this resolves once a run in progress has ended. */
  stop(): Promise<void>;
}

/**
 * Runs `task` first `firstDelayMs` after start (a server restarted more often than the interval
 * still runs it), then `intervalMs` after each run ends, so one process never runs two at
 * once. A failed run goes to `onError`, never thrown (nor what `onError` throws: a logger that
 * throws must not stop the schedule). Timers are unref'd: they never keep the process alive.
 */
export function startRepeatingTask(task: (signal: AbortSignal) => Promise<void>, options: { intervalMs: number; firstDelayMs: number; onError: (error: unknown) => void }): RepeatingTask {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const abort = new AbortController();

  const schedule = (delayMs: number) => {
    if (stopped) return;
    // setTimeout takes at most 2^31-1 ms (about 24.8 days); a longer interval would fire at once.
    timer = setTimeout(run, Math.min(delayMs, 2 ** 31 - 1));
    timer.unref();
  };
  function run() {
    timer = undefined;
    running = task(abort.signal)
      .catch((error: unknown) => {
        try {
          options.onError(error);
        } catch {
          // ignored: see above
        }
      })
      .finally(() => {
        running = undefined;
        schedule(options.intervalMs);
      });
  }

  schedule(options.firstDelayMs);
  return {
    async stop() {
      stopped = true;
      abort.abort();
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
