import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.js';

/** The tables whose rows per-process caches keep: identities, keys, memberships and schemas. */
export const metadataTables = ['accounts', 'users', 'api_keys', 'spaces', 'members', 'tables', 'fields'] as const;

/**
 * One counter, `metadata_version`, grows with every committed change to a metadata table,
 * bumped by triggers so that no write path (service, CLI, another process) can forget it.
 * A statement that reads the counter along with its data tells whether what a process cached
 * is still what the database holds (src/db/metadata-cache.ts).
 *
 * On PostgreSQL the bump is a deferred constraint trigger: it runs at commit, after every
 * other lock of the transaction is held, so the counter row is always the last lock taken
 * and two metadata writers cannot deadlock on it. Frozen once released.
 */
export function metadataVersionMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('metadata_version')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .execute();
      await sql`insert into metadata_version (id, version) values (1, 1)`.execute(db);
      if (dialect === 'postgres') {
        await sql`create function tabula_bump_metadata_version() returns trigger language plpgsql as $$
          begin
            update metadata_version set version = version + 1 where id = 1;
            return null;
          end $$`.execute(db);
        for (const table of metadataTables) {
          await sql`create constraint trigger ${sql.id(`${table}_metadata_version`)} after insert or update or delete on ${sql.table(table)}
            deferrable initially deferred for each row execute function tabula_bump_metadata_version()`.execute(db);
        }
        return;
      }
      for (const table of metadataTables) {
        for (const event of ['insert', 'update', 'delete']) {
          await sql`create trigger ${sql.id(`${table}_metadata_version_${event}`)} after ${sql.raw(event)} on ${sql.table(table)}
            begin update metadata_version set version = version + 1 where id = 1; end`.execute(db);
        }
      }
    },
  };
}
