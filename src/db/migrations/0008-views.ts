import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * Saved views of a table. Views are metadata: a query through a view reads it from the
 * per-process metadata cache, so its changes bump `metadata_version` like the other metadata
 * tables (the same triggers as migration 0005 made, as released here). Frozen once released.
 */
export function viewsMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('views')
        .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('table_id', 'integer', (c) => c.notNull().references('tables.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('config_json', 'text', (c) => c.notNull())
        .addColumn('filters_json', 'text', (c) => c.notNull())
        .addColumn('order_by', 'text')
        .addColumn('order_dir', 'text')
        .addColumn('is_table_default', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_by', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('views_table').on('views').column('table_id').execute();
      if (dialect === 'postgres') {
        await sql`create constraint trigger views_metadata_version after insert or update or delete on views
          deferrable initially deferred for each row execute function tabula_bump_metadata_version()`.execute(db);
        return;
      }
      for (const event of ['insert', 'update', 'delete']) {
        await sql`create trigger ${sql.id(`views_metadata_version_${event}`)} after ${sql.raw(event)} on views
          begin update metadata_version set version = version + 1 where id = 1; end`.execute(db);
      }
    },
  };
}
