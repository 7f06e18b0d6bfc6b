import type { Field } from '../../fields/field.js';

/**
 * `id`, `created_at` and `updated_at` can be filtered and sorted like fields: a number and
 * two datetimes. Their pseudo-fields carry the physical column name as the slug.
 */
function systemField(slug: string, type: Field['type']): Field {
  return { id: 0, tableId: 0, slug, name: slug, type, multiple: false, required: false, editableBy: 'none', hidden: null, settings: {}, position: -1 };
}

export const systemFields: ReadonlyMap<string, Field> = new Map([
  ['id', systemField('id', 'number')],
  ['created_at', systemField('created_at', 'datetime')],
  ['updated_at', systemField('updated_at', 'datetime')],
]);
