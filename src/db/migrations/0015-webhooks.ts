import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * Webhooks (docs/decisions.md, "Webhooks"). `webhooks`: one row per webhook of a table, with
 * its delivery state beside it: `cursor` is the last seq it is done with (delivered or filtered
 * out), `attempt` and `failing_since` describe the change at its head while that change fails,
 * `next_attempt_at` holds it back until its retry is due, and `claimed_by`/`lease_until` say
 * which process is delivering it now (a claim another process may take once its lease ran out).
 * Secrets are sealed with the secret box; a rotation keeps the previous one signing until
 * `previous_secret_until`. Times the engine compares (`next_attempt_at`, `lease_until`,
 * `failing_since`, `previous_secret_until`) are ISO 8601 in UTC with milliseconds, so that text
 * order is time order on both engines.
 *
 * `webhook_deliveries`: one row per attempt, the delivery log. Frozen once released.
 */
export function webhooksMigration(dialect: DialectName): Migration {
  const postgres = dialect === 'postgres';
  const id = (c: any) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('webhooks')
        .addColumn('id', postgres ? 'serial' : 'integer', id)
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('space_id', 'integer', (c) => c.notNull())
        .addColumn('table_id', 'integer', (c) => c.notNull().references('tables.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events_json', 'text', (c) => c.notNull())
        .addColumn('fields_json', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('disabled_reason', 'text')
        .addColumn('secret_sealed', 'text', (c) => c.notNull())
        .addColumn('previous_secret_sealed', 'text')
        .addColumn('previous_secret_until', 'text')
        .addColumn('created_by', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('cursor', 'bigint', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('failing_since', 'text')
        .addColumn('next_attempt_at', 'text')
        .addColumn('claimed_by', 'text')
        .addColumn('lease_until', 'text')
        .execute();
      await db.schema.createIndex('webhooks_table').on('webhooks').columns(['table_id']).execute();
      await db.schema.createIndex('webhooks_active').on('webhooks').columns(['active', 'cursor']).execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', postgres ? 'bigserial' : 'integer', id)
        .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('response_code', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('next_attempt_at', 'text')
        .execute();
      await db.schema.createIndex('webhook_deliveries_webhook').on('webhook_deliveries').columns(['webhook_id', 'id']).execute();
    },
  };
}
