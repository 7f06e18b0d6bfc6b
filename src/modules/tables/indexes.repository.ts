import { sql, type Kysely, type Selectable } from 'kysely';
import type { SystemSchema } from '../../db/schema.js';

type Db = Kysely<SystemSchema>;
export type IndexRow = Selectable<SystemSchema['table_indexes']>;

export function listTableIndexes(db: Db, tableId: number): Promise<IndexRow[]> {
  return db.selectFrom('table_indexes').selectAll().where('table_id', '=', tableId).orderBy('id').execute();
}

export function findTableIndex(db: Db, tableId: number, name: string): Promise<IndexRow | undefined> {
  return db.selectFrom('table_indexes').selectAll().where('table_id', '=', tableId).where('name', '=', name).executeTakeFirst();
}

/** Every index the service made (automatic, for a view), of every table: what the maintenance pass weighs. */
export function listServiceMadeIndexes(db: Db): Promise<IndexRow[]> {
  return db.selectFrom('table_indexes').selectAll().where('origin', 'in', ['automatic', 'view']).orderBy('id').execute();
}

/** The table's record count, from the counters its triggers keep. */
export async function readTableRowCount(db: Db, tableId: number): Promise<number> {
  const row = await db
    .selectFrom('table_counters')
    .select(sql<number>`coalesce(sum(row_count), 0)`.as('rows'))
    .where('table_id', '=', tableId)
    .executeTakeFirst();
  return Number(row?.rows ?? 0);
}

/** False when the table already has an index of that name (another process got there first). */
export async function insertTableIndex(
  db: Db,
  row: { table_id: number; name: string; field_ids_json: string; origin: string; direction: string | null; reason: string | null; created_at: string },
): Promise<boolean> {
  const result = await db.insertInto('table_indexes').values(row).onConflict((oc) => oc.columns(['table_id', 'name']).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteTableIndex(db: Db, id: number): Promise<void> {
  await db.deleteFrom('table_indexes').where('id', '=', id).execute();
}

export async function markIndexesUsed(db: Db, ids: readonly number[], at: string): Promise<void> {
  if (ids.length > 0) await db.updateTable('table_indexes').set({ last_used_at: at }).where('id', 'in', ids).execute();
}
