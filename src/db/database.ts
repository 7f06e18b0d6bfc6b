import { Migrator } from 'kysely';
import { createMigrationProvider } from './migrations/index.js';
import { defaultQuerySlots } from './bounded-read.js';
import { defaultDatabaseConnections, type Database, type QueryBounds } from './database-engine.js';

export type { Database, DdlProgress } from './database-engine.js';

export interface DatabaseOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** Record queries: their time budget and how many run at once (see bounded-read.ts). */
  queryTimeoutMs?: number;
  queryConcurrency?: number;
  queryQueueTimeoutMs?: number;
  /**
   * SQLite: the page cache in KiB of the read connection and of each query worker.
   * A server keeps the default; a command that reads a table through once passes less (cli-context.ts).
   */
  sqliteCacheKib?: number;
  /**
   * SQLite: the writer's page cache in KiB; 0 keeps better-sqlite3's 16 MB. A server's is as
   * large as its readers' (updates of random records filled all 16 MB for no speed measured:
   * docs/decisions.md, "A server's writer cache"); a command keeps 16 MB for its import's B-trees.
   */
  sqliteWriterCacheKib?: number;
  /**
   * SQLite: how often a query worker copies the WAL back into the database file (a passive
   * checkpoint), in ms, so that the writer's commits seldom do; 0 leaves checkpoints to the
   * writer, as SQLite does by default. A server checkpoints in the background; a command,
   * which starts no worker it does not need, passes 0 (cli-context.ts).
   */
  sqliteCheckpointEveryMs?: number;
  /**
   * SQLite, with background checkpoints: the WAL's length in pages from which a checkpoint that
   * writes kept from copying it all is finished with the writes paused, so that the WAL
   * restarts (sqlite-read-workers.ts).
   */
  sqliteRestartWalPages?: number;
  /** PostgreSQL: the connections of the pool for every call but the record queries (default: defaultDatabaseConnections). */
  databaseConnections?: number;
}

/**
 * Room for the interior B-tree pages of a million-record table: a random get's leaf is a miss
 * at any size a server can afford, and the OS page cache answers it. 8 MiB served gets at the
 * cost of 32 MiB, 25 MB of RSS less (docs/performance.md, session 33).
 */
const serverCacheKib = 8 * 1024;

/** Measured at a million records: shorter turns copied the same pages more often for no more writes (docs/performance.md, session 29). */
const serverCheckpointEveryMs = 200;

/**
 * 64 MB of WAL: each restart pauses the writes for the frames written since the last
 * checkpoint and two syncs (15-50 ms on this machine's disk); restarting at 4 MB paused them
 * about every 200 ms (docs/performance.md, session 42).
 */
const serverRestartWalPages = 16_000;

const defaultQueryBounds = {
  queryTimeoutMs: 10_000,
  queryConcurrency: defaultQuerySlots(),
  sqliteCacheKib: serverCacheKib,
  sqliteWriterCacheKib: serverCacheKib,
  sqliteCheckpointEveryMs: serverCheckpointEveryMs,
  sqliteRestartWalPages: serverRestartWalPages,
  databaseConnections: defaultDatabaseConnections(),
};

/**
 * Opens the configured engine, loading only its driver: a SQLite process never loads pg, a
 * PostgreSQL one never loads better-sqlite3 (about 6 MB of memory between them).
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const bounds: QueryBounds = { ...defaultQueryBounds, ...options };
  if (options.databaseUrl) return (await import('./postgres-database.js')).openPostgres(options.databaseUrl, bounds);
  return (await import('./sqlite-database.js')).openSqlite(options.dataDir, bounds);
}

/**
 * Applies pending migrations; safe to call from several processes starting at once. On
 * PostgreSQL Kysely takes an advisory lock. On SQLite its lock is in-process only, so two
 * processes may both try: each migration is one transaction, the loser's rolls back ("table …
 * already exists", or busy), and it looks again: nothing left to do, or the rest to apply.
 */
export async function migrateToLatest(database: Database): Promise<string[]> {
  const migrator = new Migrator({ db: database.db, provider: createMigrationProvider(database.dialect.name) });
  const applied: string[] = [];
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    applied.push(...(results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName));
    if (!error) return applied;
    if (database.dialect.name !== 'sqlite' || attempt >= 5) throw error;
    await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
  }
}

/** Migrations this build knows that the database has not run (a process started before `tabula migrate` of a newer build has none). */
export async function pendingMigrations(database: Database): Promise<string[]> {
  const migrator = new Migrator({ db: database.db, provider: createMigrationProvider(database.dialect.name) });
  return (await migrator.getMigrations()).filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
}
