import { restoreFormula } from '../modules/records/csv-formulas.js';
import { UsageError } from './cli-context.js';

/**
 * `tabula import`: CSV cells → record write values, field by field, in the write formats the
 * records API accepts (docs/api.md). What the API itself checks (dates, e-mails, options,
 * members) is passed through for it to refuse with its own message.
 */

/** A field as the table object describes it (`GET /api/table/<id>/get`). */
export interface ImportField {
  id: string;
  name: string;
  type: string;
  multiple: boolean;
  table_id?: number;
}

/** Which field each CSV column goes to (null: ignored), and the ignored columns with why. */
export interface ColumnMapping {
  targets: Array<ImportField | null>;
  ignored: string[];
}

/** Columns an export writes that an import does not: the record's own, set by the service. */
const systemColumns = new Set(['id', 'created_at', 'updated_at', 'title']);

/** A row that cannot be written: its reason goes to the rejects file. */
export class RowRejected extends Error {}

/** A header the import cannot take as it is: refused before anything is written. */
export class HeaderRefused extends Error {}

/**
 * Maps the header to fields: by `--map "Column=slug,…"` when given (every other column
 * ignored: the map says which to take), else each column by field slug or name,
 * case-insensitively. A column that names no field is refused, unless `ignoreUnknown`; so are
 * two columns for one field, and a header with no column for any field. The system columns an
 * export writes (id, created_at, updated_at, title) are skipped, and file fields are not
 * imported (a CSV cell holds a name, not the file).
 */
export function mapColumns(header: readonly string[], fields: readonly ImportField[], map: string | undefined, ignoreUnknown = false): ColumnMapping {
  const bySlug = new Map(fields.map((field) => [field.id.toLowerCase(), field]));
  const byName = new Map(fields.map((field) => [field.name.toLowerCase(), field]));
  let explicit: Map<string, string> | undefined;
  if (map !== undefined) {
    explicit = new Map();
    for (const pair of map.split(',')) {
      const at = pair.lastIndexOf('=');
      if (at < 1) throw new UsageError(`--map takes Column=slug pairs separated by commas, got ${JSON.stringify(pair)}`);
      const slug = pair.slice(at + 1).trim();
      if (!bySlug.has(slug.toLowerCase())) throw new UsageError(`--map names ${JSON.stringify(slug)}, which is not a field of the table`);
      explicit.set(pair.slice(0, at).trim().toLowerCase(), slug.toLowerCase());
    }
  }
  const ignored: string[] = [];
  const unknown: string[] = [];
  const twice: string[] = [];
  const used = new Map<ImportField, string>();
  const targets = header.map((column) => {
    const key = column.trim().toLowerCase();
    const field = explicit ? bySlug.get(explicit.get(key) ?? '') : (bySlug.get(key) ?? byName.get(key));
    if (!field) {
      if (explicit) ignored.push(`${column} (not in --map)`);
      else if (ignoreUnknown) ignored.push(`${column} (no such field)`);
      else if (!systemColumns.has(key)) unknown.push(JSON.stringify(column));
      return null;
    }
    if (field.type === 'file') return void ignored.push(`${column} (file fields are not imported)`), null;
    if (used.has(field)) return void twice.push(`${JSON.stringify(used.get(field))} and ${JSON.stringify(column)} both go to ${field.id}`), null;
    used.set(field, column);
    return field;
  });
  const slugs = `the table's fields are ${fields.map((field) => field.id).join(', ') || '(none)'}`;
  if (unknown.length > 0) {
    throw new HeaderRefused(
      `the header (line 1) names no field in column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; ${slugs}. Map a column with --map "Column=slug,…" or skip the unknown ones with --ignore-unknown`,
    );
  }
  if (twice.length > 0) throw new HeaderRefused(`the header (line 1) has two columns for one field: ${twice.join('; ')}. Choose one with --map "Column=slug,…"`);
  if (used.size === 0) throw new HeaderRefused(`no column of the header (line 1) names a field of the table; ${slugs}`);
  return { targets, ignored };
}

const truths = new Map([['true', true], ['yes', true], ['1', true], ['false', false], ['no', false], ['0', false]]);

/** `a, b,c` → ['a', 'b', 'c']. */
function splitList(cell: string): string[] {
  return cell.split(',').map((item) => item.trim()).filter((item) => item !== '');
}

/** Titles of a lookup's target table → record id (undefined: the title is not unique). */
export type TitleIndex = Map<string, number | undefined>;

/**
 * A lookup cell → record ids: titles (a multiple lookup's cell is titles joined by `, `, and a
 * title may itself hold a comma, so pieces are joined until they name a title), or record ids.
 */
function lookupIds(cell: string, field: ImportField, titles: TitleIndex): number[] {
  const resolve = (text: string): number | undefined | null => {
    if (titles.has(text)) {
      const id = titles.get(text);
      if (id === undefined) throw new RowRejected(`${field.id}: ${JSON.stringify(text)} is the title of several records`);
      return id;
    }
    return /^\d+$/.test(text) ? Number(text) : null;
  };
  if (!field.multiple) {
    const id = resolve(cell.trim());
    if (id === null || id === undefined) throw new RowRejected(`${field.id}: no record titled ${JSON.stringify(cell.trim())}`);
    return [id];
  }
  const pieces = cell.split(',');
  const ids: number[] = [];
  for (let start = 0; start < pieces.length; ) {
    let end = start;
    let id: number | null | undefined = null;
    for (; end < pieces.length && id === null; end++) id = resolve(pieces.slice(start, end + 1).join(',').trim());
    if (id === null || id === undefined) throw new RowRejected(`${field.id}: no record titled ${JSON.stringify(pieces.slice(start).join(',').trim())}`);
    ids.push(id);
    start = end;
  }
  return ids;
}

/** One cell → its write value; an empty cell is null. */
export function convertCell(cell: string, field: ImportField, titles: TitleIndex | undefined): unknown {
  if (cell.trim() === '') return null;
  switch (field.type) {
    case 'number': {
      const number = Number(cell.trim());
      if (!Number.isFinite(number)) throw new RowRejected(`${field.id}: ${JSON.stringify(cell)} is not a number`);
      return number;
    }
    case 'checkbox': {
      const value = truths.get(cell.trim().toLowerCase());
      if (value === undefined) throw new RowRejected(`${field.id}: ${JSON.stringify(cell)} is not true/false, yes/no or 1/0`);
      return value;
    }
    case 'select':
    case 'user':
      return field.multiple ? splitList(cell) : cell.trim();
    case 'lookup': {
      const ids = lookupIds(cell, field, titles ?? new Map());
      return field.multiple ? ids : ids[0];
    }
    default:
      return cell;
  }
}

/**
 * A CSV row → a record's data, by the mapping. With `restoreFormulas` (the default `--formulas
 * escape`), the `'` an export puts before text a spreadsheet would run is taken off first.
 */
export function convertRow(row: readonly string[], mapping: ColumnMapping, titles: ReadonlyMap<string, TitleIndex>, restoreFormulas = true): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  mapping.targets.forEach((field, index) => {
    if (!field) return;
    const cell = row[index] ?? '';
    data[field.id] = convertCell(restoreFormulas ? restoreFormula(cell) : cell, field, titles.get(field.id));
  });
  return data;
}

/** The index of the record a batch refusal names (`records[17]: …`; for a duplicate match, the later one), or undefined. */
export function rejectedIndex(message: string): number | undefined {
  const pair = /^records\[(\d+)\] and records\[(\d+)\]/.exec(message);
  if (pair) return Number(pair[2]);
  const single = /^records\[(\d+)\]: /.exec(message);
  return single ? Number(single[1]) : undefined;
}
