import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * One queued row per write of several changes (docs/decisions.md, "Changes: one queued row per
 * write"): the write's changes side by side, by position: `record_ids`, `comment_ids`, `kinds`,
 * and `payloads`, their payloads' JSON texts one a line (JSON.stringify never writes a line
 * break: splitting the lines costs the sequencer a fifth of what parsing a JSON array of them
 * did). `change_count` says how many (1 for a row that is one change, as every row was before);
 * a row of several leaves `record_id`, `kind` and `payload_json` empty. Rows queued before this
 * migration are one change each and stay valid.
 *
 * The payloads are compressed with lz4 where the server has it (PostgreSQL 14 and later, built
 * with lz4; else the default, pglz): a thousand payloads are half a megabyte that lz4 packs in a
 * fraction of a millisecond.
 *
 * SQLite never queues (its one writer appends to the log): its queue is always empty and is
 * made again in the new shape (the lists as text: it has no arrays, and they stay empty). Frozen
 * once released.
 */
export function changeQueueBatchesMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'sqlite') {
        await db.schema.dropTable('change_queue').execute();
        await db.schema
          .createTable('change_queue')
          .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
          .addColumn('account_id', 'integer', (c) => c.notNull())
          .addColumn('space_id', 'integer', (c) => c.notNull())
          .addColumn('table_id', 'integer', (c) => c.notNull())
          .addColumn('record_id', 'integer')
          .addColumn('comment_id', 'integer')
          .addColumn('kind', 'text')
          .addColumn('at', 'text', (c) => c.notNull())
          .addColumn('actor_user_id', 'integer')
          .addColumn('actor_api_key_id', 'integer')
          .addColumn('actor_name', 'text', (c) => c.notNull())
          .addColumn('payload_json', 'text')
          .addColumn('record_ids', 'text')
          .addColumn('comment_ids', 'text')
          .addColumn('kinds', 'text')
          .addColumn('payloads', 'text')
          .addColumn('change_count', 'integer', (c) => c.notNull().defaultTo(1))
          .execute();
        return;
      }
      await sql`alter table change_queue
        alter column record_id drop not null,
        alter column kind drop not null,
        alter column payload_json drop not null,
        add column record_ids integer[],
        add column comment_ids integer[],
        add column kinds text[],
        add column payloads text,
        add column change_count integer not null default 1`.execute(db);
      const lz4 = await sql<{ lz4: boolean }>`select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`.execute(db);
      if (lz4.rows[0]?.lz4) await sql`alter table change_queue alter column kinds set compression lz4, alter column payloads set compression lz4`.execute(db);
    },
  };
}
