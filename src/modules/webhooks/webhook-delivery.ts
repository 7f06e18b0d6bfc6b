import crypto from 'node:crypto';
import os from 'node:os';
import type { Database } from '../../db/database.js';
import { formatDateTime, type Clock } from '../../shared/clock.js';
import type { SecretBox } from '../../shared/secret-box.js';
import type { ChangeRow } from '../changes/change.js';
import { createChangeLogReader } from '../changes/change-log-reader.js';
import type { WriteUnit } from '../changes/write-unit.js';
import { insertNotifications } from '../notifications/notifications.service.js';
import { retryDelayMs, defaultRetrySettings, type RetrySettings } from './retry-schedule.js';
import { attemptDelivery } from './webhook-attempt.js';
import { createDeliveryProgress, createDeliveryWriter, type DeliveryProgress } from './delivery-progress.js';
import { matchesFilter } from './webhook-message.js';
import type { WebhookSender } from './webhook-sender.js';
import { claimWebhook, findWebhook, hasActiveWebhook, insertDelivery, listDueWebhooks, listSpaceAdmins, readDeliveryBacklog, updateClaimed, type NewDeliveryRow, type WebhookChanges, type WebhookRow } from './webhooks.repository.js';
import { filterOf } from './webhook-view.js';

export interface DeliverySettings {
  retry: RetrySettings;
  /** A webhook failing this long is disabled (24 h). */
  disableAfterMs: number;
  /** How long a claim holds before another process may take the webhook over; longer than a request's time budget. */
  leaseMs: number;
  /** Due retries and expired leases are looked for at least this often. */
  pollMs: number;
  /** Webhooks one process delivers to at once. */
  concurrency: number;
  /** Changes read per page while looking for the next one a webhook wants; also the most successes written in one batch. */
  pageSize: number;
  /** Successes are written (with the cursor) at most this long after the first of a batch. */
  flushMs: number;
  /** A worker that sent something keeps its webhook this long after, waiting for the next change. */
  lingerMs: number;
  /** Commits within this long wake the engine once: each wake-up costs a search and a log read per waiting worker, which a burst of writes should pay once, not per write. */
  wakeDelayMs: number;
}

export const defaultDeliverySettings: DeliverySettings = {
  retry: defaultRetrySettings,
  disableAfterMs: 24 * 3600 * 1000,
  leaseMs: 60_000,
  pollMs: 1_000,
  concurrency: 32,
  pageSize: 200,
  flushMs: 50,
  lingerMs: 1_000,
  wakeDelayMs: 10,
};

/** What tests and `serve` may set: any setting, and any part of the retry schedule. */
export type DeliveryOptions = Partial<Omit<DeliverySettings, 'retry'>> & { retry?: Partial<RetrySettings> };

type Log = (level: 'info' | 'warn', message: string) => void;

/**
 * The delivery engine of one process (docs/decisions.md, "Webhooks"). Woken by this process's
 * commits (`unit.onCommitted`), by other processes' (PostgreSQL `LISTEN`), and every `pollMs`;
 * the change log is the truth: each webhook's `cursor` says what it is done with, and each
 * wake-up looks for webhooks behind the log's head. A webhook is delivered by the process that
 * claims it (a lease on its row), one request at a time, in seq order; a failure holds the
 * webhook at that change until its retry is due. Nothing here runs in a request's path: a slow
 * receiver holds only its own webhook's worker.
 */
export function createWebhookDelivery(deps: { database: Database; unit: WriteUnit; clock: Clock; box: SecretBox; sender: WebhookSender; databaseUrl: string | null; settings?: Partial<DeliverySettings>; log?: Log }) {
  const { db } = deps.database;
  const changeLog = createChangeLogReader(deps.database);
  const settings: DeliverySettings = { ...defaultDeliverySettings, ...deps.settings };
  const owner = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;
  const working = new Map<number, Promise<void>>();
  /** Attempts this process made since it started, by outcome (the metrics' counter). */
  const attempts = { succeeded: 0, failed: 0 };
  /** Searches for due webhooks this process made (stats: what wakes the engine). */
  let searches = 0;
  let pumping = false;
  let pumpAgain = false;
  let stopped = true;
  let stop: (() => Promise<void>) | null = null;
  const log = (message: string, error?: unknown) => deps.log?.('warn', error === undefined ? message : `${message}: ${error instanceof Error ? error.message : String(error)}`);
  const iso = (date: Date) => date.toISOString();
  const writer = createDeliveryWriter({ database: deps.database, clock: deps.clock, owner, leaseMs: settings.leaseMs, flushMs: settings.flushMs, onError: (error) => log('webhooks: writing deliveries failed; they are sent again', error) });

  /**
   * Pages of a table's changes, shared by the workers of its webhooks that ask for the same page
   * in one generation: ten webhooks on a busy table, woken together, read its new changes once,
   * not ten times. A new generation starts at every wake-up and after every read of the head, so
   * a page shared is never older than the wake-up that sent a worker to read it, nor than the
   * head a worker was given when it claimed its webhook (an empty page moves its cursor there).
   */
  let sharedPages = new Map<string, Promise<ChangeRow[]>>();
  function newGeneration(): void {
    sharedPages = new Map();
  }
  function readPage(tableId: number, after: number): Promise<ChangeRow[]> {
    const key = `${tableId}:${after}`;
    let page = sharedPages.get(key);
    if (!page) {
      page = changeLog.tableChangesAfter(tableId, after, settings.pageSize);
      sharedPages.set(key, page);
    }
    return page;
  }

  async function pump(): Promise<void> {
    if (stopped) return;
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = true;
    try {
      do {
        pumpAgain = false;
        // As changes/list reads: whatever is queued goes into the log first, so no seq below the head is still missing.
        await deps.unit.settleQueued();
        const head = await changeLog.head();
        newGeneration();
        const free = settings.concurrency - working.size;
        const now = deps.clock.now();
        // One more than there are places: whether some are left without one (`starved`).
        const due = await listDueWebhooks(db, head, iso(now), settings.concurrency + working.size + 1);
        searches += 1;
        // Webhooks waiting for a place get those of workers that only wait for a next change.
        const waitingForPlace = due.filter((candidate) => !working.has(candidate.id)).length - free;
        for (const resume of lingering.splice(0, Math.max(0, waitingForPlace))) resume(false);
        starved = false;
        for (const candidate of due) {
          if (working.has(candidate.id)) continue;
          if (stopped) break;
          if (working.size >= settings.concurrency) {
            starved = true;
            break;
          }
          const claimed = await claimWebhook(db, candidate.id, owner, iso(now), iso(new Date(now.getTime() + settings.leaseMs)));
          if (!claimed) continue;
          const worker = deliverWebhook(claimed, head)
            .catch((error: unknown) => log(`webhook ${candidate.id}: delivery stopped; another wake-up retries`, error))
            .finally(() => {
              working.delete(candidate.id);
              void release(candidate.id).finally(wake);
            });
          working.set(candidate.id, worker);
        }
      } while (pumpAgain && !stopped);
    } catch (error) {
      log('webhooks: looking for due deliveries failed; trying again', error);
    } finally {
      pumping = false;
    }
  }

  /** Whether the last search found due webhooks with no place left for them: then a worker with nothing to send lets go at once instead of waiting. */
  let starved = false;
  /** Workers with nothing left to send wait here for the next commit, for a while, still holding their webhook. */
  let lingering: Array<(goOn: boolean) => void> = [];
  /** Webhooks changed by this process's management calls: their workers read the row again before the next request. */
  const stale = new Set<number>();
  let wakeTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * Whether any webhook is on, as the last poll found it or a change made here said. With none,
   * commits wake nothing: a server without webhooks spent a search after every burst of writes
   * (about 2 % of a create's CPU, docs/performance.md, session 32). A webhook created by another
   * process is delivered by that one's engine, and this one's next poll turns its wake-ups on.
   */
  let anyActive = true;
  /** Bumped by every change made here: a poll's answer read before one is not taken. */
  let changesHere = 0;
  function poll(): void {
    const asked = changesHere;
    hasActiveWebhook(db).then(
      (active) => {
        if (asked === changesHere) anyActive = active;
      },
      () => undefined,
    );
    wake();
  }
  /** A commit's wake-up, shared with the commits that follow within `wakeDelayMs`. */
  function wakeSoon(): void {
    if (wakeTimer !== undefined || !anyActive) return;
    wakeTimer = setTimeout(() => {
      wakeTimer = undefined;
      wake();
    }, settings.wakeDelayMs);
    wakeTimer.unref();
  }
  function wake(): void {
    newGeneration();
    const waiting = lingering;
    lingering = [];
    for (const resume of waiting) resume(true);
    void pump();
  }
  /** True at the next wake-up or after `ms`; false when the worker should give its place to a webhook waiting for one. */
  function nextWake(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(true), ms);
      lingering.push((goOn) => (clearTimeout(timer), resolve(goOn)));
    });
  }

  /** Lets go of a webhook this process still holds (a worker that stopped early). */
  async function release(webhookId: number): Promise<void> {
    await updateClaimed(db, webhookId, owner, { claimed_by: null, lease_until: null }).catch(() => undefined);
  }

  /** Delivers the changes after the webhook's cursor, in order, until none is left or one fails. */
  async function deliverWebhook(claimed: WebhookRow, head: number): Promise<void> {
    const webhook = { ...claimed };
    let filter = filterOf(webhook);
    let refreshedAt = deps.clock.now().getTime();
    /** The row again (its URL, filters, secrets may have changed); false when the worker must stop: turned off, deleted, or no longer its claim. */
    const refresh = async (): Promise<boolean> => {
      refreshedAt = deps.clock.now().getTime();
      const fresh = await findWebhook(db, webhook.id);
      if (!fresh || fresh.active !== 1 || fresh.claimed_by !== owner) return false;
      const { url, events_json, fields_json, secret_sealed, previous_secret_sealed, previous_secret_until } = fresh;
      Object.assign(webhook, { url, events_json, fields_json, secret_sealed, previous_secret_sealed, previous_secret_until });
      filter = filterOf(webhook);
      return true;
    };
    const progress = createDeliveryProgress({ writer, clock: deps.clock, webhookId: webhook.id, leaseMs: settings.leaseMs, maxPending: settings.pageSize });
    let cursor = Number(webhook.cursor);
    let lastSentAt = deps.clock.now().getTime();
    try {
      for (;;) {
        if ((stale.delete(webhook.id) || deps.clock.now().getTime() - refreshedAt >= settings.lingerMs) && !(await refresh())) return;
        const rows = await readPage(webhook.table_id, cursor);
        // Nothing for this table up to the head read before the claim: the cursor moves there.
        if (rows.length === 0) {
          if (head > cursor) {
            progress.skipTo(head);
            cursor = head;
          }
          // A busy table's next change usually follows soon: waiting for it with the claim held
          // spares a claim, a release and a search per change and webhook.
          if (stopped || starved || deps.clock.now().getTime() - lastSentAt >= settings.lingerMs) return;
          // The row is read again at the top of the loop once a second: a change of URL, filters or secret, or turning it off, applies within a second.
          if (!(await nextWake(settings.lingerMs)) || stopped) return;
          continue;
        }
        for (const row of rows) {
          if (stopped) return;
          // Changed meanwhile: read again (at the top) before sending anything more.
          if (stale.has(webhook.id)) break;
          const seq = Number(row.seq);
          if (!matchesFilter(filter, row)) {
            progress.skipTo(seq);
            cursor = seq;
            continue;
          }
          // A request never outlives the lease: renewed first when it could.
          if (progress.leaseEndsWithin(deps.sender.timeoutMs + 2_000) && !(await progress.renew())) return;
          const started = deps.clock.now();
          const result = await attemptDelivery(webhook, row, { box: deps.box, sender: deps.sender, now: started });
          const record = { webhook_id: webhook.id, seq, kind: row.kind, attempt: webhook.attempt + 1, response_code: result.status, response_body: result.body, duration_ms: result.durationMs, error: result.error, at: formatDateTime(deps.clock.now()) };
          attempts[result.ok ? 'succeeded' : 'failed'] += 1;
          if (!result.ok) return await recordFailure(progress, webhook, record, started, result.retryAfter);
          progress.succeeded({ ...record, status: 'succeeded', next_attempt_at: null });
          Object.assign(webhook, { attempt: 0, failing_since: null });
          cursor = seq;
          lastSentAt = deps.clock.now().getTime();
        }
      }
    } finally {
      await progress.flush();
    }
  }

  /** A failed attempt: logged, and the webhook held back until its retry, or turned off (410, or 24 hours of failure) with its admins notified. */
  async function recordFailure(progress: DeliveryProgress, webhook: WebhookRow, record: Omit<NewDeliveryRow, 'status' | 'next_attempt_at'>, started: Date, retryAfter: string | undefined): Promise<void> {
    const now = deps.clock.now();
    const failingSince = webhook.failing_since ?? iso(started);
    const gone = record.response_code === 410;
    const expired = now.getTime() - Date.parse(failingSince) >= settings.disableAfterMs;
    const retryAt = gone || expired ? null : new Date(now.getTime() + retryDelayMs(settings.retry, record.attempt, retryAfter, now));
    const changes: WebhookChanges & { claimed_by: null; lease_until: null } = { attempt: record.attempt, failing_since: failingSince, next_attempt_at: retryAt && iso(retryAt), claimed_by: null, lease_until: null };
    if (gone || expired) Object.assign(changes, { active: 0, disabled_reason: gone ? 'gone' : 'failing', next_attempt_at: null });
    await progress.flush(async (trx) => {
      await insertDelivery(trx, { ...record, status: 'failed', next_attempt_at: retryAt && formatDateTime(retryAt) });
      await updateClaimed(trx, webhook.id, owner, changes);
      if (expired && !gone) {
        const admins = await listSpaceAdmins(trx, webhook.space_id, webhook.account_id);
        await insertNotifications(
          trx,
          admins.map((userId) => ({ account_id: webhook.account_id, user_id: userId, kind: 'webhook.disabled', actor_user_id: webhook.created_by, actor_name: 'Webhooks', table_id: webhook.table_id, record_id: 0, comment_id: null, created_at: formatDateTime(now) })),
        );
      }
    });
    if (gone || expired) deps.log?.('warn', `webhook ${webhook.id} disabled: ${gone ? 'its receiver answered 410 Gone' : 'failing for 24 hours'}`);
    // The retry's own wake-up; the poll would find it too, later.
    if (retryAt) setTimeout(wake, Math.max(0, retryAt.getTime() - now.getTime())).unref();
  }

  return {
    settings,
    /** Starts delivering: listens for commits (and, on PostgreSQL, other processes' NOTIFY) and polls. */
    async start(): Promise<void> {
      if (!stopped) return;
      stopped = false;
      const unsubscribe = deps.unit.onCommitted(wakeSoon);
      const polling = setInterval(poll, settings.pollMs);
      polling.unref();
      const listener = deps.databaseUrl ? (await import('../../db/postgres-change-listener.js')).listenForChangeLog(deps.databaseUrl, { onWake: wakeSoon, onError: (error) => log('webhooks: LISTEN connection', error) }) : null;
      stop = async () => {
        unsubscribe();
        clearTimeout(wakeTimer);
        clearInterval(polling);
        await listener?.close();
      };
      poll();
    },
    /** Looks for due deliveries now (tests move their clock, then wake the engine). */
    wake,
    /** A webhook was made or changed (URL, filters, secret, turned off or on, deleted): its worker here reads it again at once; another process's within a second. */
    changed(webhookId: number): void {
      changesHere += 1;
      anyActive = true;
      if (working.has(webhookId)) stale.add(webhookId);
      wake();
    },
    /** Webhooks this process is delivering to now, its attempts by outcome, and how often it searched for due webhooks. */
    stats: () => ({ working: working.size, owner, attempts: { ...attempts }, searches }),
    /** Database-wide: webhooks by state and what active ones have yet to go through (the metrics read it at scrape). */
    backlog: (capPerWebhook: number) => readDeliveryBacklog(db, capPerWebhook),
    /** Stops taking work and waits for the requests in flight (each bounded by its timeout). */
    async close(): Promise<void> {
      if (stopped) return;
      stopped = true;
      for (const resume of lingering.splice(0)) resume(false);
      await stop?.();
      stop = null;
      await Promise.all(working.values());
      await writer.flush();
    },
  };
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;
