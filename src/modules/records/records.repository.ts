import { sql, type AliasedRawBuilder, type Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { metadataVersionColumn } from '../../db/metadata-cache.js';
import { arrayBound, arrayLiteral, arrayRows } from '../../db/postgres-arrays.js';
import { insertStatementSizes, prepareQuery, prepareShapedQuery, rowsOfValues, runRead } from '../../db/prepared-query.js';
import { createTurnGathering } from '../../db/turn-gathering.js';
import { recordTableName } from '../fields/physical-names.js';

/** Record tables are created at run time, so they are reached through an untyped Kysely. */
type Db = Kysely<any>;

const systemColumns = ['id', 'created_at', 'updated_at'];

/** Whether every read selects `column` already (the id and the two times). */
export const isSystemColumn = (column: string): boolean => systemColumns.includes(column);

export type RecordRow = Record<string, unknown> & { id: number; created_at: string; updated_at: string };

/**
 * A single-lookup column whose target title the reading statement carries itself, so that
 * presenting the rows needs no further query: `<column>__found` (the target id, null when the
 * record is gone) and `<column>__title` (when the target has a title field).
 */
export interface TitleLookup {
  column: string;
  targetTableId: number;
  titleColumn: string | null;
  /** The title field type's text for that column's values (presenting only, not part of the SQL). */
  titleText?: (column: unknown) => string | null;
}

const foundAlias = (column: string) => `${column}__found`;
const titleAlias = (column: string) => `${column}__title`;

/** What a read selects from the record table aliased `r`; `key` names it among compiled statements. */
export interface ReadSelection {
  tableId: number;
  columns: readonly string[];
  titles: ReadonlyArray<TitleLookup & TitleAliases>;
  key: string;
}

/** The names a lookup's found id and title come back under, made once per selection: a key built anew is hashed and looked up on every row it reads. */
interface TitleAliases {
  foundAlias: string;
  titleAlias: string;
}

export function describeSelection(tableId: number, columns: readonly string[], titles: readonly TitleLookup[]): ReadSelection {
  const key = `${tableId}:${columns.join(',')}:${titles.map((t) => `${t.column}>${t.targetTableId}.${t.titleColumn}`).join(',')}`;
  return { tableId, columns, titles: titles.map((t) => ({ ...t, foundAlias: foundAlias(t.column), titleAlias: titleAlias(t.column) })), key };
}

function selectionOf(selection: ReadSelection) {
  const list: (string | AliasedRawBuilder<unknown, string>)[] = [...systemColumns, ...selection.columns].map((column) => `r.${column}`);
  for (const lookup of selection.titles) {
    const target = sql.table(recordTableName(lookup.targetTableId));
    const pointer = sql.ref(`r.${lookup.column}`);
    list.push(sql`(select lk.id from ${target} as lk where lk.id = ${pointer})`.as(lookup.foundAlias));
    if (lookup.titleColumn) list.push(sql`(select lk.${sql.ref(lookup.titleColumn)} from ${target} as lk where lk.id = ${pointer})`.as(lookup.titleAlias));
  }
  return list;
}

/**
 * One new record (a column left undefined takes its default), and the metadata version its
 * statement saw: a create confirms the metadata it relied on by its own write, with no read of
 * its own before it (record-writes.ts).
 */
export async function insertRecord(db: Db, tableId: number, values: Record<string, unknown>): Promise<{ id: number; metadataVersion: number }> {
  const columns = Object.keys(values).filter((column) => values[column] !== undefined);
  const [row] = await insertOneRow(db, { tableId, columns }, ...columns.map((column) => values[column]));
  return { id: Number(row.id), metadataVersion: Number(row.metadata_version) };
}

const insertOneRow = prepareShapedQuery(
  (shape: { tableId: number; columns: readonly string[] }) => `${shape.tableId}:${shape.columns.join(',')}`,
  (db: Db, shape: { tableId: number; columns: readonly string[] }, ...values: unknown[]) =>
    db
      .insertInto(recordTableName(shape.tableId))
      .values(rowsOfValues(shape.columns, 1, values)[0])
      .returning(['id', metadataVersionColumn.as('metadata_version')]),
);

/** A record table, the columns written and the number of rows: what an insert's SQL depends on. */
interface InsertShape {
  tableId: number;
  columns: readonly string[];
  rows: number;
}

/**
 * Record inserts compiled once per shape (prepared-query.ts): create_batch sends up to a
 * thousand records in statements of a few row counts (insertStatementSizes), and building and
 * compiling a statement of 128 rows cost Kysely more than SQLite's execution of it.
 */
const insertRows = prepareShapedQuery(
  (shape: InsertShape) => `${shape.tableId}:${shape.rows}:${shape.columns.join(',')}`,
  (db: Db, shape: InsertShape, ...values: unknown[]) =>
    db
      .insertInto(recordTableName(shape.tableId))
      .values(rowsOfValues(shape.columns, shape.rows, values))
      .returning('id'),
);

/** A record table, the columns written and their types: what the array insert's SQL depends on. */
interface ArrayInsertShape {
  tableId: number;
  columns: readonly string[];
  types: readonly string[];
}

/**
 * PostgreSQL: any number of new records in one statement, each column's values one array
 * parameter (postgres-arrays.ts) expanded by `unnest`, compiled and prepared once per table and
 * columns. Rows of values made a thousand records ten statements, most over the pool's bound
 * on named statements, each parsed and planned anew (about a tenth of the database's work on
 * a create_batch, docs/performance.md session 27).
 */
const insertRowsFromArrays = prepareShapedQuery(
  (shape: ArrayInsertShape) => `${shape.tableId}:${shape.columns.join(',')}:${shape.types.join(',')}`,
  (db: Db, shape: ArrayInsertShape, ...arrays: unknown[]) =>
    db
      .insertInto(recordTableName(shape.tableId))
      .columns([...shape.columns])
      .expression(sql`select * from unnest(${sql.join(arrays.map((array, n) => sql`${array}::${sql.raw(shape.types[n])}[]`))})`)
      .returning('id'),
);

/**
 * New records; answers their ids in the order of `rows`, which all have the same columns (a
 * column left undefined is not written: its default applies). `columnTypes` (PostgreSQL, every
 * column's SQL type: recordColumnTypes) sends them as one statement of arrays; without it
 * (SQLite, and a single record on either engine) they go in statements of rows of values
 * (insertStatementSizes), under SQLite's bound on parameters. The ids of one statement are drawn in row order (a serial column on
 * PostgreSQL, the next rowid on SQLite), while neither engine promises the order in which
 * RETURNING hands them back: sorted, they are the rows' ids in order.
 */
export async function insertRecordRows(db: Db, tableId: number, rows: readonly Record<string, unknown>[], columnTypes: ReadonlyMap<string, string> | null): Promise<number[]> {
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0]).filter((column) => rows[0][column] !== undefined);
  if (columnTypes) {
    const types = columns.map((column) => columnTypes.get(column) ?? fail(`no type for column ${column}`));
    const arrays = columns.map((column) => arrayLiteral(rows.map((row) => row[column])));
    return (await insertRowsFromArrays(db, { tableId, columns, types }, ...arrays)).map((row) => Number(row.id)).sort((a, b) => a - b);
  }
  const ids: number[] = [];
  let start = 0;
  for (const size of insertStatementSizes(rows.length, columns.length)) {
    const values = rows.slice(start, start + size).flatMap((row) => columns.map((column) => row[column]));
    ids.push(...(await insertRows(db, { tableId, columns, rows: size }, ...values)).map((row) => Number(row.id)));
    start += size;
  }
  return ids.sort((a, b) => a - b);
}

function fail(message: string): never {
  throw new Error(`insertRecordRows: ${message}`);
}

/**
 * Records whose `columns` equal, all together, one of `tuples` (column values), with those
 * columns. A tuple is one `and` of equalities, tuples an `or` of them: SQLite bounds an
 * expression's depth at 1,000, so at most `matchTuplesPerStatement` go in one statement.
 */
export async function findRecordsMatching(db: Db, tableId: number, columns: readonly string[], tuples: readonly (readonly unknown[])[]): Promise<Array<Record<string, unknown> & { id: number }>> {
  const found: Array<Record<string, unknown> & { id: number }> = [];
  for (let start = 0; start < tuples.length; start += matchTuplesPerStatement) {
    const chunk = tuples.slice(start, start + matchTuplesPerStatement);
    const rows = await db
      .selectFrom(recordTableName(tableId))
      .select(['id', ...columns])
      .where((eb) => eb.or(chunk.map((tuple) => eb.and(columns.map((column, index) => eb(column, '=', tuple[index]))))))
      .execute();
    for (const row of rows) found.push({ ...row, id: Number(row.id) });
  }
  return found;
}

const matchTuplesPerStatement = 200;

/**
 * Locks the table's row (PostgreSQL, `dialect.rowLocks`) until the transaction ends: what
 * must not run twice at once on one table (upserts, which look for their matches first) takes
 * it. `no key update`: records of other tables, views and fields are not held up.
 */
export async function lockTableRow(db: Db, tableId: number): Promise<void> {
  await db.selectFrom('tables').select('id').where('id', '=', tableId).forNoKeyUpdate().execute();
}

/** Whether the record existed (and so was updated). */
/** One record's update, compiled once per table and columns written (the update of every record write). */
const updateOneRecord = prepareShapedQuery(
  (shape: { tableId: number; columns: readonly string[] }) => `${shape.tableId}:${shape.columns.join(',')}`,
  (db: Db, shape: { tableId: number; columns: readonly string[] }, recordId: unknown, ...values: unknown[]) =>
    db
      .updateTable(recordTableName(shape.tableId))
      .set(Object.fromEntries(shape.columns.map((column, n) => [column, values[n]])))
      .where('id', '=', recordId as number)
      .returning('id'),
);

export async function updateRecord(db: Db, tableId: number, recordId: number, values: Record<string, unknown>): Promise<boolean> {
  const columns = Object.keys(values);
  return (await updateOneRecord(db, { tableId, columns }, recordId, ...columns.map((column) => values[column]))).length > 0;
}

/** The next `limit` records after `afterId` in id order, with the given columns: a walk over a whole table in batches. */
export async function findRecordRowsAfter(db: Db, tableId: number, afterId: number, limit: number, columns: readonly string[]): Promise<Array<Record<string, unknown> & { id: number }>> {
  const rows = await db.selectFrom(recordTableName(tableId)).select(['id', ...columns]).where('id', '>', afterId).orderBy('id').limit(limit).execute();
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** The system columns and `columns`, each once: what a read of stored rows selects. */
const withSystemColumns = (columns: readonly string[]): string[] => [...new Set([...systemColumns, ...columns])];

interface OneRowShape {
  tableId: number;
  columns: readonly string[];
  lock: boolean;
  /** The metadata version beside the columns (findRecordRowConfirming). */
  version?: boolean;
}

/** One record with some columns, compiled once per table, columns, lock and version (the read before every update and delete). */
const selectOneRecordRow = prepareShapedQuery(
  (shape: OneRowShape) => `${shape.tableId}:${shape.lock}:${shape.version === true}:${shape.columns.join(',')}`,
  (db: Db, shape: OneRowShape, recordId: number) => {
    let query = db.selectFrom(recordTableName(shape.tableId)).select([...shape.columns]).where('id', '=', recordId);
    if (shape.version) query = query.select(metadataVersionColumn.as('metadata_version'));
    return shape.lock ? query.forUpdate() : query;
  },
);

/**
 * One record's columns as findRecordRows reads them, and the metadata version the same
 * statement saw (undefined when the record is not there): a SQLite update confirms its cached
 * metadata by the read its write makes anyway (record-writes.ts).
 */
export async function findRecordRowConfirming(db: Db, tableId: number, recordId: number, columns: readonly string[], lock: boolean): Promise<{ row: RecordRow | undefined; metadataVersion: number | undefined }> {
  const [found] = await selectOneRecordRow(db, { tableId, columns: withSystemColumns(columns), lock, version: true }, recordId);
  if (!found) return { row: undefined, metadataVersion: undefined };
  const { metadata_version: version, ...row } = found as RecordRow & { metadata_version: number | string };
  return { row: row as RecordRow, metadataVersion: Number(version) };
}

/**
 * Records by id with the given columns; `lock` locks them until the transaction ends (give
 * `dialect.rowLocks`). One record's read is a prepared statement (on SQLite, outside a
 * transaction, it goes to the read connection).
 */
export async function findRecordRows(db: Db, tableId: number, recordIds: readonly number[], columns: readonly string[], lock = false): Promise<RecordRow[]> {
  if (recordIds.length === 0) return [];
  const selected = withSystemColumns(columns);
  if (recordIds.length === 1) return (await selectOneRecordRow(db, { tableId, columns: selected, lock }, recordIds[0])) as RecordRow[];
  let query = db.selectFrom(recordTableName(tableId)).select(selected).where('id', 'in', recordIds);
  if (lock) query = query.forUpdate();
  return (await query.execute()) as RecordRow[];
}

/**
 * Driven by a one-row subquery holding the id, not by the version row with the id in the join's
 * condition: SQLite ran that form at 3–4× the cost of a plain get by id (90–150 µs against
 * 22–42 µs, docs/performance.md "The hot path against a bare floor"); this one costs what the
 * plain get costs. The cast gives PostgreSQL the parameter's type.
 */
const selectRecordWithVersion = prepareShapedQuery(
  (shape: ReadSelection) => shape.key,
  (db: Db, shape: ReadSelection, recordId: number) =>
    db
      .selectFrom(sql<{ want: number }>`(select cast(${recordId} as bigint) as want)`.as('w'))
      .leftJoin(`${recordTableName(shape.tableId)} as r`, (join) => join.onRef('r.id', '=', 'w.want'))
      .select([metadataVersionColumn.as('metadata_version'), ...selectionOf(shape)]),
);

/**
 * The same for any number of records (PostgreSQL, the ids as one array, planned for at most
 * `bound` of them: postgres-arrays.ts, arrayRows): a row for each id asked, `want`.
 */
const selectRecordsWithVersion = prepareShapedQuery(
  ({ selection, bound }: { selection: ReadSelection; bound: number }) => `${selection.key}:${bound}`,
  (db: Db, { selection, bound }: { selection: ReadSelection; bound: number }, ids: string) =>
    db
      .selectFrom(sql<{ want: number }>`${arrayRows(ids, 'bigint', 'want', bound)}`.as('w'))
      .leftJoin(`${recordTableName(selection.tableId)} as r`, (join) => join.onRef('r.id', '=', 'w.want'))
      .select([metadataVersionColumn.as('metadata_version'), 'w.want', ...selectionOf(selection)]),
);

/** The gets of a turn with one selection, one statement for all (turn-gathering.ts). */
const recordReadsOfTurn = createTurnGathering(
  (shape: ReadSelection) => shape.key,
  (db: Db, shape: ReadSelection, ids: readonly number[]) => selectRecordsWithVersion(db, { selection: shape, bound: arrayBound(ids.length) }, arrayLiteral(ids)),
);

/**
 * One record, with the metadata version the statement saw, even when the record does not
 * exist (the one-row subquery drives the join). Compiled once per table and selection.
 * `gatherByTurn` (PostgreSQL): read with the other records of its turn in one statement.
 */
export async function findRecordWithVersion(db: Db, recordId: number, selection: ReadSelection, gatherByTurn = false): Promise<{ row: RecordRow | undefined; version: number }> {
  const row = gatherByTurn
    ? (await recordReadsOfTurn(db, selection, recordId)).find((read) => Number(read.want) === recordId)!
    : (await selectRecordWithVersion(db, selection, recordId))[0];
  return { row: row.id === null ? undefined : (row as RecordRow), version: Number(row.metadata_version) };
}

/** A read's select list as SQL text, compiled once per database, table and selection (it has no parameters). */
const selectLists = new WeakMap<Db, LRUCache<string, string>>();

export function selectListSql(db: Db, selection: ReadSelection): string {
  let lists = selectLists.get(db);
  if (!lists) selectLists.set(db, (lists = new LRUCache({ max: 500 })));
  let text = lists.get(selection.key);
  if (text === undefined) {
    const items = selectionOf(selection).map((item) => (typeof item === 'string' ? sql.ref(item) : item));
    lists.set(selection.key, (text = sql.join(items).compile(db).sql));
  }
  return text;
}

/** One record by id with a read's selection, compiled once per selection (the read before a write). */
const selectOneRecord = prepareShapedQuery(
  (shape: ReadSelection) => shape.key,
  (db: Db, shape: ReadSelection, recordId: number) => db.selectFrom(`${recordTableName(shape.tableId)} as r`).select(selectionOf(shape)).where('r.id', '=', recordId),
);

/**
 * Records by id, read as `findRecordWithVersion` reads one (the ids that exist, in no particular
 * order). One record's read is a prepared statement, as in findRecordRows.
 */
export async function findRecordsById(db: Db, tableId: number, recordIds: readonly number[], selection: ReadSelection): Promise<RecordRow[]> {
  if (recordIds.length === 0) return [];
  if (recordIds.length === 1) return (await selectOneRecord(db, selection, recordIds[0])) as RecordRow[];
  const table = sql.table(recordTableName(tableId));
  return runRead(db, sql<RecordRow>`select ${sql.raw(selectListSql(db, selection))} from ${table} as r where r.id in (${sql.join(recordIds)})`.compile(db));
}

const selectCounters = prepareQuery((db: Db, tableId: number) =>
  db
    .selectFrom('table_counters')
    .select([
      sql<number>`coalesce(sum(row_count), 0)`.as('rows'),
      sql<number>`coalesce(sum(change_count), 0)`.as('changes'),
      metadataVersionColumn.as('metadata_version'),
    ])
    .where('table_id', '=', tableId),
);

/**
 * The table's exact row count and its change counter (grows with every write), both kept by
 * the record table's triggers and summed over the counter shards, with the metadata version.
 */
export async function readCounters(db: Db, tableId: number): Promise<{ rows: number; changes: number; metadataVersion: number }> {
  const [row] = await selectCounters(db, tableId);
  return { rows: Number(row?.rows ?? 0), changes: Number(row?.changes ?? 0), metadataVersion: Number(row?.metadata_version) };
}

/** The same, answering the deleted rows with the given columns (their values as they were). */
export async function deleteRecordRows(db: Db, tableId: number, recordIds: readonly number[], columns: readonly string[]): Promise<Array<Record<string, unknown> & { id: number }>> {
  if (recordIds.length === 0) return [];
  return (await db.deleteFrom(recordTableName(tableId)).where('id', 'in', recordIds).returning(['id', ...columns]).execute()) as Array<Record<string, unknown> & { id: number }>;
}

/** The users a user field of a table in this space may hold: its members and the account's owner, with the metadata version. */
export async function selectSpaceMemberUsers(db: Db, spaceId: number, accountId: number, ownerUserId: number) {
  return db
    .selectFrom('users as u')
    .leftJoin('members as m', (join) => join.onRef('m.user_id', '=', 'u.id').on('m.space_id', '=', spaceId))
    .select(['u.id', 'u.email', 'u.name', metadataVersionColumn.as('metadata_version')])
    .where('u.account_id', '=', accountId)
    .where((eb) => eb.or([eb('m.user_id', 'is not', null), eb('u.id', '=', ownerUserId)]))
    .execute() as Promise<Array<{ id: number; email: string; name: string; metadata_version: number | string }>>;
}

export async function findExistingIds(db: Db, tableId: number, recordIds: readonly number[]): Promise<Set<number>> {
  if (recordIds.length === 0) return new Set();
  const rows = await runRead(db, db.selectFrom(recordTableName(tableId)).select('id').where('id', 'in', recordIds).compile());
  return new Set(rows.map((row) => Number(row.id)));
}

/** A column of a record table, and its key among the shapes of a prepared query. */
interface ColumnShape {
  tableId: number;
  column: string;
}
const columnShapeKey = (shape: ColumnShape) => `${shape.tableId}:${shape.column}`;

/** One record's column, compiled once per table and column: a write that sets a lookup reads its target's title so. */
const selectOneColumnValue = prepareShapedQuery(
  columnShapeKey,
  (db: Db, shape: ColumnShape, recordId: number) => db.selectFrom(recordTableName(shape.tableId)).select(['id', `${shape.column} as value`]).where('id', '=', recordId),
);

/**
 * PostgreSQL: one column of any number of records (the ids as one array, planned for at most
 * `bound` of them: postgres-arrays.ts, arrayRows), one statement prepared once per table, column
 * and bound.
 */
const selectColumnOfIds = prepareShapedQuery(
  (shape: ColumnShape & { bound: number }) => `${columnShapeKey(shape)}:${shape.bound}`,
  (db: Db, shape: ColumnShape & { bound: number }, ids: string) =>
    db
      .selectFrom(sql<{ want: number }>`${arrayRows(ids, 'bigint', 'want', shape.bound)}`.as('w'))
      .innerJoin(`${recordTableName(shape.tableId)} as r`, (join) => join.onRef('r.id', '=', 'w.want'))
      .select(['r.id', `r.${shape.column} as value`]),
);

/** The one-record column reads of a turn (a lookup target's title for each create), one statement for all (turn-gathering.ts). */
const columnReadsOfTurn = createTurnGathering(
  columnShapeKey,
  (db: Db, shape: ColumnShape, ids: readonly number[]) => selectColumnOfIds(db, { ...shape, bound: arrayBound(ids.length) }, arrayLiteral(ids)),
);

/**
 * One column of records (a lookup's target titles), by id. `gatherByTurn` (PostgreSQL): a read
 * of one record joins the others of its turn in one statement (turn-gathering.ts).
 */
export async function selectColumnValues(db: Db, tableId: number, column: string, recordIds: readonly number[], gatherByTurn = false): Promise<Map<number, unknown>> {
  if (recordIds.length === 0) return new Map();
  const rows =
    recordIds.length > 1
      ? await runRead(db, db.selectFrom(recordTableName(tableId)).select(['id', `${column} as value`]).where('id', 'in', recordIds).compile())
      : gatherByTurn
        ? (await columnReadsOfTurn(db, { tableId, column }, recordIds[0])).filter((row) => Number(row.id) === recordIds[0])
        : await selectOneColumnValue(db, { tableId, column }, recordIds[0]);
  return new Map(rows.map((row) => [Number(row.id), row.value]));
}

/** Compiled once per table (every comments call starts with it). */
const selectRecordExistsWithVersion = prepareShapedQuery(
  (tableId: number) => String(tableId),
  (db: Db, tableId: number, recordId: number) =>
    db
      .selectFrom('metadata_version as v')
      .leftJoin(`${recordTableName(tableId)} as r`, (join) => join.on('r.id', '=', recordId))
      .select(['v.version as metadata_version', 'r.id as id'])
      .where('v.id', '=', sql.lit(1)),
);

/**
 * Whether a record exists, with the metadata version the same statement saw: one round trip
 * where a check of the record and a confirmation of the metadata would take two.
 */
export async function recordExistsWithVersion(db: Db, tableId: number, recordId: number): Promise<{ exists: boolean; version: number }> {
  const [row] = await selectRecordExistsWithVersion(db, tableId, recordId);
  return { exists: row.id !== null, version: Number(row.metadata_version) };
}

/**
 * One column of one record, or undefined when the record does not exist. `lock` locks the row
 * until the transaction ends (give `dialect.rowLocks`: SQLite's writer lock serialises writes).
 */
export async function findRecordColumn(db: Db, tableId: number, recordId: number, column: string, lock: boolean): Promise<{ value: unknown } | undefined> {
  let query = db.selectFrom(recordTableName(tableId)).select(`${column} as value`).where('id', '=', recordId);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && { value: row.value };
}

/** The account of a table and its owner (the command line acts as the owner), or undefined for no such table. */
export async function findTableOwner(db: Db, tableId: number): Promise<{ accountId: number; ownerUserId: number; ownerEmail: string } | undefined> {
  const row = await db
    .selectFrom('tables as t')
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .innerJoin('users as u', 'u.id', 'a.owner_user_id')
    .select(['t.account_id', 'a.owner_user_id', 'u.email'])
    .where('t.id', '=', tableId)
    .executeTakeFirst();
  return row ? { accountId: Number(row.account_id), ownerUserId: Number(row.owner_user_id), ownerEmail: String(row.email) } : undefined;
}
