import type { Field } from './field.js';
import { fieldColumnName } from './physical-names.js';

/**
 * `id`, `created_at` and `updated_at` can be filtered, sorted and (the two datetimes) indexed
 * like fields: a number and two datetimes. Their pseudo-fields carry the physical column name
 * as the slug and a negative id of their own, so a query shape or an index definition keyed
 * by field id tells them apart from each other and from every real field.
 */
function systemField(id: number, slug: string, type: Field['type']): Field {
  return { id, tableId: 0, slug, name: slug, type, multiple: false, required: false, editableBy: 'none', hidden: null, settings: {}, position: -1 };
}

export const systemFields: ReadonlyMap<string, Field> = new Map([
  ['id', systemField(-1, 'id', 'number')],
  ['created_at', systemField(-2, 'created_at', 'datetime')],
  ['updated_at', systemField(-3, 'updated_at', 'datetime')],
]);

export const isSystemField = (field: Pick<Field, 'id'>): boolean => field.id < 0;

/** The system columns an index may hold: `id` is the record's key, indexed already. */
export const indexableSystemFields: ReadonlyMap<string, Field> = new Map([...systemFields].filter(([slug]) => slug !== 'id'));

/** The pseudo-field of a system column by its id (as index definitions store it). */
export function systemFieldById(id: number): Field | undefined {
  return [...systemFields.values()].find((field) => field.id === id);
}

/** A field's column name: `f_<id>`, or a system column's own name. */
export function columnNameOf(field: Pick<Field, 'id' | 'slug'>): string {
  return isSystemField(field) ? field.slug : fieldColumnName(field.id);
}
