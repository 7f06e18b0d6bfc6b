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
let reply: DdlReply;
try {
  configureSqliteConnection(connection);
  connection.exec(statement);
  reply = { ok: true };
} catch (error) {
  reply = { ok: false, message: (error as Error).message, code: (error as { code?: string }).code };
} finally {
  connection.close();
}
parentPort!.postMessage(reply!);
