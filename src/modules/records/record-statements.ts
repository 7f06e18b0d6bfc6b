import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from '../../db/dialect.js';
import { arrayBound, arrayLiteral } from '../../db/postgres-arrays.js';
import { prepareShapedQuery } from '../../db/prepared-query.js';
import { createTurnBatching } from '../../db/turn-gathering.js';
import { assertOneLineEach, type ChangeCommon } from '../changes/change.js';
import type { Field } from '../fields/field.js';
import { getFieldType } from '../fields/registry.js';
import { fieldColumnName, recordTableName } from '../fields/physical-names.js';
import { searchTextTable } from './search/search-text-table.js';
import type { UpdatePlan } from './record-writer.js';
import { isSystemColumn, selectListSql, type ReadSelection, type RecordRow } from './records.repository.js';

/**
 * Record writes on PostgreSQL as one statement each, with their change queued by the same
 * statement (docs/decisions.md, "Changes: one statement per write"): no transaction to open and
 * commit, one round trip where the write unit's transaction took four or five.
 *
 * A create: the record's insert, its search text and its queued change, whose payload (the new
 * record's data) is known before the statement; the creates of a table that arrive together
 * share one statement (insertAndQueueChange).
 *
 * A delete (to the trash): the rows' delete, their trash entries (the row as JSON, as
 * record-writes.ts's trashRecords writes it on SQLite) and their queued changes, whose payloads were
 * made from the rows read before the statement (one queued row for several, in the order of
 * `ids`, as `queueChanges` writes them); it deletes a row only if it is still the row
 * version read. One record's delete needs no transaction (it deletes its row or nothing); a
 * batch's caller checks that every row read was deleted, in the statement's transaction.
 *
 * An update: a CTE locks the row and reads its old values, updates it only when some column
 * would change (an update that changes nothing writes nothing: record-writer.ts, changesNothing),
 * and queues the change with its payload made in SQL, only when some value changed. It answers
 * the record as a get reads it, from the row it wrote (or the old one). One round trip where
 * the write unit's transaction took six (begin, read, update, queued change, commit, and the
 * record read back). The updates of a table's records that arrive together share one
 * statement (updateAndQueueChange), each record's row locked, written and answered as its own.
 *
 * It serves the updates whose change can be made in SQL: no search text to rebuild and no
 * replaced value to hand to a field type (`plan.reads` empty), and every written field of a
 * type that says its read form in SQL (FieldType.columnReadForm), on a table without a single
 * lookup to itself (the statement reads a title from its snapshot, from before its own write).
 * The others go through the write unit's transaction (record-writes.ts), as do all updates on
 * SQLite, which has no writing CTEs.
 */

/** A column's value in read form, as JSON, made in SQL by its type (FieldType.columnReadForm), or null. */
function readFormOf(field: Field, column: RawBuilder<unknown>): RawBuilder<unknown> | null {
  return getFieldType(field.type).columnReadForm?.(column, field) ?? null;
}

/** Whether this update of `written` fields, answering the record read with `selection`, can be the one statement. */
export function fitsOneStatement(dialect: Dialect, plan: UpdatePlan, written: readonly Field[], selection: ReadSelection): boolean {
  return (
    dialect.queuesChanges &&
    plan.reads.length === 0 &&
    written.length > 0 &&
    written.every((field) => readFormOf(field, sql`x`) !== null) &&
    selection.titles.every((lookup) => lookup.targetTableId !== selection.tableId)
  );
}

interface UpdateShape {
  tableId: number;
  fields: readonly Field[];
  /** Each written field's column type (record-writer.ts, recordColumnTypes). */
  types: readonly string[];
  /** What the statement answers of the record, as a get reads it. */
  selection: ReadSelection;
}

const updateKey = (shape: UpdateShape) => `${shape.tableId}:${shape.fields.map((f) => `${f.id}/${f.type}/${f.slug}`).join(',')}:${shape.types.join(',')}:${shape.selection.key}`;

/** One record's update: its id, the written fields' column values (in the order of its shape's fields), its writer's change columns and the metadata version it relies on. */
interface RecordUpdate {
  recordId: number;
  values: readonly unknown[];
  updatedAt: string;
  common: ChangeCommon;
  expectedVersion: number | null;
}

/**
 * The metadata version as the statement sees it (`v`): a single write checks the version its
 * cached metadata was read at in its own statement, instead of a round trip before it
 * (MetadataReads.versionToCheck), and confirms the version seen after.
 */
const versionCte = sql`v as (select version from metadata_version where id = 1)`;

/** The columns of a queued change. */
const queuedColumns = sql`account_id, space_id, table_id, record_id, comment_id, kind, at, actor_user_id, actor_api_key_id, actor_name, payload_json`;

/** The columns a queued row of several changes shares among them (changes.repository.ts, `queueChanges`). */
const queuedSharedColumns = sql`account_id, space_id, table_id, at, actor_user_id, actor_api_key_id, actor_name`;

/** `null`, `""` and `[]` are one value (changes/change.ts, `recordChange`): a write between them changes nothing. */
const emptyJson = sql`('null'::jsonb, '""'::jsonb, '[]'::jsonb)`;

/** The change columns a write's list carries for each of its records (`q_…`), with their SQL types, and the list's arrays of them. */
const writerListColumns = [
  ['q_expected', 'bigint'],
  ['q_account_id', 'integer'],
  ['q_space_id', 'integer'],
  ['q_table_id', 'integer'],
  ['q_at', 'text'],
  ['q_actor_user_id', 'integer'],
  ['q_actor_api_key_id', 'integer'],
  ['q_actor_name', 'text'],
] as const;

function writerArrays(writes: ReadonlyArray<{ common: ChangeCommon; expectedVersion: number | null }>): string[] {
  return [
    arrayLiteral(writes.map((write) => write.expectedVersion)),
    ...(['account_id', 'space_id', 'table_id', 'at', 'actor_user_id', 'actor_api_key_id', 'actor_name'] as const).map((column) => arrayLiteral(writes.map((write) => write.common[column]))),
  ];
}

/**
 * `unnest` of a write's arrays (`listed`: their names and SQL types), numbered `q_n`, as `u`:
 * each parameter cast to its array type. With `bound`, planned for at most that many records
 * (postgres-arrays.ts, arrayRows: without it, PostgreSQL planned an update anew on every run).
 */
function writeList(arrays: readonly unknown[], listed: ReadonlyArray<readonly [string, string]>, bound?: number) {
  const list = sql`unnest(${sql.join(arrays.map((array, n) => sql`cast(${array} as ${sql.raw(listed[n][1])}[])`))}) with ordinality as u(${sql.join(listed.map(([name]) => sql.ref(name)))}, q_n)`;
  return bound === undefined ? list : sql`(select * from ${list} limit ${sql.lit(bound)}) as u`;
}

/** The records of a write's list whose metadata version holds: the version they rely on is the one the statement sees, or none. */
const versionHolds = sql<boolean>`(u.q_expected is null or u.q_expected = (select version from v))`;

/**
 * Updates, one statement for any number of records of one table writing the same fields (no
 * record twice: the batching keeps them apart), each from its list's row `w` (`q_id`, its
 * values `q_0`…, when, who and the version it relies on, `q_n` its place).
 */
const updateAndQueue = prepareShapedQuery(
  (shape: UpdateShape & { bound: number }) => `${updateKey(shape)}:${shape.bound}`,
  (db: Kysely<any>, shape: UpdateShape & { bound: number }, ...arrays: unknown[]) => {
    const table = sql.table(recordTableName(shape.tableId));
    const columns = shape.fields.map((field) => fieldColumnName(field.id));
    const valueNames = columns.map((_, n) => `q_${n}`);
    const listed = [['q_id', 'integer'] as const, ...valueNames.map((name, n) => [name, shape.types[n]] as const), ['q_updated_at', 'text'] as const, ...writerListColumns];
    const assignments = sql.join(columns.map((column, n) => sql`${sql.ref(column)} = w.${sql.ref(valueNames[n])}`));
    // Per written field: its order, slug, and value before and after, in read form.
    const pairs = sql.join(
      shape.fields.map((field, n) => {
        const column = columns[n];
        return sql`(${sql.lit(n)}, ${sql.lit(field.slug)}, ${readFormOf(field, sql`old.${sql.ref(column)}`)}, ${readFormOf(field, sql`upd.${sql.ref(column)}`)})`;
      }),
    );
    // The record's columns as a get selects them: `old` and `upd` carry them all, so that the
    // statement answers each record as it left it (`cur`: the row written, or the old one when
    // nothing changed), with the lookups' titles as a get reads them.
    const rowColumns = ['id', 'created_at', 'updated_at', ...shape.selection.columns.filter((c) => !isSystemColumn(c))];
    // The update reads its rows through `old`, so that each is locked and read before it is
    // written: `old` read after the update would skip the rows this statement wrote already.
    // Rows are locked in the order of their ids, so that two processes' statements over some
    // of the same records wait for one another instead of deadlocking.
    const raw = sql<RecordRow & { q_n: string; found: boolean; queued: boolean; metadata_version: string }>`
      with ${versionCte},
      w as (select u.* from ${writeList(arrays, listed, shape.bound)} where ${versionHolds}),
      old as (select ${sql.join(rowColumns.map((c) => sql`r.${sql.ref(c)}`))}, w.q_n from ${table} as r join w on r.id = w.q_id order by r.id for update of r),
      upd as (
        update ${table} as r set ${assignments}, updated_at = w.q_updated_at from old join w on w.q_n = old.q_n
        where r.id = old.id and (${sql.join(columns.map((column, n) => sql`r.${sql.ref(column)} is distinct from w.${sql.ref(valueNames[n])}`), sql` or `)})
        returning ${sql.join(rowColumns.map((c) => sql`r.${sql.ref(c)}`))}, w.q_n
      ),
      cur as (select * from upd union all select * from old where not exists (select 1 from upd where upd.q_n = old.q_n)),
      diff as (
        select upd.q_n, d.n, d.slug, d.was, d.now
        from old join upd on upd.q_n = old.q_n
        cross join lateral (values ${pairs}) as d(n, slug, was, now)
        where not (d.was = d.now or (d.was in ${emptyJson} and d.now in ${emptyJson}))
      ),
      payloads as (
        select q_n, '{"fields":' || json_agg(slug order by n)::text || ',"before":' || jsonb_object_agg(slug, was order by n)::text || ',"after":' || jsonb_object_agg(slug, now order by n)::text || '}' as payload
        from diff group by q_n
      ),
      queued as (
        insert into change_queue (${queuedColumns})
        select w.q_account_id, w.q_space_id, w.q_table_id, w.q_id, null, 'record.updated', w.q_at, w.q_actor_user_id, w.q_actor_api_key_id, w.q_actor_name, p.payload
        from payloads as p join w on w.q_n = p.q_n order by p.q_n
      )
      select (select version from v) as metadata_version, i.q_n, o.q_n is not null as found, exists (select 1 from payloads as p where p.q_n = i.q_n) as queued, ${sql.raw(selectListSql(db, shape.selection))}
      from (select generate_series(1, cardinality(cast(${arrays[0]} as integer[]))) as q_n limit ${sql.lit(shape.bound)}) as i left join old as o on o.q_n = i.q_n left join cur as r on r.q_n = i.q_n`;
    return { compile: () => raw.compile(db) };
  },
);

const updatesOfTurn = createTurnBatching(
  updateKey,
  async (db: Kysely<any>, shape: UpdateShape, updates: readonly RecordUpdate[]) => {
    const arrays = [
      arrayLiteral(updates.map((update) => update.recordId)),
      ...shape.fields.map((_, f) => arrayLiteral(updates.map((update) => update.values[f]))),
      arrayLiteral(updates.map((update) => update.updatedAt)),
      ...writerArrays(updates),
    ];
    const rows = await updateAndQueue(db, { ...shape, bound: arrayBound(updates.length) }, ...arrays);
    const byPlace = new Map(rows.map((row) => [Number(row.q_n), row]));
    return updates.map((_, n) => {
      const { q_n: _place, found, queued, metadata_version, ...row } = byPlace.get(n + 1)!;
      return { row: found ? (row as RecordRow) : undefined, queued, version: Number(metadata_version) };
    });
  },
  (update: RecordUpdate) => update.recordId,
);

/**
 * Updates one record's `fields` to `values` (column values, in the order of `fields`; `types`:
 * every column's SQL type, record-writer.ts recordColumnTypes) and queues its change when a
 * value changed, only while the metadata version is `expectedVersion` (null: whatever it is).
 * Answers the record's row as the statement left it, read with `selection` as a get reads it
 * (undefined when the record was not found, or the version had moved on: nothing written),
 * whether a change was queued, and the version the statement saw. The answer comes from the
 * write itself: a read after it could find the record deleted meanwhile. The updates of a
 * table's records asked together (the same fields and selection, within two turns, each
 * record once) share the statement (db/turn-gathering.ts).
 */
export function updateAndQueueChange(db: Kysely<any>, tableId: number, recordId: number, fields: readonly Field[], types: ReadonlyMap<string, string>, values: readonly unknown[], selection: ReadSelection, updatedAt: string, common: ChangeCommon, expectedVersion: number | null): Promise<{ row: RecordRow | undefined; queued: boolean; version: number }> {
  const shape = { tableId, fields, types: fields.map((field) => typeOf(types, fieldColumnName(field.id))), selection };
  return updatesOfTurn(db, shape, { recordId, values, updatedAt, common, expectedVersion });
}

/** A table's new records written by one statement: the columns written, with their SQL types. */
interface CreateShape {
  tableId: number;
  columns: readonly string[];
  types: readonly string[];
}

const createKey = (shape: CreateShape) => `${shape.tableId}:${shape.columns.join(',')}:${shape.types.join(',')}`;

/** One record to create: its column values (in the order of its shape's columns), search text, change payload, the writer's change columns and the metadata version it relies on. */
interface NewRecord {
  values: readonly unknown[];
  text: string | null;
  payload: string;
  common: ChangeCommon;
  expectedVersion: number | null;
}

/**
 * Records, their search texts and their queued changes, one statement for any number of them:
 * each column one array parameter (postgres-arrays.ts) expanded by `unnest`, as create_batch's
 * insert (records.repository.ts, insertRecordRows), beside each record's search text
 * (`q_text`), change payload (`q_payload`) and writer. A record is written only while the
 * metadata version is the one it relies on. The ids of one statement are drawn in the order of
 * its rows, while RETURNING does not promise their order: the records kept are numbered in
 * order (`k`), and so are the ids, sorted.
 */
const insertAndQueue = prepareShapedQuery(
  createKey,
  (db: Kysely<any>, shape: CreateShape, ...arrays: unknown[]) => {
    const table = recordTableName(shape.tableId);
    const columns = shape.columns.map((c) => sql.ref(c));
    const listed = [...shape.columns.map((column, n) => [column, shape.types[n]] as const), ['q_text', 'text'] as const, ['q_payload', 'text'] as const, ...writerListColumns];
    const raw = sql<{ metadata_version: string; q_n: string | null; id: number | null }>`
      with ${versionCte},
      kept as (select u.*, row_number() over (order by u.q_n) as k from ${writeList(arrays, listed)} where ${versionHolds}),
      ins as (insert into ${sql.table(table)} (${sql.join(columns)}) select ${sql.join(columns)} from kept order by k returning id),
      made as (select r.*, i.id from kept as r join (select id, row_number() over (order by id) as k from ins) as i on i.k = r.k),
      txt as (insert into ${sql.table(searchTextTable(table))} (id, text) select id, q_text from made where q_text is not null),
      queued as (
        insert into change_queue (${queuedColumns})
        select q_account_id, q_space_id, q_table_id, id, null, 'record.created', q_at, q_actor_user_id, q_actor_api_key_id, q_actor_name, q_payload
        from made order by k
      )
      select v.version as metadata_version, m.q_n, m.id from v left join made as m on true`;
    return { compile: () => raw.compile(db) };
  },
);

const createsOfTurn = createTurnBatching(
  createKey,
  async (db: Kysely<any>, shape: CreateShape, records: readonly NewRecord[]) => {
    const arrays = [
      ...shape.columns.map((_, c) => arrayLiteral(records.map((record) => record.values[c]))),
      arrayLiteral(records.map((record) => record.text)),
      arrayLiteral(records.map((record) => record.payload)),
      ...writerArrays(records),
    ];
    const rows = await insertAndQueue(db, shape, ...arrays);
    const version = Number(rows[0].metadata_version);
    const ids = new Map(rows.filter((row) => row.q_n !== null).map((row) => [Number(row.q_n), Number(row.id)]));
    return records.map((_, n) => ({ id: ids.get(n + 1), version }));
  },
);

/**
 * Inserts one record (`columns`: column → value, `types`: every column's SQL type,
 * record-writer.ts recordColumnTypes), its search text when it has one, and its
 * `record.created` change with `payload` (changes/change.ts, payloadOf), only while the
 * metadata version is `expectedVersion` (null: whatever it is). Answers its id (undefined:
 * nothing written) and the version the statement saw. The creates of a table asked together
 * (the same columns, within two turns) share the statement (db/turn-gathering.ts).
 */
export function insertAndQueueChange(db: Kysely<any>, tableId: number, columns: Record<string, unknown>, types: ReadonlyMap<string, string>, text: string | null, payload: string, common: ChangeCommon, expectedVersion: number | null): Promise<{ id: number | undefined; version: number }> {
  const names = Object.keys(columns);
  const shape = { tableId, columns: names, types: names.map((name) => typeOf(types, name)) };
  return createsOfTurn(db, shape, { values: names.map((name) => columns[name]), text, payload, common, expectedVersion });
}

/** A written column's SQL type, which every column of a record table has (recordColumnTypes). */
function typeOf(types: ReadonlyMap<string, string>, column: string): string {
  const type = types.get(column);
  if (type === undefined) throw new Error(`record-statements: no type for column ${column}`);
  return type;
}

const deleteAndQueue = prepareShapedQuery(
  (shape: { tableId: number; columns: readonly string[] }) => `${shape.tableId}:${shape.columns.join(',')}`,
  (db: Kysely<any>, shape: { tableId: number; columns: readonly string[] }, ids: unknown, rowVersions: unknown, payloads: unknown, deletedAt: unknown, ...common: unknown[]) => {
    const [accountId, spaceId, tableId, at, userId, keyId, actorName] = common;
    // A row is deleted only as it was read: the same row version (`xmin`, which every update of
    // the row replaces), so its payload and its trash entry describe the same values.
    const raw = sql<Record<string, unknown> & { id: number }>`
      with gone as (
        delete from ${sql.table(recordTableName(shape.tableId))} as r using unnest(cast(${ids} as integer[]), cast(${rowVersions} as text[])) as w(id, row_version)
        where r.id = w.id and cast(r.xmin as text) = w.row_version
        returning r.id, ${sql.join(shape.columns.map((c) => sql`r.${sql.ref(c)}`))}
      ),
      trashed as (
        insert into record_trash (table_id, record_id, deleted_at, deleted_by_user_id, deleted_by_api_key_id, deleted_by_name, row_json)
        select cast(${tableId} as integer), id, cast(${deletedAt} as text), cast(${userId} as integer), cast(${keyId} as integer), cast(${actorName} as text), row_to_json(gone)::text from gone
      ),
      changed as (
        select gone.id, p.payload, p.n from gone join unnest(cast(${ids} as integer[]), cast(${payloads} as text[])) with ordinality as p(id, payload, n) on p.id = gone.id
      ),
      queued_one as (
        insert into change_queue (${queuedColumns})
        select cast(${accountId} as integer), cast(${spaceId} as integer), cast(${tableId} as integer), id, null, 'record.deleted', cast(${at} as text),
          cast(${userId} as integer), cast(${keyId} as integer), cast(${actorName} as text), payload
        from changed where (select count(*) from changed) = 1
      ),
      queued_several as (
        insert into change_queue (${queuedSharedColumns}, record_ids, comment_ids, kinds, payloads, change_count)
        select cast(${accountId} as integer), cast(${spaceId} as integer), cast(${tableId} as integer), cast(${at} as text),
          cast(${userId} as integer), cast(${keyId} as integer), cast(${actorName} as text),
          array_agg(id order by n), array_agg(null::integer order by n), array_agg('record.deleted'::text order by n), string_agg(payload, E'\n' order by n), count(*)
        from changed having count(*) > 1
      )
      select * from gone`;
    return { compile: () => raw.compile(db) };
  },
);

/** The column a read selects to tell which version of a row it saw (PostgreSQL's `xmin`): what deleteAndQueueChanges checks. */
export const rowVersionColumn = 'xmin';

/**
 * Moves the records `ids` to the trash with their `record.deleted` changes (`payloads`, by the
 * position of their id) in one statement, each only if it is still the row version read
 * (`rowVersions`, by position: rowVersionColumn as read); answers the rows deleted (id and `columns`).
 */
export async function deleteAndQueueChanges(db: Kysely<any>, tableId: number, ids: readonly number[], rowVersions: readonly string[], payloads: readonly string[], columns: readonly string[], deletedAt: string, common: ChangeCommon): Promise<Array<Record<string, unknown> & { id: number }>> {
  assertOneLineEach(payloads);
  return deleteAndQueue(db, { tableId, columns }, ids, rowVersions, payloads, deletedAt, common.account_id, common.space_id, common.table_id, common.at, common.actor_user_id, common.actor_api_key_id, common.actor_name);
}
