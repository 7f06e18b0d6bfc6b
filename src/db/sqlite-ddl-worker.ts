import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import { configureSqliteConnection } from './sqlite-connection.js';

export type DdlReply = { ok: true } | { ok: false; message: string; code?: string };

/**
 * Runs one long statement (an index build) on a connection of its own, off the main thread:
 * the event loop keeps answering and WAL readers keep reading while it holds the write lock.
 */
const { file, statement } = workerData as { file: string; statement: string };
const connection = new SqliteDatabase(file);

/**
 * The page cache of the build's connection, which also sizes SQLite's sorter: better-sqlite3's
 * default is 16 MB. Building a 1,000,000-record index took the server's peak RSS 43-65 MB over
 * its start with it and 17-35 MB with 2 MiB, in 2.6-4.0 s against 2.2-2.3 (docs/decisions.md,
 * "An index build's cache").
 */
const buildCacheKib = 2 * 1024;
let reply: DdlReply;
try {
  configureSqliteConnection(connection);
  connection.pragma(`cache_size = -${buildCacheKib}`);
  connection.exec(statement);
  reply = { ok: true };
} catch (error) {
  reply = { ok: false, message: (error as Error).message, code: (error as { code?: string }).code };
} finally {
  connection.close();
}
parentPort!.postMessage(reply!);
