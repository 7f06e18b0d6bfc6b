import type { Field } from './field.js';
import { columnDecoder } from './column-values.js';
import { getFieldType } from './registry.js';
import { plainTitleText } from './value-helpers.js';

/** The explicit title field, else the first text field, else none. */
export function resolveTitleField(fields: readonly Field[], titleFieldId: number | null): Field | null {
  return fields.find((f) => f.id === titleFieldId) ?? fields.find((f) => f.type === 'text') ?? null;
}

/** Whether a field may be a table's title: single-valued, of a type that has a title text. */
export function canBeTitle(field: Field): boolean {
  return !field.multiple && getFieldType(field.type).titleText !== undefined;
}

const readers = new WeakMap<Field, (column: unknown) => string | null>();

/** A title field's column value → the record's title (its type's titleText); made once per field object. */
export function titleReader(field: Field): (column: unknown) => string | null {
  let reader = readers.get(field);
  if (!reader) {
    // Title fields are of types with a title text (canBeTitle); the plain text is only a fallback.
    const titleText = getFieldType(field.type).titleText ?? plainTitleText;
    const decode = columnDecoder(field);
    readers.set(field, (reader = decode ? (column) => titleText(decode(column)) : titleText));
  }
  return reader;
}
