import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, unwrap } from '../api/client';
import { keys } from '../api/queries';
import type { TableRecord } from '../api/types';

/** Records fetched per request: one `records/query` page, keyed by its offset. */
export const pageSize = 100;
/** The window settles this long after the last scroll before its pages are asked for: dragging the scrollbar asks only where it stops. */
const settleMs = 60;

/** Record pages whose rows lie between `first` and `last` (row indexes). */
function pagesBetween(first: number, last: number): number[] {
  if (last < first) return [];
  const pages: number[] = [];
  for (let page = Math.floor(first / pageSize); page <= Math.floor(last / pageSize); page += 1) pages.push(page);
  return pages;
}

/** `query` is the toolbar's filters, sort and search as JSON ('' for none): each set has its own pages. */
export function recordPageKey(tid: number, viewId: number, page: number, query = '') {
  return [...keys.records(tid), 'page', viewId, query, page] as const;
}

/**
 * The records of the visible window only: each page of `pageSize` records is one query
 * (TanStack Query runs one request per key at a time, caches it and cancels it when the window
 * moves on before it answers). Rows outside the fetched pages read as undefined (placeholders).
 */
export function useRecordWindow(tid: number, viewId: number, first: number, last: number, query?: Record<string, unknown>) {
  const queryPart = query ? JSON.stringify(query) : '';
  const [settled, setSettled] = useState({ first, last });
  useEffect(() => {
    const timer = setTimeout(() => setSettled({ first, last }), settleMs);
    return () => clearTimeout(timer);
  }, [first, last]);
  const pages = pagesBetween(settled.first, settled.last);
  const results = useQueries({
    queries: pages.map((page) => ({
      queryKey: recordPageKey(tid, viewId, page, queryPart),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        unwrap(api.POST('/api/table/{tid}/records/query', { params: { path: { tid } }, body: { limit: pageSize, offset: page * pageSize, ...(query ?? (viewId ? { view_id: viewId } : {})) }, signal })),
      // Pages scrolled past are dropped soon: scrolling through a million rows keeps the heap small.
      gcTime: 30_000,
    })),
  });
  const loaded = new Map<number, TableRecord[]>();
  pages.forEach((page, index) => {
    const data = results[index]?.data;
    if (data) loaded.set(page, data);
  });
  const failed = results.find((result) => result.isError)?.error ?? null;
  const queryClient = useQueryClient();
  return {
    failed,
    recordAt(row: number): TableRecord | undefined {
      const page = Math.floor(row / pageSize);
      const records = loaded.get(page) ?? queryClient.getQueryData<TableRecord[]>(recordPageKey(tid, viewId, page, queryPart));
      return records?.[row - page * pageSize];
    },
    /** Puts the server's answer to an edit into the cached page (no refetch). */
    replaceRecord(row: number, record: TableRecord) {
      const page = Math.floor(row / pageSize);
      queryClient.setQueryData<TableRecord[]>(recordPageKey(tid, viewId, page, queryPart), (records) => records?.map((existing) => (existing.id === record.id ? record : existing)));
    },
  };
}
