import fs from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, Kysely, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';
import type { SystemSchema } from './schema.js';
import { getDialect } from './dialect.js';
import { querySlotsOf, withProgressTicks, type Database, type QueryBounds } from './database-engine.js';
import { registerDirectReader, registerTransactionRunner } from './prepared-query.js';
import { createTurnReads } from './sqlite-turn-reads.js';
import { registerBoundedReader } from './bounded-read.js';
import { registerBackgroundWriter } from './background-write.js';
import { sqliteFileOf } from './existing-database.js';
import { configureSqliteConnection, createStatementCache } from './sqlite-connection.js';
import { createSqliteReadWorkers } from './sqlite-read-workers.js';
import type { DdlReply } from './sqlite-ddl-worker.js';
import { startWorker } from './start-worker.js';
import { holdFileDescriptor } from './sqlite-file-descriptor.js';

/**
 * WAL pages (4 KiB each) at which the writer checkpoints by itself when background checkpoints
 * are on: only when they could not run (every query worker held by a query), as each of them
 * restarts the WAL (sqlite-read-workers.ts).
 */
const backstopCheckpointPages = 32000;

/** SQLite in `<dataDir>/tabula.db`: loaded by openDatabase only when there is no DATABASE_URL. */
export function openSqlite(dataDir: string, bounds: QueryBounds): Database {
  // The database holds key hashes and sealed credentials: owner-only, like the secret file.
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = sqliteFileOf(dataDir);
  const connection = new SqliteDatabase(file);
  fs.chmodSync(file, 0o600);
  connection.pragma('journal_mode = WAL');
  configureSqliteConnection(connection);
  connection.pragma('foreign_keys = ON');
  connection.pragma('synchronous = NORMAL');
  if (bounds.sqliteWriterCacheKib > 0) connection.pragma(`cache_size = -${bounds.sqliteWriterCacheKib}`);
  // Query workers checkpoint in the background; the writer's own checkpoints, at a WAL 32
  // times SQLite's default, are only the backstop for when every worker is held by a query.
  if (bounds.sqliteCheckpointEveryMs > 0) connection.pragma(`wal_autocheckpoint = ${backstopCheckpointPages}`);
  const writerStatements = createStatementCache(connection);
  const db = new Kysely<SystemSchema>({ dialect: new WriterDialect({ database: withStatementCache(connection, writerStatements) }) });
  registerTransactionRunner(db, (source, parameters) => {
    const statement = writerStatements(source);
    if (statement.reader) return statement.all(parameters);
    statement.run(parameters);
    return [];
  });
  // Held while this database's connections are open, and closed after them: never a descriptor
  // opened and closed beside them (sqlite-file-descriptor.ts).
  const fileDescriptor = holdFileDescriptor(file);
  const reader = openSqliteReader(file, bounds.sqliteCacheKib);
  const readerStatements = createStatementCache(reader);
  registerDirectReader(db, createTurnReads(reader, readerStatements));
  const workers = createSqliteReadWorkers(file, {
    ...querySlotsOf(bounds),
    cacheKib: bounds.sqliteCacheKib,
    checkpointEveryMs: bounds.sqliteCheckpointEveryMs,
    restartWalPages: bounds.sqliteRestartWalPages,
    syncDescriptor: fileDescriptor.descriptor,
    // Holding Kysely's one connection: the writes wait in its queue, between two transactions.
    pauseWrites: (during) => db.connection().execute(during),
  });
  registerBoundedReader(db, workers);
  // A server's background writes run on a worker; a command's (no background checkpoints, no
  // worker started for them) on this writer.
  if (bounds.sqliteCheckpointEveryMs > 0) registerBackgroundWriter(db, workers.write);
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
      fileDescriptor.release();
    },
  };
}

/**
 * The writer's transactions begin IMMEDIATE: each takes the write lock at its start, waiting
 * for another connection's write as any write does. A deferred one that reads before it writes
 * (an update reads its row first) is refused at its first write when another connection
 * committed in between (SQLITE_BUSY_SNAPSHOT, which no busy timeout retries: a 503 to the
 * caller). Seen in CI: a `tabula changes tail --follow` process's search catch-up committed
 * between a server update's read and its write.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class WriterDialect extends SqliteDialect {
  constructor(private readonly writerConfig: SqliteDialectConfig) {
    super(writerConfig);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.writerConfig);
  }
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
 * Safe because Kysely serialises all use of the one connection, and a transaction's direct
 * statements (registerTransactionRunner) run only while that transaction holds it.
 */
function withStatementCache(connection: SqliteDatabase.Database, prepare: (source: string) => SqliteDatabase.Statement): SqliteDatabase.Database {
  return new Proxy(connection, {
    get(target, property) {
      if (property === 'prepare') return prepare;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function runSqliteDdlInWorker(file: string, statement: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = startWorker('sqlite-ddl-worker', { file, statement });
    worker.once('message', (reply: DdlReply) => (reply.ok ? resolve() : reject(Object.assign(new Error(reply.message), { code: reply.code }))));
    worker.once('error', reject);
    worker.once('exit', () => reject(new Error('SQLite DDL worker exited')));
  });
}
