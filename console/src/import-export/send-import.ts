import { api, ApiError, unwrap } from '../api/client';

/** Records per create_batch and validate_batch call: the endpoints' limit. */
export const batchSize = 1000;

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
  /**
   * A failure that stopped the import (the network; a row refused because the table changed
   * since the rows were checked), after everything written was taken back.
   */
  failure?: string;
  /** The row the server refused while writing, when that was the failure. */
  refused?: Rejection;
  /** Records that could not be taken back after a failure (the report says so: they are in the table). */
  leftOver: number;
}

/** `records[17]: …` → 17, as create_batch names a refused record. */
function refusedIndex(message: string): number | undefined {
  const single = /^records\[(\d+)\]: /.exec(message);
  return single ? Number(single[1]) : undefined;
}

/** The row of `batch` a create_batch error refuses, or undefined when the error is not a refusal of one record. */
function refusedRow(error: unknown, batch: readonly PendingRow[]): Rejection | undefined {
  if (!(error instanceof ApiError) || error.status >= 500) return undefined;
  const index = refusedIndex(error.message);
  if (index === undefined || index >= batch.length) return undefined;
  return { line: batch[index].line, reason: error.message.replace(/^records\[\d+\]: /, '') };
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
 * Writes rows the server has checked (check-import.ts) through create_batch, 1,000 at a time,
 * one batch after the other, in the file's order: records get ids in that order (two batches
 * in flight, bench/console-import-bench.ts, were no faster on SQLite, one writer, and put ~10
 * records out of order there, ~600 on PostgreSQL, where they were ~35 % faster). Each batch is
 * all or nothing on the server; the whole import is too: if anything fails — the network, or a
 * row refused because the table changed since the check — every record written so far is
 * deleted again, the last resort (docs/decisions.md, "validate_batch; the console's CSV import checks, then writes").
 */
export async function sendRows(tid: number, rows: readonly PendingRow[], onProgress: (sent: number) => void): Promise<SendResult> {
  const written: number[] = [];
  for (let start = 0; start < rows.length; start += batchSize) {
    const batch = rows.slice(start, start + batchSize);
    try {
      const created = await unwrap(api.POST('/api/table/{tid}/records/create_batch', { params: { path: { tid } }, body: { records: batch.map((row) => ({ data: row.data })) } as never }));
      written.push(...(created as { id: number }[]).map((record) => record.id));
    } catch (error) {
      const refused = refusedRow(error, batch);
      const leftOver = await takeBack(tid, written);
      const failure = refused ? `line ${refused.line} was refused while writing (the table may have changed since the check): ${refused.reason}` : error instanceof Error ? error.message : String(error);
      return { imported: leftOver, failure, refused, leftOver };
    }
    onProgress(start + batch.length);
  }
  return { imported: written.length, leftOver: 0 };
}
