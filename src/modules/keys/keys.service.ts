import { LRUCache } from 'lru-cache';
import type { Database } from '../../db/database.js';
import type { MetadataCache } from '../../db/metadata-cache.js';
import type { Clock } from '../../shared/clock.js';
import { formatDateTime } from '../../shared/clock.js';
import { generateApiKeySecret, hashToken } from '../../shared/credentials.js';
import { ErrorCode, NotFoundError, UnauthorizedError, ValidationError } from '../../shared/errors.js';
import { stripControlCharacters } from '../../shared/display-name.js';
import type { Actor } from '../auth/actor.js';
import type { UsersService } from '../users/users.service.js';
import { isIpAllowed, parseIpAllowList } from './ip-allow-list.js';
import * as keys from './keys.repository.js';

export interface KeyInput {
  name: string;
  /** Exactly one of accountId (account key) and userId (personal key). */
  accountId?: number;
  userId?: number;
  readOnly?: boolean;
  spaceIds?: number[] | null;
  ipAllow?: string[] | null;
  /** When the key stops working (it then answers 401 like a revoked key); null or absent: never. */
  expiresAt?: Date | null;
}

export interface IssuedKey {
  id: number;
  name: string;
  kind: 'account' | 'personal';
  key: string;
}

type ActiveKey = NonNullable<Awaited<ReturnType<typeof keys.findActiveKeyBySecretHash>>>;

/**
 * Last use is written at most once per this interval per key and process, never on every
 * request: `last_used_at` is as exact as an operator needs to tell a live key from a dead one.
 */
const lastUseIntervalMs = 60_000;

export function createKeysService(deps: { database: Database; clock: Clock; metadataCache: MetadataCache; users: UsersService }) {
  const { db } = deps.database;
  const now = () => formatDateTime(deps.clock.now());

  async function checkSpacesBelongToAccount(accountId: number, spaceIds: number[]): Promise<void> {
    const found = await keys.findAccountSpaceIds(db, accountId, spaceIds);
    const missing = spaceIds.filter((id) => !found.has(id));
    if (missing.length > 0) throw new ValidationError(`Unknown space for this account: ${missing.join(', ')}`);
  }

  /** An expired key answers exactly as a revoked one: 401 `Invalid API key`. */
  function checkNotExpired(row: ActiveKey): void {
    if (row.expires_at !== null && row.expires_at <= now()) throw new UnauthorizedError();
  }

  /** When each key's last use was last written by this process (epoch ms). */
  const lastUseWritten = new Map<number, number>();

  /** Fire and forget: recording a use never delays or fails the request it comes with. */
  function noteUse(keyId: number): void {
    const at = deps.clock.now();
    if (at.getTime() - (lastUseWritten.get(keyId) ?? -Infinity) < lastUseIntervalMs) return;
    lastUseWritten.set(keyId, at.getTime());
    keys.recordKeyUse(db, keyId, formatDateTime(at)).catch(() => {
      // A busy or unreachable database: the next use after the interval tries again.
      lastUseWritten.delete(keyId);
    });
  }

  /** The identity a key row grants from `clientAddress`, or 401 for a row that grants none. */
  function actorOf(row: ActiveKey | undefined, secret: string, clientAddress: string): Actor {
    if (!row || row.owner_user_id === null || row.acting_user_id === null || row.acting_user_email === null) throw new UnauthorizedError();
    checkNotExpired(row);
    if (row.ip_allow_json && !isIpAllowed(JSON.parse(row.ip_allow_json), clientAddress)) {
      throw new UnauthorizedError('API key not allowed from this address', ErrorCode.ipNotAllowed);
    }
    return {
      accountId: row.account_id,
      userId: row.acting_user_id,
      userEmail: row.acting_user_email,
      ownerUserId: row.owner_user_id,
      via: row.user_id === null ? 'account_key' : 'personal_key',
      keyId: row.id,
      keyName: row.name,
      readOnly: row.read_only === 1,
      spaceIds: row.space_ids_json ? JSON.parse(row.space_ids_json) : null,
      metadataVersion: Number(row.metadata_version),
      refresh: () => authenticateKey(secret, clientAddress),
    };
  }

  const cacheKeyOf = (secretHash: string) => `key:${secretHash}`;

  /** Resolves a bearer secret to the acting identity from the database (refreshing the cache), or throws 401. */
  async function authenticateKey(secret: string, clientAddress: string): Promise<Actor> {
    const secretHash = hashToken(secret);
    const row = await keys.findActiveKeyBySecretHash(db, secretHash);
    if (row) deps.metadataCache.set(cacheKeyOf(secretHash), Number(row.metadata_version), row);
    const actor = actorOf(row, secret, clientAddress);
    noteUse(row!.id);
    return actor;
  }

  /**
   * Secrets seen lately, with their cache key and, for the cached row they last resolved to,
   * the identity per client address: a busy key is hashed and described once while its row
   * stays cached, not on every request. Bounded; a new row (any metadata change) starts over.
   */
  const recentSecrets = new LRUCache<string, { cacheKey: string; row?: ActiveKey; actors: Map<string, Actor> }>({ max: 1000 });
  const maxAddressesPerKey = 64;

  /**
   * The identity from the per-process metadata cache, synchronously, or undefined when the key
   * is not cached: only for routes that confirm its version in their own statements (records),
   * which then retry with `actor.refresh` if it changed. No promise: records calls run this
   * on every request.
   */
  function authenticateCachedKey(secret: string, clientAddress: string): Actor | undefined {
    let recent = recentSecrets.get(secret);
    if (!recent) recentSecrets.set(secret, (recent = { cacheKey: cacheKeyOf(hashToken(secret)), actors: new Map() }));
    const row = deps.metadataCache.get(recent.cacheKey)?.value as ActiveKey | undefined;
    if (!row) return undefined;
    if (recent.row !== row) {
      recent.row = row;
      recent.actors = new Map();
    }
    let actor = recent.actors.get(clientAddress);
    if (!actor) {
      actor = actorOf(row, secret, clientAddress);
      if (recent.actors.size < maxAddressesPerKey) recent.actors.set(clientAddress, actor);
    } else {
      // The identity is cached; the expiry is checked against the clock on every use.
      checkNotExpired(row);
    }
    noteUse(row.id);
    return actor;
  }

  return {
    async createKey(input: KeyInput, executor = db): Promise<IssuedKey> {
      const name = input.name === undefined ? undefined : stripControlCharacters(input.name);
      if (!name || name.length > 200) throw new ValidationError('Invalid key name: must be 1 to 200 characters');
      let accountId = input.accountId;
      if (input.userId !== undefined) {
        const user = await deps.users.findUser(input.userId, executor);
        if (!user) throw new NotFoundError(`User not found: ${input.userId}`, ErrorCode.userNotFound);
        accountId = user.account_id;
      }
      if (accountId === undefined) throw new ValidationError('A key needs an account or a user');
      const spaceIds = input.spaceIds ?? null;
      if (spaceIds) await checkSpacesBelongToAccount(accountId, spaceIds);
      const ipAllow = input.ipAllow ? parseIpAllowList(input.ipAllow) : null;
      const expiresAt = input.expiresAt ? formatDateTime(input.expiresAt) : null;
      if (expiresAt !== null && expiresAt <= now()) throw new ValidationError(`Invalid expiry: ${expiresAt} is not in the future`);
      const secret = generateApiKeySecret();
      const id = await keys.insertKey(executor, {
        accountId,
        userId: input.userId ?? null,
        name,
        secretHash: hashToken(secret),
        readOnly: input.readOnly ?? false,
        spaceIds,
        ipAllow,
        expiresAt,
        now: now(),
      });
      return { id, name, kind: input.userId === undefined ? 'account' : 'personal', key: secret };
    },

    async listKeys() {
      const rows = await keys.listKeys(db);
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        kind: row.user_id === null ? 'account' : 'personal',
        account_id: row.account_id,
        user_id: row.user_id,
        read_only: row.read_only === 1,
        spaces: row.space_ids_json ? (JSON.parse(row.space_ids_json) as number[]) : null,
        ip_allow: row.ip_allow_json ? (JSON.parse(row.ip_allow_json) as string[]) : null,
        created_at: row.created_at,
        expires_at: row.expires_at,
        last_used_at: row.last_used_at ?? null,
        revoked_at: row.revoked_at,
      }));
    },

    async revokeKey(keyId: number): Promise<{ id: number; revoked: true }> {
      if (!(await keys.findKey(db, keyId))) throw new NotFoundError(`Key not found: ${keyId}`, ErrorCode.keyNotFound);
      await keys.revokeKey(db, keyId, now());
      return { id: keyId, revoked: true };
    },

    async rotateKey(keyId: number): Promise<IssuedKey> {
      const row = await keys.findKey(db, keyId);
      if (!row) throw new NotFoundError(`Key not found: ${keyId}`, ErrorCode.keyNotFound);
      if (row.revoked_at) throw new ValidationError(`Key ${keyId} is revoked; create a new one`);
      const secret = generateApiKeySecret();
      await keys.replaceKeySecret(db, keyId, hashToken(secret));
      return { id: keyId, name: row.name, kind: row.user_id === null ? 'account' : 'personal', key: secret };
    },

    authenticateKey,
    authenticateCachedKey,
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
