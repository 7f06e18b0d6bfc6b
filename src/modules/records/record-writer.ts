import { isDeepStrictEqual } from 'node:util';
import type { Dialect } from '../../db/dialect.js';
import { checkObjectBody, invalidParameters } from '../../shared/body-checks.js';
import { columnTypeOf, fromColumnValue, toColumnValue } from '../fields/column-values.js';
import { ErrorCode, ForbiddenError, ValidationError } from '../../shared/errors.js';
import type { Actor } from '../auth/actor.js';
import type { Field } from '../fields/field.js';
import type { FieldHooks } from '../fields/lifecycle.js';
import { fieldColumnName, recordSystemColumns } from '../fields/physical-names.js';
import { getFieldType } from '../fields/registry.js';
import type { WriteContext } from '../fields/value-context.js';
import { isEmptyInput } from '../fields/value-helpers.js';
import type { RecordRow } from './records.repository.js';
import type { RecordTable } from './record-table.js';

/**
 * The `data` of a write body (`{data}`, or a batch item with `allowed` members): `required` for
 * updates, where an absent `data` is a mistake rather than an empty record.
 */
export function checkDataBody(body: unknown, required: boolean, allowed: readonly string[] = ['data'], subject = 'body'): unknown {
  const data = checkObjectBody(body, allowed, subject).data;
  if (data === undefined && required) throw invalidParameters('data is required');
  return data ?? {};
}

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
  for (const [field, value] of checkDataShape(data, table)) {
    // Most types answer at once: awaiting only promises spares a batch of records thousands of turns.
    const result = getFieldType(field.type).toStored(value, field, ctx);
    stored.set(field, result instanceof Promise ? await result : result);
  }
  checkRequiredFields(stored, table, creating);
  return stored;
}

/**
 * Required fields hold a value: every one of them when `creating`, else those written. An
 * upsert checks its values as an update's first, and as a creation's once it knows.
 */
export function checkRequiredFields(stored: ReadonlyMap<Field, unknown>, table: RecordTable, creating: boolean): void {
  for (const field of table.fields) {
    if (!field.required) continue;
    const given = stored.has(field);
    if ((creating && !given) || (given && isEmptyInput(stored.get(field)))) {
      throw new ValidationError(`Missing value for required field: ${field.slug}`, ErrorCode.requiredField);
    }
  }
}

/**
 * Write values of several records, before their toStored: each field type with `prefetch`
 * looks up what they reference in one batch (lookup targets), so that validating a thousand
 * records asks the database once per field rather than once per record.
 */
export async function prefetchReferences(datas: readonly unknown[], fields: readonly Field[], ctx: WriteContext): Promise<void> {
  for (const field of fields) {
    const inputs = datas.flatMap((data) => (typeof data === 'object' && data !== null && Object.hasOwn(data, field.slug) ? [(data as Record<string, unknown>)[field.slug]] : []));
    if (inputs.length > 0) await getFieldType(field.type).prefetch!(inputs, field, ctx);
  }
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

/**
 * The columns of a new record: every field's (null when not given, so that a table's inserts
 * all have one shape, whose compiled statement SQLite keeps) and the system columns. Its search
 * text (buildSearchText) is written beside it, in the same transaction.
 */
export function newRecordColumns(values: ReadonlyMap<Field, unknown>, fields: readonly Field[], actor: Actor, timestamp: string, dialect: Dialect): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const field of fields) columns[fieldColumnName(field.id)] = values.has(field) ? toColumnValue(field, values.get(field), dialect) : null;
  columns.created_at = timestamp;
  columns.updated_at = timestamp;
  columns.created_by = actor.userId;
  return columns;
}

/**
 * PostgreSQL: the SQL type of every column a record insert may write (the system columns as
 * createRecordTable makes them), for insertRecordRows to send each column as one array; null on
 * SQLite, whose inserts go as rows of values.
 */
export function recordColumnTypes(table: Pick<RecordTable, 'fields'>, dialect: Dialect): ReadonlyMap<string, string> | null {
  if (dialect.name !== 'postgres') return null;
  const types = new Map<string, string>([['id', 'integer'], ...recordSystemColumns.map((column) => [column.name, column.type] as const)]);
  for (const field of table.fields) types.set(fieldColumnName(field.id), columnTypeOf(field, dialect));
  return types;
}

/** A record just created, as a read would find it: presented without reading it back. */
export function writtenRow(id: number, timestamp: string, values: ReadonlyMap<Field, unknown>, table: RecordTable): RecordRow {
  const row: RecordRow = { id, created_at: timestamp, updated_at: timestamp };
  for (const field of table.fields) row[fieldColumnName(field.id)] = values.get(field) ?? null;
  return row;
}

/**
 * What an update of `changes` must read of the stored record before writing: the searchable
 * fields when one of them changes (the search text is rebuilt from the merged values), and the
 * written fields whose type is told after the commit what their new value replaced.
 */
export interface UpdatePlan {
  searchable: readonly Field[];
  searchChanged: boolean;
  replacing: readonly Field[];
  /** The stored fields to read: none when the update writes without reading. */
  reads: readonly Field[];
}

export function planUpdate(table: RecordTable, changes: ReadonlyMap<Field, unknown>, hooks: FieldHooks): UpdatePlan {
  const searchable = table.fields.filter((f) => getFieldType(f.type).searchable);
  const searchChanged = searchable.some((f) => changes.has(f));
  const replacing = hooks.afterCommit.length > 0 ? hooks.afterCommit.filter((f) => changes.has(f)) : hooks.afterCommit;
  return { searchable, searchChanged, replacing, reads: [...new Set([...(searchChanged ? searchable : []), ...replacing])] };
}

/**
 * Completes an update from the stored record read per the plan: the values replaced go to
 * `previous`; answers the search text rebuilt from its values merged with the changes, or
 * undefined when no searchable field changed.
 */
export function completeUpdate(plan: UpdatePlan, row: RecordRow, changes: ReadonlyMap<Field, unknown>, previous: Map<Field, unknown>): string | null | undefined {
  for (const f of plan.replacing) previous.set(f, fromColumnValue(f, row[fieldColumnName(f.id)]));
  if (!plan.searchChanged) return undefined;
  const merged = new Map(plan.searchable.map((f) => [f, fromColumnValue(f, row[fieldColumnName(f.id)])]));
  for (const [field, value] of changes) if (merged.has(field)) merged.set(field, value);
  return buildSearchText(merged);
}

/**
 * Whether writing `changes` would leave the stored `row` as it is, comparing stored forms (so
 * `null` and `""` differ): such an update writes nothing — no row, no search text, no change —
 * and the record keeps its `updated_at` (docs/decisions.md, "An update that changes nothing").
 * `row` must hold the written fields' columns.
 */
export function changesNothing(row: RecordRow, changes: ReadonlyMap<Field, unknown>): boolean {
  for (const [field, value] of changes) {
    if (!isDeepStrictEqual(fromColumnValue(field, row[fieldColumnName(field.id)]) ?? null, value ?? null)) return false;
  }
  return true;
}
