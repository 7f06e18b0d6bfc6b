import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, unwrap, type GetResult } from '../api/client';
import { keys, useMe } from '../api/queries';

export type AccountUser = GetResult<'/api/users/list'>[number];
export type ApiKey = GetResult<'/api/keys/list'>[number];
export type Member = GetResult<'/api/space/{sid}/members/list'>[number];

/** Query keys of the account pages (their own, so that they merge cleanly with api/queries.ts). */
export const accountKeys = {
  users: ['account', 'users'] as const,
  keys: ['account', 'keys'] as const,
};

export function useUsers(enabled = true) {
  return useQuery({ queryKey: accountKeys.users, queryFn: () => unwrap(api.GET('/api/users/list')), enabled });
}

export function useKeys() {
  return useQuery({ queryKey: accountKeys.keys, queryFn: () => unwrap(api.GET('/api/keys/list')) });
}

/** Creates a space from a form's `name` (the owner only), then lists the spaces again. */
export function useCreateSpace() {
  const queryClient = useQueryClient();
  return async (form: FormData) => {
    await unwrap(api.POST('/api/spaces/create', { body: { name: String(form.get('name')) } }));
    await queryClient.invalidateQueries({ queryKey: keys.spaces });
  };
}

/** Whether the signed-in user owns the account (GET /api/auth/me's is_owner): owner pages are absent otherwise. */
export function useIsOwner(): boolean {
  const me = useMe();
  return (me.data as { is_owner?: boolean } | null | undefined)?.is_owner === true;
}

/**
 * The form field a server error names, so that it is shown next to that field: the server says
 * `Invalid <field>: …` (docs/errors.md); a few codes name their field without saying it.
 */
export function fieldOfError(error: unknown, byCode: Record<string, string> = {}): { field: string | null; message: string } {
  if (!(error instanceof ApiError)) return { field: null, message: error instanceof Error ? error.message : String(error) };
  if (byCode[error.code]) return { field: byCode[error.code]!, message: error.message };
  const named = /^Invalid (?:parameters: )?([a-z_]+(?:\.[a-z_]+)?)\b/.exec(error.message);
  return { field: named ? named[1]!.replace(/^storage\./, '') : null, message: error.message };
}
