/**
 * A callback run `delayMs` after it is first asked for, with every ask made meanwhile sharing
 * that run, and never sooner than `spacingMs` after the previous run began: a lone ask waits
 * `delayMs`, a steady stream of asks is served by one run every `spacingMs`.
 */
export function createSpacedTimer(run: () => void, options: { delayMs: number; spacingMs: number; now?: () => number }) {
  const { delayMs, spacingMs, now = () => performance.now() } = options;
  let timer: NodeJS.Timeout | null = null;
  let lastRunAt = -Infinity;
  return {
    /** Asks for a run: the one already due, or a new one. */
    ask(): void {
      timer ??= setTimeout(
        () => {
          timer = null;
          lastRunAt = now();
          run();
        },
        Math.max(delayMs, lastRunAt + spacingMs - now()),
      );
    },
    /** Drops the run due, if any; answers whether there was one (its caller runs it now instead). */
    cancel(): boolean {
      if (!timer) return false;
      clearTimeout(timer);
      timer = null;
      return true;
    },
  };
}
