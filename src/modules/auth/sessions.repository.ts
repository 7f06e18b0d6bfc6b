import type { Kysely } from 'kysely';
import { prepareQuery } from '../../db/prepared-query.js';
import type { SystemSchema } from '../../db/schema.js';

type Db = Kysely<SystemSchema>;

export async function insertSession(db: Db, session: { tokenHash: string; userId: number; now: string; expiresAt: string }): Promise<void> {
  await db.insertInto('sessions').values({ token_hash: session.tokenHash, user_id: session.userId, created_at: session.now, expires_at: session.expiresAt }).execute();
}

export async function deleteSession(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

/** Ends every session of a user (a password change logs out everywhere). */
export async function deleteExpiredSessions(db: Db, now: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
}

/** The session's user and account in one query: it runs on every session request. */
const selectLiveSession = prepareQuery((db: Db, tokenHash: string, now: string) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .innerJoin('accounts as a', 'a.id', 'u.account_id')
    .select(['u.id as user_id', 'u.email', 'u.name', 'u.account_id', 'a.owner_user_id'])
    .where('s.token_hash', '=', tokenHash)
    .where('s.expires_at', '>', now),
);

export async function findLiveSession(db: Db, tokenHash: string, now: string) {
  return (await selectLiveSession(db, tokenHash, now))[0];
}
