import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.js';
import { migrateToLatest, openDatabase, type Database } from './db/database.js';
import { createMetadataCache } from './db/metadata-cache.js';
import { createAccountsService } from './modules/accounts/accounts.service.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createKeysService } from './modules/keys/keys.service.js';
import { createKeyManagementService } from './modules/keys/key-management.service.js';
import { createFileLedger } from './modules/files/file-ledger.js';
import { createFileStorage } from './modules/files/file-storage.js';
import { createFilesService } from './modules/files/files.service.js';
import { createReclaimService } from './modules/files/reclaim.service.js';
import { createThumbnailCache } from './modules/files/thumbnail-cache.js';
import { createThumbnailsService } from './modules/files/thumbnails.service.js';
import { createCommentsService } from './modules/comments/comments.service.js';
import { createNotificationsService } from './modules/notifications/notifications.service.js';
import { createRecordsService, type RecordsDeletedListener } from './modules/records/records.service.js';
import { recordSearchOf } from './modules/records/search/index.js';
import { createWriteUnit } from './modules/changes/write-unit.js';
import { createChangesService } from './modules/changes/changes.service.js';
import { createChangeFeed, type FeedSettings } from './modules/changes/change-feed.js';
import { createSpacesService } from './modules/spaces/spaces.service.js';
import { createFieldsService } from './modules/tables/fields.service.js';
import { createTablesService } from './modules/tables/tables.service.js';
import { createIndexesService } from './modules/tables/indexes.service.js';
import { createAutomaticIndexes } from './modules/tables/automatic-indexes.js';
import { createSavedViewReader, createViewsService } from './modules/views/views.service.js';
import { createUsersService } from './modules/users/users.service.js';
import { createJobRunner } from './modules/jobs/job-runner.js';
import { createWebhookDelivery, type DeliveryOptions } from './modules/webhooks/webhook-delivery.js';
import { defaultRetrySettings } from './modules/webhooks/retry-schedule.js';
import { createThreadedSender } from './modules/webhooks/threaded-sender.js';
import { createWebhooksService } from './modules/webhooks/webhooks.service.js';
import { systemClock, type Clock } from './shared/clock.js';
import { createSecretBox } from './shared/secret-box.js';

/** TABULA_SECRET, or `<data>/secret`, generated once with mode 0600. */
function loadSecret(config: Config): string {
  if (config.secret) return config.secret;
  const file = path.join(config.dataDir, 'secret');
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return fs.readFileSync(file, 'utf8').trim();
}

/** The composition root: the database, then every service as a plain object. */
export async function createContainer(config: Config, options: { clock?: Clock; migrate?: boolean; log?: (level: 'info' | 'warn', message: string) => void; sqliteCacheKib?: number; sqliteWriterCacheKib?: number; sqliteCheckpointEveryMs?: number; feed?: Partial<FeedSettings>; webhooks?: DeliveryOptions } = {}) {
  const clock = options.clock ?? systemClock;
  const database: Database = await openDatabase({ ...config, ...(options.sqliteCacheKib ? { sqliteCacheKib: options.sqliteCacheKib } : {}), ...(options.sqliteWriterCacheKib !== undefined ? { sqliteWriterCacheKib: options.sqliteWriterCacheKib } : {}), ...(options.sqliteCheckpointEveryMs !== undefined ? { sqliteCheckpointEveryMs: options.sqliteCheckpointEveryMs } : {}) });
  if (options.migrate !== false) await migrateToLatest(database);
  const secretBox = createSecretBox(loadSecret(config));
  const base = { database, clock };
  const metadataCache = createMetadataCache();
  const users = createUsersService(base);
  const keys = createKeysService({ ...base, metadataCache, users });
  const keyManagement = createKeyManagementService({ ...base, keys, users });
  const accounts = createAccountsService({ ...base, users, keys });
  const auth = createAuthService({ ...base, users });
  const fileStorage = createFileStorage({ database, secretBox, storageUrl: config.storageUrl, filesHost: config.filesHost, allowHosts: config.fetchAllowHosts });
  const fileLedger = createFileLedger({ ...base, storage: fileStorage, fetchAllowHosts: config.fetchAllowHosts, fetchTimeoutMs: config.fetchTimeoutMs });
  const withFiles = { ...base, files: fileLedger.ledger };
  const spaces = createSpacesService({ ...withFiles, secretBox, users });
  const tables = createTablesService(withFiles);
  // An index a calendar view still needs stays: the views service, made later, answers.
  const neededBy: { find?: (tableId: number, index: { name: string; fields: string[] }) => Promise<string | null> } = {};
  const indexes = createIndexesService({ ...base, tables, neededBy });
  // Background work that must run in one process at a time across every process on the database.
  const jobs = createJobRunner({ database, settings: { leaseMs: config.jobLeaseMs, holdBeforeRunMs: config.jobHoldBeforeRunMs } });
  const automaticIndexes = createAutomaticIndexes({ ...base, indexes, settings: config.automaticIndexes, log: options.log, exclusive: jobs.runExclusive });
  const fields = createFieldsService({ ...withFiles, tables, indexes });
  // Under test, a records call that answers without confirming its cached metadata throws.
  // Deleted records take their comments along: the comments service, made after records, listens.
  const recordsDeleted: { listener?: RecordsDeletedListener } = {};
  const userName = async (userId: number) => (await users.findUser(userId))?.name;
  const unit = createWriteUnit({ ...base, userName, groupDeferral: recordSearchOf(database.dialect.name).groupDeferral, log: options.log });
  const records = createRecordsService({ ...withFiles, views: createSavedViewReader(database), unit, userName, trashDays: config.trashDays, recordsDeleted, metadataCache, maxResponseSize: config.maxResponseSize, strictConfirmation: process.env.VITEST === 'true', queryShapes: automaticIndexes.observer });
  // SQLite's search index takes the texts written a few times a second, not in each write (search-catch-up.ts).
  const searchCatchUp = recordSearchOf(database.dialect.name).startCatchUp?.(database.db, (error) => options.log?.('warn', `search index catch-up failed: ${(error as Error).message}`));
  const changes = createChangesService({ database, clock, tables: records, changesDays: config.changesDays, settleQueued: unit.settleQueued });
  // Opens nothing until the first stream (a command never streams); the send timeout bounds a stream's drain as it bounds any answer's.
  const changeFeed = createChangeFeed({ database, unit, databaseUrl: config.databaseUrl, streamsPerKey: config.streamsPerKey, settings: { drainTimeoutMs: config.sendTimeoutMs, ...options.feed }, log: options.log });
  const files = createFilesService({ records, ledger: fileLedger, storage: fileStorage });
  // sharp is loaded by the first thumbnail made, not here: commands never load it.
  const thumbnailCache = createThumbnailCache({ directory: path.join(config.dataDir, 'thumbnails'), maxBytes: config.thumbnailCacheBytes, log: options.log });
  const thumbnails = createThumbnailsService({ files, cache: thumbnailCache, log: options.log });
  const reclaim = createReclaimService({ ...base, storage: fileStorage, thumbnails: thumbnailCache });
  const views = createViewsService({ ...base, tables, records, indexes, automaticIndexes });
  neededBy.find = views.calendarNeeding;
  const notifications = createNotificationsService({ ...base, records });
  const comments = createCommentsService({ ...base, unit, records, users, ledger: fileLedger, storage: fileStorage });
  recordsDeleted.listener = comments.releaseRecords;
  // Delivers nothing until started (`tabula serve`; tests that ask): a command never delivers.
  // Requests are made on a thread of their own, started by the first one (threaded-sender.ts).
  const webhookSender = createThreadedSender({
    allowHosts: config.fetchAllowHosts,
    timeoutMs: config.webhooks.timeoutMs,
    onDied: (why) => options.log?.('warn', `webhooks: the sender's thread died (${why}); what it was sending is retried, the next request starts another`),
  });
  const { retry, ...deliveryOptions } = options.webhooks ?? {};
  const webhookDelivery = createWebhookDelivery({
    database,
    unit,
    clock,
    box: secretBox,
    sender: webhookSender,
    databaseUrl: config.databaseUrl,
    settings: { leaseMs: Math.max(config.webhooks.leaseMs, config.webhooks.timeoutMs + 2_000), ...deliveryOptions, retry: { ...defaultRetrySettings, scheduleMs: config.webhooks.retryScheduleMs, ...retry } },
    log: options.log,
  });
  const webhooks = createWebhooksService({ database, clock, box: secretBox, sender: webhookSender, allowHosts: config.fetchAllowHosts, settleQueued: unit.settleQueued, onChanged: webhookDelivery.changed });
  return {
    config,
    clock,
    database,
    services: { jobs, changes, changeFeed, unit, users, keys, keyManagement, accounts, auth, spaces, tables, indexes, automaticIndexes, fields, records, files, thumbnails, reclaim, fileLedger, views, comments, notifications, webhooks, webhookDelivery, webhookSender },
    close: async () => {
      await changeFeed.close();
      await webhookDelivery.close();
      await webhookSender.close();
      await searchCatchUp?.stop();
      // Changes still to sequence go to the log now; if that fails they stay queued (durable) for the next reader or server.
      await unit.drain().catch(() => undefined);
      await fileStorage.close();
      await database.destroy();
    },
  };
}

export type Container = Awaited<ReturnType<typeof createContainer>>;
export type Services = Container['services'];
