import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../db/dialect.js';
import type { Field } from '../fields/field.js';
import { columnTypeOf } from '../fields/column-values.js';
import { fieldColumnName, fieldIndexName, recordSystemColumns, recordTableName } from '../fields/physical-names.js';
import { createSearchIndexAndCounters, dropSearchIndex } from '../records/search-and-counters.service.js';

/**
 * The physical side of a user table (names: physical-names.ts). Every function runs inside the
 * caller's transaction, together with the metadata change it mirrors.
 */

function columnType(dialect: Dialect, field: Pick<Field, 'type' | 'multiple'>) {
  return sql.raw(columnTypeOf(field, dialect));
}

export async function createRecordTable(db: Kysely<any>, dialect: Dialect, tableId: number, fields: readonly Field[]): Promise<void> {
  // The search text lives beside the record (records/search/record-search.ts).
  let builder = dialect.addIdColumn(db.schema.createTable(recordTableName(tableId)));
  for (const column of recordSystemColumns) builder = builder.addColumn(column.name, column.type, (c) => (column.notNull ? c.notNull() : c));
  for (const field of fields) builder = builder.addColumn(fieldColumnName(field.id), columnType(dialect, field));
  await builder.execute();
  await createSearchIndexAndCounters(db, dialect.name, tableId);
}

export async function addFieldColumn(db: Kysely<any>, dialect: Dialect, field: Field): Promise<void> {
  await db.schema.alterTable(recordTableName(field.tableId)).addColumn(fieldColumnName(field.id), columnType(dialect, field)).execute();
}

export async function dropFieldColumn(db: Kysely<any>, field: Field): Promise<void> {
  // SQLite refuses to drop an indexed column.
  await dropFieldIndex(db, field);
  await db.schema.alterTable(recordTableName(field.tableId)).dropColumn(fieldColumnName(field.id)).execute();
}

export async function dropRecordTable(db: Kysely<any>, dialect: Dialect, tableId: number): Promise<void> {
  await dropSearchIndex(db, dialect.name, tableId);
  await db.schema.dropTable(recordTableName(tableId)).ifExists().execute();
}

/**
 * One-field index: B-tree on scalars; GIN on PostgreSQL JSON arrays (SQLite cannot index inside
 * them). Records sort ascending with nulls first and descending with nulls last (compileOrder):
 * SQLite's order (nulls lowest) serves both, walked either way; on PostgreSQL the B-tree is
 * built `nulls first` for the same reason (its default, nulls last, serves neither).
 */
export async function createFieldIndex(db: Kysely<any>, dialect: Dialect, field: Field): Promise<void> {
  const name = sql.id(fieldIndexName(field));
  const table = sql.table(recordTableName(field.tableId));
  const column = sql.id(fieldColumnName(field.id));
  if (field.multiple && dialect.name === 'postgres') await sql`create index if not exists ${name} on ${table} using gin (${column})`.execute(db);
  else if (field.multiple) return;
  else if (dialect.name === 'postgres') await sql`create index if not exists ${name} on ${table} (${column} nulls first)`.execute(db);
  else await sql`create index if not exists ${name} on ${table} (${column})`.execute(db);
}

export async function dropFieldIndex(db: Kysely<any>, field: Field): Promise<void> {
  await sql`drop index if exists ${sql.id(fieldIndexName(field))}`.execute(db);
}
