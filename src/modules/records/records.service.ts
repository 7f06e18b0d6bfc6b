import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { formatDateTime } from '../../shared/clock.js';
import { ValidationError, ViewQueryNotFoundError } from '../../shared/errors.js';
import type { Actor } from '../auth/actor.js';
import type { Field } from '../tables/field-definition.js';
import { fieldColumnName, recordTableName } from '../tables/physical-schema.js';
import { getFieldType } from './fields/registry.js';
import { compileConditions, compileOrder, compileSearch } from './query/compile-query.js';
import { parseQueryBody, type ParsedQuery, type QueryMode } from './query/parse-query.js';
import { createRecordContexts } from './record-context.js';
import { columnsFor, presentRecords, selectFields, type RecordObject } from './record-reader.js';
import { loadRecordTable, type RecordTable } from './record-table.js';
import { createTableSchemaCache } from './table-schema-cache.js';
import { createCountCache } from './count-cache.js';
import { assertCanWriteRecords, buildSearchText, prepareValues, storedFromColumn, toColumns } from './record-writer.js';
import * as records from './records.repository.js';

const recordNotFound = () => new ValidationError('Record not found', 'record_not_found');
const invalidField = (slug: string) => new ValidationError(`Invalid field: ${slug}`, 'invalid_field');
export const maxBatchDelete = 1000;


function checkDataBody(body: unknown, required: boolean): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ValidationError('Invalid parameters: body must be a JSON object');
  const unknown = Object.keys(body).find((key) => key !== 'data');
  if (unknown) throw new ValidationError(`Invalid parameters: unknown property "${unknown}"`);
  const data = (body as { data?: unknown }).data;
  if (data === undefined && required) throw new ValidationError('Invalid parameters: data is required');
  return data ?? {};
}

export function createRecordsService(deps: { database: Database; clock: Clock }) {
  const { db, dialect } = deps.database;
  const now = () => formatDateTime(deps.clock.now());
  const schemaCache = createTableSchemaCache();
  const countCache = createCountCache();
  const loadTable = (actor: Actor, tableId: number) => loadRecordTable(db, schemaCache, actor, tableId);
  const contextsFor = (actor: Actor, table: RecordTable) => createRecordContexts(deps.database, deps.clock, schemaCache, actor, table);

  async function readRecords(actor: Actor, table: RecordTable, ids: readonly number[], fields: readonly Field[] = table.fields): Promise<RecordObject[]> {
    const rows = await records.findRecordRows(db, table.id, ids, columnsFor(table, fields));
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    const ordered = ids.map((id) => byId.get(id)).filter((row) => row !== undefined);
    return presentRecords(ordered, table, fields, contextsFor(actor, table).read);
  }

  /** A view id other than 0 names a view that does not exist: views arrive with their own capability. */
  async function compileQuery(actor: Actor, table: RecordTable, query: ParsedQuery) {
    if (query.viewId !== null && query.viewId !== 0) throw new ViewQueryNotFoundError();
    const contexts = contextsFor(actor, table);
    // `where` and `filters` are compiled apart and AND-ed: expanding their product into one DNF
    // could multiply a few hundred conditions into tens of thousands.
    const whereConditions = await compileConditions(query.whereConditions.length > 0 ? [query.whereConditions] : [], table.fieldsBySlug, contexts.filter);
    const filters = await compileConditions(query.filters, table.fieldsBySlug, contexts.filter);
    const search = compileSearch(query.search, recordTableName(table.id), dialect);
    const where = [whereConditions, filters, search].filter((part) => part !== null).reduce<RawBuilder<boolean> | null>((all, part) => (all ? sqlAnd(all, part) : part), null);
    return { where, orderBy: compileOrder(query.orderBy, query.orderDir, table.fieldsBySlug, dialect), contexts };
  }

  async function parse(actor: Actor, tableId: number, body: unknown, mode: QueryMode) {
    const table = await loadTable(actor, tableId);
    const query = parseQueryBody(body, mode);
    return { table, query, ...(await compileQuery(actor, table, query)) };
  }

  return {
    async createRecord(actor: Actor, tableId: number, body: unknown): Promise<RecordObject> {
      const table = await loadTable(actor, tableId);
      assertCanWriteRecords(actor, table);
      const data = checkDataBody(body, false);
      const contexts = contextsFor(actor, table);
      const values = await prepareValues(data, table, contexts.write, true);
      const timestamp = now();
      // One statement: the row, its search entry and the table's counters (triggers) together.
      const id = await records.insertRecord(db, tableId, {
        ...toColumns(values, dialect),
        created_at: timestamp,
        updated_at: timestamp,
        created_by: actor.userId,
        _search: buildSearchText(values),
      });
      // The new row is exactly what was written: present it without reading it back.
      const row: records.RecordRow = { id, created_at: timestamp, updated_at: timestamp };
      for (const field of table.fields) row[fieldColumnName(field.id)] = values.get(field) ?? null;
      return (await presentRecords([row], table, table.fields, contexts.read))[0];
    },

    /**
     * The bulk path: validates every row like a create, then inserts in multi-row statements,
     * one statement per batch, so each batch is all-or-nothing. Reports progress after each batch.
     * Answers the number inserted.
     */
    async importRecords(actor: Actor, tableId: number, rows: Iterable<unknown>, onProgress?: (inserted: number) => void): Promise<number> {
      const table = await loadTable(actor, tableId);
      assertCanWriteRecords(actor, table);
      const context = contextsFor(actor, table).write;
      const batchSize = Math.max(1, Math.floor(30_000 / (table.fields.length + 5)));
      let batch: Record<string, unknown>[] = [];
      let inserted = 0;
      const flush = async () => {
        await records.insertRecords(db, tableId, batch);
        inserted += batch.length;
        batch = [];
        onProgress?.(inserted);
      };
      for (const data of rows) {
        const values = await prepareValues(data, table, context, true);
        const timestamp = now();
        batch.push({ ...toColumns(values, dialect), created_at: timestamp, updated_at: timestamp, created_by: actor.userId, _search: buildSearchText(values) });
        if (batch.length >= batchSize) await flush();
      }
      if (batch.length > 0) await flush();
      return inserted;
    },

    async getRecord(actor: Actor, tableId: number, recordId: number): Promise<RecordObject> {
      const table = await loadTable(actor, tableId);
      const [record] = await readRecords(actor, table, [recordId]);
      if (!record) throw recordNotFound();
      return record;
    },

    /** Only the given fields change; the search text is rebuilt from the merged values. */
    async updateRecord(actor: Actor, tableId: number, recordId: number, body: unknown): Promise<RecordObject> {
      const table = await loadTable(actor, tableId);
      assertCanWriteRecords(actor, table);
      const data = checkDataBody(body, true);
      const changes = await prepareValues(data, table, contextsFor(actor, table).write, false);
      const searchable = table.fields.filter((f) => getFieldType(f.type).searchable);
      await db.transaction().execute(async (trx) => {
        const [row] = await records.findRecordRows(trx, tableId, [recordId], searchable.map((f) => fieldColumnName(f.id)));
        if (!row) throw recordNotFound();
        const columns: Record<string, unknown> = { ...toColumns(changes, dialect), updated_at: now() };
        if ([...changes.keys()].some((f) => getFieldType(f.type).searchable)) {
          const merged = new Map(searchable.map((f) => [f, storedFromColumn(f, row[fieldColumnName(f.id)])]));
          for (const [field, value] of changes) if (merged.has(field)) merged.set(field, value);
          columns._search = buildSearchText(merged);
        }
        await records.updateRecord(trx, tableId, recordId, columns);
      });
      return (await readRecords(actor, table, [recordId]))[0];
    },

    async deleteRecord(actor: Actor, tableId: number, recordId: number) {
      const table = await loadTable(actor, tableId);
      assertCanWriteRecords(actor, table);
      const deleted = await records.deleteRecords(db, tableId, [recordId]);
      if (deleted.length === 0) throw recordNotFound();
      return { id: recordId, deleted: true as const };
    },

    async deleteBatch(actor: Actor, tableId: number, body: unknown) {
      const table = await loadTable(actor, tableId);
      assertCanWriteRecords(actor, table);
      const ids = (body as { record_ids?: unknown } | null)?.record_ids;
      if (!Array.isArray(ids) || ids.some((id) => !Number.isInteger(id) || id < 1 || id > 2_147_483_647)) {
        throw new ValidationError('Invalid parameters: record_ids must be an array of record ids');
      }
      if (ids.length > maxBatchDelete) throw new ValidationError(`Invalid parameters: record_ids takes at most ${maxBatchDelete} ids`);
      const unique = [...new Set(ids as number[])];
      const deleted = new Set(await records.deleteRecords(db, tableId, unique));
      return { deleted: unique.filter((id) => deleted.has(id)), not_found: unique.filter((id) => !deleted.has(id)) };
    },

    async queryRecords(actor: Actor, tableId: number, body: unknown): Promise<RecordObject[]> {
      const { table, query, where, orderBy, contexts } = await parse(actor, tableId, body, 'query');
      const fields = selectFields(table, query.fields, invalidField);
      const rows = await records.selectRecordRows(db, tableId, { columns: columnsFor(table, fields), where, orderBy, limit: query.limit!, offset: query.offset! });
      return presentRecords(rows, table, fields, contexts.read);
    },

    /**
     * `total` is exact; `restricted` says whether filters or search narrowed the table. A
     * filtered count is answered from the count cache while the table has not changed.
     */
    async countRecords(actor: Actor, tableId: number, body: unknown) {
      const { table, where } = await parse(actor, tableId, body, 'count');
      const counters = await records.readCounters(db, tableId);
      if (!where) return { count: counters.rows, total: counters.rows, total_approx: false, restricted: false };
      const compiled = where.compile(db);
      const key = `${tableId}:${table.schemaVersion}:${compiled.sql}:${JSON.stringify(compiled.parameters)}`;
      let count = countCache.get(key, counters.changes);
      if (count === undefined) {
        count = await records.countRecords(db, tableId, where);
        countCache.set(key, counters.changes, count);
      }
      return { count, total: counters.rows, total_approx: false, restricted: true };
    },

    /** Every matching id, as JSON text chunks, so a million ids never form one string. */
    async streamIds(actor: Actor, tableId: number, body: unknown): Promise<AsyncGenerator<string>> {
      const { where, orderBy } = await parse(actor, tableId, body, 'ids');
      const ids = records.streamRecordIds(db, tableId, where, orderBy);
      // The first row is fetched before the 200 starts, so a failing statement answers a JSON
      // error instead of a response broken off after `[`.
      const head = await ids.next();
      const output = (async function* () {
        let chunk: number[] = head.done ? [] : [head.value];
        let first = true;
        yield '[';
        for await (const id of head.done ? [] : ids) {
          chunk.push(id);
          if (chunk.length === 5000) {
            yield `${first ? '' : ','}${chunk.join(',')}`;
            first = false;
            chunk = [];
          }
        }
        if (chunk.length > 0) yield `${first ? '' : ','}${chunk.join(',')}`;
        yield ']';
      })();
      // A body closed before its first read never runs its loop: release the primed statement here.
      const close = output.return.bind(output);
      const fail = output.throw.bind(output);
      output.return = async (value) => (await ids.return(undefined), close(value));
      output.throw = async (error) => (await ids.return(undefined), fail(error));
      return output;
    },
  };
}

function sqlAnd(left: RawBuilder<boolean>, right: RawBuilder<boolean>): RawBuilder<boolean> {
  return sql<boolean>`(${left} and ${right})`;
}

export type RecordsService = ReturnType<typeof createRecordsService>;
