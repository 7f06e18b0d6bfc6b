import fs from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import { callbackFormPool } from './postgres-pool.js';
import type { SystemSchema } from './schema.js';
import { getDialect, type Dialect } from './dialect.js';
import { createMigrationProvider } from './migrations/index.js';
import { registerDirectReader } from './prepared-query.js';
import { defaultQuerySlots, registerBoundedReader } from './bounded-read.js';
import { sqliteFileOf } from './existing-database.js';
import { createPostgresBoundedReader } from './postgres-bounded-reader.js';
import { configureSqliteConnection, createStatementCache } from './sqlite-connection.js';
import { createSqliteReadWorkers } from './sqlite-read-workers.js';
import type { DdlReply } from './sqlite-ddl-worker.js';
import { startWorker } from './start-worker.js';

export interface Database {
  readonly db: Kysely<SystemSchema>;
  readonly dialect: Dialect;
  /**
   * Runs one long DDL statement (an index build) so that it holds up as little as it can:
   * PostgreSQL on a connection of its own (the statement builds `concurrently`), SQLite in a
   * worker thread while the main connection's writers wait their turn without blocking the
   * event loop. `onProgress` hears about every two seconds how far it is.
   */
  runLongDdl(statement: string, onProgress?: (progress: DdlProgress) => void): Promise<void>;
  destroy(): Promise<void>;
}

/** How far a long DDL statement is: PostgreSQL reports its phase and blocks; SQLite only the time. */
export interface DdlProgress {
  elapsedMs: number;
  phase?: string;
  done?: number;
  total?: number;
}

const progressIntervalMs = 2000;

export interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** Record queries: their time budget and how many run at once (see bounded-read.ts). */
  queryTimeoutMs?: number;
  queryConcurrency?: number;
  /**
   * SQLite: the read connection's page cache in KiB; each query worker caches half as much.
   * A server keeps the default; a command that reads a table through once passes less (cli-context.ts).
   */
  sqliteCacheKib?: number;
}

/** Twice better-sqlite3's default: room for the interior B-tree pages of a million-record table. */
const serverCacheKib = 32 * 1024;

const defaultQueryBounds = { queryTimeoutMs: 10_000, queryConcurrency: defaultQuerySlots(), sqliteCacheKib: serverCacheKib };

// pg returns int8 (counts, bigserial) as strings by default; every id and count here fits a double.
pg.types.setTypeParser(20, (value) => Number(value));

export function openDatabase(options: DatabaseOptions): Database {
  const bounds = { ...defaultQueryBounds, ...options };
  return options.databaseUrl ? openPostgres(options.databaseUrl, bounds) : openSqlite(options.dataDir, bounds);
}

type QueryBounds = typeof defaultQueryBounds;

function openSqlite(dataDir: string, bounds: QueryBounds): Database {
  // The database holds key hashes and sealed credentials: owner-only, like the secret file.
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = sqliteFileOf(dataDir);
  const connection = new SqliteDatabase(file);
  fs.chmodSync(file, 0o600);
  connection.pragma('journal_mode = WAL');
  configureSqliteConnection(connection);
  connection.pragma('foreign_keys = ON');
  connection.pragma('synchronous = NORMAL');
  const db = new Kysely<SystemSchema>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
  const reader = openSqliteReader(file, bounds.sqliteCacheKib);
  const readerStatements = createStatementCache(reader);
  registerDirectReader(db, (source, parameters) => readerStatements(source).all(parameters));
  // Each query worker caches half as much: several hold the same pages, and the OS keeps the file's.
  const workers = createSqliteReadWorkers(file, { slots: bounds.queryConcurrency, budgetMs: bounds.queryTimeoutMs, cacheKib: Math.ceil(bounds.sqliteCacheKib / 2) });
  registerBoundedReader(db, workers);
  return {
    db,
    dialect: getDialect('sqlite'),
    runLongDdl: (statement, onProgress) =>
      // Holding Kysely's one connection makes every other write wait in its queue, not in
      // SQLite's busy handler, which would block the event loop.
      db.connection().execute(() => withProgressTicks(runSqliteDdlInWorker(file, statement), onProgress, async () => ({}))),
    destroy: async () => {
      await workers.close();
      await db.destroy();
      reader.close();
    },
  };
}

/**
 * A second connection for the hot prepared reads (keys, tables, record gets, counters), run
 * synchronously without Kysely's connection lock: with WAL it reads the last committed state
 * even while a transaction is open on the main connection, whose uncommitted rows it never
 * sees and for which it never waits.
 */
function openSqliteReader(file: string, cacheKib: number): SqliteDatabase.Database {
  const reader = new SqliteDatabase(file);
  configureSqliteConnection(reader);
  reader.pragma('query_only = ON');
  reader.pragma(`cache_size = -${cacheKib}`);
  return reader;
}

/**
 * Kysely prepares every query anew; with the same few hundred statements on every request,
 * caching prepared statements by their SQL text saves most of SQLite's per-query cost.
 * Safe because Kysely serialises all use of the one connection.
 */
function withStatementCache(connection: SqliteDatabase.Database): SqliteDatabase.Database {
  const prepare = createStatementCache(connection);
  return new Proxy(connection, {
    get(target, property) {
      if (property === 'prepare') return prepare;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function openPostgres(url: string, bounds: QueryBounds): Database {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection dropped by the server (restart, failover, terminated backend) emits here;
  // unhandled, it would crash the process. The pool replaces it on the next checkout.
  pool.on('error', (error) => process.emitWarning(`PostgreSQL idle connection lost: ${error.message}`));
  const db = new Kysely<SystemSchema>({ dialect: new PostgresDialect({ pool: callbackFormPool(pool) }) });
  const boundedReader = createPostgresBoundedReader(url, { slots: bounds.queryConcurrency, budgetMs: bounds.queryTimeoutMs });
  registerBoundedReader(db, boundedReader);
  return {
    db,
    dialect: getDialect('postgres'),
    runLongDdl: (statement, onProgress) => runPostgresDdl(url, pool, statement, onProgress),
    destroy: async () => {
      await boundedReader.close();
      await db.destroy();
    },
  };
}

function runSqliteDdlInWorker(file: string, statement: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = startWorker('sqlite-ddl-worker', { file, statement });
    worker.once('message', (reply: DdlReply) => (reply.ok ? resolve() : reject(Object.assign(new Error(reply.message), { code: reply.code }))));
    worker.once('error', reject);
    worker.once('exit', () => reject(new Error('SQLite DDL worker exited')));
  });
}

/**
 * On a client of its own, not the pool's: a build of minutes holds no pooled connection.
 * PostgreSQL reports a build's progress in `pg_stat_progress_create_index`.
 */
async function runPostgresDdl(url: string, pool: pg.Pool, statement: string, onProgress?: (progress: DdlProgress) => void): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
    const readProgress = async (): Promise<Partial<DdlProgress>> => {
      const { rows } = await pool.query('select phase, blocks_done, blocks_total from pg_stat_progress_create_index where pid = $1', [pid]);
      return rows[0] ? { phase: rows[0].phase, done: Number(rows[0].blocks_done), total: Number(rows[0].blocks_total) } : {};
    };
    await withProgressTicks(client.query(statement).then(() => undefined), onProgress, readProgress);
  } finally {
    await client.end();
  }
}

async function withProgressTicks(work: Promise<void>, onProgress: ((progress: DdlProgress) => void) | undefined, read: () => Promise<Partial<DdlProgress>>): Promise<void> {
  if (!onProgress) return work;
  const started = Date.now();
  const timer = setInterval(() => {
    read().then(
      (details) => onProgress({ elapsedMs: Date.now() - started, ...details }),
      () => undefined,
    );
  }, progressIntervalMs);
  try {
    await work;
  } finally {
    clearInterval(timer);
  }
}

/** Applies pending migrations; safe to call from several processes (Kysely takes a lock). */
export async function migrateToLatest(database: Database): Promise<string[]> {
  const migrator = new Migrator({ db: database.db, provider: createMigrationProvider(database.dialect.name) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
