import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { keys } from '../api/queries';
import type { Table, TableRecord } from '../api/types';

/** One change of the table's feed (CONTRACT section 7; docs/api.md, "Live feed"). */
export interface Change {
  seq: number;
  kind: 'record.created' | 'record.updated' | 'record.deleted' | 'record.restored' | 'comment.created' | 'comment.updated' | 'comment.deleted';
  table_id: number;
  record_id: number;
  comment_id?: number;
  at: string;
  fields: string[];
  after: Record<string, unknown>;
}

/** What a batch of changes asks of the cache once they have been patched in: which keys to refetch. */
export interface Staleness {
  /** Every record-reading query of the table (a create, delete or restore; a resync). */
  allRecords: boolean;
  /** Slugs whose values changed in updates: lists filtered, sorted or searched by them may now hold other records. */
  updatedFields: Set<string>;
  /** Records whose per-record queries (comments, history, files) are stale. */
  records: Set<number>;
}

export const freshStaleness = (): Staleness => ({ allRecords: false, updatedFields: new Set(), records: new Set() });

const isRecord = (value: unknown): value is TableRecord => typeof value === 'object' && value !== null && typeof (value as TableRecord).id === 'number' && typeof (value as TableRecord).data === 'object';

/**
 * `data` with the record `rid` replaced by `patch(record)` wherever it appears: a record itself,
 * an array of records (a page), an infinite query's `pages`, or an object holding `records`
 * (a lane, a calendar range). Anything else is answered as it is. `found` says whether it was there.
 */
export function patchRecordIn(data: unknown, rid: number, patch: (record: TableRecord) => TableRecord): { data: unknown; found: boolean } {
  if (isRecord(data)) return data.id === rid ? { data: patch(data), found: true } : { data, found: false };
  if (Array.isArray(data)) {
    let found = false;
    const next = data.map((item) => {
      const result = patchRecordIn(item, rid, patch);
      found ||= result.found;
      return result.data;
    });
    return found ? { data: next, found } : { data, found };
  }
  if (typeof data === 'object' && data !== null) {
    for (const holder of ['pages', 'records'] as const) {
      const inner = (data as Record<string, unknown>)[holder];
      if (!Array.isArray(inner)) continue;
      const result = patchRecordIn(inner, rid, patch);
      if (result.found) return { data: { ...data, [holder]: result.data }, found: true };
    }
  }
  return { data, found: false };
}

/**
 * Can a query still be right after updates of `fields`, once the updated records were patched in?
 * Only for the shapes whose query is in the key: the grid's window spans (`records, 'window', 0,
 * <query JSON>, offset, limit`, see grid/record-spans.ts) and the counts (`records, 'count', <query JSON>?`) not filtered, sorted or searched by
 * a changed field nor naming a saved view (whose settings the key does not hold). Every other
 * shape is refetched: a refetch is always right.
 */
export function staysExactAfterUpdate(key: QueryKey, fields: ReadonlySet<string>): boolean {
  const [kind, second, third] = key.slice(3);
  let queryJson: unknown;
  if (kind === 'window' && second === 0) queryJson = third;
  else if (kind === 'count') queryJson = second ?? '';
  else return false;
  if (typeof queryJson !== 'string') return false;
  if (/"(view_id|search|where)"/.test(queryJson)) return false;
  for (const slug of fields) if (queryJson.includes(JSON.stringify(slug))) return false;
  return true;
}

/** The record with an update's new values (and its title, when the title field changed and reads as text). */
function updated(record: TableRecord, change: Change, titleField: string | null | undefined): TableRecord {
  const next: TableRecord = { ...record, updated_at: change.at, data: { ...record.data, ...change.after } };
  if (titleField && titleField in change.after) {
    const title = change.after[titleField];
    next.title = title === null ? null : typeof title === 'string' || typeof title === 'number' ? String(title) : next.title;
  }
  return next;
}

/**
 * Applies one change to the cached queries of its table: an update is patched into every cached
 * list that holds the record (cheap, and exact where `staysExactAfterUpdate` says so); what cannot be
 * patched exactly is noted in `stale` for the caller to refetch, batched.
 */
export function applyChange(queryClient: QueryClient, tid: number, change: Change, stale: Staleness): void {
  stale.records.add(change.record_id);
  if (change.kind !== 'record.updated') {
    // Comments change only the record's own keys; creates, deletes and restores move every list and count.
    if (change.kind.startsWith('record.')) stale.allRecords = true;
    return;
  }
  const titleField = queryClient.getQueryData<Table>(keys.table(tid))?.title_field;
  for (const query of queryClient.getQueryCache().findAll({ queryKey: keys.records(tid) })) {
    if (query.state.data === undefined) continue;
    const result = patchRecordIn(query.state.data, change.record_id, (record) => updated(record, change, titleField));
    if (result.found) queryClient.setQueryData(query.queryKey, result.data);
  }
  for (const slug of change.fields) stale.updatedFields.add(slug);
  // A changed title reads differently wherever a lookup shows it: those lists are other tables' and refetch on their own feed.
}

/** Refetches (active queries) or marks stale what `stale` names. */
export function invalidateStale(queryClient: QueryClient, tid: number, stale: Staleness): Promise<unknown> {
  const waits: Promise<unknown>[] = [];
  if (stale.allRecords) waits.push(queryClient.invalidateQueries({ queryKey: keys.records(tid) }));
  else if (stale.updatedFields.size > 0) {
    waits.push(queryClient.invalidateQueries({ queryKey: keys.records(tid), predicate: (query) => !staysExactAfterUpdate(query.queryKey, stale.updatedFields) }));
  }
  // One pass over the cache for every record at once: an import's burst names thousands of records, hardly any of them open.
  if (stale.records.size > 0) {
    const prefix = keys.record(tid, 0).slice(0, 3);
    waits.push(queryClient.invalidateQueries({ queryKey: prefix, predicate: (query) => stale.records.has(query.queryKey[3] as number) }));
  }
  return Promise.all(waits);
}
