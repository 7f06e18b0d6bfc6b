import { stringify } from 'csv-stringify/sync';
import type { Field } from '../fields/field.js';
import type { RecordObject } from './record-reader.js';
import { neutraliseFormula, type FormulaMode } from './csv-formulas.js';

export type ExportFormat = 'csv' | 'json';

/** What records/export streams: the columns, fixed when it starts, then the records a page at a time. */
export interface RecordExport {
  format: ExportFormat;
  /** CSV only: whether text a spreadsheet would run as a formula gets a `'` before it (csv-formulas.ts). */
  formulas: FormulaMode;
  fields: readonly Pick<Field, 'slug' | 'type' | 'multiple'>[];
  /** Every match, as counted when the export started (records deleted since are left out). */
  total: number;
  pages: AsyncIterable<RecordObject[]>;
}

/** The ids in a comma-separated id list (records/ids' text; empty when nothing matched). */
export function countIds(list: string): number {
  if (list === '') return 0;
  let count = 1;
  for (let comma = list.indexOf(','); comma !== -1; comma = list.indexOf(',', comma + 1)) count += 1;
  return count;
}

/**
 * The ids of a comma-separated id list, `size` at a time. Splitting a million-id list at once
 * would make a million strings and a million-entry array at once.
 */
export function* idPages(list: string, size: number): Generator<number[]> {
  let start = 0;
  while (start < list.length) {
    const page: number[] = [];
    while (page.length < size && start < list.length) {
      const comma = list.indexOf(',', start);
      const end = comma === -1 ? list.length : comma;
      page.push(Number(list.slice(start, end)));
      start = end + 1;
    }
    yield page;
  }
}

/** The columns before the fields in a CSV export. */
export const exportSystemColumns = ['id', 'created_at', 'updated_at'] as const;

/**
 * One record value as a CSV cell (docs/api.md, "records/export"): what a person reading the
 * file or a spreadsheet expects, and what `tabula import` reads back. Empty values are empty
 * cells; several values are joined by `, `.
 */
export function flattenValue(type: string, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((item) => flattenValue(type, item)).filter((item) => item !== '').join(', ');
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' || typeof value === 'string') return String(value);
  const object = value as Record<string, unknown>;
  // A user: the e-mail, which is how a write names one; the name when there is none.
  if (type === 'user') return String(object.email || object.name || '');
  // A lookup: the target's title; its id when the target has no title (an import reads either).
  if (type === 'lookup') return object.title === null || object.title === undefined || object.title === '' ? String(object.id) : String(object.title);
  // An attachment: its file name.
  if (type === 'file') return String(object.name ?? '');
  return JSON.stringify(value);
}

/**
 * A record as one CSV row of `fields` after the system columns. With `escape`, every cell but a
 * number field's is neutralised (csv-formulas.ts): a number stays a number (`-5`), while text,
 * and what is shown as text (a select value, a user's e-mail, a lookup's title, a file name),
 * never starts a formula.
 */
export function flattenRecord(record: RecordObject, fields: RecordExport['fields'], formulas: FormulaMode = 'escape'): string[] {
  const cells = [String(record.id), record.created_at, record.updated_at];
  for (const field of fields) {
    const cell = flattenValue(field.type, record.data[field.slug]);
    cells.push(formulas === 'escape' && field.type !== 'number' ? neutraliseFormula(cell) : cell);
  }
  return cells;
}

/** The export as text, a page at a time: CSV with a header row, or one JSON array of record objects. */
export async function* exportText(exported: RecordExport): AsyncGenerator<string> {
  if (exported.format === 'csv') {
    yield stringify([[...exportSystemColumns, ...exported.fields.map((field) => field.slug)]]);
    for await (const page of exported.pages) {
      if (page.length > 0) yield stringify(page.map((record) => flattenRecord(record, exported.fields, exported.formulas)));
    }
    return;
  }
  yield '[';
  let first = true;
  for await (const page of exported.pages) {
    if (page.length === 0) continue;
    yield `${first ? '' : ','}${page.map((record) => JSON.stringify(record)).join(',')}`;
    first = false;
  }
  yield ']';
}
