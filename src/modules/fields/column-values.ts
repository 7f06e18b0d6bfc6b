import type { Dialect } from '../../db/dialect.js';
import type { Field } from './field.js';
import { getFieldType } from './registry.js';

/**
 * Between stored values (what toStored produces) and column values (what the driver takes and
 * returns), in one place: multi-valued fields are JSON arrays (text on SQLite, jsonb on
 * PostgreSQL) whatever their type; a single value goes through its type's encode / decode
 * when it has them (checkbox on SQLite), else is its own column value.
 */

/** The SQL type of a field's column: multi-valued fields are JSON whatever their type. */
export function columnTypeOf(field: Pick<Field, 'type' | 'multiple'>, dialect: Dialect): string {
  return field.multiple ? dialect.jsonType : getFieldType(field.type).columnType(dialect);
}

/** Stored value → statement parameter. */
export function toColumnValue(field: Field, stored: unknown, dialect: Dialect): unknown {
  if (stored === null || stored === undefined) return null;
  // JSON text on both engines: PostgreSQL gives an untyped parameter the type of the jsonb
  // column it is written to or compared with, so a prepared insert can carry it (no cast).
  if (field.multiple) return JSON.stringify(stored);
  const { encode } = getFieldType(field.type);
  return encode ? encode(stored, dialect) : stored;
}

const decodeJson = (column: unknown) => (typeof column === 'string' ? JSON.parse(column) : column);

/**
 * How to read a field's column back to its stored value, or null when the column holds it
 * as is: asked once per field list, so a read of plain columns does no work per value.
 */
export function columnDecoder(field: Field): ((column: unknown) => unknown) | null {
  if (field.multiple) return decodeJson;
  const { decode } = getFieldType(field.type);
  return decode ? (column) => (column === null || column === undefined ? column : decode(column)) : null;
}

/** One column value → the stored value (SQLite hands JSON arrays back as text, booleans as 0/1). */
export function fromColumnValue(field: Field, column: unknown): unknown {
  const decode = columnDecoder(field);
  return decode ? decode(column) : column;
}
