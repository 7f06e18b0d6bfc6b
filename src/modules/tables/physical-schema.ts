import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../db/dialect.js';
import type { Field } from './field-definition.js';
import { getFieldType } from '../records/fields/registry.js';

/**
 * The physical side of a user table: `rec_<tableId>` with one column `f_<fieldId>` per field,
 * so a slug rename is metadata only. Every function runs inside the caller's transaction,
 * together with the metadata change it mirrors.
 */
export const recordTableName = (tableId: number) => `rec_${tableId}`;
export const fieldColumnName = (fieldId: number) => `f_${fieldId}`;

function columnType(dialect: Dialect, field: Pick<Field, 'type' | 'multiple'>) {
  return sql.raw(field.multiple ? dialect.jsonType : getFieldType(field.type).columnType(dialect));
}

export async function createRecordTable(db: Kysely<any>, dialect: Dialect, tableId: number, fields: readonly Field[]): Promise<void> {
  let builder = dialect
    .addIdColumn(db.schema.createTable(recordTableName(tableId)))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer');
  for (const field of fields) builder = builder.addColumn(fieldColumnName(field.id), columnType(dialect, field));
  await builder.execute();
}

export async function addFieldColumn(db: Kysely<any>, dialect: Dialect, field: Field): Promise<void> {
  await db.schema.alterTable(recordTableName(field.tableId)).addColumn(fieldColumnName(field.id), columnType(dialect, field)).execute();
}

export async function dropFieldColumn(db: Kysely<any>, field: Field): Promise<void> {
  await db.schema.alterTable(recordTableName(field.tableId)).dropColumn(fieldColumnName(field.id)).execute();
}

export async function dropRecordTable(db: Kysely<any>, _dialect: Dialect, tableId: number): Promise<void> {
  await db.schema.dropTable(recordTableName(tableId)).ifExists().execute();
}
