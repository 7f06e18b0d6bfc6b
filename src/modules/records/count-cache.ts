import { LRUCache } from 'lru-cache';

/**
 * Filtered counts by table and compiled query, kept per process. An entry is only used while
 * the table's change counter (summed from `table_counters`, which triggers bump inside every
 * writing statement) still has the value read before the count was taken, so several processes
 * never serve a count older than the request: any write, from anywhere, retires the entry.
 */
export function createCountCache(maxEntries = 1000) {
  const entries = new LRUCache<string, { changes: number; count: number }>({ max: maxEntries });
  return {
    get(key: string, changes: number): number | undefined {
      const entry = entries.get(key);
      return entry && entry.changes === changes ? entry.count : undefined;
    },
    set(key: string, changes: number, count: number): void {
      entries.set(key, { changes, count });
    },
  };
}

export type CountCache = ReturnType<typeof createCountCache>;
