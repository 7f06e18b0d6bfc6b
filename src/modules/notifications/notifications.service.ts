import type { Database } from '../../db/database.js';
import { formatDateTime, type Clock } from '../../shared/clock.js';
import { ErrorCode, ForbiddenError, NotFoundError, ValidationError } from '../../shared/errors.js';
import { lookupIdOf } from '../../shared/ids.js';
import { isOwner, type Actor } from '../auth/actor.js';
import type { RecordsService } from '../records/records.service.js';
import * as notifications from './notifications.repository.js';

export { insertEvent, insertNotifications, listSubscribers, subscribe, deleteRecordFollowUps } from './notifications.repository.js';

const maxListLimit = 200;

/** Notifications are a user's: an account key (the account, not a person) has none. */
function assertUser(actor: Actor): void {
  if (actor.via === 'account_key') throw new ForbiddenError('Notifications belong to users: use a personal API key or a session');
}

function assertWritable(actor: Actor): void {
  if (actor.readOnly) throw new ForbiddenError('Read-only API key', ErrorCode.readOnlyKey);
}

function paging(body: unknown, maxLimit: number): { limit: number; offset: number; rest: Record<string, unknown> } {
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) throw new ValidationError('Invalid parameters: body must be a JSON object');
  const input = (body ?? {}) as Record<string, unknown>;
  const limit = input.limit ?? 50;
  const offset = input.offset ?? 0;
  if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > maxLimit) throw new ValidationError(`Invalid parameters: limit must be an integer from 1 to ${maxLimit}`);
  if (!Number.isInteger(offset) || (offset as number) < 0) throw new ValidationError('Invalid parameters: offset must be a non-negative integer');
  return { limit: limit as number, offset: offset as number, rest: input };
}

function presentNotification(row: notifications.NotificationRow) {
  return {
    id: row.id,
    kind: row.kind,
    actor: { user_id: row.actor_user_id, name: row.actor_name },
    table_id: row.table_id,
    record_id: row.record_id,
    comment_id: row.comment_id,
    created_at: row.created_at,
    read: row.read_at !== null,
    read_at: row.read_at,
  };
}

/**
 * A user's notifications, record subscriptions (record id 0: the whole table), and the
 * account's audit events. Comments create the notifications; this module serves them.
 */
export function createNotificationsService(deps: { database: Database; clock: Clock; records: RecordsService }) {
  const { db } = deps.database;
  const now = () => formatDateTime(deps.clock.now());

  /** A record (or, with id 0, the table) the caller may follow: it must see the table and the record must exist. */
  async function followable(actor: Actor, tableId: number, recordId: number): Promise<void> {
    if (recordId === 0) await deps.records.checkTableAccess(actor, tableId, 'read');
    else await deps.records.recordAccess(actor, tableId, recordId, 'read');
  }

  return {
    async listNotifications(actor: Actor, body: unknown) {
      assertUser(actor);
      const { limit, offset, rest } = paging(body, maxListLimit);
      const filter = rest.filter ?? 'all';
      if (filter !== 'all' && filter !== 'unread') throw new ValidationError('Invalid parameters: filter must be "all" or "unread"');
      const unknown = Object.keys(rest).find((key) => !['filter', 'limit', 'offset'].includes(key));
      if (unknown) throw new ValidationError(`Invalid parameters: unknown property "${unknown}"`);
      return (await notifications.listNotifications(db, actor.userId, filter === 'unread', limit, offset)).map(presentNotification);
    },

    async markRead(actor: Actor, notificationId: number) {
      assertUser(actor);
      assertWritable(actor);
      if (!(await notifications.markRead(db, actor.userId, notificationId, now()))) throw new NotFoundError('Notification not found', ErrorCode.notificationNotFound);
      return { id: notificationId, read: true as const };
    },

    async markAllRead(actor: Actor) {
      assertUser(actor);
      assertWritable(actor);
      return { marked: await notifications.markAllRead(db, actor.userId, now()) };
    },

    async subscribe(actor: Actor, tableId: number, recordId: number, subscribed: boolean) {
      assertWritable(actor);
      await followable(actor, tableId, recordId);
      if (subscribed) await notifications.subscribe(db, tableId, recordId, [actor.userId], now());
      else await notifications.unsubscribe(db, tableId, recordId, actor.userId);
      return { table_id: tableId, record_id: recordId, subscribed };
    },

    async status(actor: Actor, tableId: number, body: unknown) {
      const input = (body ?? {}) as { record_id?: unknown };
      const given = input.record_id ?? null;
      if (given !== null && !Number.isInteger(given)) throw new ValidationError('Invalid parameters: record_id must be a record id');
      // An id no record can have (shared/ids.ts) is looked up as one that does not exist.
      const recordId = given === null ? null : lookupIdOf(given as number);
      await followable(actor, tableId, (recordId as number | null) ?? 0);
      const found = await notifications.subscribedRecordIds(db, tableId, recordId === null ? [0] : [0, recordId as number], actor.userId);
      return { table: found.has(0), record: recordId === null ? false : found.has(recordId as number) };
    },

    /**
     * The account's audit events, newest first: the account owner's to read. An account key
     * restricted to some spaces reads only the events of their tables, as it sees nothing else.
     */
    async listEvents(actor: Actor, body: unknown) {
      if (!isOwner(actor)) throw new ForbiddenError("Only the account owner can read the account's events");
      const { limit, offset } = paging(body, maxListLimit);
      return (await notifications.listEvents(db, actor.accountId, actor.spaceIds, limit, offset)).map(({ account_id: _account, ...event }) => event);
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
