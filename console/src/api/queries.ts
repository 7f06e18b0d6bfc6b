import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap } from './client';
import type { Table, User } from './types';

/** Query keys, in one place so that mutations invalidate what they change. */
export const keys = {
  me: ['me'] as const,
  spaces: ['spaces'] as const,
  space: (sid: number) => ['space', sid] as const,
  tables: (sid: number) => ['space', sid, 'tables'] as const,
  /** The space's member list (members/list): the user pickers, the comment box's mentions, the members page and the signed-in user's role (api/space-role.ts). */
  members: (sid: number) => ['space', sid, 'members'] as const,
  table: (tid: number) => ['table', tid] as const,
  records: (tid: number) => ['table', tid, 'records'] as const,
  count: (tid: number) => ['table', tid, 'records', 'count'] as const,
  /** One record's own data (comments, history, files, subscription): the live updates invalidate this prefix. */
  record: (tid: number, rid: number) => ['table', tid, 'record', rid] as const,
  notifications: ['notifications'] as const,
};

/** The signed-in user, or null when there is no (valid) session. */
export function useMe() {
  return useQuery({
    queryKey: keys.me,
    queryFn: async () => {
      try {
        return await unwrap(api.GET('/api/auth/me'));
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

export function useSpaces() {
  return useQuery({ queryKey: keys.spaces, queryFn: () => unwrap(api.GET('/api/spaces/list')) });
}

export function useSpace(sid: number) {
  return useQuery({ queryKey: keys.space(sid), queryFn: () => unwrap(api.GET('/api/space/{sid}/get', { params: { path: { sid } } })) });
}

/** The space's members with their roles (the owner is not listed: an admin of every space). */
export function useSpaceMembers(sid: number, enabled = true) {
  return useQuery({ queryKey: keys.members(sid), queryFn: () => unwrap(api.GET('/api/space/{sid}/members/list', { params: { path: { sid } } })), staleTime: 60_000, enabled: enabled && sid > 0 });
}

export function useTables(sid: number) {
  return useQuery({ queryKey: keys.tables(sid), queryFn: () => unwrap(api.GET('/api/space/{sid}/tables/list', { params: { path: { sid } } })) });
}

export function useTable(tid: number) {
  return useQuery({ queryKey: keys.table(tid), queryFn: async () => (await unwrap(api.GET('/api/table/{tid}/get', { params: { path: { tid } } }))) as unknown as Table });
}

/** The table's total from its maintained count (no COUNT(*) of the records). */
/** The count's key: the table's, with the toolbar's query keys when there are any. */
export function countKey(tid: number, query?: Record<string, unknown>) {
  return query && Object.keys(query).length ? [...keys.count(tid), JSON.stringify(query)] : keys.count(tid);
}

export function useRecordCount(tid: number, query?: Record<string, unknown>) {
  return useQuery({ queryKey: countKey(tid, query), queryFn: () => unwrap(api.POST('/api/table/{tid}/records/count', { params: { path: { tid } }, body: (query ?? {}) as never })) });
}

/**
 * After signing in or out: the new user (or null), and nothing cached of the previous one.
 * (`clear()` would also drop the query the app's observer of `me` holds, which then never hears of the new user.)
 */
export function switchSession(queryClient: QueryClient, me: { user: User } | null) {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== keys.me[0] });
  queryClient.setQueryData(keys.me, me);
  // The login answer has the user only; `me` also says whether they own the account (is_owner).
  if (me) void queryClient.invalidateQueries({ queryKey: keys.me });
}
