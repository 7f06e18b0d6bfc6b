import { sql, type Kysely, type RawBuilder } from 'kysely';
import { runBoundedRead } from '../../db/bounded-read.js';
import type { Dialect } from '../../db/dialect.js';
import { recordTableName } from '../fields/physical-names.js';
import { guarded, type QueryBounds } from './record-query.repository.js';

type Db = Kysely<any>;

/** The table's counters and the state of its change log, as one statement saw them. */
export interface LogPosition {
  /** Sum of the table's change counter (every row written bumps it). */
  changes: number;
  rows: number;
  /** The table's highest change seq in the log (0: none). */
  seq: number;
  /** Queued rows of the table holding record changes, not yet given a seq (PostgreSQL's sequencer; always 0 on SQLite): only whether it is 0 counts. */
  queued: number;
}

/** Comma-separated text of a column's values (no order needed). */
function textList(dialect: Dialect, column: RawBuilder<unknown>): RawBuilder<string> {
  return dialect.name === 'postgres' ? sql<string>`coalesce(string_agg(${column}::text, ','), '')` : sql<string>`coalesce(group_concat(${column}, ','), '')`;
}

const parseIds = (text: string): number[] => (text === '' ? [] : text.split(',').map(Number));

const recordKinds = sql`kind like 'record.%'`;

function positionColumns(tableId: number, sinceSeq: number | null) {
  const seq = sinceSeq === null ? sql`(select coalesce(max(seq), 0) from changes where table_id = ${tableId})` : sql`(select coalesce(max(seq), ${sinceSeq}) from changes where table_id = ${tableId} and seq > ${sinceSeq})`;
  return sql`(select coalesce(sum(change_count), 0) from table_counters where table_id = ${tableId}) as changes,
    (select coalesce(sum(row_count), 0) from table_counters where table_id = ${tableId}) as rows,
    ${seq} as seq,
    (select count(*) from change_queue where table_id = ${tableId} and (${recordKinds} or record_ids is not null)) as queued`;
}

function positionOf(row: Record<string, unknown>): LogPosition {
  return { changes: Number(row.changes), rows: Number(row.rows), seq: Number(row.seq), queued: Number(row.queued) };
}

/**
 * Every id the filter matches, with the table's counters and log position, in one statement
 * (one snapshot): what a count that later follows the table's changes starts from.
 */
export async function readMatchingIds(db: Db, tableId: number, where: RawBuilder<boolean>, bounds: QueryBounds): Promise<{ ids: number[]; position: LogPosition }> {
  const table = sql.table(recordTableName(tableId));
  const statement = sql<Record<string, unknown>>`select (select ${textList(bounds.dialect, sql.ref('id'))} from ${table} where ${guarded(bounds, where)}) as ids, ${positionColumns(tableId, null)}`;
  const [row] = await runBoundedRead(db, statement.compile(db), bounds.caller);
  return { ids: parseIds(String(row.ids)), position: positionOf(row) };
}

/**
 * What changed in the table since the log position `sinceSeq`, in one statement: the counters
 * and position now, how many record changes the log holds since then, the records they name,
 * and which of those the filter matches now. Only those records are read.
 */
export async function readChangeWindow(db: Db, tableId: number, where: RawBuilder<boolean>, sinceSeq: number, bounds: QueryBounds) {
  const table = sql.table(recordTableName(tableId));
  const changed = sql`select record_id from changes where table_id = ${tableId} and seq > ${sinceSeq} and ${recordKinds}`;
  const condition = guarded(bounds, where);
  // SQLite would walk the filter's index (every matching record) rather than look up the few
  // changed ids: `not indexed` leaves it the primary key only.
  const changedRecords = bounds.dialect.name === 'sqlite' ? sql`${table} not indexed` : table;
  const statement = sql<Record<string, unknown>>`select ${positionColumns(tableId, sinceSeq)},
    (select count(*) from changes where table_id = ${tableId} and seq > ${sinceSeq} and ${recordKinds}) as logged,
    (select ${textList(bounds.dialect, sql.ref('record_id'))} from (${changed}) as c) as changed,
    (select ${textList(bounds.dialect, sql.ref('id'))} from ${changedRecords} where id in (${changed}) and ${condition}) as matching`;
  const [row] = await runBoundedRead(db, statement.compile(db), bounds.caller);
  return { position: positionOf(row), logged: Number(row.logged), changed: parseIds(String(row.changed)), matching: parseIds(String(row.matching)) };
}

export type ChangeWindow = Awaited<ReturnType<typeof readChangeWindow>>;
