import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * SQLite search indexes made before this release kept each trigram's positions; today's keep
 * only which records hold it (see the dialect). Each is made anew and filled from its table's
 * `_search` column, about ten seconds per million records, reported as it goes.
 */
export function searchIndexWithoutPositionsMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect.name !== 'sqlite') return;
      const tables = await db.selectFrom('tables').select('id').orderBy('id').execute();
      for (const [index, { id }] of tables.entries()) {
        const table = `rec_${id}`;
        process.stderr.write(`rebuilding the search index of table ${id} (${index + 1} of ${tables.length})…\n`);
        await dialect.dropSearchIndex(db, table);
        await dialect.createSearchIndex(db, table);
        const fts = sql.table(`${table}_fts`);
        await sql`insert into ${fts}(${fts}) values ('rebuild')`.execute(db);
      }
    },
  };
}
