import type { Field } from './field.js';

/**
 * Physical names of a user table's storage: `rec_<tableId>` with one column `f_<fieldId>` per
 * field, so a slug rename is metadata only. Index names carry the table and field ids; the API
 * shows the logical name.
 */
export const recordTableName = (tableId: number) => `rec_${tableId}`;
export const fieldColumnName = (fieldId: number) => `f_${fieldId}`;
export const fieldIndexName = (field: Pick<Field, 'tableId' | 'id'>) => `rec_${field.tableId}_f_${field.id}_idx`;

/**
 * The columns every record table has beside `id` (the dialect's identity column, an integer) and
 * its fields': made by createRecordTable (tables/physical-schema.ts), typed for bulk inserts by
 * recordColumnTypes (records/record-writer.ts).
 */
export const recordSystemColumns = [
  { name: 'created_at', type: 'text', notNull: true },
  { name: 'updated_at', type: 'text', notNull: true },
  { name: 'created_by', type: 'integer', notNull: false },
] as const;
