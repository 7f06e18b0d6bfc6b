interface RunState<T> {
  running: Promise<T> | null;
  following: Promise<T> | null;
  /** The run the following one will be: the last caller's. */
  next: () => Promise<T>;
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
export function createSharedRuns<K, T>(): (key: K, run: () => Promise<T>) => Promise<T> {
  const states = new Map<K, RunState<T>>();
  const ask = (key: K, run: () => Promise<T>): Promise<T> => {
    let state = states.get(key);
    if (!state) {
      state = { running: null, following: null, next: run };
      states.set(key, state);
    }
    const current = state;
    current.next = run;
    if (!current.running) {
      current.running = run().finally(() => {
        current.running = null;
        if (!current.following) states.delete(key);
      });
      return current.running;
    }
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
export function createFreshRuns<K, T>(run: (key: K) => Promise<T>): (key: K) => Promise<T> {
  const runs = createSharedRuns<K, T>();
  return (key) => runs(key, () => run(key));
}

/** The same for a run without a key. */
export function createFreshRun<T>(run: () => Promise<T>): () => Promise<T> {
  const runs = createFreshRuns<null, T>(run);
  return () => runs(null);
}
