import { sql, type Kysely } from 'kysely';
import { prepareQuery } from '../../db/prepared-query.js';
import type { SystemSchema } from '../../db/schema.js';

type Db = Kysely<SystemSchema>;
export type WebhookRow = Omit<SystemSchema['webhooks'], 'id'> & { id: number };
export type NewWebhookRow = Omit<WebhookRow, 'id' | 'attempt' | 'failing_since' | 'next_attempt_at' | 'claimed_by' | 'lease_until' | 'disabled_reason' | 'previous_secret_sealed' | 'previous_secret_until'>;
export type DeliveryRow = Omit<SystemSchema['webhook_deliveries'], 'id'> & { id: number };
export type NewDeliveryRow = Omit<DeliveryRow, 'id'>;

/** What a management update may set on a webhook. */
export type WebhookChanges = Partial<Pick<WebhookRow, 'url' | 'events_json' | 'fields_json' | 'active' | 'disabled_reason' | 'secret_sealed' | 'previous_secret_sealed' | 'previous_secret_until' | 'updated_at' | 'attempt' | 'failing_since' | 'next_attempt_at'>>;

export async function insertWebhook(db: Db, row: NewWebhookRow): Promise<number> {
  const inserted = await db
    .insertInto('webhooks')
    .values({ ...row, attempt: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

export async function findWebhook(db: Db, webhookId: number): Promise<WebhookRow | undefined> {
  return (await db.selectFrom('webhooks').selectAll().where('id', '=', webhookId).executeTakeFirst()) as WebhookRow | undefined;
}

export async function listWebhooks(db: Db, tableId: number): Promise<WebhookRow[]> {
  return (await db.selectFrom('webhooks').selectAll().where('table_id', '=', tableId).orderBy('id').execute()) as WebhookRow[];
}

/** Every webhook of the account, or of one table (the command line acts for every account). */
export async function listAllWebhooks(db: Db, tableId: number | null): Promise<WebhookRow[]> {
  let query = db.selectFrom('webhooks').selectAll();
  if (tableId !== null) query = query.where('table_id', '=', tableId);
  return (await query.orderBy('id').execute()) as WebhookRow[];
}

export async function updateWebhook(db: Db, webhookId: number, changes: WebhookChanges): Promise<void> {
  await db.updateTable('webhooks').set(changes).where('id', '=', webhookId).execute();
}

export async function deleteWebhook(db: Db, webhookId: number): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('id', '=', webhookId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listDeliveries(db: Db, webhookId: number, limit: number, offset: number): Promise<DeliveryRow[]> {
  return (await db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).orderBy('id', 'desc').limit(limit).offset(offset).execute()) as DeliveryRow[];
}

export async function findDelivery(db: Db, webhookId: number, deliveryId: number): Promise<DeliveryRow | undefined> {
  return (await db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).where('id', '=', deliveryId).executeTakeFirst()) as DeliveryRow | undefined;
}

/** Several log rows at once (a worker's batch of successes). */
export async function insertDeliveries(db: Db, rows: readonly NewDeliveryRow[]): Promise<void> {
  // Well under SQLite's bound on one statement's parameters (12 columns a row).
  for (let start = 0; start < rows.length; start += 500) await db.insertInto('webhook_deliveries').values(rows.slice(start, start + 500)).execute();
}

export async function insertDelivery(db: Db, row: NewDeliveryRow): Promise<DeliveryRow> {
  const inserted = await db.insertInto('webhook_deliveries').values(row).returning('id').executeTakeFirstOrThrow();
  return { ...row, id: Number(inserted.id) };
}

// The delivery engine's claims (docs/decisions.md, "Webhooks: claims on the webhook row").

/**
 * Active webhooks that may be delivered now: behind `head`, not held back by a retry, and not
 * claimed by a live lease. Candidates only: `claimWebhook` decides.
 */
export async function listDueWebhooks(db: Db, head: number, now: string, limit: number): Promise<WebhookRow[]> {
  return (await selectDueWebhooks(db, head, now, limit)) as WebhookRow[];
}

// Prepared: each burst of commits wakes the engine for this search, which on SQLite the direct
// reader answers without waiting behind the writer (the claim that follows is the write).
const selectDueWebhooks = prepareQuery((db: Db, head: number, now: string, limit: number) =>
  db
    .selectFrom('webhooks')
    .selectAll()
    .where('active', '=', sql.lit(1))
    .where('cursor', '<', head)
    .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)]))
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .orderBy('id')
    .limit(limit),
);

const selectActiveWebhook = prepareQuery((db: Db) => db.selectFrom('webhooks').select('id').where('active', '=', sql.lit(1)).limit(sql.lit(1)));

/** Whether any webhook of any account is on (the engine's poll asks). */
export async function hasActiveWebhook(db: Db): Promise<boolean> {
  return (await selectActiveWebhook(db)).length > 0;
}

/**
 * Takes the webhook for `owner` until `leaseUntil`, when nobody holds a live lease on it: one
 * conditional UPDATE, which PostgreSQL runs under the row's lock (of two processes, the second
 * re-reads the row after the first committed and finds the lease taken) and SQLite under its
 * one writer. Answers the row as claimed, or undefined.
 */
export async function claimWebhook(db: Db, webhookId: number, owner: string, now: string, leaseUntil: string): Promise<WebhookRow | undefined> {
  const result = await db
    .updateTable('webhooks')
    .set({ claimed_by: owner, lease_until: leaseUntil })
    .where('id', '=', webhookId)
    .where('active', '=', 1)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
  return findWebhook(db, webhookId);
}

/**
 * Changes the state of a webhook `owner` holds; false when its claim was lost meanwhile (its
 * lease ran out and another process took it), so a late process never overwrites the state.
 */
export async function updateClaimed(db: Db, webhookId: number, owner: string, changes: WebhookChanges & Partial<Pick<WebhookRow, 'cursor' | 'lease_until' | 'claimed_by'>>): Promise<boolean> {
  const result = await db.updateTable('webhooks').set(changes).where('id', '=', webhookId).where('claimed_by', '=', owner).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The users to notify about a space: its admins and the account's owner. */
export async function listSpaceAdmins(db: Db, spaceId: number, accountId: number): Promise<number[]> {
  const admins = await db.selectFrom('members').select('user_id').where('space_id', '=', spaceId).where('role', '=', 'admin').execute();
  const owner = await db.selectFrom('accounts').select('owner_user_id').where('id', '=', accountId).executeTakeFirst();
  const ids = new Set(admins.map((row) => row.user_id));
  if (owner?.owner_user_id) ids.add(owner.owner_user_id);
  return [...ids];
}

/** What an operator watches of delivery (the metrics): webhooks by state, and what active ones have yet to go through. */
export interface DeliveryBacklog {
  active: number;
  failing: number;
  disabled: number;
  /** Changes of their tables past active webhooks' cursors, summed (each webhook's counted up to the cap). */
  changes: number;
  /** When the oldest of those changes was committed; null when there is none. */
  oldestAt: string | null;
}

/** Read at scrape time: two indexed look-ups (`changes_table_seq`) per distinct table and cursor of the active webhooks. */
export async function readDeliveryBacklog(db: Db, capPerWebhook: number): Promise<DeliveryBacklog> {
  const webhooks = await db.selectFrom('webhooks').select(['table_id', 'cursor', 'active', 'failing_since']).execute();
  const backlog: DeliveryBacklog = { active: 0, failing: 0, disabled: 0, changes: 0, oldestAt: null };
  const positions = new Map<string, { tableId: number; cursor: number; webhooks: number }>();
  for (const webhook of webhooks) {
    if (webhook.active !== 1) {
      backlog.disabled += 1;
      continue;
    }
    backlog.active += 1;
    if (webhook.failing_since !== null) backlog.failing += 1;
    const key = `${webhook.table_id}:${webhook.cursor}`;
    const position = positions.get(key) ?? { tableId: webhook.table_id, cursor: Number(webhook.cursor), webhooks: 0 };
    position.webhooks += 1;
    positions.set(key, position);
  }
  for (const { tableId, cursor, webhooks: count } of positions.values()) {
    const behind = db.selectFrom('changes').where('table_id', '=', tableId).where('seq', '>', cursor);
    const counted = await db
      .selectFrom(behind.select('seq').limit(capPerWebhook).as('pending'))
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirst();
    const pending = Number(counted?.count ?? 0);
    if (pending === 0) continue;
    backlog.changes += pending * count;
    const oldest = await behind.select('at').orderBy('seq').limit(1).executeTakeFirst();
    if (oldest && (backlog.oldestAt === null || oldest.at < backlog.oldestAt)) backlog.oldestAt = oldest.at;
  }
  return backlog;
}
