interface RunState<T> {
  running: Promise<T> | null;
  following: Promise<T> | null;
}

/**
 * Calls of `run` for one key that overlap share one run, but never a run that began before the
 * call: a call made while a run is under way waits for the next one, which begins when that one
 * ends and serves every call made meanwhile. So every answer comes from a run begun after its
 * caller asked (a read sees every write acknowledged before the call), and per key at most one
 * run is under way however many ask: a hundred concurrent asks cost two runs, not a hundred.
 */
export function createFreshRuns<K, T>(run: (key: K) => Promise<T>): (key: K) => Promise<T> {
  const states = new Map<K, RunState<T>>();
  const ask = (key: K): Promise<T> => {
    let state = states.get(key);
    if (!state) {
      state = { running: null, following: null };
      states.set(key, state);
    }
    const current = state;
    if (!current.running) {
      current.running = run(key).finally(() => {
        current.running = null;
        if (!current.following) states.delete(key);
      });
      return current.running;
    }
    current.following ??= current.running
      .catch(() => undefined)
      .then(() => {
        current.following = null;
        return ask(key);
      });
    return current.following;
  };
  return ask;
}

/** The same for a run without a key. */
export function createFreshRun<T>(run: () => Promise<T>): () => Promise<T> {
  const runs = createFreshRuns<null, T>(run);
  return () => runs(null);
}
