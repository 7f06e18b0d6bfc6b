import type { Kysely, Migration } from 'kysely';

/**
 * `stored_files`: one row per blob the service stored (an attachment's bytes), the ledger the
 * files capability keeps beside the record values that reference it.
 *
 * - `id` is the random id in the attachment's path and the blob's key; `path` is unique.
 * - `state`: `pending` (being stored for a write that has not committed yet), `live`
 *   (referenced by a record), `queued` (released: the sweep deletes it once `reclaim_after`
 *   passed), `restored` (taken out of the queue by an operator, attachable again).
 * - `table_id`/`field_id`: the file field it was stored for; a file never moves to another
 *   field (writing it elsewhere makes a copy), so deleting a field, table or space finds its
 *   files by these. No foreign keys: the rows outlive the space, table and field they
 *   belonged to, until the sweep has removed their blobs.
 * - `store`: `managed` (the service's storage, swept) or `space` (the space's own storage,
 *   never touched by the sweep).
 * - `claim`/`claimed_at`: a sweep's claim, so that several processes delete each blob once.
 * Frozen once released.
 */
export function storedFilesMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('stored_files')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('space_id', 'integer', (c) => c.notNull())
        .addColumn('table_id', 'integer', (c) => c.notNull())
        .addColumn('field_id', 'integer', (c) => c.notNull())
        .addColumn('store', 'text', (c) => c.notNull())
        .addColumn('blob_key', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('size', 'bigint', (c) => c.notNull())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('reclaim_after', 'text')
        .addColumn('claim', 'text')
        .addColumn('claimed_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('released_at', 'text')
        .execute();
      await db.schema.createIndex('stored_files_reclaim').on('stored_files').columns(['state', 'reclaim_after']).execute();
      await db.schema.createIndex('stored_files_field').on('stored_files').columns(['field_id', 'state']).execute();
      await db.schema.createIndex('stored_files_space').on('stored_files').columns(['space_id', 'state']).execute();
    },
  };
}
