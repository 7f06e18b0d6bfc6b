import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * The change log and the trash (docs/decisions.md, "Changes").
 *
 * `changes`: one row per change of a record or comment, appended by the write unit in the
 * write's own transaction. `seq` grows in commit order: on PostgreSQL the append takes a
 * transaction-scoped advisory lock first, so the sequence value is drawn and committed while no
 * other appender can draw one; on SQLite the one writer does the same. `payload_json` holds the
 * change's `fields`, `before` and `after` as the JSON text the API sends, made once.
 *
 * `record_trash`: a deleted record's row, by field id, until it is restored or purged.
 * `change_log_state.purged_through`: the highest seq retention has removed; a cursor below it
 * has missed changes and must resync. Frozen once released.
 */
export function changesAndTrashMigration(dialect: DialectName): Migration {
  const postgres = dialect === 'postgres';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('changes')
        .addColumn('seq', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('space_id', 'integer', (c) => c.notNull())
        .addColumn('table_id', 'integer', (c) => c.notNull())
        .addColumn('record_id', 'integer', (c) => c.notNull())
        .addColumn('comment_id', 'integer')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('actor_user_id', 'integer')
        .addColumn('actor_api_key_id', 'integer')
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('payload_json', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('changes_table_seq').on('changes').columns(['table_id', 'seq']).execute();
      await db.schema.createIndex('changes_space_seq').on('changes').columns(['space_id', 'seq']).execute();
      await db.schema.createIndex('changes_record_seq').on('changes').columns(['table_id', 'record_id', 'seq']).execute();

      await db.schema
        .createTable('change_log_state')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('purged_through', 'bigint', (c) => c.notNull())
        .execute();
      await db.insertInto('change_log_state').values({ id: 1, purged_through: 0 }).execute();

      await db.schema
        .createTable('record_trash')
        .addColumn('table_id', 'integer', (c) => c.notNull().references('tables.id').onDelete('cascade'))
        .addColumn('record_id', 'integer', (c) => c.notNull())
        .addColumn('deleted_at', 'text', (c) => c.notNull())
        .addColumn('deleted_by_user_id', 'integer')
        .addColumn('deleted_by_api_key_id', 'integer')
        .addColumn('deleted_by_name', 'text', (c) => c.notNull())
        .addColumn('row_json', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('record_trash_pk', ['table_id', 'record_id'])
        .execute();
      await db.schema.createIndex('record_trash_table_deleted').on('record_trash').columns(['table_id', 'deleted_at']).execute();
      await db.schema.createIndex('record_trash_deleted').on('record_trash').columns(['deleted_at']).execute();
    },
  };
}
