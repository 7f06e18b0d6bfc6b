import type { Kysely } from 'kysely';
import type { SystemSchema } from '../../db/schema.js';

type Db = Kysely<SystemSchema>;

export type TrashRow = SystemSchema['record_trash'];

/** SQLite's bound on one statement's parameters, over a trash row's 7 columns. */
const rowsPerInsert = 4000;

export async function insertTrashRows(db: Db, rows: readonly TrashRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += rowsPerInsert) await db.insertInto('record_trash').values(rows.slice(start, start + rowsPerInsert)).execute();
}

export async function findTrashRows(db: Db, tableId: number, recordIds: readonly number[]): Promise<TrashRow[]> {
  if (recordIds.length === 0) return [];
  return db.selectFrom('record_trash').selectAll().where('table_id', '=', tableId).where('record_id', 'in', recordIds).execute();
}

/** Takes records out of the trash; answers the rows taken (those still there). */
export async function removeTrashRows(db: Db, tableId: number, recordIds: readonly number[]): Promise<TrashRow[]> {
  if (recordIds.length === 0) return [];
  return db.deleteFrom('record_trash').where('table_id', '=', tableId).where('record_id', 'in', recordIds).returningAll().execute();
}

/** A table's trash, newest first (ties: highest id first). */
export async function listTrash(db: Db, tableId: number, limit: number, offset: number): Promise<TrashRow[]> {
  return db.selectFrom('record_trash').selectAll().where('table_id', '=', tableId).orderBy('deleted_at', 'desc').orderBy('record_id', 'desc').limit(limit).offset(offset).execute();
}

/** Records deleted before `before`, a batch at a time, by table: what the purge takes next. */
export async function findExpiredTrash(db: Db, before: string, limit: number): Promise<Array<{ table_id: number; record_id: number }>> {
  return db.selectFrom('record_trash').select(['table_id', 'record_id']).where('deleted_at', '<', before).orderBy('deleted_at').limit(limit).execute();
}
