import { sql } from 'kysely';
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
