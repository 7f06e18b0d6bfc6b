import type { Kysely } from 'kysely';
import type { SystemSchema } from '../../db/schema.js';

type Db = Kysely<SystemSchema>;

export async function insertAccount(db: Db, name: string, now: string): Promise<number> {
  const row = await db.insertInto('accounts').values({ name, owner_user_id: null, created_at: now }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function setAccountOwner(db: Db, accountId: number, userId: number): Promise<void> {
  await db.updateTable('accounts').set({ owner_user_id: userId }).where('id', '=', accountId).execute();
}

export async function listAccountIds(db: Db): Promise<number[]> {
  const rows = await db.selectFrom('accounts').select('id').orderBy('id').execute();
  return rows.map((r) => r.id);
}

export async function findAccount(db: Db, accountId: number) {
  return db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
}

/** Every account with its owner's email and its number of users, for `tabula accounts list`. */
export async function listAccounts(db: Db) {
  return db
    .selectFrom('accounts as a')
    .leftJoin('users as o', 'o.id', 'a.owner_user_id')
    .select((eb) => [
      'a.id',
      'a.name',
      'a.owner_user_id',
      'o.email as owner_email',
      'a.created_at',
      eb.selectFrom('users as u').select((inner) => inner.fn.countAll<number>().as('n')).whereRef('u.account_id', '=', 'a.id').as('users'),
    ])
    .orderBy('a.id')
    .execute();
}
