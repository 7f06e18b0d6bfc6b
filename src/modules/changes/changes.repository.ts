import { sql, type Kysely } from 'kysely';
import { insertStatementSizes, prepareQuery, prepareShapedQuery, rowsOfValues } from '../../db/prepared-query.js';
import type { SystemSchema } from '../../db/schema.js';
import { assertOneLineEach, type ChangeRow } from './change.js';
import { changeLogChannel, changeLogLock } from '../../db/dialect.js';

type Db = Kysely<SystemSchema>;

/** A change to append, as stored (seq drawn by the insert). */
export type NewChangeRow = Omit<ChangeRow, 'seq'> & { account_id: number };

const changeColumns = ['account_id', 'space_id', 'table_id', 'record_id', 'comment_id', 'kind', 'at', 'actor_user_id', 'actor_api_key_id', 'actor_name', 'payload_json'] as const;

/**
 * Changes into the log or the queue, compiled once per row count (insertStatementSizes: a
 * batch's thousand changes come in a handful of shapes); most writes add one. Building a
 * thousand-row insert through Kysely's builder cost about a quarter of inserting it.
 */
const insertChangeRows = prepareShapedQuery(
  (shape: { table: 'changes' | 'change_queue'; rows: number }) => `${shape.table}:${shape.rows}`,
  (db: Kysely<any>, shape: { table: 'changes' | 'change_queue'; rows: number }, ...values: unknown[]) => db.insertInto(shape.table).values(rowsOfValues(changeColumns, shape.rows, values)),
);

async function insertRows(db: Db, table: 'changes' | 'change_queue', rows: readonly NewChangeRow[]): Promise<void> {
  let start = 0;
  for (const size of insertStatementSizes(rows.length, changeColumns.length)) {
    const values = rows.slice(start, start + size).flatMap((row) => changeColumns.map((column) => row[column]));
    await insertChangeRows(db, { table, rows: size }, ...values);
    start += size;
  }
}

/** Changes appended to the log (SQLite: its one writer draws each seq in commit order). */
export function insertChanges(db: Db, rows: readonly NewChangeRow[]): Promise<void> {
  return insertRows(db, 'changes', rows);
}

/**
 * A write's changes, waiting for the sequencer (PostgreSQL): one queued row, which the
 * sequencer expands into the log in the order given (docs/decisions.md, "Changes: one queued
 * row per write"). A write's changes share where, when and who (`rows[0]`'s); a row of one
 * change keeps it in the columns it has in the log.
 */
export async function queueChanges(db: Db, rows: readonly NewChangeRow[]): Promise<void> {
  if (rows.length === 1) return insertRows(db, 'change_queue', rows);
  const payloads = rows.map((row) => row.payload_json);
  assertOneLineEach(payloads);
  const [first] = rows;
  const lists = { record_ids: rows.map((row) => row.record_id), comment_ids: rows.map((row) => row.comment_id), kinds: rows.map((row) => row.kind), payloads: payloads.join('\n'), change_count: rows.length };
  await insertQueuedSeveral(db, ...queuedSeveralColumns.map((column) => (column in lists ? lists[column as keyof typeof lists] : first[column as keyof NewChangeRow])));
}

/** A queued row of several changes: what they share, once, then their lists side by side. */
const queuedSeveralColumns = ['account_id', 'space_id', 'table_id', 'at', 'actor_user_id', 'actor_api_key_id', 'actor_name', 'record_ids', 'comment_ids', 'kinds', 'payloads', 'change_count'] as const;

const insertQueuedSeveral = prepareQuery((db: Kysely<any>, ...values: unknown[]) => db.insertInto('change_queue').values(rowsOfValues(queuedSeveralColumns, 1, values)[0]));

/**
 * Reclaims the queue's dead rows (PostgreSQL; outside any transaction). Every queued row dies
 * within milliseconds, so the queue is all dead rows unless vacuumed, and autovacuum's default
 * trigger (a fifth of the table dead) or `autovacuum = off` lets it grow without end: each look
 * at it (is anything queued? the sequencer's oldest rows) then walks every dead row and index
 * entry, 0.4 s at a million. `skip_locked`: a vacuum another process runs is enough.
 */
export async function vacuumChangeQueue(db: Db): Promise<void> {
  await sql`vacuum (skip_locked) change_queue`.execute(db);
}

export async function hasQueuedChanges(db: Db): Promise<boolean> {
  return (await db.selectFrom('change_queue').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/**
 * The sequencer's statement: moves the oldest queued rows, up to `limit` changes (at least one
 * row), into the log, each change taking the next seq in queue order and, within a row of
 * several, in the order the write listed them. Answers how many changes moved and whether
 * rows queued after them are left.
 *
 * The oldest are those up to a cutoff id, found once (an InitPlan over the materialised
 * `cutoff`) and then read as a range of the primary key. `id in (select … limit n)` let the
 * planner, told by stale statistics that the queue was nearly empty (a vacuum of it when it was,
 * and no analyze since: `autovacuum = off`, or a burst between two autoanalyzes), run the
 * subquery again for every queued row: a queue of 80,000 changes after a bulk load kept the
 * sequencer busy for minutes, holding the change-log lock, with the feed, cached counts and
 * index builds waiting behind it. Both forms take the same rows (one statement, one snapshot).
 *
 * A row of several changes is expanded from its lists, side by side, its payloads split at
 * their line breaks.
 *
 * When it moved any, the same statement tells other processes (NOTIFY, delivered at its
 * commit, after the changes are visible): one round trip less a run than a NOTIFY of its own,
 * and only the process that moved changes sends one.
 *
 * It is its own transaction (autocommit) and takes the change log's lock itself, before it
 * reads the queue (a one-time filter, always true: the lock answers void, never null), so the
 * delete and the insert come after it: one round trip a run where a transaction of its own
 * took four (begin, lock, move, commit). Its snapshot is taken before the lock, so it may still
 * see rows that another process's sequencer moved while it waited; its delete skips them (a
 * row deleted by a transaction committed since is not deleted again, under read committed),
 * and only the rows it deleted go into the log, with seqs drawn after that sequencer's commit.
 * Rows committed after its snapshot wait for the next run, which their writer asks for.
 */
export function sequenceQueuedStatement(limit: number, channel: string = changeLogChannel) {
  const list = sql.join(changeColumns.map((column) => sql.ref(column)));
  const shared = sql.join(['account_id', 'space_id', 'table_id'].map((column) => sql.ref(`m.${column}`)));
  const sharedAfter = sql.join(['at', 'actor_user_id', 'actor_api_key_id', 'actor_name'].map((column) => sql.ref(`m.${column}`)));
  return sql<{ moved: string; more: boolean }>`
    with cutoff as (
      select coalesce(max(id) filter (where total <= ${limit}), min(id)) as id
      from (select id, sum(change_count) over (order by id) as total from (
        select id, change_count from change_queue where (select ${changeLogLock}) is not null order by id limit ${limit}
      ) as oldest) as running
    ), moved as (
      delete from change_queue where id <= (select id from cutoff) returning id, ${list}, record_ids, comment_ids, kinds, payloads
    ), expanded as (
      select id, 0 as n, ${list} from moved where record_ids is null
      union all
      select m.id, c.n, ${shared}, c.record_id, c.comment_id, c.kind, ${sharedAfter}, c.payload
      from moved as m cross join lateral unnest(m.record_ids, m.comment_ids, m.kinds, string_to_array(m.payloads, E'\n')) with ordinality as c(record_id, comment_id, kind, payload, n)
    ), appended as (
      insert into changes (${list}) select ${list} from expanded order by id, n returning 1
    )
    select (select count(*) from appended) as moved, exists(select 1 from change_queue where id > (select id from cutoff)) as more,
      (select pg_notify(${channel}, '') where exists (select 1 from appended)) as woke`;
}

// Compiled once: the statement runs after every commit that queued changes, and building and
// compiling it anew each time was about 2 % of a PostgreSQL create's server CPU (session 40).
const sequenceQueuedPrepared = prepareQuery((db: Kysely<any>, limit: number, channel: string) => {
  const statement = sequenceQueuedStatement(limit, channel);
  return { compile: () => statement.compile(db) };
});

/** Runs the sequencer's statement (its own transaction, under the change log's lock); answers how many changes moved and whether more are queued. */
export async function sequenceQueued(db: Db, limit: number): Promise<{ moved: number; more: boolean }> {
  const [row] = await sequenceQueuedPrepared(db, limit, changeLogChannel);
  return { moved: Number(row?.moved ?? 0), more: row?.more === true };
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

const selectLastSeq = prepareQuery((db: Db) => db.selectFrom('changes').select((eb) => eb.fn.max('seq').as('seq')));

/**
 * The highest seq committed so far (0 for none). Prepared: on SQLite the direct reader answers,
 * without waiting behind the writer (the webhook engine asks after every burst of commits).
 */
export async function lastSeq(db: Db): Promise<number> {
  const [row] = await selectLastSeq(db);
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
  // Found before the transaction, which then only writes: on SQLite a transaction that read
  // first fails at once (SQLITE_BUSY_SNAPSHOT) when another connection committed meanwhile,
  // where one that starts by writing waits for the lock. Seqs only grow, so the changes found
  // expired here still are at the delete (or another purge removed them).
  const firstKept = await db.selectFrom('changes').select('seq').where('at', '>=', before).orderBy('seq').limit(1).executeTakeFirst();
  // The limit-th expired change, or (fewer expired) the last of them: both by the primary key.
  const expired = firstKept ? db.selectFrom('changes').where('seq', '<', firstKept.seq) : db.selectFrom('changes');
  const last = await expired.select('seq').orderBy('seq').limit(1).offset(limit - 1).executeTakeFirst();
  const through = Number(last?.seq ?? (await expired.select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst())?.seq ?? 0);
  if (through === 0) return 0;
  return db.transaction().execute(async (trx) => {
    const removed = await trx.deleteFrom('changes').where('seq', '<=', through).executeTakeFirst();
    await trx.updateTable('change_log_state').set({ purged_through: through }).where('id', '=', 1).where('purged_through', '<', through).execute();
    return Number(removed.numDeletedRows);
  });
}

/** One change by its seq (a webhook redelivery), or undefined once retention removed it. */
export async function findChange(db: Db, seq: number): Promise<ChangeRow | undefined> {
  return (await db.selectFrom('changes').select(columns).where('seq', '=', seq).executeTakeFirst()) as ChangeRow | undefined;
}
