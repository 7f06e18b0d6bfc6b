import type { SpaceAccess } from '../api/space-access';
import type { Field } from '../api/types';

/**
 * CSV cells → record write values in the browser, by the rules of `tabula import` (docs/api.md,
 * "tabula import"): empty = null; numbers; checkbox true/false, yes/no, 1/0; several select
 * values and users split on commas; a lookup by record id; the `'` an export puts before a
 * formula taken off. What only the server can check (dates, e-mails, members) is passed through
 * for create_batch to refuse with its own message.
 */

/** Where a column goes: a field of the table (its slug), a new text field named after the column, or nowhere. */
export type ColumnTarget = { kind: 'field'; slug: string } | { kind: 'new' } | { kind: 'ignore' };

/** A cell the field refuses: the message names the field and the value. */
export class CellRefused extends Error {}

/** The columns an export adds, which an import skips (the service sets them). */
const systemColumns = new Set(['id', 'created_at', 'updated_at', 'title']);
const truths = new Map([['true', true], ['yes', true], ['1', true], ['false', false], ['no', false], ['0', false]]);
/** What `records/export` escapes with a `'` (csv-formulas.ts on the server). */
const escapedFormula = /^'+[=+\-@\t\r]/;

/** What the importer may do (api/space-access.ts): write which fields, create new ones (admins). */
export type ImportAccess = Pick<SpaceAccess, 'canEditField' | 'canManageTables'>;

/** Fields a CSV cell can fill: not files (a cell holds a file's name, not the file), only those the importer may write. */
export const importableFields = (fields: Field[], access: ImportAccess) => fields.filter((field) => field.type !== 'file' && access.canEditField(field));

/**
 * The first guess for each column: the field with its slug or name (case-insensitive), else a
 * new field (for those who may create fields; else nothing); the export's own columns are ignored.
 */
export function guessTargets(header: string[], fields: Field[], access: ImportAccess): ColumnTarget[] {
  const taken = new Set<string>();
  return header.map((column) => {
    const key = column.trim().toLowerCase();
    // The export's own columns, and a file field's (its cells hold names, not files), are not imported.
    if (systemColumns.has(key) || fields.some((field) => field.type === 'file' && (field.id.toLowerCase() === key || field.name.toLowerCase() === key))) return { kind: 'ignore' };
    const field = importableFields(fields, access).find((candidate) => !taken.has(candidate.id) && (candidate.id.toLowerCase() === key || candidate.name.toLowerCase() === key));
    if (!field) return key === '' || !access.canManageTables ? { kind: 'ignore' } : { kind: 'new' };
    taken.add(field.id);
    return { kind: 'field', slug: field.id };
  });
}

/** Why a mapping cannot be imported (two columns for one field, nothing mapped), or null. */
export function mappingProblem(header: string[], targets: ColumnTarget[]): string | null {
  const seen = new Map<string, string>();
  for (const [index, target] of targets.entries()) {
    if (target.kind !== 'field') continue;
    const earlier = seen.get(target.slug);
    if (earlier !== undefined) return `Columns "${earlier}" and "${header[index]}" both go to field ${target.slug}: choose one.`;
    seen.set(target.slug, header[index]);
  }
  return targets.some((target) => target.kind !== 'ignore') ? null : 'No column goes to a field: choose a field (or a new one) for at least one column.';
}

const splitList = (cell: string) => cell.split(',').map((item) => item.trim()).filter((item) => item !== '');

/** One cell → its write value for `field`, or throws CellRefused. */
export function convertCell(raw: string, field: Field): unknown {
  const cell = escapedFormula.test(raw) ? raw.slice(1) : raw;
  if (cell.trim() === '') return null;
  switch (field.type) {
    case 'number': {
      const number = Number(cell.trim());
      if (!Number.isFinite(number)) throw new CellRefused(`${field.name}: "${cell}" is not a number`);
      return number;
    }
    case 'checkbox': {
      const value = truths.get(cell.trim().toLowerCase());
      if (value === undefined) throw new CellRefused(`${field.name}: "${cell}" is not true/false, yes/no or 1/0`);
      return value;
    }
    case 'select': {
      const values = field.multiple ? splitList(cell) : [cell.trim()];
      const missing = values.find((value) => field.options && !field.options.some((option) => option.value === value));
      if (missing !== undefined) throw new CellRefused(`${field.name}: "${missing}" is not one of its options`);
      return field.multiple ? values : values[0];
    }
    case 'user':
      return field.multiple ? splitList(cell) : cell.trim();
    case 'lookup': {
      const ids = (field.multiple ? splitList(cell) : [cell.trim()]).map((id) => {
        if (!/^\d+$/.test(id)) throw new CellRefused(`${field.name}: "${id}" is not a record id`);
        return Number(id);
      });
      return field.multiple ? ids : ids[0];
    }
    default:
      return cell;
  }
}

/** A row's record data by the mapping (columns to `fieldOf` their target), or throws CellRefused. */
export function convertRow(cells: string[], width: number, fieldsByColumn: (Field | null)[]): Record<string, unknown> {
  if (cells.length !== width) throw new CellRefused(`${cells.length} cell${cells.length === 1 ? '' : 's'} where the header has ${width}`);
  const data: Record<string, unknown> = {};
  fieldsByColumn.forEach((field, index) => {
    if (field) data[field.id] = convertCell(cells[index], field);
  });
  return data;
}
