import type { QueryClient } from '@tanstack/react-query';
import { keys } from '../api/queries';
import type { TableRecord } from '../api/types';

/** The most records one `records/query` returns (its `limit`). */
export const maxSpanRows = 1000;

/**
 * Every span of one table's window under one view and toolbar query: `query` is the toolbar's
 * filters, sort and search as JSON ('' for none), each set has its own spans. Under
 * `keys.records(tid)`, so whatever invalidates or patches a table's records reaches them.
 */
export function windowKey(tid: number, viewId: number, query = '') {
  return [...keys.records(tid), 'window', viewId, query] as const;
}

/** One fetched span: the records of rows `offset`…`offset + limit - 1` (fewer at the table's end). */
export function spanKey(tid: number, viewId: number, query: string, offset: number, limit: number) {
  return [...windowKey(tid, viewId, query), offset, limit] as const;
}

export interface Span {
  offset: number;
  records: TableRecord[];
  /** False once invalidated (a change elsewhere): still shown, fetched again when in view. */
  current: boolean;
  updatedAt: number;
}

/** The window's spans that hold records, oldest answer first (a newer answer for a row wins). */
export function cachedSpans(queryClient: QueryClient, tid: number, viewId: number, query: string): Span[] {
  const offsetAt = windowKey(tid, viewId, query).length;
  return queryClient
    .getQueryCache()
    .findAll({ queryKey: windowKey(tid, viewId, query) })
    .filter((entry) => Array.isArray(entry.state.data))
    .map((entry) => ({ offset: entry.queryKey[offsetAt] as number, records: entry.state.data as TableRecord[], current: !entry.state.isInvalidated, updatedAt: entry.state.dataUpdatedAt }))
    .sort((a, b) => a.updatedAt - b.updatedAt);
}

/** Do two lists of spans hold the same answers (the same record arrays, equally current)? */
export function sameSpans(a: Span[], b: Span[]): boolean {
  return a.length === b.length && a.every((span, index) => span.records === b[index].records && span.offset === b[index].offset && span.current === b[index].current && span.updatedAt === b[index].updatedAt);
}

/** The records of rows `from`…`to` as the spans know them, and whether a current span covers each. */
export function rowsBetween(spans: Span[], from: number, to: number): { records: Array<TableRecord | undefined>; covered: boolean[] } {
  const length = Math.max(0, to - from + 1);
  const records = new Array<TableRecord | undefined>(length).fill(undefined);
  const covered = new Array<boolean>(length).fill(false);
  for (const span of spans) {
    const start = Math.max(from, span.offset);
    const end = Math.min(to, span.offset + span.records.length - 1);
    for (let row = start; row <= end; row += 1) {
      records[row - from] = span.records[row - span.offset];
      if (span.current) covered[row - from] = true;
    }
  }
  return { records, covered };
}

/** The record of one row from the newest span holding it. */
export function recordInSpans(spans: Span[], row: number): TableRecord | undefined {
  for (let index = spans.length - 1; index >= 0; index -= 1) {
    const span = spans[index];
    const record = span.records[row - span.offset];
    if (row >= span.offset && record) return record;
  }
  return undefined;
}

/**
 * The one span to fetch for a window, or null when nothing is missing: when a row of `trigger`
 * (the visible rows and a little around them) is not covered, every uncovered row of `fetch`
 * (a wider margin, so that a short scroll finds its rows here) from the first to the last, in
 * one request (rows covered in between come again: one request, not several).
 */
export function missingSpan(covered: (row: number) => boolean, trigger: { from: number; to: number }, fetch: { from: number; to: number }): { offset: number; limit: number } | null {
  let needed = false;
  for (let row = trigger.from; row <= trigger.to && !needed; row += 1) needed = !covered(row);
  if (!needed) return null;
  let first = fetch.from;
  while (first <= fetch.to && covered(first)) first += 1;
  let last = fetch.to;
  while (last >= first && covered(last)) last -= 1;
  if (last < first) return null;
  return { offset: first, limit: Math.min(maxSpanRows, last - first + 1) };
}

/**
 * A span being fetched right now that holds every row of `trigger` not yet covered, if any:
 * waiting for it is better than asking again (one request per window).
 */
export function pendingSpanCovering(queryClient: QueryClient, tid: number, viewId: number, query: string, covered: (row: number) => boolean, trigger: { from: number; to: number }): { offset: number; limit: number } | null {
  const offsetAt = windowKey(tid, viewId, query).length;
  for (const entry of queryClient.getQueryCache().findAll({ queryKey: windowKey(tid, viewId, query), fetchStatus: 'fetching' })) {
    const offset = entry.queryKey[offsetAt] as number;
    const limit = entry.queryKey[offsetAt + 1] as number;
    let holds = offset >= 0;
    for (let row = trigger.from; row <= trigger.to && holds; row += 1) holds = covered(row) || (row >= offset && row < offset + limit);
    if (holds) return { offset, limit };
  }
  return null;
}

/** The cached record of one row (the page's row actions), or undefined when it is not fetched. */
export function cachedRecordAt(queryClient: QueryClient, tid: number, viewId: number, query: string, row: number): TableRecord | undefined {
  return recordInSpans(cachedSpans(queryClient, tid, viewId, query), row);
}

/** Puts a record the page just created at `row` (the end) without fetching: a span of its own. */
export function putCreatedRecord(queryClient: QueryClient, tid: number, viewId: number, query: string, row: number, record: TableRecord) {
  queryClient.setQueryData(spanKey(tid, viewId, query, row, 1), [record]);
}

/** Puts the server's answer to an edit into every span holding that record (no refetch). */
export function replaceCachedRecord(queryClient: QueryClient, tid: number, viewId: number, query: string, record: TableRecord) {
  for (const entry of queryClient.getQueryCache().findAll({ queryKey: windowKey(tid, viewId, query) })) {
    const records = entry.state.data as TableRecord[] | undefined;
    if (records?.some((existing) => existing.id === record.id)) queryClient.setQueryData(entry.queryKey, records.map((existing) => (existing.id === record.id ? record : existing)));
  }
}

/**
 * Spans nobody is looking at beyond the newest `keep` are dropped: scrolling through a million
 * rows keeps the heap small, while the last screens scrolled past come back without a request.
 */
export function dropOldSpans(queryClient: QueryClient, tid: number, viewId: number, query: string, keep: number) {
  const entries = queryClient
    .getQueryCache()
    .findAll({ queryKey: windowKey(tid, viewId, query) })
    .filter((entry) => entry.getObserversCount() === 0 && entry.state.fetchStatus === 'idle')
    .sort((a, b) => b.state.dataUpdatedAt - a.state.dataUpdatedAt);
  for (const entry of entries.slice(keep)) queryClient.getQueryCache().remove(entry);
}
