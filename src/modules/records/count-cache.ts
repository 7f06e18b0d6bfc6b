import { LRUCache } from 'lru-cache';
import type { ChangeWindow, LogPosition } from './count-window.repository.js';
import { IdBitmap } from './id-bitmap.js';

/**
 * A filtered count as taken: the table's counters read before it, and the id no later record
 * can be below (null: unknown). A count that follows the log also knows which records it
 * matched, at which log position.
 */
interface CountEntry {
  changes: number;
  rows: number;
  count: number;
  maxId: number | null;
  follow?: { seq: number; matched: IdBitmap };
}

/**
 * What the cache knows of a count now: the count itself; a count to which the records created
 * since must be added; or a count that the records changed since log position `window` adjust.
 */
export type CountLookup = { count: number; since?: undefined; window?: undefined } | { count: number; since: number; window?: undefined } | { count: number; window: number; since?: undefined };

/** Whether what the cache knows is the count itself, with nothing left to read. */
export function isCurrentCount(lookup: CountLookup | undefined): lookup is { count: number; since?: undefined; window?: undefined } {
  return lookup !== undefined && lookup.since === undefined && lookup.window === undefined;
}

/** Bytes the cache's entries may hold, their bitmaps of matched ids included (1,000,000 ids: 125 KB). */
const maxCacheBytes = 48 * 1024 * 1024;

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
 *
 * An entry that follows the log (`follow`) outlives any record write, from any process: the
 * records the log names since its position are read again, alone, and the count moves by those
 * that entered or left the filter (`advance`). It does so only when the log accounts for every
 * write the counter saw since (each written row bumps the counter once, each logs one record
 * change): otherwise the caller counts afresh.
 */
export function createCountCache(maxEntries = 1000) {
  const entries = new LRUCache<string, CountEntry>({ max: maxEntries, maxSize: maxCacheBytes, sizeCalculation: (entry) => 64 + (entry.follow?.matched.bytes ?? 0) });
  return {
    get(key: string, counters: { changes: number; rows: number }): CountLookup | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.changes === counters.changes) return { count: entry.count };
      if (entry.follow) return { count: entry.count, window: entry.follow.seq };
      const created = counters.rows - entry.rows;
      if (entry.maxId !== null && created > 0 && counters.changes - entry.changes === created) return { count: entry.count, since: entry.maxId };
      return undefined;
    },
    set(key: string, counters: { changes: number; rows: number }, count: number, maxId: number | null): void {
      entries.set(key, { changes: counters.changes, rows: counters.rows, count, maxId });
    },
    /**
     * A count that follows the log from `position`: the ids matched then. Only from a position
     * with nothing of the table queued: a queued change would get a seq after it, though its
     * write is in the ids already, and would be counted twice.
     */
    follow(key: string, position: LogPosition, ids: readonly number[]): number {
      if (position.queued > 0) {
        this.set(key, position, ids.length, null);
        return ids.length;
      }
      entries.set(key, { changes: position.changes, rows: position.rows, count: ids.length, maxId: null, follow: { seq: position.seq, matched: IdBitmap.of(ids) } });
      return ids.length;
    },
    /**
     * The count after the changes of `window` (read since log position `since`), or undefined
     * when the window cannot tell it: the log does not account for every write the counter saw,
     * changes are still queued, or the entry moved on meanwhile to another position.
     */
    advance(key: string, since: number, window: ChangeWindow): number | undefined {
      const entry = entries.get(key);
      if (!entry?.follow) return undefined;
      if (entry.follow.seq !== since) return entry.changes === window.position.changes ? entry.count : undefined;
      if (window.position.queued > 0 || window.logged !== window.position.changes - entry.changes) return undefined;
      const matchingNow = new Set(window.matching);
      const { matched } = entry.follow;
      let count = entry.count;
      for (const id of new Set(window.changed)) {
        const is = matchingNow.has(id);
        if (matched.has(id) === is) continue;
        count += is ? 1 : -1;
        matched.set(id, is);
      }
      // Set again, not changed in place: the cache weighs the entry's bitmap, which may have grown.
      entries.set(key, { changes: window.position.changes, rows: window.position.rows, count, maxId: null, follow: { seq: window.position.seq, matched } });
      return count;
    },
  };
}

export type CountCache = ReturnType<typeof createCountCache>;
