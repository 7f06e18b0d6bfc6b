import fs from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import type { WrittenStatement } from './background-write.js';
import { BudgetExceeded, configureSqliteConnection, createStatementCache, setStatementDeadline } from './sqlite-connection.js';

/** What a query worker is started with: its file and page cache. */
export interface ReadWorkerData {
  file: string;
  cacheKib: number;
}

/** A statement to run: its SQL text, parameters and deadline (ms since the epoch). */
export interface ReadRequest {
  id: number;
  sql: string;
  parameters: readonly unknown[];
  deadline: number;
}

/**
 * Statements to run in one write transaction, while the server's writer is paused
 * (sqlite-read-workers.ts, `write`): the only time this connection writes.
 */
export interface WriteRequest {
  id: number;
  statements: readonly WrittenStatement[];
}

/**
 * Syncs the database file to disk (the pages a checkpoint copied into it): on this thread, off
 * the event loop, through the descriptor the process holds for it (sqlite-file-descriptor.ts),
 * never one opened and closed here, which would drop the process's locks on the file.
 */
export interface SyncRequest {
  id: number;
  syncDescriptor: number;
}

export type ReadReply = { id: number; rows: unknown[] } | { id: number; error: { message: string; code?: string; overBudget: boolean } };

/** Posted once the connection is open: from then on the thread may be terminated safely (sqlite-read-workers.ts). */
export const readyMessage = { ready: true } as const;

/**
 * A worker thread that runs record queries on its own read-only connection, so that a long
 * statement never holds the event loop, the writer or the hot read connection. It runs at a
 * lower CPU priority than the main thread (Linux), so cheap calls keep their core under load.
 * It also runs the server's background checkpoints and the syncs of the file after them
 * (sqlite-read-workers.ts), which `query_only` does not forbid: a checkpoint changes no data;
 * and the writes no caller waits for, with the server's writer paused, lifting `query_only`
 * for them alone.
 */
function serve(): void {
  const { file, cacheKib } = workerData as ReadWorkerData;
  const connection = new SqliteDatabase(file);
  configureSqliteConnection(connection);
  connection.pragma('query_only = ON');
  connection.pragma(`cache_size = -${cacheKib}`);
  const statements = createStatementCache(connection);
  lowerThreadPriority();
  parentPort!.postMessage(readyMessage);
  const writeAll = connection.transaction((written: WriteRequest['statements']) => {
    for (const statement of written) statements(statement.sql).run(statement.parameters);
  });
  /** What a request does: the statement's rows, or nothing for a write or a sync. */
  function perform(request: ReadRequest | WriteRequest | SyncRequest): unknown[] {
    if ('syncDescriptor' in request) {
      fs.fsyncSync(request.syncDescriptor);
      return [];
    }
    if ('statements' in request) {
      connection.pragma('query_only = OFF');
      try {
        // IMMEDIATE: the write lock from the start, as the server's writer takes it.
        writeAll.immediate(request.statements);
        return [];
      } finally {
        connection.pragma('query_only = ON');
      }
    }
    setStatementDeadline(request.deadline);
    try {
      return statements(request.sql).all(request.parameters);
    } finally {
      setStatementDeadline(Infinity);
    }
  }
  parentPort!.on('message', (request: ReadRequest | WriteRequest | SyncRequest) => {
    let reply: ReadReply;
    try {
      reply = { id: request.id, rows: perform(request) };
    } catch (error) {
      const { message, code } = error as Error & { code?: string };
      reply = { id: request.id, error: { message, code, overBudget: error instanceof BudgetExceeded } };
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
