interface RunState<T> {
  running: Promise<T> | null;
  /** Whether the running run has begun its work: until it has, a new call may still share it. */
  begun: boolean;
  following: Promise<T> | null;
  /** The run the following one will be: the last caller's. */
  next: () => Promise<T>;
}

export interface SharedRunOptions {
  /**
   * What a run waits for before it begins (the event loop's next turn, say). Every call made
   * meanwhile shares it: the calls that arrive together are served by one run, still begun
   * after each of them. Without it a run begins at once.
   */
  beginAfter?: () => Promise<void>;
}

/**
 * Calls for one key that overlap share one run, but never a run that began before the call: a
 * call made while a run is under way waits for the next one, which begins when that one ends
 * and serves every call made meanwhile. So every answer comes from a run begun after its caller
 * asked (a read sees every write acknowledged before the call), and per key at most one run is
 * under way however many ask: a hundred concurrent asks cost two runs, not a hundred.
 *
 * Each call brings its run; the calls of one key must bring runs that answer alike (the next
 * run is the last caller's). Most callers want one run for every key: createFreshRuns.
 */
export function createSharedRuns<K, T>(options: SharedRunOptions = {}): (key: K, run: () => Promise<T>) => Promise<T> {
  const { beginAfter } = options;
  const states = new Map<K, RunState<T>>();
  const ask = (key: K, run: () => Promise<T>): Promise<T> => {
    let state = states.get(key);
    if (!state) {
      state = { running: null, begun: false, following: null, next: run };
      states.set(key, state);
    }
    const current = state;
    current.next = run;
    if (!current.running) {
      current.begun = !beginAfter;
      const started = beginAfter
        ? beginAfter().then(() => {
            current.begun = true;
            return current.next();
          })
        : run();
      current.running = started.finally(() => {
        current.running = null;
        if (!current.following) states.delete(key);
      });
      return current.running;
    }
    if (!current.begun) return current.running;
    current.following ??= current.running
      .catch(() => undefined)
      .then(() => {
        current.following = null;
        return ask(key, current.next);
      });
    return current.following;
  };
  return ask;
}

/** The same, with one run for every key. */
export function createFreshRuns<K, T>(run: (key: K) => Promise<T>, options?: SharedRunOptions): (key: K) => Promise<T> {
  const runs = createSharedRuns<K, T>(options);
  return (key) => runs(key, () => run(key));
}

/** The same for a run without a key. */
export function createFreshRun<T>(run: () => Promise<T>): () => Promise<T> {
  const runs = createFreshRuns<null, T>(run);
  return () => runs(null);
}

/** The event loop's next turn: after the I/O callbacks of this one (setImmediate). */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The end of the turn after the next: how long a statement shared by the requests read together
 * waits for them. They reach it a turn apart (a body's end, a cached look-up's answer), so one
 * turn splits them in two statements (db/turn-gathering.ts, docs/performance.md, session 39).
 */
export function turnAfterNext(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
