import { sql, type Kysely } from 'kysely';
import { runBackgroundWrite } from '../../../db/background-write.js';
import { runRead } from '../../../db/prepared-query.js';
import { nextTurn } from '../../../shared/fresh-runs.js';
import { startRepeatingTask, type RepeatingTask } from '../../../shared/repeating-task.js';
import { searchTextTable } from './search-text-table.js';

/**
 * SQLite: the search index catches up with the search texts after their commit, many texts in
 * one segment (docs/decisions.md, "The search index catches up after the commit").
 *
 * FTS5 writes what a transaction gave it as a new segment at the commit and merges segments as
 * they pile up: indexing each write's text in its own commit was most of a create's commit
 * (163–171 µs of commit a group, 73 without the index; docs/performance.md, session 30). So a
 * write only notes its record in `search_index_pending` (a trigger on the search table), and
 * the catch-up indexes what is noted a few times a second, in one transaction a step.
 *
 * What the index holds stays exact for searches: a record not in the pending table is indexed
 * with its current text; a record in it is indexed with `indexed_text` (null: not at all).
 * Searches take the index's candidates and the pending records, and check every one's current
 * text with `instr` (sqlite.ts), so no answer depends on how far the catch-up got.
 */

/** The records whose text the index does not hold yet, of every record table. */
export const pendingTable = 'search_index_pending';

/** How often the catch-up looks for texts to index. */
const catchUpIntervalMs = 200;

/** Records indexed per step (one transaction, with the other writes paused): tens of milliseconds at most, so writes wait little. */
const recordsPerStep = 1000;

/**
 * The triggers that keep the pending table: the first change to a record's text since it was
 * indexed notes the record with the text the index holds; a later change leaves that note as it
 * is, since the index still holds the same text. (`not exists` rather than `insert or ignore`:
 * the statement that fires a trigger imposes its own conflict policy on the trigger's, and an
 * upsert's turns `or ignore` into a failure.)
 */
export async function createPendingTriggers(db: Kysely<any>, table: string): Promise<void> {
  const texts = sql.table(searchTextTable(table));
  const pending = sql.table(pendingTable);
  const name = sql.lit(table);
  await sql`create trigger ${sql.id(`${table}_search_insert`)} after insert on ${texts} begin
    insert into ${pending} (table_name, id, indexed_text) select ${name}, new.id, null
      where not exists (select 1 from ${pending} where table_name = ${name} and id = new.id); end`.execute(db);
  await sql`create trigger ${sql.id(`${table}_search_delete`)} after delete on ${texts} begin
    insert into ${pending} (table_name, id, indexed_text) select ${name}, old.id, old.text
      where not exists (select 1 from ${pending} where table_name = ${name} and id = old.id); end`.execute(db);
  await sql`create trigger ${sql.id(`${table}_search_update`)} after update of text on ${texts} begin
    insert into ${pending} (table_name, id, indexed_text) select ${name}, old.id, old.text
      where not exists (select 1 from ${pending} where table_name = ${name} and id = old.id); end`.execute(db);
}

/** Record table names come from the database; only these are ever read back as identifiers. */
const recordTableName = /^rec_\d+$/;

/**
 * One step: up to `limit` pending records of one table, in id order, taken out of the index
 * with the text it holds and put back with their current one (a record without text any more
 * only taken out). Two statements into the index, so two segments a step. Answers how many
 * records it indexed: 0 when nothing was pending.
 *
 * What is pending is read first, on the direct reader; the write then works on the pending
 * rows of that table up to the last id read, as they are when it runs (a record noted since,
 * below that id, is indexed with the others). It is a background write (db/background-write.ts):
 * on a SQLite server, a worker thread's, with the other writes paused, since its segments and
 * their merges take milliseconds that no request should wait for on the event loop.
 */
export async function indexPending(db: Kysely<any>, limit = recordsPerStep): Promise<number> {
  const pending = sql.table(pendingTable);
  const [first] = await runRead(db, sql<{ table_name: string }>`select table_name from ${pending} limit 1`.compile(db));
  const table = first?.table_name;
  if (table === undefined) return 0;
  if (!recordTableName.test(table)) throw new Error(`search_index_pending names ${JSON.stringify(table)}, which is not a record table`);
  const ids = await runRead(db, sql<{ id: number }>`select id from ${pending} where table_name = ${table} order by id limit ${limit}`.compile(db));
  if (ids.length === 0) return 0;
  const last = ids[ids.length - 1].id;
  const fts = sql.table(`${table}_fts`);
  await runBackgroundWrite(db, [
    sql`insert into ${fts} (${fts}, rowid, text) select 'delete', id, indexed_text from ${pending}
      where table_name = ${table} and id <= ${last} and indexed_text is not null`.compile(db),
    sql`insert into ${fts} (rowid, text) select p.id, s.text from ${pending} as p join ${sql.table(searchTextTable(table))} as s on s.id = p.id
      where p.table_name = ${table} and p.id <= ${last}`.compile(db),
    sql`delete from ${pending} where table_name = ${table} and id <= ${last}`.compile(db),
  ]);
  return ids.length;
}

/**
 * How many records of every table the index does not hold yet: the catch-up's backlog
 * (`/metrics`). Read on the direct reader, so a scrape never waits behind the writer.
 */
export async function countPending(db: Kysely<any>): Promise<number> {
  const [row] = await runRead(db, sql<{ count: number }>`select count(*) as count from ${sql.table(pendingTable)}`.compile(db));
  return Number(row.count);
}

/**
 * Indexes what is pending, `intervalMs` after the last catch-up ended: a step, and while steps
 * come back full (a backlog: a batch, a rebuild, a command's import), the next at once, each on
 * a turn of its own so requests are answered between them. A step that is not full ends the
 * catch-up even though writes may have noted more since: they wait for the next one, so that a
 * steady stream of writes is indexed a few times a second, many texts a segment, rather than a
 * few texts a step without pause. Whatever wrote the texts (this process, a command, a server
 * before a restart), the next catch-up finds them.
 */
export function startSearchCatchUp(db: Kysely<any>, options: { intervalMs?: number; onError: (error: unknown) => void }): RepeatingTask {
  const intervalMs = options.intervalMs ?? catchUpIntervalMs;
  return startRepeatingTask(
    async (signal) => {
      while (!signal.aborted && (await indexPending(db)) === recordsPerStep) await nextTurn();
    },
    { intervalMs, firstDelayMs: intervalMs, onError: options.onError },
  );
}
