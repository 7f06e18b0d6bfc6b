import { sql, type Kysely } from 'kysely';
import { prepareShapedQuery } from '../../db/prepared-query.js';
import type { SystemSchema } from '../../db/schema.js';
import type { ChangeRow } from './change.js';

type Db = Kysely<SystemSchema>;

/** A change to append, as stored (seq drawn by the insert). */
export type NewChangeRow = Omit<ChangeRow, 'seq'> & { account_id: number };

/** SQLite's bound on one statement's parameters, over a change row's 12 columns. */
const rowsPerInsert = 2000;

/** One change into the log or the queue, compiled once: most writes add one. */
const insertOneChange = prepareShapedQuery(
  (table: 'changes' | 'change_queue') => table,
  (db: Kysely<any>, table: 'changes' | 'change_queue', ...values: unknown[]) => db.insertInto(table).values(Object.fromEntries(changeColumns.map((column, index) => [column, values[index]]))),
);

const changeColumns = ['account_id', 'space_id', 'table_id', 'record_id', 'comment_id', 'kind', 'at', 'actor_user_id', 'actor_api_key_id', 'actor_name', 'payload_json'] as const;

function insertOne(db: Db, table: 'changes' | 'change_queue', row: NewChangeRow) {
  return insertOneChange(db, table, ...changeColumns.map((column) => row[column]));
}

export async function insertChanges(db: Db, rows: readonly NewChangeRow[]): Promise<void> {
  if (rows.length === 1) return void (await insertOne(db, 'changes', rows[0]));
  for (let start = 0; start < rows.length; start += rowsPerInsert) {
    await db.insertInto('changes').values(rows.slice(start, start + rowsPerInsert)).execute();
  }
}

/** Changes waiting for the sequencer (PostgreSQL), in arrival order. */
export async function queueChanges(db: Db, rows: readonly NewChangeRow[]): Promise<void> {
  if (rows.length === 1) return void (await insertOne(db, 'change_queue', rows[0]));
  for (let start = 0; start < rows.length; start += rowsPerInsert) {
    await db.insertInto('change_queue').values(rows.slice(start, start + rowsPerInsert)).execute();
  }
}


export async function hasQueuedChanges(db: Db): Promise<boolean> {
  return (await db.selectFrom('change_queue').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Moves up to `limit` queued changes, oldest first, into the log in one statement: each gets
 * the next seq in queue order. Answers how many moved. Run by the sequencer only, under the
 * change-log lock, in its own transaction.
 */
export async function sequenceQueued(db: Db, limit: number): Promise<number> {
  const list = sql.join(changeColumns.map((column) => sql.ref(column)));
  const result = await sql<{ moved: number }>`
    with moved as (
      delete from change_queue where id in (select id from change_queue order by id limit ${limit}) returning id, ${list}
    ), appended as (
      insert into changes (${list}) select ${list} from moved order by id returning 1
    )
    select count(*) as moved from appended`.execute(db);
  return Number(result.rows[0]?.moved ?? 0);
}

const columns = ['seq', 'kind', 'table_id', 'space_id', 'record_id', 'comment_id', 'at', 'actor_user_id', 'actor_api_key_id', 'actor_name', 'payload_json'] as const;

/** Changes after `after` of the given tables (or of one space's tables), in seq order. */
export async function listChanges(db: Db, where: { tableIds?: readonly number[]; spaceId?: number }, after: number, limit: number): Promise<ChangeRow[]> {
  let query = db.selectFrom('changes').select(columns).where('seq', '>', after);
  if (where.tableIds) query = where.tableIds.length === 1 ? query.where('table_id', '=', where.tableIds[0]) : query.where('table_id', 'in', where.tableIds);
  if (where.spaceId !== undefined) query = query.where('space_id', '=', where.spaceId);
  return (await query.orderBy('seq').limit(limit).execute()) as ChangeRow[];
}

/** Every table's changes after `after`, in seq order: what a process's feed fans out. */
export async function listAllChanges(db: Db, after: number, limit: number): Promise<ChangeRow[]> {
  return (await db.selectFrom('changes').select(columns).where('seq', '>', after).orderBy('seq').limit(limit).execute()) as ChangeRow[];
}

/** One record's changes before `before` (all when null), newest first. */
export async function listRecordChanges(db: Db, tableId: number, recordId: number, before: number | null, limit: number): Promise<ChangeRow[]> {
  let query = db.selectFrom('changes').select(columns).where('table_id', '=', tableId).where('record_id', '=', recordId);
  if (before !== null) query = query.where('seq', '<', before);
  return (await query.orderBy('seq', 'desc').limit(limit).execute()) as ChangeRow[];
}

/** The highest seq committed so far (0 for none). */
export async function lastSeq(db: Db): Promise<number> {
  const row = await db.selectFrom('changes').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst();
  return Number(row?.seq ?? 0);
}

/** The highest seq retention removed: a cursor below it has missed changes. */
export async function purgedThrough(db: Db): Promise<number> {
  const row = await db.selectFrom('change_log_state').select('purged_through').where('id', '=', 1).executeTakeFirstOrThrow();
  return Number(row.purged_through);
}

/**
 * Removes changes made before `before` (a datetime), at most `limit` of them, oldest first, and
 * moves the purge mark up to the last one removed. Answers how many went.
 *
 * The batch ends before the first change made at or after `before`: the log stays one contiguous
 * run above `purged_through` (a cursor at or above it has missed nothing), and finding the batch
 * reads the expired changes and one more, never the whole log (there is no index on `at`; seq
 * order is time order but for the moments between drawing the time and the lock).
 *
 * Several processes may purge at once: a change is taken by the DELETE that removes it; the
 * second of two DELETEs of the same batch waits for the first (PostgreSQL row locks; SQLite's one
 * writer) and then removes nothing, and the purge mark only moves up.
 */
export async function purgeChangesBefore(db: Db, before: string, limit: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const firstKept = await trx.selectFrom('changes').select('seq').where('at', '>=', before).orderBy('seq').limit(1).executeTakeFirst();
    // The limit-th expired change, or (fewer expired) the last of them: both by the primary key.
    const expired = firstKept ? trx.selectFrom('changes').where('seq', '<', firstKept.seq) : trx.selectFrom('changes');
    const last = await expired.select('seq').orderBy('seq').limit(1).offset(limit - 1).executeTakeFirst();
    const through = Number(last?.seq ?? (await expired.select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst())?.seq ?? 0);
    if (through === 0) return 0;
    const removed = await trx.deleteFrom('changes').where('seq', '<=', through).executeTakeFirst();
    await trx.updateTable('change_log_state').set({ purged_through: through }).where('id', '=', 1).where('purged_through', '<', through).execute();
    return Number(removed.numDeletedRows);
  });
}

/** One change by its seq (a webhook redelivery), or undefined once retention removed it. */
export async function findChange(db: Db, seq: number): Promise<ChangeRow | undefined> {
  return (await db.selectFrom('changes').select(columns).where('seq', '=', seq).executeTakeFirst()) as ChangeRow | undefined;
}
