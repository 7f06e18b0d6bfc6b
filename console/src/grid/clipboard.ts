import { format, isValid, parse } from 'date-fns';
import type { Field } from '../api/types';

/**
 * The grid's clipboard, as pure functions: cells as tab-separated values (what spreadsheets put
 * on the clipboard) and a pasted cell's text as the value the API takes for its field's type.
 */

/** TSV text as rows of cells. Quoted cells ("a\tb", "line\nline", "say ""hi""") are read as spreadsheets write them; a trailing line break is not an extra row. */
export function parseTsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let index = 0;
  const source = text.replace(/\r\n?/g, '\n');
  let quoted = false;
  let atCellStart = true;
  while (index < source.length) {
    const char = source[index];
    if (quoted) {
      if (char === '"' && source[index + 1] === '"') {
        cell += '"';
        index += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else cell += char;
      index += 1;
      continue;
    }
    if (char === '"' && atCellStart) {
      quoted = true;
      atCellStart = false;
    } else if (char === '\t') {
      row.push(cell);
      cell = '';
      atCellStart = true;
      index += 1;
      continue;
    } else if (char === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      atCellStart = true;
      index += 1;
      continue;
    } else {
      cell += char;
      atCellStart = false;
    }
    index += 1;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** Rows of cells as TSV; a cell holding a tab, line break or quote is quoted. */
export function formatTsv(rows: string[][]): string {
  return rows.map((row) => row.map((cell) => (/[\t\n\r"]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join('\t')).join('\n');
}

/** A cell's value as copied: the stored form another paste (here or in a spreadsheet) reads back. */
export function copyText(field: Field, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (field.type) {
    case 'checkbox':
      return value ? 'true' : 'false';
    case 'select':
      return Array.isArray(value) ? value.join(', ') : String(value);
    case 'user':
      return listOf(value)
        .map((user) => (user as { email?: string }).email ?? String((user as { id?: number }).id ?? ''))
        .join(', ');
    case 'lookup':
      return listOf(value)
        .map((target) => String((target as { id: number }).id))
        .join(', ');
    case 'file':
      return listOf(value)
        .map((file) => (file as { name?: string }).name ?? '')
        .join(', ');
    default:
      return String(value);
  }
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

/** A pasted cell the console refuses itself (the message names the cell's field). */
export class PasteValueError extends Error {}

const trueWords = new Set(['true', '1', 'yes', 'y', 'x', '✓', 'on', 'checked']);
const falseWords = new Set(['false', '0', 'no', 'n', 'off', '', 'unchecked']);
const dateFormats = ['yyyy-MM-dd', 'd MMM yyyy', 'd MMMM yyyy', 'dd/MM/yyyy', 'd.M.yyyy', 'yyyy/MM/dd'];
const dateTimeFormats = ['yyyy-MM-dd HH:mm:ss', "yyyy-MM-dd'T'HH:mm:ss", 'yyyy-MM-dd HH:mm', "yyyy-MM-dd'T'HH:mm", 'd MMM yyyy, HH:mm:ss', 'yyyy-MM-dd'];

/**
 * A pasted cell's text as the value of its field: numbers (spaces and thousands commas dropped),
 * checkboxes (true/false, 1/0, yes/no), selects by option value (several comma-separated when
 * multiple; matched case-insensitively), dates and times in the stored form. Empty text empties
 * the cell (a checkbox: false). Anything left to judge (an e-mail, a user, a lookup id) goes as
 * typed and the server answers for it.
 */
export function pasteValue(field: Field, text: string): unknown {
  const trimmed = text.trim();
  switch (field.type) {
    case 'number': {
      if (trimmed === '') return null;
      const number = Number(trimmed.replace(/[\s,]/g, ''));
      if (!Number.isFinite(number)) throw new PasteValueError(`${field.name}: "${text}" is not a number`);
      return number;
    }
    case 'checkbox': {
      const word = trimmed.toLowerCase();
      if (trueWords.has(word)) return true;
      if (falseWords.has(word)) return false;
      throw new PasteValueError(`${field.name}: "${text}" is not true or false`);
    }
    case 'select': {
      const values = (field.multiple ? trimmed.split(',') : [trimmed]).map((value) => value.trim()).filter(Boolean);
      const options = (field.options ?? []).map((option) => option.value);
      const chosen = values.map((value) => {
        const match = options.find((option) => option === value) ?? options.find((option) => option.toLowerCase() === value.toLowerCase());
        if (!match) throw new PasteValueError(`${field.name}: "${value}" is not one of its options`);
        return match;
      });
      return field.multiple ? chosen : (chosen[0] ?? null);
    }
    case 'date':
      return trimmed === '' ? null : asDate(field, trimmed, dateFormats, 'yyyy-MM-dd');
    case 'datetime':
      return trimmed === '' ? null : asDate(field, trimmed.replace(/ UTC$/, ''), dateTimeFormats, 'yyyy-MM-dd HH:mm:ss');
    case 'time': {
      if (trimmed === '') return null;
      if (/^\d{1,2}:\d{2}$/.test(trimmed)) return `${trimmed.padStart(5, '0')}:00`;
      return trimmed;
    }
    case 'user':
    case 'lookup': {
      const items = trimmed
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
        .map((item) => (/^\d+$/.test(item) ? Number(item) : item));
      return field.multiple ? items : (items[0] ?? null);
    }
    case 'file':
      throw new PasteValueError(`${field.name}: files cannot be pasted`);
    case 'longtext':
      return text === '' ? null : text;
    default:
      return trimmed === '' ? null : trimmed;
  }
}

function asDate(field: Field, text: string, formats: string[], stored: string): string {
  for (const pattern of formats) {
    const date = parse(text, pattern, new Date(2000, 0, 1));
    if (isValid(date)) return format(date, stored);
  }
  throw new PasteValueError(`${field.name}: "${text}" is not a date`);
}

/** A rectangle of cells between two corners (either order). */
export interface CellRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

export function rangeBetween(a: { row: number; column: number }, b: { row: number; column: number }): CellRange {
  return { top: Math.min(a.row, b.row), bottom: Math.max(a.row, b.row), left: Math.min(a.column, b.column), right: Math.max(a.column, b.column) };
}

export function inRange(range: CellRange | null, row: number, column: number): boolean {
  return !!range && row >= range.top && row <= range.bottom && column >= range.left && column <= range.right;
}
