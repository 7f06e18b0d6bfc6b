import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * Each record table's `_search` column (its records' lower-cased searchable text, a second copy
 * of their text in every row) moves to a table beside it, `rec_<id>_search (id, text)`, which
 * the search index now covers: an external-content FTS5 trigram table on SQLite, a pg_trgm GIN
 * index on PostgreSQL. The column is dropped and the table rewritten without it, so a full scan
 * reads only the pages its fields need (see decisions.md, "Search text beside the record").
 * Reported per table as it goes.
 */
export function searchTextBesideRecordsMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'postgres') await createDeleteFunction(db);
      const tables = await db.selectFrom('tables').select('id').orderBy('id').execute();
      for (const [index, { id }] of tables.entries()) {
        process.stderr.write(`moving the search text of table ${id} beside it (${index + 1} of ${tables.length})…\n`);
        if (dialect === 'sqlite') await moveSqlite(db, `rec_${id}`);
        else await movePostgres(db, `rec_${id}`);
      }
      if (dialect === 'sqlite' && tables.length > 0) {
        // Dropping the column shrank each row in place, leaving its pages part empty: VACUUM
        // packs them (SQLite migrations run outside a transaction). About 3 s per million records.
        process.stderr.write('packing the database…\n');
        await sql`vacuum`.execute(db);
      }
    },
  };
}

/** Deletes deleted records' text: statement-level, so a batch delete is one statement here too. */
async function createDeleteFunction(db: Kysely<any>): Promise<void> {
  await sql`create or replace function tabula_delete_search_text() returns trigger language plpgsql as $$
    begin
      execute format('delete from %I where id in (select id from old_rows)', TG_TABLE_NAME || '_search');
      return null;
    end $$`.execute(db);
}

/** The index, its triggers and the search table as this release makes them (migrations never call current code). */
async function moveSqlite(db: Kysely<any>, table: string): Promise<void> {
  const base = sql.table(table);
  const texts = sql.table(`${table}_search`);
  const fts = sql.table(`${table}_fts`);
  for (const event of ['insert', 'delete', 'update']) await sql`drop trigger if exists ${sql.id(`${table}_search_${event}`)}`.execute(db);
  await sql`drop table if exists ${fts}`.execute(db);
  await sql`create table ${texts} (id integer primary key, text text not null)`.execute(db);
  await sql`insert into ${texts} (id, text) select id, _search from ${base} where _search is not null`.execute(db);
  await sql`create virtual table ${fts} using fts5(text, content=${sql.lit(`${table}_search`)}, content_rowid='id', tokenize='trigram', detail=none)`.execute(db);
  await sql`insert into ${fts}(${fts}, rank) values ('automerge', 8)`.execute(db);
  await sql`insert into ${fts}(${fts}) values ('rebuild')`.execute(db);
  await sql`create trigger ${sql.id(`${table}_search_insert`)} after insert on ${texts} begin
    insert into ${fts}(rowid, text) values (new.id, new.text); end`.execute(db);
  await sql`create trigger ${sql.id(`${table}_search_delete`)} after delete on ${texts} begin
    insert into ${fts}(${fts}, rowid, text) values ('delete', old.id, old.text); end`.execute(db);
  await sql`create trigger ${sql.id(`${table}_search_update`)} after update of text on ${texts} begin
    insert into ${fts}(${fts}, rowid, text) values ('delete', old.id, old.text);
    insert into ${fts}(rowid, text) values (new.id, new.text); end`.execute(db);
  await sql`create trigger ${sql.id(`${table}_delete_search`)} after delete on ${base} begin
    delete from ${texts} where id = old.id; end`.execute(db);
  await sql`alter table ${base} drop column _search`.execute(db);
}

async function movePostgres(db: Kysely<any>, table: string): Promise<void> {
  const base = sql.table(table);
  const texts = sql.table(`${table}_search`);
  // The old index on the column has the search table's name.
  await sql`drop index if exists ${sql.id(`${table}_search`)}`.execute(db);
  await sql`create table ${texts} (id integer primary key, text text not null)`.execute(db);
  await sql`insert into ${texts} (id, text) select id, _search from ${base} where _search is not null`.execute(db);
  await sql`create index ${sql.id(`${table}_search_text`)} on ${texts} using gin (text gin_trgm_ops)`.execute(db);
  await sql`create trigger ${sql.id(`${table}_delete_search`)} after delete on ${base}
    referencing old table as old_rows for each statement execute function tabula_delete_search_text()`.execute(db);
  await sql`alter table ${base} drop column _search`.execute(db);
  // Dropping a column only hides it: rewriting the table (in id order) gives its space back.
  await sql`cluster ${base} using ${sql.id(`${table}_pkey`)}`.execute(db);
  await sql`alter table ${base} set without cluster`.execute(db);
}
