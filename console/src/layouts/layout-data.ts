import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client';
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
