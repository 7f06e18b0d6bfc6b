import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * SQLite search indexes made before this release merge their segments at FTS5's default of 4
 * a level; from this release, at 8 (see decisions.md, "FTS5 merges at 8 segments a level").
 */
export function searchMergingMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      const tables = await db.selectFrom('tables').select('id').execute();
      for (const { id } of tables) {
        const fts = sql.table(`rec_${id}_fts`);
        await sql`insert into ${fts}(${fts}, rank) values ('automerge', 8)`.execute(db);
      }
    },
  };
}
