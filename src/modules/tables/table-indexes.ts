import type { Database } from '../../db/database.js';
import { ErrorCode, ValidationError } from '../../shared/errors.js';
import { createFieldIndex } from './physical-schema.js';
import { listFields } from './tables.repository.js';

/**
 * The internal index operation: an index on one field under a logical name (views call it
 * with `idx_layout_<startField>`). Idempotent; metadata and DDL commit together.
 */
export async function ensureFieldIndex(database: Database, tableId: number, slug: string, name: string): Promise<void> {
  const { db, dialect } = database;
  await db.transaction().execute(async (trx) => {
    const field = (await listFields(trx, tableId)).find((f) => f.slug === slug);
    if (!field) throw new ValidationError(`Invalid field: ${slug}`, ErrorCode.invalidField);
    const existing = await trx.selectFrom('table_indexes').select('id').where('table_id', '=', tableId).where('name', '=', name).executeTakeFirst();
    if (existing) return;
    await trx.insertInto('table_indexes').values({ table_id: tableId, name, field_ids_json: JSON.stringify([field.id]) }).execute();
    await createFieldIndex(trx, dialect, field);
  });
}
