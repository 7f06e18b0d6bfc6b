import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../../db/dialect.js';
import { ErrorCode, ValidationError } from '../../shared/errors.js';
import type { Field } from './field.js';
import type { Operator } from './operators.js';
import type { FilterContext } from './value-context.js';

/** 400 naming the field: `Invalid value for field <slug>: <problem>`. */
export class FieldValueError extends ValidationError {
  constructor(field: Pick<Field, 'slug'>, problem: string) {
    super(`Invalid value for field ${field.slug}: ${problem}`, ErrorCode.invalidFieldValue);
  }
}

export function filterError(field: Pick<Field, 'slug'>, problem: string): ValidationError {
  return new ValidationError(`Invalid filter: ${field.slug}: ${problem}`, ErrorCode.invalidFilter);
}

export function unsupportedOperator(field: Field, op: Operator): ValidationError {
  return filterError(field, `operator ${op} does not apply to ${field.multiple ? 'multiple ' : ''}${field.type} fields`);
}

/** Empty per the contract: null, `""` or `[]`. */
export function isEmptyInput(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

export function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Strings PostgreSQL text cannot hold, and absurd sizes, are refused on both engines alike. */
export function checkStoredText(field: Field, value: string, maxLength: number): string {
  if (value.includes('\u0000')) throw new FieldValueError(field, 'must not contain NUL characters');
  // An unpaired surrogate (valid in a JSON escape) has no UTF-8 form: each engine would store a different replacement.
  if (/[\uD800-\uDFFF]/u.test(value)) throw new FieldValueError(field, 'must be valid Unicode text (unpaired surrogate)');
  if (value.length > maxLength) throw new FieldValueError(field, `must be at most ${maxLength} characters`);
  return value;
}

/** Escapes LIKE wildcards so `%` and `_` in a value are literal (escape character `\\`). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The pattern keeps the value's case: the SQL folds it like the column (`dialect.fold`), never JavaScript. */
export function likePattern(op: 'contains' | 'starts_with' | 'ends_with', value: string): string {
  const escaped = escapeLike(value);
  return op === 'contains' ? `%${escaped}%` : op === 'starts_with' ? `${escaped}%` : `%${escaped}`;
}

export const isNull = (column: RawBuilder<unknown>) => sql<boolean>`${column} is null`;
export const isNotNull = (column: RawBuilder<unknown>) => sql<boolean>`${column} is not null`;

/** Scalar comparisons shared by most single-valued types; `!=` matches empty values too. */
export function compareScalar(op: Operator, column: RawBuilder<unknown>, value: unknown): RawBuilder<boolean> {
  switch (op) {
    case 'eq':
      return sql<boolean>`${column} = ${value}`;
    case 'ne':
      return sql<boolean>`(${column} is null or ${column} <> ${value})`;
    case 'lt':
      return sql<boolean>`${column} < ${value}`;
    case 'lte':
      return sql<boolean>`${column} <= ${value}`;
    case 'gt':
      return sql<boolean>`${column} > ${value}`;
    case 'gte':
      return sql<boolean>`${column} >= ${value}`;
    default:
      throw new Error(`compareScalar: ${op}`);
  }
}

/** Case-insensitive substring operators on a text column. */
export function compareLike(op: 'contains' | 'starts_with' | 'ends_with', ctx: FilterContext, value: string): RawBuilder<boolean> {
  return sql<boolean>`${ctx.dialect.fold(ctx.column)} like ${ctx.dialect.fold(sql`${likePattern(op, value)}`)} escape '\\'`;
}

/** Single-valued empty checks: empties are stored as NULL. */
export function compareEmptiness(op: 'empty' | 'not_empty', column: RawBuilder<unknown>): RawBuilder<boolean> {
  return op === 'empty' ? isNull(column) : isNotNull(column);
}

export const matchNothing = sql<boolean>`1 = 0`;

/** The ids a stored user or lookup value holds: one id, an array, or none. */
export function storedIds(value: unknown): number[] {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value as number];
}

/** A title from a scalar stored value: numbers, emails, dates, options… as their text. */
export function plainTitleText(stored: unknown): string | null {
  return stored === null || stored === undefined ? null : String(stored);
}

/** Text orders by its lower-cased value (folded by the database, like filters), in byte order. */
export function foldedOrderKey(column: RawBuilder<unknown>, dialect: Dialect): RawBuilder<unknown> {
  return dialect.sortableText(column);
}
