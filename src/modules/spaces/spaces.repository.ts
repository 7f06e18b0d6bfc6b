import type { Kysely } from 'kysely';
import { prepareQuery } from '../../db/prepared-query.js';
import type { SystemSchema } from '../../db/schema.js';

type Db = Kysely<SystemSchema>;

export type SpaceRow = SystemSchema['spaces'] & { id: number };

export async function insertSpace(db: Db, space: { accountId: number; name: string; storageJson: string; now: string }): Promise<number> {
  const row = await db
    .insertInto('spaces')
    .values({ account_id: space.accountId, name: space.name, storage_json: space.storageJson, created_at: space.now, updated_at: space.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findSpace(db: Db, spaceId: number) {
  return db.selectFrom('spaces').selectAll().where('id', '=', spaceId).executeTakeFirst();
}

export async function listAccountSpaces(db: Db, accountId: number) {
  return db.selectFrom('spaces').select(['id', 'name', 'account_id']).where('account_id', '=', accountId).orderBy('id').execute();
}

export async function listMemberSpaceIds(db: Db, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('members').select('space_id').where('user_id', '=', userId).execute();
  return rows.map((r) => r.space_id);
}

export async function updateSpace(db: Db, spaceId: number, changes: { name?: string; storage_json?: string; updated_at: string }): Promise<void> {
  await db.updateTable('spaces').set(changes).where('id', '=', spaceId).execute();
}

export async function deleteSpace(db: Db, spaceId: number): Promise<void> {
  await db.deleteFrom('spaces').where('id', '=', spaceId).execute();
}

export async function findMemberRole(db: Db, spaceId: number, userId: number): Promise<string | undefined> {
  const row = await db.selectFrom('members').select('role').where('space_id', '=', spaceId).where('user_id', '=', userId).executeTakeFirst();
  return row?.role;
}

const selectMembers = prepareQuery((db: Db, spaceId: number) =>
  db.selectFrom('members as m').innerJoin('users as u', 'u.id', 'm.user_id').select(['m.user_id', 'u.email', 'u.name', 'm.role']).where('m.space_id', '=', spaceId).orderBy('m.user_id'),
);

/** A space's members, by user id: compiled once (every new comment lists them). */
export async function listMembers(db: Db, spaceId: number) {
  return selectMembers(db, spaceId);
}

export async function upsertMember(db: Db, member: { spaceId: number; userId: number; role: string; now: string }): Promise<void> {
  await db
    .insertInto('members')
    .values({ space_id: member.spaceId, user_id: member.userId, role: member.role, created_at: member.now })
    .onConflict((oc) => oc.columns(['space_id', 'user_id']).doUpdateSet({ role: member.role }))
    .execute();
}

export async function deleteMember(db: Db, spaceId: number, userId: number): Promise<number> {
  const result = await db.deleteFrom('members').where('space_id', '=', spaceId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
