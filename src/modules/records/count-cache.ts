import { LRUCache } from 'lru-cache';

/** A filtered count as taken: the table's counters read before it, and the id no later record can be below (null: unknown). */
interface CountEntry {
  changes: number;
  rows: number;
  count: number;
  maxId: number | null;
}

/** What the cache knows of a count now: the count itself, or a count to which the records created since must be added. */
export type CountLookup = { count: number; since?: undefined } | { count: number; since: number };

/**
 * Filtered counts by table and compiled query, kept per process. An entry answers as it is
 * while the table's change counter (summed from `table_counters`, which triggers bump inside
 * every writing statement) still has the value read before the count was taken, so several
 * processes never serve a count older than the request: any write, from anywhere, retires it.
 *
 * An entry also outlives writes that only created records: when the change counter grew
 * exactly as much as the row count, nothing was updated or deleted, and the records created
 * since are those above the entry's settled id (records.repository countRecords), counted
 * through the primary key instead of the whole filter again.
 */
export function createCountCache(maxEntries = 1000) {
  const entries = new LRUCache<string, CountEntry>({ max: maxEntries });
  return {
    get(key: string, counters: { changes: number; rows: number }): CountLookup | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.changes === counters.changes) return { count: entry.count };
      const created = counters.rows - entry.rows;
      if (entry.maxId !== null && created > 0 && counters.changes - entry.changes === created) return { count: entry.count, since: entry.maxId };
      return undefined;
    },
    set(key: string, counters: { changes: number; rows: number }, count: number, maxId: number | null): void {
      entries.set(key, { changes: counters.changes, rows: counters.rows, count, maxId });
    },
  };
}

export type CountCache = ReturnType<typeof createCountCache>;
