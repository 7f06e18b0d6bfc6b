import { sql, type Kysely, type RawBuilder } from 'kysely';
import { metadataVersionColumn } from '../../db/metadata-cache.js';
import { runBoundedRead } from '../../db/bounded-read.js';
import type { QueryCaller } from '../../db/query-gate.js';
import { isMissingSqliteIndex } from '../../db/db-errors.js';
import type { Dialect } from '../../db/dialect.js';
import { recordTableName } from '../fields/physical-names.js';
import { selectListSql, type ReadSelection, type RecordRow } from './records.repository.js';

/**
 * The record queries whose cost the caller decides (a page, a count, an id list): each runs
 * bounded (db/bounded-read: a share of the query slots, the time budget), the SQL of each
 * shaped for the planner of both engines.
 */

/** Record tables are created at run time, so they are reached through an untyped Kysely. */
type Db = Kysely<any>;

/**
 * What a record query (page, count, id list), whose cost its caller decides, runs under: the
 * caller's share of the query slots and the engine's way to stop it at the time budget.
 */
export interface QueryBounds {
  /** Its account and key: the gate shares the slots fairly between them. */
  caller: QueryCaller;
  dialect: Dialect;
  /** Each row costs only a few comparisons (query-shape `isCheapPerRow`): no per-row budget guard. */
  cheapPerRow: boolean;
}

/**
 * `where`, led by the dialect's budget guard unless each row is cheap to judge: the condition a
 * bounded statement filters with, if any.
 */
export function guarded(bounds: QueryBounds, where: RawBuilder<boolean> | null): RawBuilder<boolean> | null {
  const guard = bounds.dialect.budgetGuard;
  if (!guard || bounds.cheapPerRow) return where;
  return where ? sql<boolean>`${guard} and ${where}` : guard;
}

export interface SelectOptions {
  bounds: QueryBounds;
  selection: ReadSelection;
  where: RawBuilder<boolean> | null;
  orderBy: readonly RawBuilder<unknown>[];
  limit: number;
  offset: number;
  /** An index that may deliver the rows in `orderBy` order (SQLite): see selectRecordRows. */
  sortIndex?: string | null;
}

/** A page is first looked for among this many times its offset + limit rows of the sort order… */
const stretchFactor = 8;
/** …when that stretch is at most this long. */
const maxStretch = 100_000;

/**
 * A page of records in two steps within one statement: the inner query sorts and pages only
 * ids (a narrow sort, often an index walk), the outer one reads the full rows of that page,
 * each carrying the metadata version the statement saw. Sorting whole rows, long texts
 * included, costs several times more. The select list comes precompiled: building it through
 * Kysely on every page cost more than presenting the records.
 *
 * Filtered and sorted by an indexed field, SQLite's planner takes the filter's index and
 * sorts every match, never weighing the LIMIT: a common value among a million records costs
 * 300 ms. So the page is first looked for in the first stretch of the table in sort order,
 * walked on the sort field's index. When that stretch holds the whole page, it holds the
 * first offset + limit matches of the table itself, so the page is exact (2 ms). Otherwise (a
 * rare value, or no such index) the plain statement runs.
 */
export async function selectRecordRows(db: Db, tableId: number, options: SelectOptions): Promise<Array<RecordRow & { metadata_version: number | string }>> {
  const table = sql.table(recordTableName(tableId));
  const condition = guarded(options.bounds, options.where);
  const where = condition ? sql` where ${condition}` : sql``;
  const order = sql.join(options.orderBy);
  const page = (source: RawBuilder<unknown>) =>
    runBoundedRead(
      db,
      sql<RecordRow & { metadata_version: number | string }>`select ${sql.raw(selectListSql(db, options.selection))}, ${metadataVersionColumn} as metadata_version
    from ${table} as r where r.id in (select id from ${source}${where} order by ${order} limit ${options.limit} offset ${options.offset}) order by ${order}`.compile(db),
      options.bounds.caller,
    );
  const stretch = (options.offset + options.limit) * stretchFactor;
  const sortIndex = options.sortIndex;
  if (sortIndex && options.where && stretch <= maxStretch && !isKnownMissing(sortIndex)) {
    // Named as the table: a search condition looks up the record's text by `<table>.id`.
    const rows = await page(sql`(select * from ${table} indexed by ${sql.id(sortIndex)} order by ${order} limit ${stretch}) as ${table}`).catch((error: unknown) => {
      if (!isMissingSqliteIndex(error)) throw error;
      missingIndexes.set(sortIndex, Date.now());
      return [];
    });
    if (rows.length === options.limit) return rows;
  }
  return page(table);
}

/**
 * Sort indexes found missing, and when: a table without one would otherwise fail a statement
 * on every sorted page. Asked again after a minute, since any process may build it meanwhile.
 */
const missingIndexes = new Map<string, number>();
const missingIndexRecheckMs = 60_000;

function isKnownMissing(name: string): boolean {
  const since = missingIndexes.get(name);
  if (since === undefined) return false;
  if (Date.now() - since < missingIndexRecheckMs) return true;
  missingIndexes.delete(name);
  return false;
}

/**
 * What a count reads: the record table and the query's condition, or a table holding exactly
 * one row per record that matches it when the query is one (records.service compileQuery).
 */
export interface CountSource {
  table: string;
  where: RawBuilder<boolean> | null;
}

/**
 * The records matching `counted` (with `afterId`, only those above that id: the records created
 * since a cached count), and, in the same statement, the highest id below which no record can
 * appear any more, so that a later count can start there; null when there is none.
 *
 * SQLite has one writer and hands out ids in commit order: the table's highest id is that id.
 * PostgreSQL draws ids from a sequence before commit, so a transaction still in flight may
 * commit a lower id later: only when the statement's snapshot saw no transaction in flight
 * is its highest id such a bound.
 */
export async function countRecords(db: Db, tableId: number, counted: CountSource, bounds: QueryBounds, afterId?: number): Promise<{ count: number; maxId: number | null }> {
  const table = sql.table(recordTableName(tableId));
  const { where } = counted;
  const after = afterId === undefined ? null : sql<boolean>`id > ${afterId}`;
  const condition = guarded(bounds, after && where ? sql<boolean>`${after} and ${where}` : (after ?? where));
  const filter = condition ? sql` where ${condition}` : sql``;
  const settled = bounds.dialect.name === 'postgres' ? sql`(select count(*) from pg_snapshot_xip(pg_current_snapshot())) = 0` : sql`1`;
  // SQLite would walk the filter's index (a large stretch) rather than the few new rowids:
  // `not indexed` leaves it the rowid range only.
  const source = afterId !== undefined && bounds.dialect.name === 'sqlite' ? sql`${sql.table(counted.table)} not indexed` : sql.table(counted.table);
  const statement = sql<{ count: number; max_id: number | null; settled: unknown }>`select (select count(*) from ${source}${filter}) as count, (select max(id) from ${table}) as max_id, ${settled} as settled`;
  const [row] = await runBoundedRead(db, statement.compile(db), bounds.caller);
  const settledNow = row.settled === true || Number(row.settled) === 1;
  return { count: Number(row.count), maxId: settledNow ? Number(row.max_id ?? 0) : null };
}

/**
 * Every matching id in order, as the comma-separated text of a JSON array's inside, with the
 * metadata version the statement saw. One statement aggregates them, so nothing (connection,
 * worker, snapshot) stays held while the answer is sent, however slowly the client reads it;
 * the text costs about 8 bytes an id.
 */
export async function readRecordIdList(db: Db, tableId: number, where: RawBuilder<boolean> | null, orderBy: readonly RawBuilder<unknown>[], bounds: QueryBounds): Promise<{ ids: string; version: number }> {
  let query = db.selectFrom(recordTableName(tableId)).select([bounds.dialect.idList(orderBy).as('ids'), metadataVersionColumn.as('metadata_version')]);
  const condition = guarded(bounds, where);
  if (condition) query = query.where(condition);
  const [row] = await runBoundedRead(db, query.compile(), bounds.caller);
  return { ids: row.ids, version: Number(row.metadata_version) };
}
