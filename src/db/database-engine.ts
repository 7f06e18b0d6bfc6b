import os from 'node:os';
import type { Kysely } from 'kysely';
import type { QuerySlots } from './bounded-read.js';
import type { Dialect } from './dialect.js';
import type { SystemSchema } from './schema.js';

/** What an engine module (sqlite-database.ts, postgres-database.ts) opens: the database and what runs on it. */
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

/** Record queries' bounds and the SQLite page cache, as openDatabase resolved them from DatabaseOptions. */
export interface QueryBounds {
  queryTimeoutMs: number;
  queryConcurrency: number;
  /** Longest a record query waits for its slot; unset: twice its time budget. */
  queryQueueTimeoutMs?: number;
  sqliteCacheKib: number;
  /** 0: better-sqlite3's own (DatabaseOptions.sqliteWriterCacheKib). */
  sqliteWriterCacheKib: number;
  /** 0: the writer checkpoints (DatabaseOptions.sqliteCheckpointEveryMs). */
  sqliteCheckpointEveryMs: number;
  /** DatabaseOptions.sqliteRestartWalPages. */
  sqliteRestartWalPages: number;
  /** PostgreSQL: the connections of the pool that every call but the record queries uses (defaultDatabaseConnections). */
  databaseConnections: number;
}

/**
 * Connections of a PostgreSQL process's pool by default: twice the machine's cores, shared by
 * the `processes` serving on it (`serve --processes`), at least 4 each. Its statements are short
 * and CPU-bound, ours and the database's; connections beyond that only add backends to wake
 * and switch between. On 2 cores, 4 against pg's 10: updates +46 %, gets +22 %, creates +18 %
 * a second, with 39 % less of the database's CPU an update (docs/performance.md, session 38).
 * A database far away, whose round trips are long, may want more (`TABULA_DATABASE_CONNECTIONS`).
 */
export function defaultDatabaseConnections(processes = 1): number {
  return Math.max(4, Math.ceil((2 * os.availableParallelism()) / processes));
}

/** The slots of the bounded reader (bounded-read.ts), as the bounds give them. */
export function querySlotsOf(bounds: QueryBounds): QuerySlots {
  return { share: bounds.queryConcurrency, budgetMs: bounds.queryTimeoutMs, queueTimeoutMs: bounds.queryQueueTimeoutMs ?? 2 * bounds.queryTimeoutMs };
}

const progressIntervalMs = 2000;

/** Runs `work`, telling `onProgress` every two seconds how far it is (`read` adds what the engine reports). */
export async function withProgressTicks(work: Promise<void>, onProgress: ((progress: DdlProgress) => void) | undefined, read: () => Promise<Partial<DdlProgress>>): Promise<void> {
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
