import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import proxyAddr from '@fastify/proxy-addr';
import { defaultQuerySlots } from './db/bounded-read.js';
import { defaultDatabaseConnections } from './db/database-engine.js';
import { parseAllowHosts, type AllowedHost } from './modules/files/address-policy.js';
import { maxResponseMegabytes } from './modules/records/response-size.js';

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly dataDir: string;
  /** `postgres://…` selects PostgreSQL; null means SQLite at `<dataDir>/tabula.db`. */
  readonly databaseUrl: string | null;
  readonly storageUrl: string;
  readonly filesHost: string;
  /** Explicit secret; null means read or generate `<dataDir>/secret`. */
  readonly secret: string | null;
  readonly rateLimitPerMinute: number;
  readonly redisUrl: string | null;
  /** Key prefix of the shared rate-limit counters, so several deployments can share one Redis. */
  readonly redisPrefix: string;
  /**
   * `TABULA_FETCH_ALLOW_HOSTS`, parsed: `host[:port]` entries exempt from the private-address
   * block of URL source descriptors and of a space's own storage hosts.
   */
  readonly fetchAllowHosts: readonly AllowedHost[];
  /** One time budget for fetching a URL source descriptor, redirects and body included (`TABULA_FETCH_TIMEOUT`). */
  readonly fetchTimeoutMs: number;
  readonly reclaimIntervalMs: number;
  /** Longest a record query (page, count, id list) may run its statement, from the moment it has its slot. */
  readonly queryTimeoutMs: number;
  /** Longest a record query waits for a slot (`TABULA_QUERY_QUEUE_TIMEOUT`; default twice the budget). */
  readonly queryQueueTimeoutMs: number;
  /** Record queries one account runs at once per process; one slot more is kept for the others (db/bounded-read.ts). */
  readonly queryConcurrency: number;
  /** PostgreSQL connections a process keeps for every call but the record queries (`TABULA_DATABASE_CONNECTIONS`; db/database-engine.ts). */
  readonly databaseConnections: number;
  /** Once an answer starts, a connection that takes no byte of it for this long is closed (a client that stopped reading). */
  readonly sendTimeoutMs: number;
  /**
   * Addresses or CIDR ranges of the proxies whose `X-Forwarded-For` / `X-Forwarded-Proto` are
   * believed (`TABULA_TRUST_PROXY`); empty means none: the socket decides.
   */
  readonly trustProxy: readonly string[];
  /** Largest record response (get, a page of query), in estimated characters of JSON. */
  readonly maxResponseSize: number;
  /** The automatic indexes (`TABULA_AUTO_INDEX*`; docs/operations.md). */
  readonly automaticIndexes: {
    enabled: boolean;
    threshold: number;
    minRows: number;
    budget: number;
    unusedMs: number;
  };
  /**
   * `TABULA_CORS_ORIGINS`: the exact origins (`https://app.example.com`) whose browser pages may
   * call the API across origins; empty (the default) turns CORS off.
   */
  readonly corsOrigins: readonly string[];
  /** `TABULA_THUMBNAIL_CACHE_MB` (512): the bound of the thumbnail cache in `<dataDir>/thumbnails`, least recently used out first. */
  readonly thumbnailCacheBytes: number;
  /**
   * `TABULA_HEAP_GROWTH` (20): how far, in percent, a server lets V8's old generation grow past
   * what survived its last full collection before the next one; 0 keeps V8's own factor (up to
   * 300 %, which lets a busy server's RSS climb by 100+ MB of garbage; 20 holds it, at a CPU
   * cost on allocation-heavy requests: docs/operations.md, "Server memory").
   */
  readonly heapGrowthPercent: number;
  /** Days a deleted record stays in the trash before it is purged (`TABULA_TRASH_DAYS`, 30). */
  readonly trashDays: number;
  /** Days of changes the change log keeps at least (`TABULA_CHANGES_DAYS`, 30). */
  readonly changesDays: number;
  /** How often `tabula serve` purges the trash and the change log beyond their days (`TABULA_PURGE_INTERVAL`, 1h; 0 turns it off). */
  readonly purgeIntervalMs: number;
  /** Change streams one key (or session) may hold open at once (`TABULA_STREAMS_PER_KEY`, 20). */
  readonly streamsPerKey: number;
  /** `TABULA_CONSOLE_DIR`: the built web console that `serve` serves; by default the package's own `console/dist`. */
  readonly consoleDir: string;
  /** How long a background job's lease lasts unrenewed: a killed process's job moves on within about 1.5 times this (`TABULA_JOB_LEASE`, 1m). */
  readonly jobLeaseMs: number;
  /** Test hook (`TABULA_TEST_JOB_HOLD`): each background run holds its lease this long before working, so a test can kill it mid-job. */
  readonly jobHoldBeforeRunMs: number;
  /** On SIGTERM, how long requests in flight may take to finish before the process exits anyway (`TABULA_DRAIN_SECONDS`, 30). */
  readonly drainMs: number;
  /** `TABULA_METRICS=on` serves Prometheus metrics at `GET /metrics`. */
  readonly metrics: boolean;
  /** `TABULA_METRICS_TOKEN`: when set, `/metrics` answers only `Authorization: Bearer <token>`. */
  readonly metricsToken: string | null;
  /** `serve --processes N|auto` (`TABULA_PROCESSES`, 1): worker processes sharing the port; auto = one per core. */
  readonly processes: number;

  /** Webhook delivery (`TABULA_WEBHOOK_*`; docs/operations.md, "Webhooks"). */
  readonly webhooks: {
    /** A receiver's time to answer (`TABULA_WEBHOOK_TIMEOUT`, 10s). */
    timeoutMs: number;
    /** How long a process's claim on a webhook holds (`TABULA_WEBHOOK_LEASE`, 60s); past it another process takes over. */
    leaseMs: number;
    /** The waits before each retry (`TABULA_WEBHOOK_RETRY_SCHEDULE`, 5s,30s,2m,10m,30m,1h,2h; the last repeats). */
    retryScheduleMs: readonly number[];
  };
}

/** Beside src/ and dist/ alike: both are one level below the package root. */
const defaultConsoleDir = fileURLToPath(new URL('../console/dist', import.meta.url));

export interface ConfigFlags {
  host?: string;
  port?: string | number;
  data?: string;
  processes?: string;
}

/** Builds the frozen configuration from the environment; command-line flags win. */
export function loadConfig(env: NodeJS.ProcessEnv, flags: ConfigFlags = {}): Config {
  const dataDir = path.resolve(flags.data ?? env.TABULA_DATA_DIR ?? './data');
  const storageUrl = env.TABULA_STORAGE_URL || `file://${path.join(dataDir, 'files')}`;
  const queryTimeoutMs = parsePositiveDuration('TABULA_QUERY_TIMEOUT', env.TABULA_QUERY_TIMEOUT ?? '10s');
  const processes = parseProcesses(flags.processes ?? env.TABULA_PROCESSES ?? '1');
  return Object.freeze({
    host: flags.host ?? (env.HOST || '127.0.0.1'),
    port: parsePort(flags.port ?? (env.PORT || 8080)),
    dataDir,
    databaseUrl: parseDatabaseUrl(env.DATABASE_URL),
    storageUrl,
    filesHost: env.TABULA_FILES_HOST || defaultFilesHost(storageUrl),
    secret: env.TABULA_SECRET || null,
    rateLimitPerMinute: parsePositiveInteger('TABULA_RATE_LIMIT_PER_MINUTE', env.TABULA_RATE_LIMIT_PER_MINUTE ?? '600'),
    redisUrl: env.REDIS_URL || null,
    redisPrefix: env.TABULA_REDIS_PREFIX || 'tabula-rate-limit:',
    fetchAllowHosts: parseFetchAllowHosts(env.TABULA_FETCH_ALLOW_HOSTS ?? ''),
    fetchTimeoutMs: parsePositiveDuration('TABULA_FETCH_TIMEOUT', env.TABULA_FETCH_TIMEOUT ?? '15s'),
    reclaimIntervalMs: parseDuration(env.TABULA_RECLAIM_INTERVAL ?? '1h'),
    queryTimeoutMs,
    // Past one budget: a slot frees within one query's budget (plus SQLite's 2 s grace), so a query
    // that waited for it does not give up just as it would have started.
    queryQueueTimeoutMs: env.TABULA_QUERY_QUEUE_TIMEOUT ? parsePositiveDuration('TABULA_QUERY_QUEUE_TIMEOUT', env.TABULA_QUERY_QUEUE_TIMEOUT) : 2 * queryTimeoutMs,
    queryConcurrency: parsePositiveInteger('TABULA_QUERY_CONCURRENCY', env.TABULA_QUERY_CONCURRENCY ?? String(defaultQuerySlots())),
    databaseConnections: parsePositiveInteger('TABULA_DATABASE_CONNECTIONS', env.TABULA_DATABASE_CONNECTIONS ?? String(defaultDatabaseConnections(processes))),
    sendTimeoutMs: parsePositiveDuration('TABULA_SEND_TIMEOUT', env.TABULA_SEND_TIMEOUT ?? '30s'),
    trustProxy: parseTrustProxy(env.TABULA_TRUST_PROXY ?? ''),
    maxResponseSize: parseMaxResponseMegabytes(env.TABULA_MAX_RESPONSE_MB ?? String(maxResponseMegabytes)) * 1024 * 1024,
    automaticIndexes: {
      enabled: parseSwitch('TABULA_AUTO_INDEXES', env.TABULA_AUTO_INDEXES ?? 'on'),
      threshold: parsePositiveInteger('TABULA_AUTO_INDEX_AFTER', env.TABULA_AUTO_INDEX_AFTER ?? '20'),
      minRows: parseCount('TABULA_AUTO_INDEX_MIN_ROWS', env.TABULA_AUTO_INDEX_MIN_ROWS ?? '10000'),
      budget: parseCount('TABULA_AUTO_INDEX_BUDGET', env.TABULA_AUTO_INDEX_BUDGET ?? '5'),
      unusedMs: parsePositiveDuration('TABULA_AUTO_INDEX_UNUSED', env.TABULA_AUTO_INDEX_UNUSED ?? '30d'),
    },
    corsOrigins: parseCorsOrigins(env.TABULA_CORS_ORIGINS ?? ''),
    thumbnailCacheBytes: parsePositiveInteger('TABULA_THUMBNAIL_CACHE_MB', env.TABULA_THUMBNAIL_CACHE_MB ?? '512') * 1024 * 1024,
    heapGrowthPercent: parseCount('TABULA_HEAP_GROWTH', env.TABULA_HEAP_GROWTH ?? '20'),
    trashDays: parsePositiveInteger('TABULA_TRASH_DAYS', env.TABULA_TRASH_DAYS ?? '30'),
    changesDays: parsePositiveInteger('TABULA_CHANGES_DAYS', env.TABULA_CHANGES_DAYS ?? '30'),
    purgeIntervalMs: parseDuration(env.TABULA_PURGE_INTERVAL ?? '1h'),
    streamsPerKey: parsePositiveInteger('TABULA_STREAMS_PER_KEY', env.TABULA_STREAMS_PER_KEY ?? '20'),
    consoleDir: path.resolve(env.TABULA_CONSOLE_DIR || defaultConsoleDir),
    jobLeaseMs: parsePositiveDuration('TABULA_JOB_LEASE', env.TABULA_JOB_LEASE ?? '1m'),
    jobHoldBeforeRunMs: parseDuration(env.TABULA_TEST_JOB_HOLD ?? '0s'),
    drainMs: parsePositiveInteger('TABULA_DRAIN_SECONDS', env.TABULA_DRAIN_SECONDS ?? '30') * 1000,
    metrics: parseSwitch('TABULA_METRICS', env.TABULA_METRICS ?? 'off'),
    metricsToken: env.TABULA_METRICS_TOKEN || null,
    processes,

    webhooks: {
      timeoutMs: parsePositiveDuration('TABULA_WEBHOOK_TIMEOUT', env.TABULA_WEBHOOK_TIMEOUT ?? '10s'),
      leaseMs: parsePositiveDuration('TABULA_WEBHOOK_LEASE', env.TABULA_WEBHOOK_LEASE ?? '60s'),
      retryScheduleMs: (env.TABULA_WEBHOOK_RETRY_SCHEDULE ?? '5s,30s,2m,10m,30m,1h,2h').split(',').map((part) => parsePositiveDuration('TABULA_WEBHOOK_RETRY_SCHEDULE', part)),
    },
  });
}

/**
 * PostgreSQL is the only server database: any other scheme (`mysql://`, `sqlite:…`, a file path)
 * would otherwise reach the PostgreSQL driver and fail obscurely, or not at all. Only the scheme is
 * echoed: the rest of the URL may hold a password.
 */
function parseDatabaseUrl(raw: string | undefined): string | null {
  if (!raw) return null;
  if (/^postgres(ql)?:\/\//i.test(raw)) return raw;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1];
  const got = scheme ? `a ${scheme}: URL` : 'something that is not a URL';
  throw new Error(`DATABASE_URL must be a postgres:// or postgresql:// URL, got ${got}; leave it unset to use SQLite in the data directory`);
}

function parseProcesses(raw: string): number {
  if (raw === 'auto') return os.availableParallelism();
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > 256) throw new Error(`--processes (TABULA_PROCESSES) must be a whole number from 1 to 256 or auto, got "${raw}"`);
  return value;
}

function parsePort(raw: string | number): number {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port: ${raw}`);
  return port;
}

function parseCount(name: string, raw: string): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value)) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return value;
}

function parseSwitch(name: string, raw: string): boolean {
  if (raw === 'on' || raw === 'off') return raw === 'on';
  throw new Error(`${name} must be on or off, got "${raw}"`);
}

function parsePositiveInteger(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

const namedProxyRanges = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * A comma-separated list of addresses, CIDR ranges and proxy-addr's names (`loopback`,
 * `linklocal`, `uniquelocal`). No "trust everyone" and no hop counts: either would let any
 * client that reaches the server directly choose its own address. Checked strictly here
 * (proxy-addr would read `1` as the address 0.0.0.1), then compiled once as Fastify will.
 */
function parseTrustProxy(raw: string): readonly string[] {
  const entries = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, prefix, ...rest] = entry.split('/');
    const family = net.isIP(address);
    const prefixValid = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
    if (!namedProxyRanges.has(entry) && (family === 0 || !prefixValid || rest.length > 0)) {
      throw new Error(`TABULA_TRUST_PROXY must list proxy addresses or CIDR ranges, got "${entry}"`);
    }
  }
  if (entries.length > 0) proxyAddr.compile(entries);
  return Object.freeze(entries);
}

/**
 * Parsed here, once, with the address policy's own reader: an unreadable entry stops the start
 * instead of allowing nothing (or something else) without a word.
 */
function parseFetchAllowHosts(raw: string): readonly AllowedHost[] {
  try {
    return Object.freeze(parseAllowHosts(raw));
  } catch (error) {
    throw new Error(`${(error as Error).message} (expected comma-separated host, host:port or [IPv6]:port entries, without a scheme or a path)`);
  }
}

/**
 * Exact origins only: no `*`, no patterns, no paths. A wildcard would let any site read what a
 * logged-in user's browser can, and a typo such as a trailing slash would match nothing silently.
 */
function parseCorsOrigins(raw: string): readonly string[] {
  const entries = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    let origin: string | undefined;
    try {
      origin = new URL(entry).origin;
    } catch {
      // not a URL: refused below
    }
    if (origin !== entry || !/^https?:\/\//.test(entry)) {
      throw new Error(`TABULA_CORS_ORIGINS must list exact origins such as https://app.example.com (scheme, host and port only; no *, path or trailing slash), got "${entry}"`);
    }
  }
  return Object.freeze(entries);
}

function parseMaxResponseMegabytes(raw: string): number {
  const value = parsePositiveInteger('TABULA_MAX_RESPONSE_MB', raw);
  if (value > maxResponseMegabytes) throw new Error(`TABULA_MAX_RESPONSE_MB must be at most ${maxResponseMegabytes}, got "${raw}"`);
  return value;
}

function defaultFilesHost(storageUrl: string): string {
  if (!storageUrl.startsWith('s3://')) return 'localhost';
  const endpoint = new URL(storageUrl).searchParams.get('endpoint');
  return endpoint ? new URL(endpoint).host : 's3.amazonaws.com';
}

function parsePositiveDuration(name: string, raw: string): number {
  let value: number;
  try {
    value = parseDuration(raw);
  } catch {
    throw new Error(`${name} must be a duration such as 500ms, 10s or 1m, got "${raw}"`);
  }
  if (value < 1) throw new Error(`${name} must be longer than 0, got "${raw}"`);
  return value;
}

const durationUnits: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses `500ms`, `30s`, `10m`, `1h`, `1d`. */
export function parseDuration(raw: string): number {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(raw.trim());
  if (!match) throw new Error(`Invalid duration "${raw}" (use e.g. 30s, 10m, 1h)`);
  return Number(match[1]) * durationUnits[match[2]];
}
