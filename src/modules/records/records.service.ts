import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { formatDateTime } from '../../shared/clock.js';
import { createMetadataReads, readMetadataVersion, type MetadataCache } from '../../db/metadata-cache.js';
import { ErrorCode, NotFoundError, QueryTimeoutError, ValidationError, ViewNotAuthorizedError, ViewQueryNotFoundError } from '../../shared/errors.js';
import { rateLimitBucket, type Actor } from '../auth/actor.js';
import type { Field } from '../fields/field.js';
import { fieldColumnName, recordTableName } from '../fields/physical-names.js';
import { getFieldType } from '../fields/registry.js';
import { titleReader } from '../fields/title.js';
import { fromColumnValue, toColumnValue } from '../fields/column-values.js';
import { hooksOf } from '../fields/lifecycle.js';
import type { FileLedger } from '../fields/value-context.js';
import { compileConditions, compileOrder, compileSearch, compileSearchText, sortIndexOf } from './query/compile-query.js';
import { parseQueryBody, type ParsedQuery, type QueryMode } from './query/parse-query.js';
import { parseFilterList } from './query/parse-conditions.js';
import { isCheapPerRow, shapeOfQuery, type QueryShape, type QueryShapeObserver } from './query/query-shape.js';
import type { SavedViewQuery, SavedViewReader } from './query/saved-view.js';
import { RecordContexts } from './record-context.js';
import { columnsFor, presentRecords, selectFields, type RecordObject } from './record-reader.js';
import { cachedRecordTable, loadRecordTable, visibilityScope, type RecordTable } from './record-table.js';
import { createTableSchemaCache } from './table-schema-cache.js';
import { createCountCache } from './count-cache.js';
import { assertResponseFits, maxResponseMegabytes } from './response-size.js';
import { assertCanEditField, assertCanWriteRecords, buildSearchText, checkDataBody, completeUpdate, newRecordColumns, planUpdate, prepareValues, toColumns, writtenRow } from './record-writer.js';
import * as records from './records.repository.js';
import { recordSearchOf } from './search/index.js';
import { afterCommit, deleteRecords, prepareValuesIo, runCleanups, type RecordsDeletedListener } from './record-lifecycle.js';
import type { Attempt } from './record-attempt.js';
import { createRecordBatches, maxBatchRecords } from './record-batches.js';
import { countIds, idPages, type ExportFormat, type RecordExport } from './record-export.js';
import { formulaModes, type FormulaMode } from './csv-formulas.js';
export type { RecordsDeletedListener } from './record-lifecycle.js';

const recordNotFound = () => new ValidationError('Record not found', ErrorCode.recordNotFound);
const invalidField = (slug: string) => new ValidationError(`Invalid field: ${slug}`, ErrorCode.invalidField);
export const maxBatchDelete = 1000;


export function createRecordsService(deps: {
  database: Database;
  clock: Clock;
  metadataCache: MetadataCache;
  files: FileLedger;
  views: SavedViewReader;
  /** What goes with deleted records besides their values (comments): set once the comments capability exists. */
  recordsDeleted?: { listener?: RecordsDeletedListener };
  maxResponseSize?: number;
  strictConfirmation?: boolean;
  /** Told each query's shape: the automatic indexes. */
  queryShapes?: QueryShapeObserver;
}) {
  const { db, dialect } = deps.database;
  const search = recordSearchOf(dialect.name);
  const now = () => formatDateTime(deps.clock.now());
  const schemaCache = createTableSchemaCache();
  const countCache = createCountCache();
  const selections = new WeakMap<RecordTable, WeakMap<readonly Field[], Map<number | string, records.ReadSelection>>>();
  const maxResponseSize = deps.maxResponseSize ?? maxResponseMegabytes * 1024 * 1024;

  async function openAttempt(actor: Actor, tableId: number, cached: boolean): Promise<Attempt> {
    const reads = createMetadataReads(deps.metadataCache, cached);
    reads.use(actor.metadataVersion);
    const table = cachedRecordTable(schemaCache, reads, actor, tableId) ?? (await loadRecordTable(db, schemaCache, reads, actor, tableId));
    return { actor, table, reads, contexts: new RecordContexts(deps.database, deps.clock, schemaCache, reads, actor, table, deps.files) };
  }

  /**
   * Runs a record call on cached metadata (key, table, role, members, users, title columns),
   * which its statements confirm by reading the metadata version along with their data. If a
   * statement saw a newer version, or the call failed in any way before confirming (stale
   * metadata can cause a 4xx, or a statement naming a dropped column), it runs once more on
   * metadata read afresh, the key included: a key revoked by another process answers 401.
   */
  async function onTable<T>(actor: Actor, tableId: number, call: (attempt: Attempt) => Promise<T>, confirms = true): Promise<T> {
    let first: Attempt | undefined;
    try {
      first = await openAttempt(actor, tableId, true);
      return settled(first, await call(first), confirms);
    } catch (error) {
      // Unconfirmed, nothing was written yet: any failure may come from stale metadata (a
      // dropped column in a cached field list fails the statement itself). A query over its
      // time budget is not run twice.
      if (first?.reads.confirmed || error instanceof QueryTimeoutError) throw error;
      const current = actor.refresh ? await actor.refresh() : actor;
      const second = await openAttempt(current, tableId, false);
      return settled(second, await call(second), confirms);
    }
  }

  /**
   * A call that answered on cached metadata without any statement confirming it could answer
   * for a key revoked or a member removed elsewhere: under `strictConfirmation` (the tests)
   * that fails loudly instead of passing unnoticed.
   */
  function settled<T>(attempt: Attempt, result: T, confirms: boolean): T {
    if (confirms && deps.strictConfirmation && !attempt.reads.confirmed) throw new Error('records call answered without confirming its metadata version');
    return result;
  }

  /** A record query runs in its caller's share of the query slots, within the time budget. */
  function boundsOf(actor: Actor, cheapPerRow: boolean): records.QueryBounds {
    return { caller: rateLimitBucket(actor), dialect, cheapPerRow };
  }

  /** Confirms the metadata relied on against the version now: writes do it just before writing. */
  async function confirmCurrentMetadata(attempt: Attempt): Promise<void> {
    attempt.reads.confirm(await readMetadataVersion(db));
  }

  /**
   * The columns a read of `fields` selects, with the titles of single lookups read by the same
   * statement. Kept on the table object: that object lives only as long as its metadata-cache
   * entry, whose version the request's statement confirms, and every title column was read at
   * that same version (a newer one clears the cache, and with it this table object's entry).
   * Which targets' titles are read depends on what the caller may see: kept per visibility scope.
   */
  function knownSelection(attempt: Attempt, fields: readonly Field[]): records.ReadSelection | undefined {
    return selections.get(attempt.table)?.get(fields)?.get(visibilityScope(attempt.actor));
  }

  /** Works out and keeps the selection that `knownSelection` did not have. */
  async function buildSelection(attempt: Attempt, fields: readonly Field[]): Promise<records.ReadSelection> {
    const titles: records.TitleLookup[] = [];
    for (const field of fields) {
      const targetTableId = getFieldType(field.type).titleTarget?.(field);
      if (targetTableId === undefined) continue;
      const titleField = await attempt.contexts.titleField(targetTableId);
      if (titleField === undefined) continue;
      const titleColumn = titleField ? fieldColumnName(titleField.id) : null;
      titles.push({ column: fieldColumnName(field.id), targetTableId, titleColumn, titleText: titleField ? titleReader(titleField) : undefined });
    }
    const selection = records.describeSelection(attempt.table.id, columnsFor(attempt.table, fields), titles);
    let byFields = selections.get(attempt.table);
    if (!byFields) selections.set(attempt.table, (byFields = new WeakMap()));
    let byScope = byFields.get(fields);
    if (!byScope) byFields.set(fields, (byScope = new Map()));
    byScope.set(visibilityScope(attempt.actor), selection);
    return selection;
  }

  /** Rows → record objects, after handing the titles the statement read to the lookup fields. */
  function present(attempt: Attempt, rows: readonly records.RecordRow[], fields: readonly Field[], selection: records.ReadSelection): Promise<RecordObject[]> {
    for (const lookup of selection.titles) {
      const found = records.foundAlias(lookup.column);
      const title = records.titleAlias(lookup.column);
      const entries: [number, string | null | undefined][] = [];
      for (const row of rows) {
        const target = row[lookup.column];
        if (target !== null && target !== undefined) entries.push([Number(target), row[found] === null ? undefined : (lookup.titleText?.(row[title]) ?? null)]);
      }
      attempt.contexts.rememberTitles(lookup.targetTableId, entries);
    }
    return presentRecords(rows, attempt.table, fields, attempt.contexts.read);
  }

  async function readRecord(attempt: Attempt, recordId: number): Promise<RecordObject> {
    const selection = knownSelection(attempt, attempt.table.fields) ?? (await buildSelection(attempt, attempt.table.fields));
    const { row, version } = await records.findRecordWithVersion(db, recordId, selection);
    attempt.reads.confirm(version);
    if (!row) throw recordNotFound();
    return (await present(attempt, [row], attempt.table.fields, selection))[0];
  }

  /** Records by id, in that order (one that is gone is left out), as readRecord presents one. */
  async function readRecords(attempt: Attempt, recordIds: readonly number[], fields: readonly Field[] = attempt.table.fields): Promise<RecordObject[]> {
    const selection = knownSelection(attempt, fields) ?? (await buildSelection(attempt, fields));
    const rows = new Map((await records.findRecordsById(db, attempt.table.id, recordIds, selection)).map((row) => [Number(row.id), row]));
    const found = recordIds.flatMap((id) => rows.get(id) ?? []);
    return present(attempt, found, fields, selection);
  }

  const batches = createRecordBatches({ database: deps.database, now, confirm: confirmCurrentMetadata, readRecords });

  /**
   * The query's conditions and order. Through a saved view (`view_id` other than 0), the
   * view's filters and sort replace the request's `where`, `filters`, `order_by` and
   * `order_dir`; `append_filters` adds the request's conditions on top; `search`, `fields`,
   * `limit` and `offset` apply as always. A view the table does not have: 500 `View not found`.
   */
  async function compileQuery(attempt: Attempt, query: ParsedQuery) {
    const { table, contexts } = attempt;
    const view = query.viewId !== null && query.viewId !== 0 ? await deps.views.find(attempt.reads, table.id, query.viewId) : null;
    if (view === undefined) throw new ViewQueryNotFoundError();
    const useRequest = !view || query.appendFilters;
    // `where` and `filters` are compiled apart and AND-ed: expanding their product into one DNF
    // could multiply a few hundred conditions into tens of thousands.
    const conditions = [
      view ? parseFilterList(view.filters) : [],
      useRequest && query.whereConditions.length > 0 ? [query.whereConditions] : [],
      useRequest ? query.filters : [],
    ];
    const parts = [];
    for (const groups of conditions) parts.push(await compileConditions(groups, table.fieldsBySlug, contexts.filter));
    const orderBy = view ? view.orderBy : query.orderBy;
    const orderDir = view ? view.orderDir : query.orderDir;
    // A page of search results alone, in id order, needs only its first limit + offset matches.
    const searchOnly = parts.every((part) => part === null) && query.limit !== null && (orderBy === null || (orderBy === 'id' && orderDir === 'asc'));
    const search = compileSearch(query.search, recordTableName(table.id), dialect, searchOnly ? query.limit! + query.offset! : undefined);
    const where = [...parts, search].filter((part) => part !== null).reduce<RawBuilder<boolean> | null>((all, part) => (all ? sqlAnd(all, part) : part), null);
    // A count whose only condition is the search counts the search table's rows, without
    // looking each match up in the record table (RecordSearch.textCondition).
    const searchAlone = parts.every((part) => part === null) ? compileSearchText(query.search, recordTableName(table.id), dialect) : null;
    return {
      where,
      counted: searchAlone ?? { table: recordTableName(table.id), where },
      orderBy: compileOrder(orderBy, orderDir, table.fieldsBySlug, dialect),
      sortIndex: sortIndexOf(orderBy, table.fieldsBySlug, dialect),
      shape: shapeOfQuery(conditions, orderBy, orderDir, table.fieldsBySlug),
      cheapPerRow: search === null && isCheapPerRow(conditions, orderBy, table.fieldsBySlug),
    };
  }

  /** A query that ran tells the automatic indexes its shape (after it answered, never in its way). */
  function observe(tableId: number, shape: QueryShape | null): void {
    if (shape) deps.queryShapes?.observe(tableId, shape);
  }

  async function parse(attempt: Attempt, body: unknown, mode: QueryMode) {
    const query = parseQueryBody(body, mode);
    return { query, ...(await compileQuery(attempt, query)) };
  }

  return {
    /**
     * Refuses, as the call itself would, a table the caller cannot see or (`write`) change: the
     * routes ask before reading a body. The call checks again with its own statements.
     */
    async checkTableAccess(actor: Actor, tableId: number, access: 'read' | 'write'): Promise<void> {
      // Advisory, confirmed by the call itself: nothing here needs the version.
      await onTable(
        actor,
        tableId,
        async (attempt) => {
          if (access === 'write') assertCanWriteRecords(attempt.actor, attempt.table);
        },
        false,
      );
    },

    /**
     * A saved view's filters and sort, checked against the table exactly as a query would check
     * them (fields, operators, values, date tokens, sortable field): 400 naming the problem.
     */
    checkViewQuery(actor: Actor, tableId: number, input: { filters?: unknown; order_by?: unknown; order_dir?: unknown }): Promise<SavedViewQuery> {
      return onTable(
        actor,
        tableId,
        async (attempt) => {
          const query = parseQueryBody({ filters: input.filters ?? [], order_by: input.order_by ?? null, order_dir: input.order_dir ?? null }, 'count');
          await compileConditions(query.filters, attempt.table.fieldsBySlug, attempt.contexts.filter);
          compileOrder(query.orderBy, query.orderDir, attempt.table.fieldsBySlug, dialect);
          return { filters: (input.filters ?? []) as unknown[], orderBy: query.orderBy, orderDir: query.orderDir };
        },
        false,
      );
    },

    createRecord(actor: Actor, tableId: number, body: unknown): Promise<RecordObject> {
      return onTable(actor, tableId, async (attempt) => {
        const { table, contexts } = attempt;
        assertCanWriteRecords(attempt.actor, table);
        const data = checkDataBody(body, false);
        const values = await prepareValues(data, table, contexts.write, true);
        const hooks = hooksOf(table.fields);
        const cleanups = hooks.prepare.length > 0 ? await prepareValuesIo(values, hooks.prepare, contexts.write) : undefined;
        const timestamp = now();
        let id: number;
        try {
          await confirmCurrentMetadata(attempt);
          const columns = newRecordColumns(values, table.fields, attempt.actor, timestamp, dialect);
          const text = buildSearchText(values);
          // The row and the table's counters (triggers) in one statement; with its search text, in one transaction.
          id =
            text === null
              ? await records.insertRecord(db, tableId, columns)
              : await db.transaction().execute(async (trx) => {
                  const inserted = await records.insertRecord(trx, tableId, columns);
                  await search.writeText(trx, recordTableName(tableId), [{ id: inserted, text }]);
                  return inserted;
                });
        } catch (error) {
          if (cleanups) await runCleanups(cleanups);
          throw error;
        }
        if (hooks.afterCommit.length > 0) await afterCommit(values, hooks.afterCommit, contexts.write);
        // The new row is exactly what was written: present it without reading it back.
        return (await presentRecords([writtenRow(id, timestamp, values, table)], table, table.fields, contexts.read))[0];
      });
    },

    /**
     * Trusted code's bulk path (the bench loader): create_batch's insert, a thousand records at
     * a time, each thousand all-or-nothing; progress is reported after each. Answers the number
     * inserted. Metadata is read afresh (an import is long; its caller is trusted code).
     */
    async importRecords(actor: Actor, tableId: number, rows: Iterable<unknown>, onProgress?: (inserted: number) => void): Promise<number> {
      const attempt = await openAttempt(actor, tableId, false);
      assertCanWriteRecords(actor, attempt.table);
      let inserted = 0;
      let chunk: unknown[] = [];
      const flush = async () => {
        await batches.insertNew(attempt, chunk, inserted);
        inserted += chunk.length;
        chunk = [];
        onProgress?.(inserted);
      };
      for (const data of rows) {
        chunk.push(data);
        if (chunk.length === maxBatchRecords) await flush();
      }
      if (chunk.length > 0) await flush();
      return inserted;
    },

    /**
     * `tabula import`: `work` writes a file's batches through create_batch's and upsert_batch's
     * own path (record-batches: every value through its type, refusals naming the record), all
     * in one transaction, committed when `work` returns and rolled back when it throws. A file
     * refused anywhere, a syntax error at its last row included, leaves the table as it was
     * (docs/decisions.md, "CSV import: one unit"). A batch refused by its checks has written
     * nothing, so the caller may send it again without the refused record. Every statement of
     * `work` runs on the transaction (SQLite's one connection is the transaction's until the
     * commit); metadata is read afresh and confirmed before each batch, so a table changed
     * meanwhile fails the import instead of writing to stale fields.
     */
    async importAsOneUnit<T>(actor: Actor, tableId: number, work: (unit: ImportUnit) => Promise<T>): Promise<T> {
      const attempt = await openAttempt(actor, tableId, false);
      assertCanWriteRecords(actor, attempt.table);
      const afterCommit: Array<() => Promise<void>> = [];
      const result = await db.transaction().execute(async (trx) => {
        const database: Database = { ...deps.database, db: trx };
        const inUnit: Attempt = { ...attempt, contexts: new RecordContexts(database, deps.clock, schemaCache, attempt.reads, actor, attempt.table, deps.files) };
        const unit = createRecordBatches({
          database,
          now,
          confirm: async (current) => current.reads.confirm(await readMetadataVersion(trx)),
          // Only update_batch and upsert_batch read their records back; the unit answers counts.
          readRecords: () => Promise.reject(new Error('an import unit reads no records back')),
          afterCommit: (task) => void afterCommit.push(task),
        });
        return work({
          create: async (body) => (await unit.create(inUnit, body)).ids.length,
          upsert: async (body) => {
            const { ids, created } = await unit.upsert(inUnit, body);
            return { created, updated: ids.length - created };
          },
        });
      });
      for (const task of afterCommit) await task();
      return result;
    },

    createBatch(actor: Actor, tableId: number, body: unknown): Promise<RecordObject[]> {
      return onTable(actor, tableId, (attempt) => batches.createBatch(attempt, body));
    },

    updateBatch(actor: Actor, tableId: number, body: unknown): Promise<RecordObject[]> {
      return onTable(actor, tableId, (attempt) => batches.updateBatch(attempt, body));
    },

    upsertBatch(actor: Actor, tableId: number, body: unknown): Promise<RecordObject[]> {
      return onTable(actor, tableId, (attempt) => batches.upsertBatch(attempt, body));
    },

    getRecord(actor: Actor, tableId: number, recordId: number): Promise<RecordObject> {
      return onTable(actor, tableId, async (attempt) => {
        const record = await readRecord(attempt, recordId);
        assertResponseFits([record], maxResponseSize, 'this record holds', 'read it a few fields at a time with records/query and fields');
        return record;
      });
    },

    /** Only the given fields change; the search text is rebuilt from the merged values. */
    updateRecord(actor: Actor, tableId: number, recordId: number, body: unknown): Promise<RecordObject> {
      return onTable(actor, tableId, async (attempt) => {
        const { table, contexts } = attempt;
        assertCanWriteRecords(attempt.actor, table);
        const data = checkDataBody(body, true);
        contexts.recordId = recordId;
        const changes = await prepareValues(data, table, contexts.write, false);
        const hooks = hooksOf(table.fields);
        const cleanups = hooks.prepare.length > 0 ? await prepareValuesIo(changes, hooks.prepare, contexts.write) : undefined;
        const plan = planUpdate(table, changes, hooks);
        const previous = new Map<Field, unknown>();
        try {
          await confirmCurrentMetadata(attempt);
          const columns: Record<string, unknown> = { ...toColumns(changes, dialect), updated_at: now() };
          if (plan.reads.length === 0) {
            // The search text stays as it is: one statement, which also tells whether the record exists.
            if (!(await records.updateRecord(db, tableId, recordId, columns))) throw recordNotFound();
          } else {
            // The search text is rebuilt from the stored values merged with the changes (and the
            // replaced values are read), read and written in one transaction.
            await db.transaction().execute(async (trx) => {
              const [row] = await records.findRecordRows(trx, tableId, [recordId], plan.reads.map((f) => fieldColumnName(f.id)));
              if (!row) throw recordNotFound();
              const text = completeUpdate(plan, row, changes, previous);
              await records.updateRecord(trx, tableId, recordId, columns);
              if (text !== undefined) await search.writeText(trx, recordTableName(tableId), [{ id: recordId, text }]);
            });
          }
        } catch (error) {
          if (cleanups) await runCleanups(cleanups);
          throw error;
        }
        if (plan.replacing.length > 0) await afterCommit(changes, plan.replacing, contexts.write, previous);
        return readRecord(attempt, recordId);
      });
    },

    /**
     * A record the caller may read, or (`write`) change or comment on: 400 `Invalid Table` or
     * `Record not found`; 403 for a read-only key or a reader. Answers where the record lives.
     */
    recordAccess(actor: Actor, tableId: number, recordId: number, access: 'read' | 'write'): Promise<RecordPlace> {
      return onTable(actor, tableId, async (attempt) => {
        if (access === 'write') assertCanWriteRecords(attempt.actor, attempt.table);
        const { exists, version } = await records.recordExistsWithVersion(db, tableId, recordId);
        attempt.reads.confirm(version);
        if (!exists) throw recordNotFound();
        return { tableId, recordId, spaceId: attempt.table.spaceId, accountId: attempt.actor.accountId, actor: attempt.actor };
      });
    },

    /**
     * The file field `slug` of a record, for the files endpoints: 400 for an unknown field, a
     * field of another type or a missing record; for a write, 403 for a read-only key, a reader
     * or a field the caller may not edit. Answers the field, where the table lives and the
     * field's current value.
     */
    fileField(actor: Actor, tableId: number, recordId: number, slug: unknown, access: 'read' | 'write'): Promise<FileFieldOfRecord> {
      return onTable(actor, tableId, async (attempt) => {
        const { table } = attempt;
        const field = fileFieldOf(table, slug);
        if (access === 'write') assertCanEditField(attempt.actor, table, field);
        await confirmCurrentMetadata(attempt);
        const found = await records.findRecordColumn(db, tableId, recordId, fieldColumnName(field.id), false);
        if (!found) throw recordNotFound();
        return { field, tableId, spaceId: table.spaceId, accountId: attempt.actor.accountId, current: fromColumnValue(field, found.value) };
      });
    },

    /**
     * Changes one file field of one record in one transaction: the current value is read (the
     * row locked on PostgreSQL), `edit` answers the new one, and both are written together, so
     * concurrent files/create calls on one record never lose each other's attachment. `edit`
     * runs inside the transaction and may write its own rows with `trx`.
     */
    editFileField(actor: Actor, tableId: number, recordId: number, slug: unknown, edit: (current: unknown, field: Field, trx: Database['db']) => Promise<unknown>): Promise<unknown> {
      return onTable(actor, tableId, async (attempt) => {
        const { table } = attempt;
        const field = fileFieldOf(table, slug);
        assertCanEditField(attempt.actor, table, field);
        await confirmCurrentMetadata(attempt);
        const column = fieldColumnName(field.id);
        return db.transaction().execute(async (trx) => {
          const found = await records.findRecordColumn(trx, tableId, recordId, column, dialect.rowLocks);
          if (!found) throw recordNotFound();
          const next = await edit(fromColumnValue(field, found.value), field, trx);
          await records.updateRecord(trx, tableId, recordId, { [column]: toColumnValue(field, next, dialect), updated_at: now() });
          return next;
        });
      });
    },

    deleteRecord(actor: Actor, tableId: number, recordId: number) {
      return onTable(actor, tableId, async (attempt) => {
        assertCanWriteRecords(attempt.actor, attempt.table);
        await confirmCurrentMetadata(attempt);
        const deleted = await deleteRecords({ db, dialect, files: deps.files }, tableId, [recordId], hooksOf(attempt.table.fields).onRecordsDeleted, deps.recordsDeleted?.listener);
        if (deleted.length === 0) throw recordNotFound();
        return { id: recordId, deleted: true as const };
      });
    },

    deleteBatch(actor: Actor, tableId: number, body: unknown) {
      return onTable(actor, tableId, async (attempt) => {
        assertCanWriteRecords(attempt.actor, attempt.table);
        const ids = (body as { record_ids?: unknown } | null)?.record_ids;
        if (!Array.isArray(ids) || ids.some((id) => !Number.isInteger(id) || id < 1 || id > 2_147_483_647)) {
          throw new ValidationError('Invalid parameters: record_ids must be an array of record ids');
        }
        if (ids.length > maxBatchDelete) throw new ValidationError(`Invalid parameters: record_ids takes at most ${maxBatchDelete} ids`);
        const unique = [...new Set(ids as number[])];
        await confirmCurrentMetadata(attempt);
        const deleted = new Set(await deleteRecords({ db, dialect, files: deps.files }, tableId, unique, hooksOf(attempt.table.fields).onRecordsDeleted, deps.recordsDeleted?.listener));
        return { deleted: unique.filter((id) => deleted.has(id)), not_found: unique.filter((id) => !deleted.has(id)) };
      });
    },

    queryRecords(actor: Actor, tableId: number, body: unknown): Promise<RecordObject[]> {
      return throughView(body, () => onTable(actor, tableId, async (attempt) => {
        const { query, where, orderBy, sortIndex, shape, cheapPerRow } = await parse(attempt, body, 'query');
        const fields = selectFields(attempt.table, query.fields, invalidField);
        const selection = knownSelection(attempt, fields) ?? (await buildSelection(attempt, fields));
        const rows = await records.selectRecordRows(db, tableId, { bounds: boundsOf(attempt.actor, cheapPerRow), selection, where, orderBy, sortIndex, limit: query.limit!, offset: query.offset! });
        attempt.reads.confirm(rows.length > 0 ? rows[0].metadata_version : await readMetadataVersion(db));
        const page = await present(attempt, rows, fields, selection);
        assertResponseFits(page, maxResponseSize, `these ${page.length} records hold`, 'ask for fewer records (limit) or fewer fields (fields)');
        observe(tableId, shape);
        return page;
      }));
    },

    /**
     * `total` is exact; `restricted` says whether filters or search narrowed the table. A
     * filtered count is answered from the count cache while the table has not changed.
     */
    countRecords(actor: Actor, tableId: number, body: unknown) {
      return throughView(body, () => onTable(actor, tableId, async (attempt) => {
        const { where, counted: source, shape, cheapPerRow } = await parse(attempt, body, 'count');
        const counters = await records.readCounters(db, tableId);
        attempt.reads.confirm(counters.metadataVersion);
        if (!where) return { count: counters.rows, total: counters.rows, total_approx: false, restricted: false };
        const compiled = where.compile(db);
        const key = `${tableId}:${attempt.table.schemaVersion}:${compiled.sql}:${JSON.stringify(compiled.parameters)}`;
        const cached = countCache.get(key, counters);
        let count = cached?.count;
        if (cached === undefined || cached.since !== undefined) {
          // Only the records created since the cached count, or the whole filter afresh.
          const counted = await records.countRecords(db, tableId, source, boundsOf(attempt.actor, cheapPerRow), cached?.since);
          count = (cached?.count ?? 0) + counted.count;
          countCache.set(key, counters, count, counted.maxId);
          if (cached === undefined) observe(tableId, shape);
        }
        return { count, total: counters.rows, total_approx: false, restricted: true };
      }));
    },

    /**
     * Every matching id, as the text of a JSON array. It is read whole by one statement before
     * anything is sent (8 bytes an id), so a client that reads slowly holds no connection,
     * worker or snapshot, only its answer's memory, until the send timeout gives up on it.
     */
    listIds(actor: Actor, tableId: number, body: unknown): Promise<string> {
      return throughView(body, () => onTable(actor, tableId, async (attempt) => {
        const { where, orderBy, shape, cheapPerRow } = await parse(attempt, body, 'ids');
        const { ids, version } = await records.readRecordIdList(db, tableId, where, orderBy, boundsOf(attempt.actor, cheapPerRow));
        attempt.reads.confirm(version);
        observe(tableId, shape);
        return `[${ids}]`;
      }));
    },

    /**
     * Every match of a query for records/export, never all in memory: the ordered ids are read
     * by one statement (as records/ids: one text of about 8 bytes an id, paged as it is), then
     * the records `exportPageSize` at a time, presented as records/get presents them, each page
     * a call of its own (its metadata confirmed afresh, so a key revoked meanwhile stops the
     * export). Access and the body are checked before the answer starts.
     */
    async exportRecords(actor: Actor, tableId: number, body: unknown): Promise<RecordExport> {
      const { format, formulas, query: queryBody } = splitExportBody(body);
      const started = await throughView(queryBody, () => onTable(actor, tableId, async (attempt) => {
        const { query, where, orderBy, shape, cheapPerRow } = await parse(attempt, queryBody, 'ids');
        const fields = selectFields(attempt.table, query.fields, invalidField);
        const { ids, version } = await records.readRecordIdList(db, tableId, where, orderBy, boundsOf(attempt.actor, cheapPerRow));
        attempt.reads.confirm(version);
        observe(tableId, shape);
        return { ids, whitelist: query.fields, fields: fields.map(({ slug, type, multiple }) => ({ slug, type, multiple })) };
      }));
      async function* pages(): AsyncGenerator<RecordObject[]> {
        for (const chunk of idPages(started.ids, exportPageSize)) {
          yield await onTable(actor, tableId, async (attempt) => {
            // Fields deleted since the export started read as empty cells.
            const fields = started.whitelist === null ? attempt.table.fields : started.whitelist.flatMap((slug) => attempt.table.fieldsBySlug.get(slug) ?? []);
            await confirmCurrentMetadata(attempt);
            return readRecords(attempt, chunk, fields);
          });
        }
      }
      return { format, formulas, fields: started.fields, total: countIds(started.ids), pages: pages() };
    },

    /**
     * The command line acts as the owner of the table's account, through an unrestricted account
     * key of its own (no key row). It sees every account, so a table it does not find does not
     * exist: `Table 99 not found`, naming the id (the API's `Invalid Table` says nothing to an operator).
     */
    async operatorActor(tableId: number, readOnly: boolean): Promise<Actor> {
      const owner = await records.findTableOwner(db, tableId);
      if (!owner) throw new NotFoundError(`Table ${tableId} not found (no account of this database has a table with that id)`, ErrorCode.tableNotFound);
      return { accountId: owner.accountId, userId: owner.ownerUserId, userEmail: owner.ownerEmail, ownerUserId: owner.ownerUserId, via: 'account_key', keyId: null, keyName: null, readOnly, spaceIds: null };
    },
  };
}

/**
 * records/export reads this many records per statement. A page lives until its text is
 * written; a page of 1,000 outlived V8's young-generation collections (one every few
 * milliseconds) and was promoted whole, so the old generation grew 100-200 MB a second
 * between full collections. A page of 100 dies young (docs/decisions.md, "Export memory").
 */
export const exportPageSize = 100;

/**
 * An export body is a records/ids body plus `format` (csv, the default, or json) and
 * `formulas` (escape, the default, or raw: csv-formulas.ts; a JSON export has no formulas).
 */
function splitExportBody(body: unknown): { format: ExportFormat; formulas: FormulaMode; query: unknown } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { format: 'csv', formulas: 'escape', query: body };
  const { format = 'csv', formulas = 'escape', ...query } = body as Record<string, unknown>;
  if (format !== 'csv' && format !== 'json') throw new ValidationError('Invalid parameters: format must be "csv" or "json"');
  if (!formulaModes.includes(formulas as FormulaMode)) throw new ValidationError('Invalid parameters: formulas must be "escape" or "raw"');
  return { format, formulas: formulas as FormulaMode, query };
}

/**
 * A query through a saved view (`view_id` above 0) on a table the caller cannot see answers as
 * the specification says: 500 `Not Authorized`, where other record calls answer 400 `Invalid Table`.
 */
function throughView<T>(body: unknown, call: () => Promise<T>): Promise<T> {
  const viewId = (body as { view_id?: unknown } | null)?.view_id;
  if (typeof viewId !== 'number' || viewId <= 0) return call();
  return call().catch((error: unknown) => {
    throw error instanceof ValidationError && error.code === ErrorCode.invalidTable ? new ViewNotAuthorizedError() : error;
  });
}

function sqlAnd(left: RawBuilder<boolean>, right: RawBuilder<boolean>): RawBuilder<boolean> {
  return sql<boolean>`(${left} and ${right})`;
}

/** Where a record lives, and the caller as its access was confirmed (fresh after a retry). */
export interface RecordPlace {
  tableId: number;
  recordId: number;
  spaceId: number;
  accountId: number;
  actor: Actor;
}

/** The file field of a record, as the files endpoints get it. */
export interface FileFieldOfRecord {
  field: Field;
  tableId: number;
  spaceId: number;
  accountId: number;
  current: unknown;
}

/** `slug` names a file field of the table: 400 `Invalid field` otherwise. */
function fileFieldOf(table: RecordTable, slug: unknown): Field {
  const field = typeof slug === 'string' ? table.fieldsBySlug.get(slug) : undefined;
  if (!field) throw invalidField(String(slug));
  if (field.type !== 'file') throw new ValidationError(`Invalid field: ${field.slug} is not a file field`, ErrorCode.invalidField);
  return field;
}

/** What an import writes with inside records.service's `importAsOneUnit`: create_batch and upsert_batch bodies, answering counts. */
export interface ImportUnit {
  /** A create_batch body → how many records it created. */
  create(body: unknown): Promise<number>;
  /** An upsert_batch body → how many records it created and how many it updated. */
  upsert(body: unknown): Promise<{ created: number; updated: number }>;
}

export type RecordsService = ReturnType<typeof createRecordsService>;
