import type { Kysely } from 'kysely';
import { metadataVersionColumn } from '../../db/metadata-cache.js';
import { prepareQuery } from '../../db/prepared-query.js';
import type { SystemSchema } from '../../db/schema.js';

type Db = Kysely<SystemSchema>;

export interface NewKey {
  accountId: number;
  userId: number | null;
  name: string;
  secretHash: string;
  readOnly: boolean;
  spaceIds: number[] | null;
  ipAllow: string[] | null;
  /** UTC datetime; null: never expires. */
  expiresAt: string | null;
  now: string;
}

export async function insertKey(db: Db, key: NewKey): Promise<number> {
  const row = await db
    .insertInto('api_keys')
    .values({
      account_id: key.accountId,
      user_id: key.userId,
      name: key.name,
      secret_hash: key.secretHash,
      read_only: key.readOnly ? 1 : 0,
      space_ids_json: key.spaceIds ? JSON.stringify(key.spaceIds) : null,
      ip_allow_json: key.ipAllow ? JSON.stringify(key.ipAllow) : null,
      created_at: key.now,
      revoked_at: null,
      expires_at: key.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The key with its account's owner, its acting user (the key's user, or the owner) and the
 * metadata version in one query: it runs whenever the key is not cached. Scalar subqueries
 * rather than joins, because SQLite's planner, given statistics of tiny tables, would scan the
 * keys instead of using the secret's index.
 */
const selectActiveKey = prepareQuery((db: Db, secretHash: string) =>
  db
    .selectFrom('api_keys as k')
    .select((eb) => {
      const owner = eb.selectFrom('accounts as a').select('a.owner_user_id').whereRef('a.id', '=', 'k.account_id');
      const acting = eb.selectFrom('users as u').whereRef('u.id', '=', eb.fn.coalesce('k.user_id', owner));
      return [
        'k.id',
        'k.name',
        'k.account_id',
        'k.user_id',
        'k.read_only',
        'k.space_ids_json',
        'k.ip_allow_json',
        'k.expires_at',
        owner.as('owner_user_id'),
        acting.select('u.id').as('acting_user_id'),
        acting.select('u.email').as('acting_user_email'),
        metadataVersionColumn.as('metadata_version'),
      ];
    })
    .where('k.secret_hash', '=', secretHash)
    .where('k.revoked_at', 'is', null),
);

export async function findActiveKeyBySecretHash(db: Db, secretHash: string) {
  return (await selectActiveKey(db, secretHash))[0];
}

export async function listKeys(db: Db) {
  return db
    .selectFrom('api_keys as k')
    .leftJoin('api_key_usage as u', 'u.key_id', 'k.id')
    .selectAll('k')
    .select('u.last_used_at')
    .orderBy('k.id')
    .execute();
}

/** The account's keys that are not revoked (only `userId`'s personal keys when given), by id. */
export async function listAccountKeys(db: Db, accountId: number, userId?: number) {
  let query = db
    .selectFrom('api_keys as k')
    .leftJoin('api_key_usage as u', 'u.key_id', 'k.id')
    .selectAll('k')
    .select('u.last_used_at')
    .where('k.account_id', '=', accountId)
    .where('k.revoked_at', 'is', null);
  if (userId !== undefined) query = query.where('k.user_id', '=', userId);
  return query.orderBy('k.id').execute();
}

/**
 * Records a use of the key at `now`; a later use already recorded (by another process) stays.
 * Not a metadata table: no cache is invalidated by it.
 */
export async function recordKeyUse(db: Db, keyId: number, now: string): Promise<void> {
  await db
    .insertInto('api_key_usage')
    .values({ key_id: keyId, last_used_at: now })
    .onConflict((conflict) => conflict.column('key_id').doUpdateSet({ last_used_at: now }).where('api_key_usage.last_used_at', '<', now))
    .execute();
}

export async function findKey(db: Db, keyId: number) {
  return db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirst();
}

export async function revokeKey(db: Db, keyId: number, now: string): Promise<void> {
  await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', keyId).where('revoked_at', 'is', null).execute();
}

export async function replaceKeySecret(db: Db, keyId: number, secretHash: string): Promise<void> {
  await db.updateTable('api_keys').set({ secret_hash: secretHash }).where('id', '=', keyId).execute();
}

/** Which of `spaceIds` are spaces of the account: a key may be restricted only to those. */
export async function findAccountSpaceIds(db: Db, accountId: number, spaceIds: readonly number[]): Promise<Set<number>> {
  if (spaceIds.length === 0) return new Set();
  const rows = await db.selectFrom('spaces').select('id').where('account_id', '=', accountId).where('id', 'in', spaceIds).execute();
  return new Set(rows.map((row) => Number(row.id)));
}
