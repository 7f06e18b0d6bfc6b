import type { Kysely } from 'kysely';
import { prepareQuery, prepareShapedQuery, rowsOfValues } from '../../db/prepared-query.js';
import type { SystemSchema } from '../../db/schema.js';

type Db = Kysely<SystemSchema>;
export type NotificationRow = Omit<SystemSchema['notifications'], 'id'> & { id: number };
export type NewNotification = Omit<NotificationRow, 'id' | 'read_at'>;
export type EventRow = Omit<SystemSchema['events'], 'id'> & { id: number };

const notificationColumns = ['account_id', 'user_id', 'kind', 'actor_user_id', 'actor_name', 'table_id', 'record_id', 'comment_id', 'created_at', 'read_at'] as const;

// The writes of a new comment are compiled once (per number of rows): they run on every comments/create.
const insertNotificationRows = prepareShapedQuery(
  (count: number) => String(count),
  (db: Db, count: number, ...values: unknown[]) => db.insertInto('notifications').values(rowsOfValues(notificationColumns, count, values) as NewNotification[]),
);

export async function insertNotifications(db: Db, rows: readonly NewNotification[]): Promise<void> {
  if (rows.length === 0) return;
  const withUnread = rows.map((row) => ({ ...row, read_at: null }));
  await insertNotificationRows(db, rows.length, ...withUnread.flatMap((row) => notificationColumns.map((column) => row[column])));
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

const subscriptionColumns = ['table_id', 'record_id', 'user_id', 'created_at'] as const;

const insertSubscriptions = prepareShapedQuery(
  (count: number) => String(count),
  (db: Db, count: number, ...values: unknown[]) =>
    db
      .insertInto('subscriptions')
      .values(rowsOfValues(subscriptionColumns, count, values) as SystemSchema['subscriptions'][])
      .onConflict((conflict) => conflict.columns(['table_id', 'record_id', 'user_id']).doNothing()),
);

/** Record subscriptions; record id 0 stands for the whole table. Subscribing twice is one subscription. */
export async function subscribe(db: Db, tableId: number, recordId: number, userIds: readonly number[], now: string): Promise<void> {
  if (userIds.length === 0) return;
  await insertSubscriptions(db, userIds.length, ...userIds.flatMap((userId) => [tableId, recordId, userId, now]));
}

export async function unsubscribe(db: Db, tableId: number, recordId: number, userId: number): Promise<void> {
  await db.deleteFrom('subscriptions').where('table_id', '=', tableId).where('record_id', '=', recordId).where('user_id', '=', userId).execute();
}

export async function subscribedRecordIds(db: Db, tableId: number, recordIds: readonly number[], userId: number): Promise<Set<number>> {
  const rows = await db.selectFrom('subscriptions').select('record_id').where('table_id', '=', tableId).where('record_id', 'in', recordIds).where('user_id', '=', userId).execute();
  return new Set(rows.map((row) => row.record_id));
}

const selectSubscribers = prepareQuery((db: Db, tableId: number, wholeTable: number, recordId: number) =>
  db.selectFrom('subscriptions').select('user_id').distinct().where('table_id', '=', tableId).where('record_id', 'in', [wholeTable, recordId]),
);

/** Who follows a record: its own subscribers and the table's (record id 0). */
export async function listSubscribers(db: Db, tableId: number, recordId: number): Promise<number[]> {
  const rows = await selectSubscribers(db, tableId, 0, recordId);
  return rows.map((row) => row.user_id);
}

export async function deleteRecordFollowUps(db: Db, tableId: number, recordIds: readonly number[]): Promise<void> {
  if (recordIds.length === 0) return;
  await db.deleteFrom('subscriptions').where('table_id', '=', tableId).where('record_id', 'in', recordIds).execute();
  await db.deleteFrom('notifications').where('table_id', '=', tableId).where('record_id', 'in', recordIds).execute();
}

const eventColumns = ['account_id', 'kind', 'user_id', 'api_key_id', 'table_id', 'record_id', 'comment_id', 'created_at'] as const satisfies readonly (keyof EventRow)[];

const insertEventRow = prepareQuery((db: Db, ...values: unknown[]) => db.insertInto('events').values(rowsOfValues(eventColumns, 1, values)[0] as Omit<EventRow, 'id'>));

export async function insertEvent(db: Db, event: Omit<EventRow, 'id'>): Promise<void> {
  await insertEventRow(db, ...eventColumns.map((column) => event[column]));
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
