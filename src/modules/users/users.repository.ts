import type { Kysely } from 'kysely';
import { metadataVersionColumn } from '../../db/metadata-cache.js';
import type { SystemSchema } from '../../db/schema.js';

type Db = Kysely<SystemSchema>;

export interface NewUser {
  accountId: number;
  email: string;
  name: string;
  passwordHash: string;
  now: string;
}

export async function insertUser(db: Db, user: NewUser): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({ account_id: user.accountId, email: user.email, name: user.name, password_hash: user.passwordHash, created_at: user.now, updated_at: user.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findUserByEmail(db: Db, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findUserById(db: Db, userId: number) {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

/** Every user of an account, with the metadata version: what user values are presented from. */
export async function listAccountUsers(db: Db, accountId: number) {
  return db.selectFrom('users').select(['id', 'email', 'name', metadataVersionColumn.as('metadata_version')]).where('account_id', '=', accountId).execute();
}

export async function updateUser(db: Db, userId: number, changes: { email?: string; name?: string; password_hash?: string; updated_at: string }): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', userId).execute();
}

/**
 * Ends every session of the user: a changed password must not leave one open, but the one
 * that changed it (`exceptTokenHash`) may stay.
 */
export async function deleteUserSessions(db: Db, userId: number, exceptTokenHash?: string): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptTokenHash !== undefined) query = query.where('token_hash', '!=', exceptTokenHash);
  await query.execute();
}

/** Every user of every account (or of one), for the operator's `tabula users list`. */
export async function listUsers(db: Db, accountId?: number) {
  let query = db.selectFrom('users').select(['id', 'account_id', 'email', 'name', 'created_at']).orderBy('id');
  if (accountId !== undefined) query = query.where('account_id', '=', accountId);
  return query.execute();
}
