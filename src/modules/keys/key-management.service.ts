import type { Database } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { formatDateTime } from '../../shared/clock.js';
import { ErrorCode, ForbiddenError, NotFoundError, ValidationError } from '../../shared/errors.js';
import { hasWholeAccountAuthority, type Actor } from '../auth/actor.js';
import { assertNotReadOnly } from '../auth/owner-authority.js';
import type { UsersService } from '../users/users.service.js';
import { parseIpAllowList } from './ip-allow-list.js';
import { parseKeyExpiry } from './key-expiry.js';
import type { KeysService } from './keys.service.js';
import * as keys from './keys.repository.js';

/** POST /api/keys/create's body (CONTRACT §8). */
export interface KeyRequest {
  name: string;
  kind: 'account' | 'personal';
  /** A personal key's user: the caller's own when absent; another user's for the owner only. */
  user_id?: number;
  read_only?: boolean;
  spaces?: number[];
  ip_allow?: string[];
  expires_at?: string;
}

type KeyRow = Omit<Awaited<ReturnType<typeof keys.listAccountKeys>>[number], 'last_used_at'> & { last_used_at?: string | null };

/** A key as the API lists it: never its secret or hash. */
function presentKey(row: KeyRow) {
  return {
    id: row.id,
    name: row.name,
    kind: row.user_id === null ? ('account' as const) : ('personal' as const),
    user_id: row.user_id,
    read_only: row.read_only === 1,
    spaces: row.space_ids_json ? (JSON.parse(row.space_ids_json) as number[]) : null,
    ip_allow: row.ip_allow_json ? (JSON.parse(row.ip_allow_json) as string[]) : null,
    created_at: row.created_at,
    last_used_at: row.last_used_at ?? null,
    expires_at: row.expires_at,
  };
}

const ownerOnly = (action: string) => new ForbiddenError(`Only the account owner can ${action}`, ErrorCode.ownerRequired);
const restrictedAccountKey = () => new ForbiddenError('An account key restricted to spaces cannot manage keys', ErrorCode.ownerRequired);
const beyondCaller = (what: string) => new ForbiddenError(`A key cannot create a key beyond its own limits: ${what}`, ErrorCode.keyScopeExceeded);

/**
 * Keys managed through the API (the console's key pages), on top of the keys service the
 * command line uses. The owner's session and an unrestricted account key manage every key of
 * the account; anyone else (a user's session, a personal key) only the user's own personal
 * keys; an account key restricted to spaces manages none, since any key it made would reach
 * further than itself. A key that creates a key passes its own limits on: the new key gets the
 * caller's spaces, address list and expiry unless it asks for narrower ones (docs/decisions.md).
 */
export function createKeyManagementService(deps: { database: Database; clock: Clock; keys: KeysService; users: UsersService }) {
  const { db } = deps.database;

  function assertMayManageKeys(actor: Actor): void {
    if (actor.via === 'account_key' && !hasWholeAccountAuthority(actor)) throw restrictedAccountKey();
  }

  /** The new key's limits: the request's, no wider than those of the API key that asks (sessions have none). */
  async function limitsWithinCaller(actor: Actor, request: KeyRequest) {
    const spaces = request.spaces ?? null;
    const ipAllow = request.ip_allow ? parseIpAllowList(request.ip_allow) : null;
    const expiresAt = request.expires_at === undefined ? null : parseKeyExpiry(request.expires_at);
    if (actor.keyId === null) return { spaceIds: spaces, ipAllow, expiresAt };
    const caller = await keys.findKey(db, actor.keyId);
    const callerSpaces: number[] | null = caller?.space_ids_json ? JSON.parse(caller.space_ids_json) : null;
    const callerIps: string[] | null = caller?.ip_allow_json ? JSON.parse(caller.ip_allow_json) : null;
    const callerExpiry = caller?.expires_at ?? null;
    if (callerSpaces && spaces && spaces.some((id) => !callerSpaces.includes(id))) throw beyondCaller('spaces');
    if (callerIps && ipAllow && ipAllow.some((entry) => !callerIps.includes(entry))) throw beyondCaller('ip_allow');
    if (callerExpiry && expiresAt && formatDateTime(expiresAt) > callerExpiry) throw beyondCaller('expires_at');
    return {
      spaceIds: spaces ?? callerSpaces,
      ipAllow: ipAllow ?? callerIps,
      expiresAt: expiresAt ?? (callerExpiry ? new Date(`${callerExpiry.replace(' ', 'T')}Z`) : null),
    };
  }

  /** The user a personal key is for: the caller's own, or (the owner only) another user of the account. */
  async function personalKeyUser(actor: Actor, requested: number | undefined): Promise<number> {
    const userId = requested ?? actor.userId;
    if (userId === actor.userId) return userId;
    if (!hasWholeAccountAuthority(actor)) throw ownerOnly('create keys for other users');
    const user = await deps.users.findUser(userId);
    if (!user || user.account_id !== actor.accountId) throw new NotFoundError('User not found', ErrorCode.userNotFound);
    return userId;
  }

  return {
    /** The owner: every live key of the account; anyone else: the user's own personal keys. */
    async listKeys(actor: Actor) {
      assertMayManageKeys(actor);
      const rows = await keys.listAccountKeys(db, actor.accountId, hasWholeAccountAuthority(actor) ? undefined : actor.userId);
      return rows.map(presentKey);
    },

    /** Creates a key and answers it once with its secret (`key`). */
    async createKey(actor: Actor, request: KeyRequest) {
      assertNotReadOnly(actor);
      assertMayManageKeys(actor);
      if (request.kind === 'account' && request.user_id !== undefined) throw new ValidationError('Invalid parameters: user_id is for personal keys');
      if (request.kind === 'account' && !hasWholeAccountAuthority(actor)) throw ownerOnly('create account keys');
      const owner = request.kind === 'account' ? { accountId: actor.accountId } : { userId: await personalKeyUser(actor, request.user_id) };
      const limits = await limitsWithinCaller(actor, request);
      const issued = await deps.keys.createKey({ name: request.name, ...owner, readOnly: request.read_only ?? false, ...limits });
      return { ...presentKey((await keys.findKey(db, issued.id))!), key: issued.key };
    },

    /** The owner: any key of the account; anyone else: the user's own personal keys (others answer 404, as if absent). */
    async revokeKey(actor: Actor, keyId: number): Promise<{ id: number; revoked: true }> {
      assertNotReadOnly(actor);
      assertMayManageKeys(actor);
      const key = await keys.findKey(db, keyId);
      const visible = key && key.account_id === actor.accountId && (hasWholeAccountAuthority(actor) || key.user_id === actor.userId);
      if (!visible) throw new NotFoundError('Key not found', ErrorCode.keyNotFound);
      return deps.keys.revokeKey(keyId);
    },
  };
}

export type KeyManagementService = ReturnType<typeof createKeyManagementService>;
