import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type GetResult, type PostResult } from '../api/client';
import { keys, useMe, useSpaceMembers } from '../api/queries';
import type { TableRecord } from '../api/types';

export type Comment = GetResult<'/api/table/{tid}/record/{rid}/comments/get'>[number];
export type Change = PostResult<'/api/table/{tid}/record/{rid}/history'>[number];
export type TrashedRecord = PostResult<'/api/table/{tid}/records/trash'>[number];
export type Member = { user_id: number; email: string; name: string | null };
export interface Attachment {
  name: string;
  path: string;
  type: string;
  size: number;
}

/** Comments per page of the thread, history entries per page. */
export const commentsPage = 20;
export const historyPage = 30;

/** One record, under the table's records (the grid's invalidations reach it). */
export const recordKey = (tid: number, rid: number) => [...keys.records(tid), 'one', rid] as const;

export function useRecord(tid: number, rid: number) {
  return useQuery({ queryKey: recordKey(tid, rid), queryFn: async () => (await unwrap(api.GET('/api/table/{tid}/record/{rid}/get', { params: { path: { tid, rid } } }))) as TableRecord, retry: false });
}

/** After a write that answered the record: show it, and let the table's lists and the history read again. */
export function useRecordChanged(tid: number, rid: number) {
  const queryClient = useQueryClient();
  return (record?: TableRecord) => {
    if (record) queryClient.setQueryData(recordKey(tid, rid), record);
    void queryClient.invalidateQueries({ queryKey: keys.records(tid), predicate: (query) => query.queryKey[3] !== 'one' || query.queryKey[4] !== rid || !record });
    void queryClient.invalidateQueries({ queryKey: [...keys.record(tid, rid), 'history'] });
  };
}

/** The thread, newest page first: each page is oldest to newest (comments/get), older pages are fetched on demand. */
export function useComments(tid: number, rid: number) {
  return useInfiniteQuery({
    queryKey: [...keys.record(tid, rid), 'comments'],
    initialPageParam: 0,
    queryFn: ({ pageParam }) => unwrap(api.GET('/api/table/{tid}/record/{rid}/comments/get', { params: { path: { tid, rid }, query: { limit: commentsPage, offset: pageParam } } })),
    getNextPageParam: (last, pages) => (last.length < commentsPage ? undefined : pages.length * commentsPage),
  });
}

export function useHistory(tid: number, rid: number) {
  return useInfiniteQuery({
    queryKey: [...keys.record(tid, rid), 'history'],
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam }) => unwrap(api.POST('/api/table/{tid}/record/{rid}/history', { params: { path: { tid, rid } }, body: { limit: historyPage, ...(pageParam === undefined ? {} : { before: pageParam }) } })),
    getNextPageParam: (last) => (last.length < historyPage ? undefined : last.at(-1)?.seq),
  });
}

export function useSubscription(tid: number, rid: number) {
  return useQuery({
    queryKey: [...keys.record(tid, rid), 'subscription'],
    queryFn: () => unwrap(api.POST('/api/subscriptions/{tid}/status', { params: { path: { tid } }, body: { record_id: rid } })),
  });
}

/** The space's members, and the account's owner, who sees every space without being listed (as the user picker does). */
export function useMembers(sid: number): Member[] {
  const members = useSpaceMembers(sid);
  const me = useMe().data?.user as { id: number; email: string; name?: string | null } | undefined;
  const list: Member[] = [...(members.data ?? [])];
  if (me && !list.some((member) => member.user_id === me.id)) list.unshift({ user_id: me.id, email: me.email, name: me.name ?? null });
  return list;
}

/** The message of anything thrown by a call, for showing where it happened. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
