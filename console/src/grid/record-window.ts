import { notifyManager, skipToken, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { api, unwrap } from '../api/client';
import type { TableRecord } from '../api/types';
import { cachedSpans, dropOldSpans, sameSpans, type Span, missingSpan, pendingSpanCovering, recordInSpans, replaceCachedRecord, rowsBetween, spanKey, windowKey } from './record-spans';

/** The window settles this long after the last scroll before its rows are asked for: dragging the scrollbar asks only where it stops… */
const settleMs = 60;
/** …and this long after a jump of more than a screen (a drag): a request given up still costs the server its query. */
const jumpSettleMs = 120;
/** Rows asked for with the table's first request, before the grid has measured its window. */
export const firstWindowRows = 150;
/** A missing row this close to the visible ones starts a fetch… */
const triggerRows = 30;
/** …of every missing row this close: a short scroll then finds its rows already here. */
const fetchRows = 100;
/** Spans kept once scrolled past (about 20,000 rows at most): scrolling back shows them at once, the heap stays small. */
const keptSpans = 80;

/**
 * The records of the visible window only, as spans of rows in the TanStack Query cache (keys:
 * record-spans.ts). The rows missing around the window are ONE `records/query` (offset/limit of
 * the missing span): at most one request per window, cancelled through its AbortSignal when the
 * window moves on before it answers; rows fetched before show again without a request. Rows not
 * fetched yet read as undefined (placeholders).
 */
export function useRecordWindow(tid: number, viewId: number, first: number, last: number, total: number, query?: Record<string, unknown>) {
  const queryPart = query ? JSON.stringify(query) : '';
  const body = query ?? (viewId ? { view_id: viewId } : {});
  const queryClient = useQueryClient();
  const [settled, setSettled] = useState({ first, last });
  useEffect(() => {
    // The first window (nothing shown yet) is asked for at once; later ones once the scroll pauses.
    const jumped = Math.abs(first - settled.first) > Math.max(1, settled.last - settled.first);
    const timer = setTimeout(() => setSettled((current) => (current.first === first && current.last === last ? current : { first, last })), settled.last < settled.first ? 0 : jumped ? jumpSettleMs : settleMs);
    return () => clearTimeout(timer);
  }, [first, last, settled.first, settled.last]);

  const spans = useWindowSpans(queryClient, tid, viewId, queryPart);

  const lastRow = total - 1;
  const zone = { from: Math.max(0, settled.first - fetchRows), to: Math.min(lastRow, settled.last + fetchRows) };
  const trigger = { from: Math.max(0, settled.first - triggerRows), to: Math.min(lastRow, settled.last + triggerRows) };
  const known = rowsBetween(spans, zone.from, zone.to);
  const covered = (row: number) => known.covered[row - zone.from];
  const missing = settled.last >= settled.first ? missingSpan(covered, trigger, zone) : null;
  // A request already under way for the missing rows (the page's first one, or this window's own) is waited for, not sent again.
  const need = missing && (pendingSpanCovering(queryClient, tid, viewId, queryPart, covered, trigger) ?? missing);
  const request = useQuery({
    queryKey: need ? spanKey(tid, viewId, queryPart, need.offset, need.limit) : spanKey(tid, viewId, queryPart, -1, 0),
    queryFn: need ? ({ signal }) => fetchSpan(queryClient, tid, viewId, queryPart, body, need, signal) : skipToken,
    // Spans are fresh until invalidated (an edit, a live change): then those in view come again.
    staleTime: Infinity,
    gcTime: 5 * 60_000,
  });

  return {
    failed: request.error,
    recordAt(row: number): TableRecord | undefined {
      return row >= zone.from && row <= zone.to ? known.records[row - zone.from] : recordInSpans(spans, row);
    },
    /** Puts the server's answer to an edit into the cached spans (no refetch). */
    replaceRecord(_row: number, record: TableRecord) {
      replaceCachedRecord(queryClient, tid, viewId, queryPart, record);
    },
    /** Rows `offset`… under the window's view and toolbar query, straight from the server (a paste reaching past what is fetched). */
    fetchRows(offset: number, limit: number): Promise<TableRecord[]> {
      return unwrap(api.POST('/api/table/{tid}/records/query', { params: { path: { tid } }, body: { ...body, offset, limit } }));
    },
  };
}

/**
 * The window's spans as the query cache holds them now, drawn again on any change to them (an
 * answer, an edit, an invalidation). Read through `useSyncExternalStore`, not a counter bumped
 * by a cache listener: a span answered between the first render and the listener's subscription
 * is not missed, and no render combines a query's new state with spans older than it (which
 * asked for rows already here: the page's first rows, fetched twice).
 */
function useWindowSpans(queryClient: QueryClient, tid: number, viewId: number, queryPart: string): Span[] {
  const subscribe = useCallback(
    (changed: () => void) => {
      const prefix = JSON.stringify(windowKey(tid, viewId, queryPart)).slice(0, -1);
      // Told in the cache's next notification flush: a span added while a component renders (a
      // useQuery's new key) must not update this one in the middle of that render.
      const later = notifyManager.batchCalls(changed);
      return queryClient.getQueryCache().subscribe((event) => {
        if ((event.type === 'added' || event.type === 'removed' || event.type === 'updated') && event.query.queryHash.startsWith(prefix)) later();
      });
    },
    [queryClient, tid, viewId, queryPart],
  );
  // The same array while the spans are the same: the snapshot must be stable between changes.
  const held = useRef<Span[]>([]);
  const snapshot = useCallback(() => {
    const spans = cachedSpans(queryClient, tid, viewId, queryPart);
    if (!sameSpans(spans, held.current)) held.current = spans;
    return held.current;
  }, [queryClient, tid, viewId, queryPart]);
  return useSyncExternalStore(subscribe, snapshot);
}

/** One span of rows under the window's view and toolbar query; older spans nobody looks at are dropped once it arrives. */
async function fetchSpan(queryClient: QueryClient, tid: number, viewId: number, queryPart: string, body: Record<string, unknown>, span: { offset: number; limit: number }, signal?: AbortSignal) {
  const records = await unwrap(api.POST('/api/table/{tid}/records/query', { params: { path: { tid } }, body: { ...body, offset: span.offset, limit: span.limit }, signal }));
  dropOldSpans(queryClient, tid, viewId, queryPart, keptSpans);
  return records;
}

/**
 * The table page asks for its first rows at once, beside the table and its count, rather than
 * once the grid is drawn: the grid then waits for that request instead of sending its own.
 */
export function usePrefetchFirstRows(tid: number, viewId: number, query: Record<string, unknown>, queryPart: string, enabled = true) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const span = { offset: 0, limit: firstWindowRows };
    void queryClient.prefetchQuery({ queryKey: spanKey(tid, viewId, queryPart, 0, firstWindowRows), queryFn: ({ signal }) => fetchSpan(queryClient, tid, viewId, queryPart, query, span, signal), staleTime: Infinity, gcTime: 5 * 60_000 });
    // The query's JSON (queryPart) stands for the query object.
  }, [queryClient, tid, viewId, queryPart, enabled]);
}
