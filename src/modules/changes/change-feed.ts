import type { ServerResponse } from 'node:http';
import type { Database } from '../../db/database.js';
import { readMetadataVersion } from '../../db/metadata-cache.js';
import { TooManyStreamsError } from '../../shared/errors.js';
import type { ChangeRow } from './change.js';
import { changeFrame, openedFrame, resyncFrame } from './change-frames.js';
import { listAllChanges, listChanges, lastSeq, purgedThrough } from './changes.repository.js';
import { ChangeSubscriber, corkStream, type FeedSettings, type StreamFilter, type SubscriberHost } from './change-subscriber.js';
import type { WriteUnit } from './write-unit.js';

export type { FeedSettings, StreamFilter } from './change-subscriber.js';

export const defaultFeedSettings: FeedSettings = {
  heartbeatMs: 15_000,
  maxBufferedBytes: 1024 * 1024,
  drainTimeoutMs: 30_000,
  revalidateMs: 5_000,
  recheckAllMs: 60_000,
  pageSize: 1000,
};

/** Where a new stream starts: after `sent`, with a `resync` first when its cursor could not be used. */
export interface StreamStart {
  sent: number;
  resync?: { reason: 'cursor_expired' | 'cursor_ahead'; after: number };
}

export interface StreamOptions {
  filter: StreamFilter;
  start: StreamStart;
  accessKey: string;
  recheck(): Promise<void>;
  /** Frees the stream's place under the per-key cap. */
  release(): void;
}

/** After a failed read of the log, the feed tries again this much later. */
const retryAfterFailureMs = 1000;

/**
 * The live feed of one process (docs/decisions.md, "Live feed"). It wakes on this process's
 * commits (`unit.onCommitted`) and, on PostgreSQL, on `LISTEN tabula_changes` (other processes'
 * commits); a wake-up carries nothing: the feed reads the log after its cursor, a page of 1000
 * at a time, turns each change into its SSE frame once, and writes that frame to the live
 * subscribers of its table and space. Nothing is opened before the first stream: a command
 * that never streams never listens.
 */
export function createChangeFeed(deps: { database: Database; unit: WriteUnit; databaseUrl: string | null; streamsPerKey: number; settings?: Partial<FeedSettings>; log?: (level: 'info' | 'warn', message: string) => void }) {
  const { db } = deps.database;
  const settings: FeedSettings = { ...defaultFeedSettings, ...deps.settings };
  const byTable = new Map<number, Set<ChangeSubscriber>>();
  const bySpace = new Map<number, Set<ChangeSubscriber>>();
  const all = new Set<ChangeSubscriber>();
  const openPerCredential = new Map<string, number>();
  /** Every change up to the cursor has been fanned out to the subscribers live at the time. */
  let cursor = 0;
  let liveCount = 0;
  let pumping = false;
  let pumpAgain = false;
  let starting: Promise<void> | null = null;
  let stop: (() => Promise<void>) | null = null;
  /** The metadata version last read by the access re-check; a stream opened since is checked when it moves. */
  let seenVersion = -1;

  const log = (message: string, error?: unknown) => deps.log?.('warn', error === undefined ? message : `${message}: ${error instanceof Error ? error.message : String(error)}`);
  const subscribersOf = (filter: StreamFilter) => ('tableId' in filter ? setOf(byTable, filter.tableId) : setOf(bySpace, filter.spaceId));

  /** Reads the log after the cursor and fans it out; one pump at a time, again if woken meanwhile. */
  async function pump(): Promise<void> {
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = true;
    try {
      do {
        pumpAgain = false;
        // Nobody live: nothing to read. The first subscriber to join moves the cursor to its own.
        if (liveCount === 0) break;
        let rows: ChangeRow[];
        do {
          rows = await listAllChanges(db, cursor, settings.pageSize);
          fanOut(rows);
        } while (rows.length === settings.pageSize);
      } while (pumpAgain);
    } catch (error) {
      log('change feed: reading the log failed; trying again', error);
      setTimeout(wake, retryAfterFailureMs).unref();
    } finally {
      pumping = false;
    }
  }

  function wake(): void {
    void pump();
  }

  /** One page, synchronously: each frame made once; each touched socket corked for the page, so it goes out in one write. */
  function fanOut(rows: readonly ChangeRow[]): void {
    const touched: ChangeSubscriber[] = [];
    for (const row of rows) {
      const seq = Number(row.seq);
      cursor = Math.max(cursor, seq);
      const ofTable = byTable.get(row.table_id);
      const ofSpace = bySpace.get(row.space_id);
      if (!ofTable?.size && !ofSpace?.size) continue;
      const frame = changeFrame(row);
      for (const subscribers of [ofTable, ofSpace]) {
        if (!subscribers) continue;
        for (const subscriber of subscribers) {
          if (subscriber.mode !== 'live') continue;
          if (!subscriber.uncork) {
            subscriber.uncork = corkStream(subscriber.res);
            touched.push(subscriber);
          }
          subscriber.deliver(seq, frame);
        }
      }
    }
    for (const subscriber of touched) {
      const uncork = subscriber.uncork!;
      subscriber.uncork = null;
      uncork();
    }
  }

  const host: SubscriberHost = {
    settings,
    readHead: () => lastSeq(db),
    readPage: (filter, after, limit) => listChanges(db, 'tableId' in filter ? { tableIds: [filter.tableId] } : { spaceId: filter.spaceId }, after, limit),
    tryJoin(subscriber) {
      if (liveCount === 0 && !pumping) cursor = subscriber.sent;
      else if (subscriber.sent < cursor) return false;
      subscriber.mode = 'live';
      liveCount += 1;
      // A commit whose wake-up came while nobody was live has not been read yet.
      wake();
      return true;
    },
    leaveLive() {
      liveCount -= 1;
    },
    remove(subscriber) {
      all.delete(subscriber);
      const { filter } = subscriber;
      const [map, key] = 'tableId' in filter ? [byTable, filter.tableId] : [bySpace, filter.spaceId];
      map.get(key)?.delete(subscriber);
      if (map.get(key)?.size === 0) map.delete(key);
    },
    log,
  };

  /**
   * Re-checks a stream's access when the metadata version (keys, members, tables: migration
   * 0005) moved since its last check, and every stream's now and then. One cheap read per
   * interval while streams are open; streams of one key and scope share one check.
   */
  function startRevalidation(): () => void {
    let lastFullCheck = Date.now();
    let checking = false;
    const timer = setInterval(() => {
      if (checking || all.size === 0) return;
      checking = true;
      revalidate()
        .catch((error: unknown) => log('change feed: checking streams access failed', error))
        .finally(() => (checking = false));
    }, settings.revalidateMs);
    timer.unref();
    async function revalidate(): Promise<void> {
      const version = await readMetadataVersion(db);
      seenVersion = version;
      const full = Date.now() - lastFullCheck >= settings.recheckAllMs;
      if (full) lastFullCheck = Date.now();
      const checks = new Map<string, Promise<boolean>>();
      const due = [...all].filter((subscriber) => full || subscriber.checkedVersion !== version);
      await Promise.all(
        due.map(async (subscriber) => {
          subscriber.checkedVersion = version;
          let check = checks.get(subscriber.accessKey);
          if (!check) checks.set(subscriber.accessKey, (check = stillAllowed(subscriber)));
          if (!(await check)) subscriber.end('access_revoked');
        }),
      );
    }
    return () => clearInterval(timer);
  }

  async function start(): Promise<void> {
    cursor = await lastSeq(db);
    const unsubscribe = deps.unit.onCommitted(wake);
    const heartbeat = setInterval(() => {
      for (const subscriber of all) subscriber.heartbeat();
      // A safety net: should a wake-up ever be missed, the feed reads the log at least this often.
      if (liveCount > 0) wake();
    }, settings.heartbeatMs);
    heartbeat.unref();
    const stopRevalidation = startRevalidation();
    const listener = deps.databaseUrl ? (await import('../../db/postgres-change-listener.js')).listenForChangeLog(deps.databaseUrl, { onWake: wake, onError: (error) => log('change feed: LISTEN connection', error) }) : null;
    stop = async () => {
      unsubscribe();
      clearInterval(heartbeat);
      stopRevalidation();
      await listener?.close();
    };
  }

  return {
    settings,

    /** Takes a place under the per-key cap (`TABULA_STREAMS_PER_KEY`), or 429; the answer frees it. */
    reserve(credential: string): () => void {
      const cap = deps.streamsPerKey;
      const open = openPerCredential.get(credential) ?? 0;
      if (open >= cap) throw new TooManyStreamsError(cap);
      openPerCredential.set(credential, open + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (openPerCredential.get(credential) ?? 1) - 1;
        if (left > 0) openPerCredential.set(credential, left);
        else openPerCredential.delete(credential);
      };
    },

    /**
     * Where a stream with cursor `after` (null: none) starts, read before it opens: after the
     * last change committed now when it has no cursor, or one its cursor cannot resume from.
     */
    async startOf(after: number | null): Promise<StreamStart> {
      if (!starting) starting = start().catch((error: unknown) => ((starting = null), Promise.reject(error)));
      await starting;
      // Writes acknowledged before the stream opened are in the log before its start is read.
      await deps.unit.settleQueued();
      const head = await lastSeq(db);
      if (after === null) return { sent: head };
      if (after > head) return { sent: head, resync: { reason: 'cursor_ahead', after } };
      if (after < (await purgedThrough(db))) return { sent: head, resync: { reason: 'cursor_expired', after } };
      return { sent: after };
    },

    /** Streams to `res` (headers already sent): the changes after the start, then live ones. */
    attach(res: ServerResponse, options: StreamOptions): void {
      const { start: from } = options;
      const subscriber = new ChangeSubscriber(host, res, options.filter, from.sent, options.accessKey, options.recheck, options.release);
      subscriber.checkedVersion = seenVersion;
      all.add(subscriber);
      subscribersOf(options.filter).add(subscriber);
      res.write(from.resync ? resyncFrame(from.resync.reason, from.resync.after, from.sent) : openedFrame);
      void subscriber.catchUp();
    },

    /** Open streams in this process, and how many get live changes (tests, bench). */
    stats: () => ({ streams: all.size, live: liveCount, cursor }),

    /** Ends every stream (`event: end`, reason `shutdown`) and stops listening. */
    async close(): Promise<void> {
      for (const subscriber of [...all]) subscriber.end('shutdown');
      await stop?.();
      stop = null;
      starting = null;
    },
  };
}

/** False when the caller may no longer read the stream (401, or the table or space now answers as missing); true on any other failure. */
async function stillAllowed(subscriber: ChangeSubscriber): Promise<boolean> {
  try {
    await subscriber.recheck();
    return true;
  } catch (error) {
    const status = (error as { status?: number }).status;
    return !(status === 400 || status === 401 || status === 403 || status === 404);
  }
}

function setOf<K>(map: Map<K, Set<ChangeSubscriber>>, key: K): Set<ChangeSubscriber> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  return set;
}

export type ChangeFeed = ReturnType<typeof createChangeFeed>;
