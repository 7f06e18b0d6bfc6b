import type { Database } from '../../db/database.js';
import { formatDateTime, type Clock } from '../../shared/clock.js';
import { checkObjectBody, invalidParameters } from '../../shared/body-checks.js';
import { ErrorCode, ForbiddenError, NotFoundError, ValidationError } from '../../shared/errors.js';
import type { SecretBox } from '../../shared/secret-box.js';
import { hasAccountAuthority, type Actor } from '../auth/actor.js';
import { changeKinds } from '../changes/change.js';
import { createChangeLogReader } from '../changes/change-log-reader.js';
import type { AllowedHost } from '../files/address-policy.js';
import { assertWritable } from '../spaces/space-access.js';
import { resolveTableAccess } from '../tables/table-access.js';
import { listTableFields } from '../tables/tables.service.js';
import { attemptDelivery } from './webhook-attempt.js';
import { generateSecret, rotationOverlapMs } from './webhook-secret.js';
import { refusedUrl, type WebhookSender } from './webhook-sender.js';
import { presentDelivery, presentWebhook } from './webhook-view.js';
import * as webhooks from './webhooks.repository.js';

const maxUrlLength = 2048;

/**
 * Webhook management (CONTRACT §7, "Webhooks"): space admins only, and never a read-only key,
 * not even to read (a webhook's URL and log are configuration). A webhook of a table the caller
 * cannot see answers as a missing one. Delivery itself is webhook-delivery.ts.
 */
export function createWebhooksService(deps: { database: Database; clock: Clock; box: SecretBox; sender: WebhookSender; allowHosts: readonly AllowedHost[]; /** After a webhook changed: the delivery engine reads it again and looks for due work. */ onChanged?: (webhookId: number) => void; settleQueued(): Promise<void> }) {
  const { db } = deps.database;
  const changeLog = createChangeLogReader(deps.database);
  const now = () => formatDateTime(deps.clock.now());

  /** The table, when the caller may manage its webhooks: 404 as if missing, then 403 for read-only keys and non-admins. */
  async function adminTable(actor: Actor, tableId: number) {
    const access = await resolveTableAccess(db, actor, tableId);
    if (!access) throw new NotFoundError('Table not found', ErrorCode.tableNotFound);
    assertWritable(actor);
    if (!hasAccountAuthority(actor) && access.role !== 'admin') throw new ForbiddenError('Only space admins can manage webhooks', ErrorCode.adminRequired);
    return access.row;
  }

  async function adminWebhook(actor: Actor, webhookId: number) {
    const found = await webhooks.findWebhook(db, webhookId);
    const access = found ? await resolveTableAccess(db, actor, found.table_id) : null;
    if (!found || !access) throw new NotFoundError('Webhook not found', ErrorCode.webhookNotFound);
    await adminTable(actor, found.table_id);
    return found;
  }

  function checkUrl(value: unknown): string {
    if (typeof value !== 'string' || value.length === 0 || value.length > maxUrlLength) throw invalidParameters(`url must be an http or https URL of at most ${maxUrlLength} characters`);
    const refused = refusedUrl(value, deps.allowHosts);
    if (refused) throw new ValidationError(`Invalid parameters: ${refused}`, ErrorCode.invalidUrl);
    return value;
  }

  function checkEvents(value: unknown): string[] {
    if (!Array.isArray(value) || value.length === 0) throw invalidParameters(`events must be a non-empty list of ${changeKinds.join(', ')}`);
    const unknown = value.find((kind) => !changeKinds.includes(kind));
    if (unknown !== undefined) throw invalidParameters(`events: unknown kind ${JSON.stringify(unknown)} (one of ${changeKinds.join(', ')})`);
    return [...new Set(value as string[])];
  }

  async function checkFields(value: unknown, tableId: number): Promise<string[]> {
    if (!Array.isArray(value) || value.some((slug) => typeof slug !== 'string')) throw invalidParameters('fields must be a list of field slugs (empty: any field)');
    const slugs = new Set((await listTableFields(db, tableId)).map((field) => field.slug));
    const unknown = (value as string[]).find((slug) => !slugs.has(slug));
    if (unknown !== undefined) throw new ValidationError(`Invalid parameters: fields: the table has no field "${unknown}"`, ErrorCode.invalidField);
    return [...new Set(value as string[])];
  }

  return {
    /** Every webhook of the database, or of one table: the command line's view (it acts for every account). */
    async listForOperator(tableId: number | null) {
      return (await webhooks.listAllWebhooks(db, tableId)).map((row) => ({ ...presentWebhook(row), disabled_reason: row.disabled_reason, cursor: Number(row.cursor), failing_since: row.failing_since }));
    },

    /** The table of a webhook, for the command line to act as its owner; null when there is no such webhook. */
    async tableOfWebhook(webhookId: number): Promise<number | null> {
      return (await webhooks.findWebhook(db, webhookId))?.table_id ?? null;
    },

    async create(actor: Actor, tableId: number, body: unknown) {
      const table = await adminTable(actor, tableId);
      const input = checkObjectBody(body ?? {}, ['url', 'events', 'fields']);
      const url = checkUrl(input.url);
      const events = input.events === undefined ? [...changeKinds] : checkEvents(input.events);
      const fields = input.fields === undefined ? [] : await checkFields(input.fields, tableId);
      const secret = generateSecret();
      const at = now();
      // It hears of the changes committed from now on: every write acknowledged before is in the log below the head.
      await deps.settleQueued();
      const row = {
        account_id: table.account_id,
        space_id: table.space_id,
        table_id: tableId,
        url,
        events_json: JSON.stringify(events),
        fields_json: JSON.stringify(fields),
        active: 1,
        secret_sealed: deps.box.seal(secret),
        created_by: actor.userId,
        created_at: at,
        updated_at: at,
        cursor: await changeLog.head(),
      };
      const id = await webhooks.insertWebhook(db, row);
      // The engine here hears commits again if it had stopped for want of webhooks.
      deps.onChanged?.(id);
      return { ...presentWebhook({ ...row, id, attempt: 0, failing_since: null, next_attempt_at: null, claimed_by: null, lease_until: null, disabled_reason: null, previous_secret_sealed: null, previous_secret_until: null }), secret };
    },

    async list(actor: Actor, tableId: number) {
      await adminTable(actor, tableId);
      return (await webhooks.listWebhooks(db, tableId)).map(presentWebhook);
    },

    /** `{url?, events?, fields?, active?}`; turning a webhook back on clears its failure, so it starts afresh at the change it stopped at. */
    async update(actor: Actor, webhookId: number, body: unknown) {
      const found = await adminWebhook(actor, webhookId);
      const input = checkObjectBody(body ?? {}, ['url', 'events', 'fields', 'active']);
      const changes: webhooks.WebhookChanges = { updated_at: now() };
      if (input.url !== undefined) changes.url = checkUrl(input.url);
      if (input.events !== undefined) changes.events_json = JSON.stringify(checkEvents(input.events));
      if (input.fields !== undefined) changes.fields_json = JSON.stringify(await checkFields(input.fields, found.table_id));
      if (input.active !== undefined) {
        if (typeof input.active !== 'boolean') throw invalidParameters('active must be true or false');
        changes.active = input.active ? 1 : 0;
        if (input.active && found.active === 0) Object.assign(changes, { disabled_reason: null, attempt: 0, failing_since: null, next_attempt_at: null });
        if (!input.active) changes.disabled_reason = 'turned off';
      }
      await webhooks.updateWebhook(db, webhookId, changes);
      deps.onChanged?.(webhookId);
      return presentWebhook({ ...found, ...changes });
    },

    async delete(actor: Actor, webhookId: number) {
      await adminWebhook(actor, webhookId);
      await webhooks.deleteWebhook(db, webhookId);
      deps.onChanged?.(webhookId);
      return { id: webhookId, deleted: true as const };
    },

    /** A new secret; the previous one keeps signing beside it for 24 hours. */
    async rotateSecret(actor: Actor, webhookId: number) {
      const found = await adminWebhook(actor, webhookId);
      const secret = generateSecret();
      const until = new Date(deps.clock.now().getTime() + rotationOverlapMs).toISOString();
      await webhooks.updateWebhook(db, webhookId, { secret_sealed: deps.box.seal(secret), previous_secret_sealed: found.secret_sealed, previous_secret_until: until, updated_at: now() });
      deps.onChanged?.(webhookId);
      return { id: webhookId, secret };
    },

    async deliveries(actor: Actor, webhookId: number, body: unknown) {
      await adminWebhook(actor, webhookId);
      const input = checkObjectBody(body ?? {}, ['limit', 'offset']);
      const limit = input.limit ?? 50;
      const offset = input.offset ?? 0;
      if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > 200) throw invalidParameters('limit must be an integer from 1 to 200');
      if (!Number.isInteger(offset) || (offset as number) < 0) throw invalidParameters('offset must be a non-negative integer');
      return (await webhooks.listDeliveries(db, webhookId, limit as number, offset as number)).map(presentDelivery);
    },

    /**
     * Sends the change of a past delivery again, at once, and answers the new delivery. An
     * operator's explicit repeat: it neither moves the webhook's cursor nor counts as its failure.
     */
    async redeliver(actor: Actor, webhookId: number, deliveryId: number) {
      const webhook = await adminWebhook(actor, webhookId);
      const delivery = await webhooks.findDelivery(db, webhookId, deliveryId);
      if (!delivery) throw new NotFoundError('Delivery not found', ErrorCode.deliveryNotFound);
      const change = await changeLog.change(Number(delivery.seq));
      if (!change) throw invalidParameters(`the change ${delivery.seq} of this delivery is no longer in the change log`);
      const started = deps.clock.now();
      const result = await attemptDelivery(webhook, change, { box: deps.box, sender: deps.sender, now: started });
      const row = await webhooks.insertDelivery(db, {
        webhook_id: webhookId,
        seq: Number(change.seq),
        kind: change.kind,
        attempt: delivery.attempt + 1,
        status: result.ok ? 'succeeded' : 'failed',
        response_code: result.status,
        response_body: result.body,
        duration_ms: result.durationMs,
        error: result.error,
        at: now(),
        next_attempt_at: null,
      });
      return presentDelivery(row);
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
