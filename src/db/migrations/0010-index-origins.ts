import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Indexes become a public capability: each records where it came from (`calendar`, `view`,
 * `automatic`, `manual`), the sort direction of its last field (null: every field as stored), why it was made (the query shape
 * that asked for an automatic one) and when it was made and last served a query. Indexes made
 * before this release were calendar indexes (`idx_layout_<field>`) or made by hand. Frozen once
 * released.
 */
export function indexOriginsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('table_indexes').addColumn('origin', 'text', (c) => c.notNull().defaultTo('manual')).execute();
      await db.schema.alterTable('table_indexes').addColumn('direction', 'text').execute();
      await db.schema.alterTable('table_indexes').addColumn('reason', 'text').execute();
      await db.schema.alterTable('table_indexes').addColumn('created_at', 'text').execute();
      await db.schema.alterTable('table_indexes').addColumn('last_used_at', 'text').execute();
      await sql`update table_indexes set origin = 'calendar' where name like 'idx\\_layout\\_%' escape '\\'`.execute(db);
    },
  };
}
