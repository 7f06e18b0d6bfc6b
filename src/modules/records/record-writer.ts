import type { Dialect } from '../../db/dialect.js';
import { toColumnValue } from '../fields/column-values.js';
import { ErrorCode, ForbiddenError, ValidationError } from '../../shared/errors.js';
import type { Actor } from '../auth/actor.js';
import type { Field } from '../fields/field.js';
import { fieldColumnName } from '../fields/physical-names.js';
import { getFieldType } from '../fields/registry.js';
import type { WriteContext } from '../fields/value-context.js';
import { isEmptyInput } from '../fields/value-helpers.js';
import type { RecordTable } from './record-table.js';

/** Who may write a field: readers never; `admins` fields only admins; `none` nobody. */
function canEditField(field: Field, table: RecordTable): boolean {
  if (field.editableBy === 'none') return false;
  if (field.editableBy === 'admins') return table.role === 'admin';
  return table.role === 'admin' || table.role === 'editor';
}

export function assertCanWriteRecords(actor: Actor, table: RecordTable): void {
  if (actor.readOnly) throw new ForbiddenError('Read-only API key', ErrorCode.readOnlyKey);
  if (table.role === 'reader') throw new ForbiddenError('Readers cannot change records', ErrorCode.readerRole);
}

/** The caller may write records of the table and this field of them: 403 otherwise. */
export function assertCanEditField(actor: Actor, table: RecordTable, field: Field): void {
  assertCanWriteRecords(actor, table);
  if (!canEditField(field, table)) throw new ForbiddenError(`No edit permission for field: ${field.slug}`, ErrorCode.fieldNotEditable);
}

/** `data` must be an object of known slugs, each writable by the caller. */
function checkDataShape(data: unknown, table: RecordTable): Array<[Field, unknown]> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new ValidationError('Invalid parameters: data must be an object');
  const entries = Object.entries(data).map(([slug, value]): [Field, unknown] => {
    const field = table.fieldsBySlug.get(slug);
    if (!field) throw new ValidationError(`Invalid field: ${slug}`, ErrorCode.invalidField);
    return [field, value];
  });
  for (const [field] of entries) {
    if (!canEditField(field, table)) throw new ForbiddenError(`No edit permission for field: ${field.slug}`, ErrorCode.fieldNotEditable);
  }
  return entries;
}

/**
 * Validates every given value (all of them, before anything is written) and returns the
 * stored values by field slug. `creating` enforces required fields over the whole record.
 */
export async function prepareValues(data: unknown, table: RecordTable, ctx: WriteContext, creating: boolean): Promise<Map<Field, unknown>> {
  const stored = new Map<Field, unknown>();
  for (const [field, value] of checkDataShape(data, table)) stored.set(field, await getFieldType(field.type).toStored(value, field, ctx));
  for (const field of table.fields) {
    if (!field.required) continue;
    const given = stored.has(field);
    if ((creating && !given) || (given && isEmptyInput(stored.get(field)))) {
      throw new ValidationError(`Missing value for required field: ${field.slug}`, ErrorCode.requiredField);
    }
  }
  return stored;
}

/** Lower-cased text of the searchable fields, the one thing `search` looks at. */
export function buildSearchText(values: ReadonlyMap<Field, unknown>): string | null {
  const parts: string[] = [];
  for (const [field, value] of values) {
    if (!getFieldType(field.type).searchable || value === null || value === undefined) continue;
    parts.push(...(Array.isArray(value) ? value.map(String) : [String(value)]));
  }
  return parts.length === 0 ? null : parts.join('\n').toLowerCase();
}

export function toColumns(values: ReadonlyMap<Field, unknown>, dialect: Dialect): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const [field, value] of values) columns[fieldColumnName(field.id)] = toColumnValue(field, value, dialect);
  return columns;
}
