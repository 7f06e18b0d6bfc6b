import type { Kysely, Migration } from 'kysely';
import { tuneSqliteSearchIndex, type Dialect } from '../dialect.js';

/** SQLite search indexes made before this release merge their segments less often (see the dialect). */
export function searchMergingMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect.name !== 'sqlite') return;
      const tables = await db.selectFrom('tables').select('id').execute();
      for (const { id } of tables) await tuneSqliteSearchIndex(db, `rec_${id}`);
    },
  };
}
