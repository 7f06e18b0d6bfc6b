import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * Where PostgreSQL writers put their changes before the log gives them a seq (docs/decisions.md,
 * "Changes: seq by a sequencer"): the columns of `changes` but `seq`, in arrival order. SQLite
 * (one writer) appends to `changes` directly and leaves this table empty. Frozen once released.
 */
export function changeQueueMigration(dialect: DialectName): Migration {
  const postgres = dialect === 'postgres';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('change_queue')
        .addColumn('id', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
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
    },
  };
}
