import type { Kysely } from 'kysely';
import type { SystemSchema } from '../../db/schema.js';

type Db = Kysely<SystemSchema>;
export type NotificationRow = Omit<SystemSchema['notifications'], 'id'> & { id: number };
export type NewNotification = Omit<NotificationRow, 'id' | 'read_at'>;
export type EventRow = Omit<SystemSchema['events'], 'id'> & { id: number };

export async function insertNotifications(db: Db, rows: readonly NewNotification[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('notifications').values(rows.map((row) => ({ ...row, read_at: null }))).execute();
}

export async function listNotifications(db: Db, userId: number, unreadOnly: boolean, limit: number, offset: number): Promise<NotificationRow[]> {
  let query = db.selectFrom('notifications').selectAll().where('user_id', '=', userId);
  if (unreadOnly) query = query.where('read_at', 'is', null);
  return (await query.orderBy('id', 'desc').limit(limit).offset(offset).execute()) as NotificationRow[];
}

export async function markRead(db: Db, userId: number, notificationId: number, now: string): Promise<boolean> {
  const found = await db.selectFrom('notifications').select('id').where('id', '=', notificationId).where('user_id', '=', userId).executeTakeFirst();
  if (!found) return false;
  await db.updateTable('notifications').set({ read_at: now }).where('id', '=', notificationId).where('read_at', 'is', null).execute();
  return true;
}

export async function markAllRead(db: Db, userId: number, now: string): Promise<number> {
  const result = await db.updateTable('notifications').set({ read_at: now }).where('user_id', '=', userId).where('read_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Record subscriptions; record id 0 stands for the whole table. Subscribing twice is one subscription. */
export async function subscribe(db: Db, tableId: number, recordId: number, userIds: readonly number[], now: string): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insertInto('subscriptions')
    .values(userIds.map((userId) => ({ table_id: tableId, record_id: recordId, user_id: userId, created_at: now })))
    .onConflict((conflict) => conflict.columns(['table_id', 'record_id', 'user_id']).doNothing())
    .execute();
}

export async function unsubscribe(db: Db, tableId: number, recordId: number, userId: number): Promise<void> {
  await db.deleteFrom('subscriptions').where('table_id', '=', tableId).where('record_id', '=', recordId).where('user_id', '=', userId).execute();
}

export async function subscribedRecordIds(db: Db, tableId: number, recordIds: readonly number[], userId: number): Promise<Set<number>> {
  const rows = await db.selectFrom('subscriptions').select('record_id').where('table_id', '=', tableId).where('record_id', 'in', recordIds).where('user_id', '=', userId).execute();
  return new Set(rows.map((row) => row.record_id));
}

/** Who follows a record: its own subscribers and the table's (record id 0). */
export async function listSubscribers(db: Db, tableId: number, recordId: number): Promise<number[]> {
  const rows = await db.selectFrom('subscriptions').select('user_id').distinct().where('table_id', '=', tableId).where('record_id', 'in', [0, recordId]).execute();
  return rows.map((row) => row.user_id);
}

export async function deleteRecordFollowUps(db: Db, tableId: number, recordIds: readonly number[]): Promise<void> {
  if (recordIds.length === 0) return;
  await db.deleteFrom('subscriptions').where('table_id', '=', tableId).where('record_id', 'in', recordIds).execute();
  await db.deleteFrom('notifications').where('table_id', '=', tableId).where('record_id', 'in', recordIds).execute();
}

export async function insertEvent(db: Db, event: Omit<EventRow, 'id'>): Promise<void> {
  await db.insertInto('events').values(event).execute();
}

/** The account's events, newest first; with `spaceIds` (a restricted key), only those of tables in these spaces. */
export async function listEvents(db: Db, accountId: number, spaceIds: readonly number[] | null, limit: number, offset: number): Promise<EventRow[]> {
  let query = db.selectFrom('events').selectAll().where('account_id', '=', accountId);
  if (spaceIds !== null) {
    if (spaceIds.length === 0) return [];
    query = query.where('table_id', 'in', db.selectFrom('tables').select('id').where('account_id', '=', accountId).where('space_id', 'in', spaceIds));
  }
  return (await query.orderBy('id', 'desc').limit(limit).offset(offset).execute()) as EventRow[];
}
