import type { Kysely, Migration } from 'kysely';

/**
 * API keys may expire (`expires_at`, a UTC datetime; null never), and their last use is
 * recorded. Last use lives in a table of its own, outside the metadata tables whose every
 * change bumps `metadata_version` (0005): recording it must not empty every process's caches.
 * Frozen once released.
 */
export function keyExpiryAndLastUseMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('api_keys').addColumn('expires_at', 'text').execute();
      await db.schema
        .createTable('api_key_usage')
        .addColumn('key_id', 'integer', (c) => c.primaryKey().references('api_keys.id').onDelete('cascade'))
        .addColumn('last_used_at', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
