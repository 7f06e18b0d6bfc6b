import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import { readMetadataVersion } from '../../db/metadata-cache.js';
import { ErrorCode, ValidationError, ViewNotAuthorizedError, ViewQueryNotFoundError } from '../../shared/errors.js';
import { queryCallerOf, type Actor } from '../auth/actor.js';
import { recordTableName } from '../fields/physical-names.js';
import { compileConditions, compileOrder, compileSearch, compileSearchText, sortIndexOf, type CompileReads } from './query/compile-query.js';
import type { Field } from '../fields/field.js';
import { parseQueryBody, type ParsedQuery, type QueryMode } from './query/parse-query.js';
import { parseFilterList } from './query/parse-conditions.js';
import { isCheapPerRow, shapeOfQuery, type QueryShape, type QueryShapeObserver } from './query/query-shape.js';
import type { SavedViewQuery, SavedViewReader } from './query/saved-view.js';
import type { Attempt } from './record-attempt.js';
import type { AttemptRunner } from './record-attempts.js';
import { selectFields, type RecordObject } from './record-reader.js';
import { invalidField, type RecordReads } from './record-reads.js';
import { createFreshRuns, createSharedRuns, nextTurn, turnAfterNext } from '../../shared/fresh-runs.js';
import { createCountCache, isCurrentCount } from './count-cache.js';
import { readChangeWindow, readMatchingIds } from './count-window.repository.js';
import type { WriteUnit } from '../changes/write-unit.js';
import { assertResponseFits } from './response-size.js';
import * as records from './records.repository.js';
import * as recordQueries from './record-query.repository.js';
import { countIds, idPages, type ExportFormat, type RecordExport } from './record-export.js';
import { formulaModes, type FormulaMode } from './csv-formulas.js';

/** A filtered count as countRecords compiled it: `key` names the count in the cache. */
interface CountQuery {
  tableId: number;
  key: string;
  where: RawBuilder<boolean>;
  /** What is counted: the record table, or the search table for a search alone. */
  counted: { table: string; where: RawBuilder<boolean> | null };
  shape: QueryShape | null;
  bounds: recordQueries.QueryBounds;
}

/** A query's conditions and order, compiled (compileQuery): shared by the requests that ask the same. */
interface CompiledQuery {
  where: RawBuilder<boolean> | null;
  counted: CountQuery['counted'];
  orderBy: RawBuilder<unknown>[];
  sortIndex: string | null;
  shape: QueryShape | null;
  cheapPerRow: boolean;
}

/**
 * Compiled queries kept in a process, of every table together, and the longest query key kept
 * (a few dozen conditions): a few MB at the most, however many tables and queries callers try.
 */
const maxKeptQueries = 256;
const maxKeptQueryKey = 4096;

/** Record queries: query, count, ids and export, and the check of a saved view's query. */
export function createRecordQueries(deps: {
  database: Database;
  runner: AttemptRunner;
  reads: RecordReads;
  views: SavedViewReader;
  maxResponseSize: number;
  /** Told each query's shape: the automatic indexes. */
  queryShapes?: QueryShapeObserver;
  /** PostgreSQL: queued changes go into the log before a cached count reads what changed since it. */
  unit?: Pick<WriteUnit, 'settleQueued'>;
}) {
  const { db, dialect } = deps.database;
  const { onTable, confirmCurrentMetadata } = deps.runner;
  const { selectionOf, present, readRecords } = deps.reads;
  const countCache = createCountCache();
  // A cached count's one statement, shared by the counts of a table asked at the same moment
  // (each still sees every write acknowledged before it asked: fresh-runs.ts). It begins on a
  // later turn, so that the counts whose requests arrived together share it. Under load it is
  // most of a cached count's cost on PostgreSQL, a round trip each: there it waits for the turn
  // after the next, as gathered reads do (db/turn-gathering.ts; against one turn, +22 % counts a
  // second, session 39). On SQLite it is a statement in the turn's read transaction
  // (db/sqlite-turn-reads.ts), and a second turn measured no clear difference: one is kept.
  const readCounters = createFreshRuns((tableId: number) => records.readCounters(db, tableId), { beginAfter: dialect.gathersReadsByTurn ? turnAfterNext : nextTurn });
  const countsByKey = createSharedRuns<string, { count: number; rows: number }>();
  // Compiled queries by table and query (its conditions, search and order: compileQuery), each
  // with the table's fields list it was compiled for: a field change replaces the list, and the
  // entry is compiled anew.
  const compiledQueries = new Map<string, { fields: readonly Field[]; compiled: CompiledQuery }>();
  const conditionKeys = new WeakMap<RawBuilder<boolean>, string>();
  const maxResponseSize = deps.maxResponseSize;

  /** A record query runs in its caller's share of the query slots, within the time budget. */
  function boundsOf(actor: Actor, cheapPerRow: boolean): recordQueries.QueryBounds {
    return { caller: queryCallerOf(actor), dialect, cheapPerRow };
  }

  /**
   * The query's conditions and order. Through a saved view (`view_id` other than 0), the
   * view's filters and sort replace the request's `where`, `filters`, `order_by` and
   * `order_dir`; `append_filters` adds the request's conditions on top; `search`, `fields`,
   * `limit` and `offset` apply as always. A view the table does not have: 500 `View not found`.
   *
   * A query is compiled once per table fields (compiledQueries) when its compile consulted
   * nothing but its conditions and the fields: a dashboard asking the same count again and
   * again skips compiling it, about 8 % of a cached count's CPU on PostgreSQL.
   */
  async function compileQuery(attempt: Attempt, query: ParsedQuery): Promise<CompiledQuery> {
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
    const orderBy = view ? view.orderBy : query.orderBy;
    const orderDir = view ? view.orderDir : query.orderDir;
    const unconditioned = conditions.every((groups) => groups.length === 0);
    // A page of search results alone, in id order, needs only its first limit + offset matches.
    const searchOnly = unconditioned && query.limit !== null && (orderBy === null || (orderBy === 'id' && orderDir === 'asc'));
    const firstMatches = searchOnly ? query.limit! + query.offset! : undefined;
    // A view's filters and order are in the key as they are now: an edit of the view is another query.
    const key = `${table.id}:${JSON.stringify([conditions, query.search, orderBy, orderDir, query.search === null ? null : (firstMatches ?? null)])}`;
    const kept = compiledQueries.get(key);
    if (kept?.fields === table.fields) return kept.compiled;
    const reads: CompileReads = { environment: false };
    const parts = [];
    for (const groups of conditions) parts.push(await compileConditions(groups, table.fieldsBySlug, contexts.filter, reads));
    const search = compileSearch(query.search, recordTableName(table.id), dialect, firstMatches);
    const where = [...parts, search].filter((part) => part !== null).reduce<RawBuilder<boolean> | null>((all, part) => (all ? sqlAnd(all, part) : part), null);
    // A count whose only condition is the search counts the search table's rows, without
    // looking each match up in the record table (RecordSearch.textCondition).
    const searchAlone = unconditioned ? compileSearchText(query.search, recordTableName(table.id), dialect) : null;
    const compiled: CompiledQuery = {
      where,
      counted: searchAlone ?? { table: recordTableName(table.id), where },
      orderBy: compileOrder(orderBy, orderDir, table.fieldsBySlug, dialect),
      sortIndex: sortIndexOf(orderBy, table.fieldsBySlug, dialect),
      shape: shapeOfQuery(conditions, orderBy, orderDir, table.fieldsBySlug),
      cheapPerRow: search === null && isCheapPerRow(conditions, orderBy, table.fieldsBySlug),
    };
    if (!reads.environment && key.length <= maxKeptQueryKey) keepCompiled(key, table.fields, compiled);
    return compiled;
  }

  /** Keeps a compiled query, the first kept going first past the limit. */
  function keepCompiled(key: string, fields: readonly Field[], compiled: CompiledQuery): void {
    compiledQueries.delete(key);
    if (compiledQueries.size >= maxKeptQueries) compiledQueries.delete(compiledQueries.keys().next().value!);
    compiledQueries.set(key, { fields, compiled });
  }

  /** A condition's compiled SQL and parameters, as a count's cache key: compiled once per kept query. */
  function conditionKeyOf(where: RawBuilder<boolean>): string {
    let key = conditionKeys.get(where);
    if (key === undefined) {
      const compiled = where.compile(db);
      conditionKeys.set(where, (key = `${compiled.sql}:${JSON.stringify(compiled.parameters)}`));
    }
    return key;
  }

  /** A query that ran tells the automatic indexes its shape (after it answered, never in its way). */
  function observe(tableId: number, shape: QueryShape | null): void {
    if (shape) deps.queryShapes?.observe(tableId, shape);
  }

  /**
   * A filtered count the cache could not answer as it was: read with the table's counters as
   * they are now (another caller's reading may have filled the cache meanwhile), then only the
   * records the log names since the cached count, the records created since, or the whole
   * filter afresh.
   */
  async function countThroughCache(query: CountQuery): Promise<{ count: number; rows: number }> {
    const { tableId, key, where, counted: source, shape, bounds } = query;
    const counters = await readCounters(tableId);
    const cached = countCache.get(key, counters);
    let count = isCurrentCount(cached) ? cached.count : undefined;
    const follows = source.table === recordTableName(tableId);
    // PostgreSQL: queued changes into the log first, so that the log accounts for every write (count-cache.ts).
    if (count === undefined && follows) await deps.unit?.settleQueued();
    let windowFailed = false;
    if (cached?.window !== undefined) {
      // Only the records the log names since the cached count are read again.
      count = countCache.advance(key, cached.window, await readChangeWindow(db, tableId, where, cached.window, bounds));
      windowFailed = count === undefined;
    }
    // Reading every matching id costs more than counting them: after a window the log could
    // not account for (writes outside the API), a plain count first, the ids the time after.
    if (count === undefined && follows && cached?.since === undefined && !windowFailed) {
      // The matching ids, so that later counts follow the table's writes without counting again.
      const matching = await readMatchingIds(db, tableId, where, bounds);
      count = countCache.follow(key, matching.position, matching.ids);
      if (cached === undefined) observe(tableId, shape);
    } else if (count === undefined) {
      // Only the records created since the cached count, or the whole filter afresh.
      const counted = await recordQueries.countRecords(db, tableId, source, bounds, cached?.since);
      count = (cached?.since === undefined ? 0 : cached.count) + counted.count;
      countCache.set(key, counters, count, counted.maxId);
      if (cached === undefined) observe(tableId, shape);
    }
    return { count, rows: counters.rows };
  }

  async function parse(attempt: Attempt, body: unknown, mode: QueryMode) {
    const query = parseQueryBody(body, mode);
    return { query, ...(await compileQuery(attempt, query)) };
  }

  return {
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

    queryRecords(actor: Actor, tableId: number, body: unknown): Promise<RecordObject[]> {
      return throughView(body, () => onTable(actor, tableId, async (attempt) => {
        const { query, where, orderBy, sortIndex, shape, cheapPerRow } = await parse(attempt, body, 'query');
        const fields = selectFields(attempt.table, query.fields, invalidField);
        const selection = await selectionOf(attempt, fields);
        const rows = await recordQueries.selectRecordRows(db, tableId, { bounds: boundsOf(attempt.actor, cheapPerRow), selection, where, orderBy, sortIndex, limit: query.limit!, offset: query.offset! });
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
        const { where, counted, shape, cheapPerRow } = await parse(attempt, body, 'count');
        const counters = await readCounters(tableId);
        attempt.reads.confirm(counters.metadataVersion);
        if (!where) return { count: counters.rows, total: counters.rows, total_approx: false, restricted: false };
        const key = `${tableId}:${attempt.table.schemaVersion}:${conditionKeyOf(where)}`;
        const cached = countCache.get(key, counters);
        if (isCurrentCount(cached)) return { count: cached.count, total: counters.rows, total_approx: false, restricted: true };
        // The same count asked by one caller many times at once (a dashboard's viewers after a
        // write) is read once, not once each. Per caller: a reading runs in its caller's share
        // of the query slots, and another caller never waits behind that share.
        const query: CountQuery = { tableId, key, where, counted, shape, bounds: boundsOf(attempt.actor, cheapPerRow) };
        const { count, rows } = await countsByKey(`${query.bounds.caller.key} ${key}`, () => countThroughCache(query));
        return { count, total: rows, total_approx: false, restricted: true };
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
        const { ids, version } = await recordQueries.readRecordIdList(db, tableId, where, orderBy, boundsOf(attempt.actor, cheapPerRow));
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
        const { ids, version } = await recordQueries.readRecordIdList(db, tableId, where, orderBy, boundsOf(attempt.actor, cheapPerRow));
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

