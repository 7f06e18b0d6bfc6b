import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * SQLite: the search index catches up after the commit (docs/decisions.md, "The search index
 * catches up after the commit"). A table of the records whose text the index does not hold yet,
 * with the text it holds for each (null: none), and each record table's three triggers on its
 * search table now note a record there instead of indexing its text. Every index matches its
 * texts when this runs (the old triggers indexed in the write), so nothing starts pending.
 * PostgreSQL is unchanged. Frozen once released.
 */
export function searchIndexCatchUpMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      await sql`create table search_index_pending (table_name text not null, id integer not null, indexed_text text, primary key (table_name, id)) without rowid`.execute(db);
      const tables = await db.selectFrom('tables').select('id').orderBy('id').execute();
      for (const { id } of tables) await notePendingInstead(db, `rec_${id}`);
    },
  };
}

async function notePendingInstead(db: Kysely<any>, table: string): Promise<void> {
  const texts = sql.table(`${table}_search`);
  const pending = sql.table('search_index_pending');
  const name = sql.lit(table);
  for (const event of ['insert', 'delete', 'update']) await sql`drop trigger if exists ${sql.id(`${table}_search_${event}`)}`.execute(db);
  await sql`create trigger ${sql.id(`${table}_search_insert`)} after insert on ${texts} begin
    insert into ${pending} (table_name, id, indexed_text) select ${name}, new.id, null
      where not exists (select 1 from ${pending} where table_name = ${name} and id = new.id); end`.execute(db);
  await sql`create trigger ${sql.id(`${table}_search_delete`)} after delete on ${texts} begin
    insert into ${pending} (table_name, id, indexed_text) select ${name}, old.id, old.text
      where not exists (select 1 from ${pending} where table_name = ${name} and id = old.id); end`.execute(db);
  await sql`create trigger ${sql.id(`${table}_search_update`)} after update of text on ${texts} begin
    insert into ${pending} (table_name, id, indexed_text) select ${name}, old.id, old.text
      where not exists (select 1 from ${pending} where table_name = ${name} and id = old.id); end`.execute(db);
}
