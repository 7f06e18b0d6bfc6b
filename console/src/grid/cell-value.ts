import { format, isValid, parse } from 'date-fns';
import type { SpaceAccess } from '../api/space-access';
import type { Field } from '../api/types';

/** Field types the grid edits in place; files are read-only there for now (names and thumbnails). */
export const editableTypes = new Set(['text', 'longtext', 'number', 'checkbox', 'email', 'url', 'select', 'date', 'datetime', 'time', 'user', 'lookup']);

/** Does a cell of this field open an editor: a type edited in place, and a field the signed-in user may write (api/space-access.ts). */
export function isEditable(field: Field, access: Pick<SpaceAccess, 'canEditField'>): boolean {
  return editableTypes.has(field.type) && access.canEditField(field);
}

const dateTimeFormat = 'yyyy-MM-dd HH:mm:ss';

/** A value as the grid shows it: text, the way a person reads it (dates spelled out). */
export function displayValue(field: Field, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (field.type) {
    case 'checkbox':
      return value ? 'Yes' : 'No';
    case 'date': {
      const date = parse(String(value), 'yyyy-MM-dd', new Date());
      return isValid(date) ? format(date, 'd MMM yyyy') : String(value);
    }
    case 'datetime': {
      // Stored in UTC as given and never shifted: shown as stored, spelled out.
      const date = parse(String(value), dateTimeFormat, new Date());
      return isValid(date) ? `${format(date, 'd MMM yyyy, HH:mm:ss')} UTC` : String(value);
    }
    case 'number':
      return typeof value === 'number' ? formatNumber(value, (field as { decimals?: number | null }).decimals ?? null) : String(value);
    case 'user':
      return listOf(value)
        .map((user) => (user as { name?: string; email?: string }).name || (user as { email?: string }).email || '')
        .join(', ');
    case 'lookup':
      return listOf(value)
        .map((target) => (target as { title?: string | null; id: number }).title ?? `#${(target as { id: number }).id}`)
        .join(', ');
    case 'file':
      return listOf(value)
        .map((file) => (file as { name?: string; filename?: string }).name ?? (file as { filename?: string }).filename ?? 'file')
        .join(', ');
    default:
      return Array.isArray(value) ? value.join(', ') : String(value);
  }
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

function formatNumber(value: number, decimals: number | null): string {
  return decimals === null ? String(value) : value.toFixed(decimals);
}

/** What an editor starts with: the stored value in the form its input takes. */
export function editorText(field: Field, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (field.type) {
    case 'datetime':
      return String(value).replace(' ', 'T');
    case 'select':
      return Array.isArray(value) ? value.join(', ') : String(value);
    case 'user':
    case 'lookup': {
      // The picker's value: the (first) chosen id.
      const first = Array.isArray(value) ? value[0] : value;
      return first && typeof first === 'object' ? String((first as { id: number }).id) : '';
    }
    default:
      return String(value);
  }
}

/** Thrown for input the console can judge itself (a number that is not one). */
export class EditorInputError extends Error {}

/** The editor's text as the value the API takes; the server judges the rest and its error shows on the cell. */
export function parseEditorText(field: Field, text: string | string[]): unknown {
  if (field.type === 'user' || field.type === 'lookup') {
    // Pickers answer ids (as option values): numbers for the API, one unless the field is multiple.
    const ids = (Array.isArray(text) ? text : [text]).map((id) => id.trim()).filter(Boolean).map(Number);
    return field.multiple ? ids : (ids[0] ?? null);
  }
  if (Array.isArray(text)) return text;
  const trimmed = text.trim();
  switch (field.type) {
    case 'number': {
      if (trimmed === '') return null;
      const number = Number(trimmed.replace(/\s/g, ''));
      if (!Number.isFinite(number)) throw new EditorInputError(`"${text}" is not a number`);
      return number;
    }
    case 'datetime': {
      if (trimmed === '') return null;
      const value = trimmed.replace('T', ' ');
      return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(value) ? `${value}:00` : value;
    }
    case 'time':
      if (trimmed === '') return null;
      return /^\d{2}:\d{2}$/.test(trimmed) ? `${trimmed}:00` : trimmed;
    case 'longtext':
      return text === '' ? null : text;
    default:
      return trimmed === '' ? null : trimmed;
  }
}
