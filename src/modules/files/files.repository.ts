import { sql, type Kysely } from 'kysely';
import type { SystemSchema } from '../../db/schema.js';

type Db = Kysely<SystemSchema>;
export type StoredFileRow = SystemSchema['stored_files'];
export type NewStoredFile = Omit<StoredFileRow, 'state' | 'reclaim_after' | 'claim' | 'claimed_at' | 'released_at'>;

/** The write-ahead entry of a blob about to be stored: if the write never commits, the sweep finds it. */
export async function insertPendingFile(db: Db, file: NewStoredFile, orphanAfter: string): Promise<void> {
  await db.insertInto('stored_files').values({ ...file, state: 'pending', reclaim_after: orphanAfter, claim: null, claimed_at: null, released_at: null }).execute();
}

export async function deleteFileRows(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('stored_files').where('id', 'in', ids).execute();
}

/** A file of the account by its path, in any state but pending (a write not committed owns nothing yet). */
export async function findFileByPath(db: Db, accountId: number, path: string): Promise<StoredFileRow | undefined> {
  return db.selectFrom('stored_files').selectAll().where('path', '=', path).where('account_id', '=', accountId).where('state', '!=', 'pending').executeTakeFirst();
}

export async function findFilesByPaths(db: Db, paths: readonly string[]): Promise<StoredFileRow[]> {
  if (paths.length === 0) return [];
  return db.selectFrom('stored_files').selectAll().where('path', 'in', paths).execute();
}

/** New attachments of a committed write: live, owned by the field they were written to. */
export async function markLive(db: Db, paths: readonly string[], owner: { tableId: number; fieldId: number; spaceId: number }): Promise<void> {
  if (paths.length === 0) return;
  await db
    .updateTable('stored_files')
    .set({ state: 'live', reclaim_after: null, released_at: null, table_id: owner.tableId, field_id: owner.fieldId, space_id: owner.spaceId })
    .where('path', 'in', paths)
    .where('state', 'in', ['pending', 'restored'])
    .execute();
}

/**
 * Releases files: managed ones are queued until `reclaimAfter`; a space's own storage is
 * never touched, so its rows simply go (the customer's blob stays where it is).
 */
export async function releaseFiles(db: Db, where: { paths?: readonly string[]; fieldId?: number; tableId?: number; spaceId?: number }, now: string, reclaimAfter: string): Promise<void> {
  const scope = <Q extends { where: (...args: any[]) => Q }>(query: Q): Q => {
    if (where.paths) return query.where('path', 'in', where.paths);
    if (where.fieldId !== undefined) return query.where('field_id', '=', where.fieldId);
    if (where.tableId !== undefined) return query.where('table_id', '=', where.tableId);
    return query.where('space_id', '=', where.spaceId!);
  };
  if (where.paths && where.paths.length === 0) return;
  await scope(db.updateTable('stored_files').set({ state: 'queued', reclaim_after: reclaimAfter, released_at: now }).where('store', '=', 'managed').where('state', 'in', ['live', 'restored'])).execute();
  await scope(db.deleteFrom('stored_files').where('store', '=', 'space').where('state', 'in', ['live', 'restored'])).execute();
}

/** Uploads of comments/upload not yet used by a comment: files of the table, of no field, still pending. */
export async function findPendingTableUploads(db: Db, accountId: number, tableId: number, fieldId: number, paths: readonly string[]): Promise<StoredFileRow[]> {
  if (paths.length === 0) return [];
  return db.selectFrom('stored_files').selectAll().where('account_id', '=', accountId).where('table_id', '=', tableId).where('field_id', '=', fieldId).where('state', '=', 'pending').where('path', 'in', paths).execute();
}

/**
 * Claims up to `limit` files whose grace has passed for one sweep, and answers them: released
 * files due by `queuedDue`, pending orphans due by `pendingDue`. A claim older than `staleBefore`
 * (a sweep that died) may be taken over.
 *
 * One statement, so no lock is held between statements. A row goes to one sweep only: on
 * PostgreSQL the candidates are locked `FOR UPDATE SKIP LOCKED`, so a concurrent sweep passes
 * over the rows being claimed and takes the next ones instead of queueing behind them, and a
 * row claimed and committed meanwhile is re-checked against its latest version (READ
 * COMMITTED re-evaluates the conditions of a row updated under it), where the claim shows. The
 * candidates are a MATERIALIZED CTE: as an `IN (subquery … LIMIT)`, the planner may run the
 * subquery more than once, and with ties in the order each run can pick other rows (a claim of
 * 250 rows for a limit of 100 was seen). On SQLite the statement runs under the database's
 * single write lock, and `IN (subquery)` is evaluated once.
 */
export async function claimDueFiles(
  db: Db,
  dialect: 'sqlite' | 'postgres',
  claim: string,
  due: { queuedDue: string; pendingDue: string },
  now: string,
  staleBefore: string,
  limit: number,
): Promise<StoredFileRow[]> {
  const claimable = (eb: any) =>
    eb.and([
      eb.or([eb.and([eb('state', '=', 'queued'), eb('reclaim_after', '<=', due.queuedDue)]), eb.and([eb('state', '=', 'pending'), eb('reclaim_after', '<=', due.pendingDue)])]),
      eb.or([eb('claim', 'is', null), eb('claimed_at', '<', staleBefore)]),
    ]);
  const candidates = db.selectFrom('stored_files').select('id').where(claimable).orderBy('reclaim_after').orderBy('id').limit(limit);
  if (dialect === 'sqlite') {
    return db.updateTable('stored_files').set({ claim, claimed_at: now }).where('id', 'in', candidates).where(claimable).returningAll().execute();
  }
  return db
    .with((cte) => cte('candidates').materialized(), () => candidates.forUpdate().skipLocked())
    .updateTable('stored_files')
    .set({ claim, claimed_at: now })
    .where('id', 'in', (eb) => eb.selectFrom('candidates').select('candidates.id'))
    .where(claimable)
    .returningAll()
    .execute();
}

/** Drops a sweep's claim on the rows it still holds (files the storage failed to delete, or a sweep cut short): the next sweep tries again. */
export async function releaseClaim(db: Db, claim: string): Promise<void> {
  await db.updateTable('stored_files').set({ claim: null, claimed_at: null }).where('claim', '=', claim).execute();
}

/** The row of a file a sweep reclaimed, if that sweep still holds it; false when another took it over. */
export async function deleteClaimedFile(db: Db, id: string, claim: string): Promise<boolean> {
  const deleted = await db.deleteFrom('stored_files').where('id', '=', id).where('claim', '=', claim).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** A pending file whose write did commit after all (the process stopped before settling it). */
export async function adoptPendingFile(db: Db, id: string): Promise<void> {
  await db.updateTable('stored_files').set({ state: 'live', reclaim_after: null, claim: null, claimed_at: null }).where('id', '=', id).where('state', '=', 'pending').execute();
}

/** Whether the field a file was stored for still exists (a pending file's write can have committed only then). */
export async function fieldExists(db: Db, tableId: number, fieldId: number): Promise<boolean> {
  return (await db.selectFrom('fields').select('id').where('id', '=', fieldId).where('table_id', '=', tableId).executeTakeFirst()) !== undefined;
}

export async function listQueuedFiles(db: Db): Promise<StoredFileRow[]> {
  return db.selectFrom('stored_files').selectAll().where('state', '=', 'queued').orderBy('reclaim_after').orderBy('id').execute();
}

/**
 * Takes a queued file out of the queue, unless a sweep holds it (and is deleting it now): a
 * claim older than `staleBefore` belongs to a sweep taken for dead and does not count.
 */
export async function restoreQueuedFile(db: Db, path: string, staleBefore: string): Promise<{ restored: StoredFileRow } | { claimed: true } | undefined> {
  const [restored] = await db
    .updateTable('stored_files')
    .set({ state: 'restored', reclaim_after: null, released_at: null, claim: null, claimed_at: null })
    .where('path', '=', path)
    .where('state', '=', 'queued')
    .where((eb) => eb.or([eb('claim', 'is', null), eb('claimed_at', '<', staleBefore)]))
    .returningAll()
    .execute();
  if (restored) return { restored };
  const queued = await db.selectFrom('stored_files').select('id').where('path', '=', path).where('state', '=', 'queued').executeTakeFirst();
  return queued ? { claimed: true } : undefined;
}

/** Whether a record of the table holds the path in the field's column (a pending file's write may have committed). */
export async function isPathReferenced(db: Db, table: string, column: string, path: string, dialect: 'sqlite' | 'postgres'): Promise<boolean> {
  const needle = JSON.stringify(path);
  const found =
    dialect === 'sqlite'
      ? await sql`select 1 as found from ${sql.table(table)} where instr(${sql.ref(column)}, ${needle}) > 0 limit 1`.execute(db)
      : await sql`select 1 as found from ${sql.table(table)} where strpos(${sql.ref(column)}::text, ${needle}) > 0 limit 1`.execute(db);
  return found.rows.length > 0;
}

export async function setFileSize(db: Db, id: string, size: number): Promise<void> {
  await db.updateTable('stored_files').set({ size }).where('id', '=', id).execute();
}
