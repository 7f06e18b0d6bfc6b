import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, ApiError, unwrap } from '../api/client';
import { keys } from '../api/queries';
import type { Field, TableRecord } from '../api/types';
import { isImage } from '../record/file-urls';

/** A filter object of the specification (record-service-interface, "Filter object"). */
export interface LayoutFilter {
  column: string;
  compare: string;
  value?: unknown;
}

/**
 * The toolbar's query body narrowed by a layout's own filters (a lane, a month): through a saved
 * view they go on top of its filters (`append_filters`); otherwise next to the toolbar's.
 */
export function withFilters(body: Record<string, unknown>, extra: LayoutFilter[]): Record<string, unknown> {
  if (body.view_id !== undefined) return { ...body, append_filters: true, filters: extra };
  return { ...body, filters: [...((body.filters as LayoutFilter[] | undefined) ?? []), ...extra] };
}

/**
 * Like `withFilters`, but in a sort of the layout's own: a saved view's sort cannot be replaced
 * through `view_id`, so its filters are sent as filters (the server resolves their date tokens
 * and `@me` the same way). A view whose filters use OR keeps `view_id` and its own sort: filters
 * added after an OR would join its last group, not the whole.
 */
export function withFiltersSorted(body: Record<string, unknown>, view: { filters: LayoutFilter[] | null }, extra: LayoutFilter[], orderBy: string, orderDir: 'A' | 'D'): Record<string, unknown> {
  const own = body.view_id !== undefined ? (view.filters ?? []) : ((body.filters as LayoutFilter[] | undefined) ?? []);
  if (own.some((filter) => String((filter as { connector?: unknown }).connector ?? '').toUpperCase() === 'OR')) return withFilters(body, extra);
  const { view_id: _view, append_filters: _append, filters: _filters, order_by: _orderBy, order_dir: _orderDir, ...rest } = body;
  return { ...rest, filters: [...own, ...extra], order_by: orderBy, order_dir: orderDir };
}

/** Every record-reading query of a layout lives under the table's records key (the live helper invalidates it). */
export const layoutKey = (tid: number, ...parts: unknown[]) => [...keys.records(tid), 'layout', ...parts] as const;

export async function queryRecords(tid: number, body: Record<string, unknown>): Promise<TableRecord[]> {
  return (await unwrap(api.POST('/api/table/{tid}/records/query', { params: { path: { tid } }, body: body as never }))) as TableRecord[];
}

export async function readRecord(tid: number, rid: number): Promise<TableRecord> {
  return (await unwrap(api.GET('/api/table/{tid}/record/{rid}/get', { params: { path: { tid, rid } } }))) as TableRecord;
}

export async function countRecords(tid: number, body: Record<string, unknown>): Promise<number> {
  return (await unwrap(api.POST('/api/table/{tid}/records/count', { params: { path: { tid } }, body: body as never }))).count;
}

/** Records page by page (offset paging), for lists that load more as they scroll. */
export function useRecordPages(tid: number, key: readonly unknown[], body: Record<string, unknown>, pageSize: number) {
  return useInfiniteQuery({
    queryKey: key,
    initialPageParam: 0,
    queryFn: ({ pageParam }) => queryRecords(tid, { ...body, limit: pageSize, offset: pageParam * pageSize }),
    getNextPageParam: (last, pages) => (last.length < pageSize ? undefined : pages.length),
  });
}

/** Writes some fields of a record, then refreshes every record query of the table (lanes, months, counts). */
export function useRecordWrite(tid: number) {
  const queryClient = useQueryClient();
  return async (rid: number, data: Record<string, unknown>) => {
    try {
      return (await unwrap(api.POST('/api/table/{tid}/record/{rid}/update', { params: { path: { tid, rid } }, body: { data } as never }))) as TableRecord;
    } finally {
      await queryClient.invalidateQueries({ queryKey: keys.records(tid) });
    }
  };
}

/** Opening a card sets `?record=<rid>` on the view's address (the record drawer reads it). */
export function useOpenRecord() {
  const [, setSearchParams] = useSearchParams();
  return (rid: number) =>
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      next.set('record', String(rid));
      return next;
    });
}

/**
 * A layout's own "Add record" (a lane's option, a day's date, or nothing for a gallery): the
 * record is created with those fields, the layout's queries are refreshed, and it opens in the
 * drawer (`?record=<rid>`) to be filled in. A refusal is kept in `error` for the layout to show.
 */
export function useAddRecord(tid: number) {
  const queryClient = useQueryClient();
  const openRecord = useOpenRecord();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const add = async (data: Record<string, unknown>) => {
    setError(null);
    setBusy(true);
    try {
      const created = (await unwrap(api.POST('/api/table/{tid}/records/create', { params: { path: { tid } }, body: { data } as never }))) as TableRecord;
      void queryClient.invalidateQueries({ queryKey: keys.records(tid) });
      openRecord(created.id);
    } catch (caught) {
      setError(caught instanceof ApiError || caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };
  return { add, error, busy };
}

export const recordTitle = (record: TableRecord) => (record.title === null || record.title === undefined || record.title === '' ? `Record ${record.id}` : String(record.title));

interface Attachment {
  name?: string;
  path: string;
  type?: string;
}

/** The first image among a file field's attachments, or undefined. */
export function firstImage(value: unknown): Attachment | undefined {
  return (Array.isArray(value) ? (value as Attachment[]) : []).find((file) => file && typeof file.path === 'string' && isImage(file.type));
}

/** The first image of the record in any of the file fields given (in order). */
export function recordImage(record: TableRecord, fileFields: Field[]): { field: Field; file: Attachment } | undefined {
  for (const field of fileFields) {
    const file = firstImage(record.data[field.id]);
    if (file) return { field, file };
  }
  return undefined;
}

/** The MIME type a card's drag carries: the record id. */
export const recordDragType = 'application/x-tabula-record';
