import { api, ApiError, unwrap } from '../api/client';

/** Records per create_batch call: the endpoint's limit. */
export const batchSize = 1000;
/**
 * Batches sent at once: one, so that records get ids in the file's order. Two in flight
 * (bench/console-import-bench.ts, 100,000 rows, same loaded machine) were no faster on SQLite
 * (one writer) and ~35 % faster on PostgreSQL, but put ~10 (SQLite) to ~600 (PostgreSQL)
 * records out of the file's order. The loop below takes any number.
 */
const inFlight = 1;

export interface PendingRow {
  line: number;
  data: Record<string, unknown>;
}

export interface Rejection {
  line: number;
  reason: string;
}

export interface SendResult {
  /** Records written and kept. */
  imported: number;
  /** Rows the server refused (the browser's own refusals are the caller's). */
  rejected: Rejection[];
  /** A failure that stopped the import (the network, a field changed meanwhile), after everything written was taken back. */
  failure?: string;
  /** Records that could not be taken back after a failure (the report says so: they are in the table). */
  leftOver: number;
}

/** `records[17]: …` → 17 (for a duplicate pair, the later one), as create_batch names a refused record. */
function refusedIndex(message: string): number | undefined {
  const pair = /^records\[(\d+)\] and records\[(\d+)\]/.exec(message);
  if (pair) return Number(pair[2]);
  const single = /^records\[(\d+)\]: /.exec(message);
  return single ? Number(single[1]) : undefined;
}

/** Takes written records back (they go to the table's trash, as any delete does); answers how many could not be. */
async function takeBack(tid: number, ids: number[]): Promise<number> {
  for (let start = 0; start < ids.length; start += batchSize) {
    try {
      await unwrap(api.POST('/api/table/{tid}/records/delete_batch', { params: { path: { tid } }, body: { record_ids: ids.slice(start, start + batchSize) } }));
    } catch {
      return ids.length - start;
    }
  }
  return 0;
}

/**
 * Writes the rows through create_batch, 1,000 at a time, in the file's order. Each batch is all or nothing
 * on the server: a record it refuses is rejected (its line reported) and the rest of the batch
 * sent again, as `tabula import` does. The whole import is all or nothing unless `keepValid`:
 * when a row was refused (or anything failed), every record written so far is deleted again.
 */
export async function sendRows(tid: number, rows: PendingRow[], keepValid: boolean, onProgress: (sent: number) => void): Promise<SendResult> {
  const written: number[] = [];
  const rejected: Rejection[] = [];
  let failure: string | undefined;
  let next = 0;
  let sent = 0;
  /** Sends one batch; a record the server refuses is rejected and the rest of the batch sent again. */
  const sendBatch = async (rowsOfBatch: PendingRow[]) => {
    let batch = rowsOfBatch;
    while (batch.length > 0) {
      try {
        const created = await unwrap(api.POST('/api/table/{tid}/records/create_batch', { params: { path: { tid } }, body: { records: batch.map((row) => ({ data: row.data })) } as never }));
        written.push(...(created as { id: number }[]).map((record) => record.id));
        batch = [];
      } catch (error) {
        const index = error instanceof ApiError && error.status < 500 ? refusedIndex(error.message) : undefined;
        if (index === undefined || index >= batch.length) throw error;
        rejected.push({ line: batch[index].line, reason: (error as ApiError).message.replace(/^records\[\d+\](?: and records\[\d+\])?: /, '') });
        batch = batch.filter((_, position) => position !== index);
      }
    }
    sent += rowsOfBatch.length;
    onProgress(sent);
  };
  /** One of `inFlight` senders: takes the next batch until none is left (or, without keepValid, one was refused: nothing is kept anyway). */
  const sender = async () => {
    while (next < rows.length && failure === undefined && (keepValid || rejected.length === 0)) {
      const start = next;
      next += batchSize;
      try {
        await sendBatch(rows.slice(start, start + batchSize));
      } catch (error) {
        failure ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, sender));
  if (failure !== undefined || (rejected.length > 0 && !keepValid)) {
    const leftOver = await takeBack(tid, written);
    return { imported: leftOver, rejected, failure, leftOver };
  }
  return { imported: written.length, rejected, leftOver: 0 };
}
