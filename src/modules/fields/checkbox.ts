import { sql } from 'kysely';
import type { FieldType } from './field-type.js';
import { describe, FieldValueError, filterError, unsupportedOperator } from './value-helpers.js';

const truthy = new Set<unknown>([true, 1, 'true', '1']);
const falsy = new Set<unknown>([false, 0, 'false', '0', null, '']);

/** Unchecked is the empty value: stored false (or NULL for rows older than the field). */
export const checkboxField: FieldType = {
  name: 'checkbox',
  multiplicity: 'single',
  settingKeys: [],
  parseSettings: () => ({}),
  columnType: (dialect) => dialect.booleanType,
  sortable: true,
  // An unchecked value may be NULL (rows older than the field): it sorts as false.
  orderKey: (column, dialect) => sql`coalesce(${column}, ${dialect.booleanLiteral(false)})`,
  searchable: false,
  // Unchecked is false and empty alike: no value to match a record by.
  matchable: false,
  toStored(input, field) {
    if (input === null || input === undefined) return false;
    if (typeof input !== 'boolean') throw new FieldValueError(field, `expected true or false, got ${describe(input)}`);
    return input;
  },
  // An integer column where the engine has no boolean (SQLite): 1 / 0.
  decode: (column) => column === true || column === 1,
  encode: (stored, dialect) => (dialect.booleanType === 'integer' ? (stored ? 1 : 0) : stored),
  columnReadForm: (column) => sql`to_jsonb(coalesce(${column}, false))`,
  readMany: (stored) => stored.map((value) => value === true),
  compileFilter(op, value, field, ctx) {
    const checked = sql<boolean>`${ctx.column} = ${ctx.dialect.booleanLiteral(true)}`;
    const unchecked = sql<boolean>`(${ctx.column} is null or not ${checked})`;
    if (op === 'empty') return unchecked;
    if (op === 'not_empty') return checked;
    if (op !== 'eq' && op !== 'ne') throw unsupportedOperator(field, op);
    if (!truthy.has(value) && !falsy.has(value)) throw filterError(field, `expected true or false, got ${describe(value)}`);
    return truthy.has(value) === (op === 'eq') ? checked : unchecked;
  },
};
