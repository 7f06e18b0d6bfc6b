import { sql, type Kysely } from 'kysely';
import type { TestContext } from './build-test-app.js';

/** What the database itself says about a record table: tests check the physical schema behind the API. */

/** Whether the physical record table `rec_<tableId>` exists, asked of the database itself. */
export async function physicalTableExists(ctx: TestContext, tableId: number): Promise<boolean> {
  const { db, dialect } = ctx.container.database;
  const name = `rec_${tableId}`;
  const result =
    dialect.name === 'sqlite'
      ? await sql<{ found: number }>`select count(*) as found from sqlite_master where type = 'table' and name = ${name}`.execute(db)
      : await sql<{ found: number }>`select count(*)::int as found from information_schema.tables where table_schema = current_schema() and table_name = ${name}`.execute(db);
  return Number(result.rows[0].found) > 0;
}

/** Physical columns of `rec_<tableId>` with their declared types, lower-cased; empty when the table is missing. */
export async function physicalColumns(ctx: TestContext, tableId: number): Promise<Record<string, string>> {
  const { db, dialect } = ctx.container.database;
  const name = `rec_${tableId}`;
  const rows =
    dialect.name === 'sqlite'
      ? (await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${name})`.execute(db)).rows
      : (await sql<{ name: string; type: string }>`select column_name as name, data_type as type from information_schema.columns where table_schema = current_schema() and table_name = ${name}`.execute(db)).rows;
  return Object.fromEntries(rows.map((row) => [row.name, row.type.toLowerCase()]));
}

/** Field database ids by slug, from the `fields` system table. */
export async function fieldIds(ctx: TestContext, tableId: number): Promise<Record<string, number>> {
  const rows = await ctx.container.database.db.selectFrom('fields').select(['id', 'slug']).where('table_id', '=', tableId).execute();
  return Object.fromEntries(rows.map((row) => [row.slug, row.id]));
}

/**
 * Everything the database holds for record table `rec_<tableId>` (columns and their types,
 * indexes, triggers, the search index and its settings), as text with the table's and fields'
 * ids replaced, so that two tables with the same fields compare equal whatever their ids.
 */
export async function recordTableSignature(db: Kysely<any>, engine: 'sqlite' | 'postgres', tableId: number): Promise<string[]> {
  const name = `rec_${tableId}`;
  let entries: string[];
  if (engine === 'sqlite') {
    const objects = (await sql<{ type: string; name: string; sql: string | null }>`select type, name, sql from sqlite_master where tbl_name = ${name} or name like ${`${name}\\_%`} escape '\\' or name = ${name}`.execute(db)).rows;
    const settings = (await sql<{ k: string; v: unknown }>`select k, v from ${sql.table(`${name}_fts_config`)}`.execute(db)).rows;
    entries = [...objects.map((o) => `${o.type} ${o.name}: ${o.sql ?? ''}`), ...settings.map((s) => `fts config ${s.k}=${String(s.v)}`)];
  } else {
    // The record table and the search text table beside it.
    const names = [name, `${name}_search`];
    const columns = (await sql<{ table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null }>`select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns where table_schema = current_schema() and table_name in (${sql.join(names)})`.execute(db)).rows;
    const indexes = (await sql<{ indexdef: string }>`select indexdef from pg_indexes where schemaname = current_schema() and tablename in (${sql.join(names)})`.execute(db)).rows;
    const triggers = (await sql<{ tgname: string; definition: string }>`select tgname, pg_get_triggerdef(t.oid) as definition from pg_trigger t join pg_class c on c.oid = t.tgrelid where c.relname in (${sql.join(names)}) and not t.tgisinternal`.execute(db)).rows;
    entries = [
      ...columns.map((c) => `column ${c.table_name}.${c.column_name} ${c.data_type} ${c.is_nullable} ${c.column_default ?? ''}`),
      ...indexes.map((i) => `index ${i.indexdef}`),
      ...triggers.map((t) => `trigger ${t.tgname}: ${t.definition}`),
    ];
  }
  return entries
    .map((entry) => entry.replaceAll(name, 'rec_T').replace(/\bf_\d+\b/g, 'f_F').replace(/table_id = \d+/g, 'table_id = T').replace(/tabula_count_rows\('\d+'\)/g, "tabula_count_rows('T')").replace(/\s+/g, ' '))
    .sort();
}

/**
 * Everything the database holds besides record tables (system tables and their columns,
 * constraints, indexes, triggers; on PostgreSQL also functions, sequences and extensions), as
 * sorted text, so that two databases compare equal when their schemas are the same.
 */
export async function systemSchemaSignature(db: Kysely<any>, engine: 'sqlite' | 'postgres'): Promise<string[]> {
  let entries: string[];
  if (engine === 'sqlite') {
    const objects = (await sql<{ type: string; name: string; sql: string | null }>`select type, name, sql from sqlite_master where tbl_name not like 'rec\\_%' escape '\\'`.execute(db)).rows;
    entries = objects.map((o) => `${o.type} ${o.name}: ${o.sql ?? ''}`);
  } else {
    const systemTable = (column: string) => sql`${sql.ref(column)} not like 'rec\\_%' escape '\\'`;
    const columns = (await sql<{ table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null }>`select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns where table_schema = current_schema() and ${systemTable('table_name')}`.execute(db)).rows;
    const constraints = (await sql<{ relname: string; conname: string; definition: string }>`select c.relname, k.conname, pg_get_constraintdef(k.oid) as definition from pg_constraint k join pg_class c on c.oid = k.conrelid where c.relnamespace = current_schema()::regnamespace and ${systemTable('c.relname')}`.execute(db)).rows;
    const indexes = (await sql<{ indexdef: string }>`select indexdef from pg_indexes where schemaname = current_schema() and ${systemTable('tablename')}`.execute(db)).rows;
    const triggers = (await sql<{ tgname: string; definition: string }>`select tgname, pg_get_triggerdef(t.oid) as definition from pg_trigger t join pg_class c on c.oid = t.tgrelid where c.relnamespace = current_schema()::regnamespace and ${systemTable('c.relname')} and not t.tgisinternal`.execute(db)).rows;
    const functions = (await sql<{ definition: string }>`select pg_get_functiondef(p.oid) as definition from pg_proc p where p.pronamespace = current_schema()::regnamespace`.execute(db)).rows;
    const sequences = (await sql<{ sequence_name: string }>`select sequence_name from information_schema.sequences where sequence_schema = current_schema() and ${systemTable('sequence_name')}`.execute(db)).rows;
    const extensions = (await sql<{ extname: string; extversion: string }>`select extname, extversion from pg_extension`.execute(db)).rows;
    entries = [
      ...columns.map((c) => `column ${c.table_name}.${c.column_name} ${c.data_type} ${c.is_nullable} ${c.column_default ?? ''}`),
      ...constraints.map((k) => `constraint ${k.relname}.${k.conname}: ${k.definition}`),
      ...indexes.map((i) => `index ${i.indexdef}`),
      ...triggers.map((t) => `trigger ${t.tgname}: ${t.definition}`),
      ...functions.map((f) => `function ${f.definition}`),
      ...sequences.map((s) => `sequence ${s.sequence_name}`),
      ...extensions.map((e) => `extension ${e.extname} ${e.extversion}`),
    ];
  }
  return entries.map((entry) => entry.replace(/\s+/g, ' ')).sort();
}
