import fs from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import { BudgetExceeded, configureSqliteConnection, createStatementCache, setStatementDeadline } from './sqlite-connection.js';

/** What a query worker is started with: its file, page cache, and how often it checkpoints (0: never). */
export interface ReadWorkerData {
  file: string;
  cacheKib: number;
  checkpointEveryMs: number;
}

/**
 * Copies the WAL's committed pages back into the database file: a passive checkpoint, which
 * never waits for nor blocks the writer or a reader, here at this thread's lower priority
 * instead of inside the writer's commits (docs/decisions.md, "Checkpoints off the writer's
 * thread"). A query's `query_only` does not forbid it: it changes no data.
 */
function checkpoint(connection: SqliteDatabase.Database): void {
  try {
    connection.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // The file busy or gone: the next turn tries again, and the writer's own checkpoints are the backstop.
  }
}

/** A statement to run: its SQL text, parameters and deadline (ms since the epoch). */
export interface ReadRequest {
  id: number;
  sql: string;
  parameters: readonly unknown[];
  deadline: number;
}

export type ReadReply = { id: number; rows: unknown[] } | { id: number; error: { message: string; code?: string; overBudget: boolean } };

/** Posted once the connection is open: from then on the thread may be terminated safely (sqlite-read-workers.ts). */
export const readyMessage = { ready: true } as const;

/**
 * A worker thread that runs record queries on its own read-only connection, so that a long
 * statement never holds the event loop, the writer or the hot read connection. It runs at a
 * lower CPU priority than the main thread (Linux), so cheap calls keep their core under load.
 */
function serve(): void {
  const { file, cacheKib, checkpointEveryMs } = workerData as ReadWorkerData;
  const connection = new SqliteDatabase(file);
  configureSqliteConnection(connection);
  connection.pragma('query_only = ON');
  connection.pragma(`cache_size = -${cacheKib}`);
  const statements = createStatementCache(connection);
  lowerThreadPriority();
  if (checkpointEveryMs > 0) setInterval(() => checkpoint(connection), checkpointEveryMs);
  parentPort!.postMessage(readyMessage);
  parentPort!.on('message', (request: ReadRequest) => {
    setStatementDeadline(request.deadline);
    let reply: ReadReply;
    try {
      reply = { id: request.id, rows: statements(request.sql).all(request.parameters) };
    } catch (error) {
      const { message, code } = error as Error & { code?: string };
      reply = { id: request.id, error: { message, code, overBudget: error instanceof BudgetExceeded } };
    } finally {
      setStatementDeadline(Infinity);
    }
    parentPort!.postMessage(reply);
  });
}

/** Best effort: only Linux names a thread by its id under /proc, and a thread may lower its own priority. */
function lowerThreadPriority(): void {
  try {
    const threadId = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (threadId > 0) os.setPriority(threadId, 10);
  } catch {
    // not Linux: the worker keeps the default priority
  }
}

serve();
