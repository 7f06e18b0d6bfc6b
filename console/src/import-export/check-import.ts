import { api, unwrap } from '../api/client';
import type { Field } from '../api/types';
import { CellRefused, convertRow } from './csv-cells';
import type { ParsedCsv } from './parse-csv';
import { batchSize, type PendingRow, type Rejection } from './send-import';

/** Rows converted between two pauses of the page's thread. */
const convertChunk = 2000;

/**
 * Every row of the file converted by the browser's rules (csv-cells.ts) into record data for
 * `fieldsByColumn`: those it refuses, by line, and the rest, for the server to check.
 */
export async function convertRows(csv: ParsedCsv, fieldsByColumn: (Field | null)[]): Promise<{ pending: PendingRow[]; rejected: Rejection[] }> {
  const pending: PendingRow[] = [];
  const rejected: Rejection[] = [];
  for (const [index, row] of csv.rows.entries()) {
    // A pause now and then keeps the page responsive while a large file is converted.
    if (index % convertChunk === convertChunk - 1) await new Promise((resolve) => setTimeout(resolve));
    try {
      pending.push({ line: row.line, data: convertRow(row.cells, csv.header.length, fieldsByColumn) });
    } catch (error) {
      if (!(error instanceof CellRefused)) throw error;
      rejected.push({ line: row.line, reason: error.message });
    }
  }
  return { pending, rejected };
}

/** One batch through records/validate_batch: each record create_batch would refuse, by its index in the batch. */
export type ValidateBatch = (records: { data: Record<string, unknown> }[]) => Promise<{ index: number; message: string }[]>;

/** validate_batch on table `tid`: create_batch's checks, writing nothing. */
export const validateOn =
  (tid: number): ValidateBatch =>
  async (records) =>
    (await unwrap(api.POST('/api/table/{tid}/records/validate_batch', { params: { path: { tid } }, body: { records } }))).errors;

/** `data` without the keys of `leaveOut`. */
function without(data: Record<string, unknown>, leaveOut: ReadonlySet<string>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key in data) if (!leaveOut.has(key)) kept[key] = data[key];
  return kept;
}

/**
 * Every row checked by the server as create_batch would check it, 1,000 a call, one call after
 * the other, nothing written: answers the rows it would refuse, by line, in the rows' order.
 * `leaveOut` are keys of `data` not sent (the new fields' placeholders: those fields do not
 * exist until the import is accepted). A failure to check (the network, a refusal of the whole
 * call) throws.
 */
export async function checkRows(rows: readonly PendingRow[], validate: ValidateBatch, onProgress: (checked: number) => void, leaveOut: ReadonlySet<string> = new Set()): Promise<Rejection[]> {
  const rejected: Rejection[] = [];
  for (let start = 0; start < rows.length; start += batchSize) {
    const batch = rows.slice(start, start + batchSize);
    const refused = await validate(batch.map((row) => ({ data: leaveOut.size === 0 ? row.data : without(row.data, leaveOut) })));
    for (const { index, message } of refused) {
      // An index outside the batch would be the server's mistake: refusing the check is safer than guessing a line.
      if (!Number.isInteger(index) || index < 0 || index >= batch.length) throw new Error(`the check named record ${index} of a batch of ${batch.length}`);
      rejected.push({ line: batch[index].line, reason: message });
    }
    onProgress(start + batch.length);
  }
  return rejected;
}
