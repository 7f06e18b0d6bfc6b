import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * SQLite search indexes made before this release kept each trigram's positions; today's keep
 * only which records hold it (see src/modules/records/search/sqlite.ts). Each is made anew and filled from its table's
 * `_search` column, about ten seconds per million records, reported as it goes.
 */
export function searchIndexWithoutPositionsMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      const tables = await db.selectFrom('tables').select('id').orderBy('id').execute();
      for (const [index, { id }] of tables.entries()) {
        const table = `rec_${id}`;
        process.stderr.write(`rebuilding the search index of table ${id} (${index + 1} of ${tables.length})…\n`);
        await dropSearchIndex(db, table);
        await createSearchIndex(db, table);
        const fts = sql.table(`${table}_fts`);
        await sql`insert into ${fts}(${fts}) values ('rebuild')`.execute(db);
      }
    },
  };
}

/** The SQLite search index and its triggers as this release dropped and made them (migrations never call current code). */
async function dropSearchIndex(db: Kysely<any>, table: string): Promise<void> {
  for (const event of ['insert', 'delete', 'update']) await sql`drop trigger if exists ${sql.id(`${table}_search_${event}`)}`.execute(db);
  await sql`drop table if exists ${sql.table(`${table}_fts`)}`.execute(db);
}

async function createSearchIndex(db: Kysely<any>, table: string): Promise<void> {
  const fts = sql.table(`${table}_fts`);
  const base = sql.table(table);
  await sql`create virtual table ${fts} using fts5(_search, content=${sql.lit(table)}, content_rowid='id', tokenize='trigram', detail=none)`.execute(db);
  await sql`insert into ${fts}(${fts}, rank) values ('automerge', 8)`.execute(db);
  await sql`create trigger ${sql.id(`${table}_search_insert`)} after insert on ${base} begin
    insert into ${fts}(rowid, _search) values (new.id, new._search); end`.execute(db);
  await sql`create trigger ${sql.id(`${table}_search_delete`)} after delete on ${base} begin
    insert into ${fts}(${fts}, rowid, _search) values ('delete', old.id, old._search); end`.execute(db);
  await sql`create trigger ${sql.id(`${table}_search_update`)} after update of _search on ${base} begin
    insert into ${fts}(${fts}, rowid, _search) values ('delete', old.id, old._search);
    insert into ${fts}(rowid, _search) values (new.id, new._search); end`.execute(db);
}
