import type { Database } from '../../db/database.js';
import { insertStatementSizes } from '../../db/prepared-query.js';
import { checkObjectBody, invalidParameters } from '../../shared/body-checks.js';
import { AppError, ConflictError, ErrorCode, ValidationError } from '../../shared/errors.js';
import { isStorableId } from '../../shared/ids.js';
import { fromColumnValue, toColumnValue } from '../fields/column-values.js';
import type { Field } from '../fields/field.js';
import { hooksOf } from '../fields/lifecycle.js';
import { fieldColumnName, recordTableName } from '../fields/physical-names.js';
import { fieldTypeNames, getFieldType } from '../fields/registry.js';
import type { Attempt } from './record-attempt.js';
import { afterCommit, prepareValuesIo, runCleanups, type Cleanups } from './record-lifecycle.js';
import { presentRecords, type RecordObject } from './record-reader.js';
import {
  assertCanWriteRecords,
  buildSearchText,
  changesNothing,
  checkDataBody,
  checkRequiredFields,
  completeUpdate,
  newRecordColumns,
  planUpdate,
  prefetchReferences,
  prepareValues,
  toColumns,
  writtenRow,
} from './record-writer.js';
import * as records from './records.repository.js';
import { recordSearchOf } from './search/index.js';
import type { WriteUnit } from '../changes/write-unit.js';
import type { ChangeDraft } from '../changes/change.js';
import { assertSameColumns, columnsOf, dataOf, draftsOf, readBefore, rowWith, scopeOf, untilSettled } from './record-changes.js';

/**
 * records/create_batch, update_batch and upsert_batch: up to 1,000 records in one call, all or
 * nothing. Each record goes through the single calls' own steps (record-writer: the body, every
 * value through its type, required fields; record-lifecycle: the types' I/O before the
 * transaction and their work after the commit), and a refusal names the record:
 * `records[17]: Invalid field: foo`. Nothing is written until every record has passed.
 * validate_batch runs create_batch's own checks and answers every refusal, writing nothing.
 */

export const maxBatchRecords = 1000;

/** What the batches need of the records service around them. */
export interface BatchDeps {
  database: Database;
  now(): string;
  /** Confirms the metadata the attempt relied on against the version now: just before writing. */
  confirm(attempt: Attempt): Promise<void>;
  /** Records by id, presented as record get presents them, in the order of `ids`. */
  readRecords(attempt: Attempt, ids: readonly number[]): Promise<RecordObject[]>;
  /** The one way records are written: rows and their changes in one transaction. */
  unit: Pick<WriteUnit, 'run'>;
  /**
   * Given when the unit runs inside a transaction the caller commits (records.service's import
   * unit): the types' after-commit work is handed to it to run once that commit is done.
   */
  afterCommit?(work: () => Promise<void>): void;
}

/** One record of a batch on its way to the database: its index in `records` and its stored values. */
interface Write {
  index: number;
  values: Map<Field, unknown>;
  /** The record it updates; undefined for a new one. */
  id?: number;
}

/** A refusal of one record (4xx, or a storage failure), its message naming the record. */
function ofRecord(index: number, error: unknown): unknown {
  // The error was made for this record's step alone: naming the record changes nothing else.
  if (error instanceof AppError) error.message = `records[${index}]: ${error.message}`;
  return error;
}

/** Runs one record's step: a refusal names the record. */
async function forRecord<T>(index: number, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw ofRecord(index, error);
  }
}

/** A record the checks before any write refused: its index in `records` and the error, not yet naming the record. */
export interface RecordRefusal {
  index: number;
  error: AppError;
}

/**
 * What the checks of a batch found, record by record: each record's result (undefined for one
 * refused) and the refusals in the order they were met. A batch that writes throws the first
 * (`throwFirst`); validate_batch answers them all.
 */
interface Checked<T> {
  results: (T | undefined)[];
  refusals: RecordRefusal[];
}

/**
 * Runs `check` on each input, going on past a refused one: a 4xx is that record's refusal;
 * anything else (a storage failure) fails the whole call at once, naming the record, as before.
 * Inputs at the offsets in `skip` (refused by an earlier step) are not checked. A plain loop with its
 * own try: this is the hot part of a batch, and a closure and a promise per record would cost a turn each.
 */
async function checkEach<I, T>(inputs: readonly I[], firstIndex: number, check: (input: I) => T | Promise<T>, skip?: ReadonlySet<number>): Promise<Checked<T>> {
  const results: (T | undefined)[] = [];
  const refusals: RecordRefusal[] = [];
  for (const [offset, input] of inputs.entries()) {
    if (skip?.has(offset)) {
      results.push(undefined);
      continue;
    }
    try {
      const result = check(input);
      results.push(result instanceof Promise ? await result : result);
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw ofRecord(firstIndex + offset, error);
      results.push(undefined);
      refusals.push({ index: firstIndex + offset, error });
    }
  }
  return { results, refusals };
}

/** The checked results of a batch that writes: the first refusal, naming its record, stops it. */
function throwFirst<T>(checked: Checked<T>): T[] {
  const [first] = checked.refusals;
  if (first) throw ofRecord(first.index, first.error);
  return checked.results as T[];
}

/** `records` of a batch body: an array of at most 1,000 items (an empty one does nothing). */
function recordsOf(body: unknown, allowed: readonly string[]): { members: Record<string, unknown>; items: unknown[] } {
  const members = checkObjectBody(body, allowed);
  const items = members.records;
  if (items === undefined) throw invalidParameters('records is required');
  if (!Array.isArray(items)) throw invalidParameters('records must be an array');
  if (items.length > maxBatchRecords) throw invalidParameters(`records takes at most ${maxBatchRecords} records, got ${items.length}`);
  return { members, items };
}

/** The `data` of every item `{data}`, checked as records/create checks its body. */
function checkItems(items: readonly unknown[]): Promise<Checked<unknown>> {
  return checkEach(items, 0, (item) => checkDataBody(item, false, ['data'], 'record'));
}

/** Every value through its type and the required checks (`creating`: all required fields), references looked up in one batch. */
async function checkValues(attempt: Attempt, datas: readonly unknown[], creating: boolean, firstIndex = 0, skip?: ReadonlySet<number>): Promise<Checked<Map<Field, unknown>>> {
  const { table, contexts } = attempt;
  const { prefetch } = hooksOf(table.fields);
  if (prefetch.length > 0) await prefetchReferences(datas, prefetch, contexts.write);
  return checkEach(datas, firstIndex, (data) => prepareValues(data, table, contexts.write, creating), skip);
}

const dataOfItems = async (items: readonly unknown[]): Promise<unknown[]> => throwFirst(await checkItems(items));
const prepareAll = async (attempt: Attempt, datas: readonly unknown[], creating: boolean, firstIndex = 0): Promise<Map<Field, unknown>[]> =>
  throwFirst(await checkValues(attempt, datas, creating, firstIndex));

/**
 * The types' I/O of every record (file fields store what they bring), once all of them passed
 * validation; an update's own attachments are kept. Undone on the first failure.
 */
async function prepareIo(attempt: Attempt, writes: readonly Write[]): Promise<Cleanups> {
  const { prepare } = hooksOf(attempt.table.fields);
  const cleanups: Cleanups = [];
  if (prepare.length === 0) return cleanups;
  const { contexts } = attempt;
  try {
    for (const write of writes) {
      contexts.recordId = write.id;
      cleanups.push(...(await forRecord(write.index, () => prepareValuesIo(write.values, prepare, contexts.write))));
    }
  } catch (error) {
    await runCleanups(cleanups);
    throw error;
  } finally {
    contexts.recordId = undefined;
  }
  return cleanups;
}

/**
 * After the commit: the types' work (file fields settle what they stored and release what was
 * replaced). `previous` holds what each update replaced, by record index; a new record has none.
 */
async function settle(attempt: Attempt, writes: readonly Write[], previous: ReadonlyMap<number, Map<Field, unknown>>): Promise<void> {
  const fields = hooksOf(attempt.table.fields).afterCommit;
  if (fields.length === 0) return;
  for (const write of writes) await afterCommit(write.values, fields, attempt.contexts.write, previous.get(write.index));
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, index) => id === b[index]);
}

export function createRecordBatches(deps: BatchDeps) {
  const { db, dialect } = deps.database;
  const search = recordSearchOf(dialect.name);

  /** The types' work after the commit: now, or after the caller's own commit. */
  async function afterWrite(work: () => Promise<void>): Promise<void> {
    if (deps.afterCommit) deps.afterCommit(work);
    else await work();
  }

  /** Columns of a new record: the table's fields and four system columns. */
  const columnCountOf = (attempt: Attempt) => attempt.table.fields.length + 4;

  /** New records in multi-row statements (insertStatementSizes); their ids in order. */
  async function insertAll(executor: Database['db'], attempt: Attempt, writes: readonly Write[], timestamp: string): Promise<number[]> {
    const { table, actor } = attempt;
    const rows = writes.map((write) => newRecordColumns(write.values, table.fields, actor, timestamp, dialect));
    const ids: number[] = [];
    let start = 0;
    for (const size of insertStatementSizes(rows.length, columnCountOf(attempt))) {
      ids.push(...(await records.insertRecordRows(executor, table.id, rows.slice(start, start + size))));
      start += size;
    }
    await search.writeText(executor, recordTableName(table.id), ids.map((id, n) => ({ id, text: buildSearchText(writes[n].values) })));
    return ids;
  }

  /** What an update batch read of its records just before writing them: rows and data by id. */
  type Before = Awaited<ReturnType<typeof readBefore>>;

  /**
   * The stored values of the records `writes` update, read before the transaction, and the
   * changes their updates make (before and after in read form).
   */
  async function describeUpdates(attempt: Attempt, writes: readonly Write[]): Promise<{ before: Before; drafts: ChangeDraft[] }> {
    const written = [...new Set(writes.flatMap((write) => [...write.values.keys()]))];
    const before = await readBefore(db, attempt, writes.map((write) => write.id!), written);
    const stored = writes.flatMap((write) => before.get(write.id!) ?? []);
    const after = await dataOf(attempt, writes.flatMap((write) => { const row = before.get(write.id!)?.row; return row ? [rowWith(row, write.values)] : []; }), written);
    return { before, drafts: draftsOf('record.updated', stored.map((entry, n) => [Number(entry.row.id), entry.data, after[n]])) };
  }

  /**
   * Updates in the caller's transaction, as record/update makes them: the stored values an
   * update needs (search text, replaced attachments) and those it writes read for all of them in
   * one statement (locked on PostgreSQL), the written ones checked against `before`. Answers the
   * values each replaced, by record index.
   */
  async function updateAll(executor: Database['db'], attempt: Attempt, writes: readonly Write[], timestamp: string, before: Before): Promise<Map<number, Map<Field, unknown>>> {
    const { table } = attempt;
    const hooks = hooksOf(table.fields);
    const plans = writes.map((write) => planUpdate(table, write.values, hooks));
    const reads = [...new Set([...plans.flatMap((plan) => plan.reads), ...writes.flatMap((write) => [...write.values.keys()])])];
    const ids = writes.map((write) => write.id!);
    const stored = new Map((await records.findRecordRows(executor, table.id, ids, reads.map((f) => fieldColumnName(f.id)), dialect.rowLocks)).map((row) => [Number(row.id), row]));
    const previous = new Map<number, Map<Field, unknown>>();
    for (const [n, write] of writes.entries()) {
      await forRecord(write.index, async () => {
        const columns: Record<string, unknown> = { ...toColumns(write.values, dialect), updated_at: timestamp };
        const replaced = new Map<Field, unknown>();
        const row = stored.get(write.id!);
        if (!row) throw recordNotFound();
        assertSameColumns(before.get(write.id!)?.row, row, columnsOf(write.values.keys()));
        const text = plans[n].reads.length > 0 ? completeUpdate(plans[n], row, write.values, replaced) : undefined;
        previous.set(write.index, replaced);
        if (changesNothing(row, write.values)) return;
        if (!(await records.updateRecord(executor, table.id, write.id!, columns))) throw recordNotFound();
        if (text !== undefined) await search.writeText(executor, recordTableName(table.id), [{ id: write.id!, text }]);
      });
    }
    return previous;
  }

  /** Runs `write` after confirming the metadata; the types' I/O is undone if it fails. */
  async function commit<T>(attempt: Attempt, cleanups: Cleanups, write: () => Promise<T>): Promise<T> {
    try {
      await deps.confirm(attempt);
      return await write();
    } catch (error) {
      await runCleanups(cleanups);
      throw error;
    }
  }

  /**
   * New records from their `data` (already out of their items), inserted together with their
   * changes: the one bulk insert path, of create_batch and of CSV import. `firstIndex` numbers
   * them in messages. Answers the records created, presented (before the transaction: they are
   * exactly what is written).
   */
  async function insertNew(attempt: Attempt, datas: readonly unknown[], firstIndex = 0): Promise<RecordObject[]> {
    const { table, contexts } = attempt;
    const values = await prepareAll(attempt, datas, true, firstIndex);
    const writes: Write[] = values.map((v, offset) => ({ index: firstIndex + offset, values: v }));
    const cleanups = await prepareIo(attempt, writes);
    const timestamp = deps.now();
    const created = await presentRecords(values.map((v) => writtenRow(0, timestamp, v, table)), table, table.fields, contexts.read);
    await commit(attempt, cleanups, () =>
      deps.unit.run(scopeOf(attempt), async (trx, changes) => {
        const ids = await insertAll(trx, attempt, writes, timestamp);
        for (const [n, id] of ids.entries()) created[n].id = id;
        changes.push(...draftsOf('record.created', created.map((record) => [record.id, null, record.data])));
      }),
    );
    await afterWrite(() => settle(attempt, writes, new Map()));
    return created;
  }

  /** The `match_on` fields of an upsert: known, writable by value, and single-valued. */
  function matchFieldsOf(raw: unknown, attempt: Attempt): Field[] {
    if (raw === undefined) throw invalidParameters('match_on is required');
    if (!Array.isArray(raw) || raw.length === 0 || raw.some((slug) => typeof slug !== 'string')) throw invalidParameters('match_on must be a non-empty array of field ids');
    if (new Set(raw).size !== raw.length) throw invalidParameters('match_on names a field twice');
    return (raw as string[]).map((slug) => {
      const field = attempt.table.fieldsBySlug.get(slug);
      if (!field) throw new ValidationError(`Invalid field: ${slug}`, ErrorCode.invalidField);
      if (field.multiple) throw invalidParameters(`match_on: ${slug} holds several values; records are matched on single-valued fields only`);
      if (!getFieldType(field.type).matchable) throw invalidParameters(`match_on: ${slug} is a ${field.type} field; records are matched on fields of type ${matchableTypes.join(', ')}`);
      return field;
    });
  }

  /** The existing records of each match key (the JSON text of the stored match values). */
  async function findMatches(executor: Database['db'], attempt: Attempt, fields: readonly Field[], tuples: readonly (readonly unknown[])[]): Promise<Map<string, number[]>> {
    const columns = fields.map((f) => fieldColumnName(f.id));
    const parameters = tuples.map((tuple) => tuple.map((value, index) => toColumnValue(fields[index], value, dialect)));
    const matches = new Map<string, number[]>();
    for (const row of await records.findRecordsMatching(executor, attempt.table.id, columns, parameters)) {
      const key = JSON.stringify(fields.map((f, index) => fromColumnValue(f, row[columns[index]])));
      matches.set(key, [...(matches.get(key) ?? []), row.id].sort((a, b) => a - b));
    }
    return matches;
  }

  const batches = {
    insertNew,

    /** `{records: [{data}, …]}` → the created records, in order, as records/create answers each. */
    async createBatch(attempt: Attempt, body: unknown): Promise<RecordObject[]> {
      assertCanWriteRecords(attempt.actor, attempt.table);
      const { items } = recordsOf(body, ['records']);
      return insertNew(attempt, await dataOfItems(items));
    },

    /**
     * validate_batch: create_batch's checks of `{records: [{data}, …]}` (the body, each item, every
     * value through its type, required fields, lookups' targets), every record checked → each
     * refusal with its record's index, in order (none: create_batch would create them all).
     * Writes nothing and runs no type's `prepare`: file fields' sources are fetched and stored
     * only by the write (docs/decisions.md, "validate_batch; the console's CSV import checks, then writes").
     */
    async validateCreateBatch(attempt: Attempt, body: unknown): Promise<RecordRefusal[]> {
      assertCanWriteRecords(attempt.actor, attempt.table);
      const { items } = recordsOf(body, ['records']);
      const checked = await checkItems(items);
      const refused = new Set(checked.refusals.map((refusal) => refusal.index));
      const values = await checkValues(attempt, checked.results, true, 0, refused);
      // As a write confirms before writing: stale metadata runs the whole check again (record-attempts).
      await deps.confirm(attempt);
      return [...checked.refusals, ...values.refusals].sort((a, b) => a.index - b.index);
    },

    /** create_batch's write for an import: `{records: [{data}, …]}` → how many records it created. */
    async create(attempt: Attempt, body: unknown): Promise<number> {
      return (await batches.createBatch(attempt, body)).length;
    },

    /** `{records: [{id, data}, …]}`: each record changes as record/update changes it → the updated records, in order. */
    async updateBatch(attempt: Attempt, body: unknown): Promise<RecordObject[]> {
      const { table } = attempt;
      assertCanWriteRecords(attempt.actor, table);
      const { items } = recordsOf(body, ['records']);
      const ids: number[] = [];
      const datas: unknown[] = [];
      const firstIndexOf = new Map<number, number>();
      for (const [index, item] of items.entries()) {
        await forRecord(index, () => {
          datas.push(checkDataBody(item, true, ['id', 'data'], 'record'));
          const id = (item as { id?: unknown }).id;
          if (id === undefined) throw invalidParameters('id is required');
          if (!Number.isInteger(id)) throw invalidParameters('id must be a record id');
          ids.push(id as number);
        });
        const earlier = firstIndexOf.get(ids[index]);
        if (earlier !== undefined) throw invalidParameters(`records[${earlier}] and records[${index}] both update record ${ids[index]}; send one update per record`);
        firstIndexOf.set(ids[index], index);
      }
      const values = await prepareAll(attempt, datas, false);
      // Before any I/O: a batch naming a record that does not exist stores nothing.
      // An id no record can have (shared/ids.ts) is simply not found.
      const existing = await records.findExistingIds(db, table.id, ids.filter(isStorableId));
      const missing = ids.findIndex((id) => !existing.has(id));
      if (missing !== -1) throw ofRecord(missing, recordNotFound());
      const writes: Write[] = values.map((v, index) => ({ index, values: v, id: ids[index] }));
      const cleanups = await prepareIo(attempt, writes);
      const previous = await commit(attempt, cleanups, () =>
        untilSettled(async () => {
          const { before, drafts } = await describeUpdates(attempt, writes);
          const timestamp = deps.now();
          return deps.unit.run(scopeOf(attempt), async (trx, changes) => {
            const replaced = await updateAll(trx, attempt, writes, timestamp, before);
            changes.push(...drafts);
            return replaced;
          });
        }),
      );
      await afterWrite(() => settle(attempt, writes, previous));
      return deps.readRecords(attempt, ids);
    },

    /**
     * `{match_on: [slug, …], records: [{data}, …]}`: each record updates the one existing record
     * whose `match_on` values equal its own, or is created when none does → the records, in order.
     */
    async upsertBatch(attempt: Attempt, body: unknown): Promise<RecordObject[]> {
      return deps.readRecords(attempt, (await batches.upsert(attempt, body)).ids);
    },

    /** upsert_batch's write → the records' ids in order, and how many of them were created. */
    async upsert(attempt: Attempt, body: unknown): Promise<{ ids: number[]; created: number }> {
      const { table } = attempt;
      assertCanWriteRecords(attempt.actor, table);
      const { members, items } = recordsOf(body, ['match_on', 'records']);
      const fields = matchFieldsOf(members.match_on, attempt);
      const datas = await dataOfItems(items);
      // Checked as updates first (the values given); those that match nothing as creations below.
      const values = await prepareAll(attempt, datas, false);
      const keys: string[] = [];
      const tuples: unknown[][] = [];
      const firstIndexOf = new Map<string, number>();
      for (const [index, stored] of values.entries()) {
        const tuple = await forRecord(index, () =>
          fields.map((field) => {
            if (!stored.has(field)) throw invalidParameters(`match_on field ${field.slug} is missing from data`);
            const value = stored.get(field);
            if (value === null || value === undefined) throw invalidParameters(`match_on field ${field.slug} is empty`);
            return value;
          }),
        );
        const key = JSON.stringify(tuple);
        const earlier = firstIndexOf.get(key);
        if (earlier !== undefined) throw invalidParameters(`records[${earlier}] and records[${index}] have the same match_on values ${describeMatch(fields, tuple)}`);
        firstIndexOf.set(key, index);
        keys.push(key);
        tuples.push(tuple);
      }
      const found = await findMatches(db, attempt, fields, tuples);
      const writes: Write[] = [];
      for (const [index, key] of keys.entries()) {
        const matched = found.get(key) ?? [];
        if (matched.length > 1) {
          throw ofRecord(index, new ValidationError(`match_on values ${describeMatch(fields, tuples[index])} match ${matched.length} records (${matched.join(', ')})`, ErrorCode.ambiguousMatch));
        }
        if (matched.length === 0) await forRecord(index, () => checkRequiredFields(values[index], table, true));
        writes.push({ index, values: values[index], id: matched[0] });
      }
      const cleanups = await prepareIo(attempt, writes);
      const creating = writes.filter((write) => write.id === undefined);
      const updating = writes.filter((write) => write.id !== undefined);
      const previous = await commit(attempt, cleanups, () =>
        untilSettled(async () => {
          const { before, drafts } = await describeUpdates(attempt, updating);
          const timestamp = deps.now();
          const created = await presentRecords(creating.map((write) => writtenRow(0, timestamp, write.values, table)), table, table.fields, attempt.contexts.read);
          return deps.unit.run(scopeOf(attempt), async (trx, changes) => {
          // One upsert of a table at a time (PostgreSQL; SQLite has one writer): the matches found
          // above must still hold, else another write got in between and this one is refused.
          if (dialect.rowLocks) await records.lockTableRow(trx, table.id);
          const now = await findMatches(trx, attempt, fields, tuples);
          if (keys.some((key) => !sameIds(now.get(key) ?? [], found.get(key) ?? []))) {
            throw new ConflictError('Records matching match_on changed while upsert_batch ran: nothing was written, send it again');
          }
          const ids = await insertAll(trx, attempt, creating, timestamp);
          for (const [n, write] of creating.entries()) write.id = ids[n];
          const replaced = await updateAll(trx, attempt, updating, timestamp, before);
          changes.push(...draftsOf('record.created', creating.map((write, n) => [write.id!, null, created[n].data])), ...drafts);
          return replaced;
        });
        }),
      );
      await afterWrite(() => settle(attempt, writes, previous));
      return { ids: writes.map((write) => write.id!), created: creating.length };
    },
  };
  return batches;
}

const recordNotFound = () => new ValidationError('Record not found', ErrorCode.recordNotFound);

/** The types whose fields `match_on` takes (single-valued ones), as a refusal lists them. */
const matchableTypes = fieldTypeNames.filter((name) => getFieldType(name).matchable);

/** `{"email":"ada@example.com"}`: the match values as stored (an email trimmed), for messages. */
function describeMatch(fields: readonly Field[], tuple: readonly unknown[]): string {
  return JSON.stringify(Object.fromEntries(fields.map((field, index) => [field.slug, tuple[index]])));
}

export type RecordBatches = ReturnType<typeof createRecordBatches>;
