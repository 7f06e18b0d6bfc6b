import type { Database } from '../../db/database.js';
import { ConflictError, ErrorCode, ValidationError } from '../../shared/errors.js';
import { invalidParameters } from '../../shared/body-checks.js';
import { isStorableId } from '../../shared/ids.js';
import { fromColumnValue, toColumnValue } from '../fields/column-values.js';
import type { Field } from '../fields/field.js';
import { hooksOf } from '../fields/lifecycle.js';
import { fieldColumnName, recordTableName } from '../fields/physical-names.js';
import type { Attempt } from './record-attempt.js';
import { runCleanups, type Cleanups } from './record-lifecycle.js';
import { presentRecords, type RecordObject } from './record-reader.js';
import { assertCanWriteRecords, buildSearchText, changesNothing, checkDataBody, checkRequiredFields, completeUpdate, newRecordColumns, planUpdate, recordColumnTypes, toColumns, writtenRow } from './record-writer.js';
import * as records from './records.repository.js';
import { recordSearchOf } from './search/index.js';
import type { WriteUnit } from '../changes/write-unit.js';
import type { RecordReads, RowsRead } from './record-reads.js';
import type { ChangeDraft } from '../changes/change.js';
import { assertSameColumns, columnsOf, dataOf, draftsOf, rowWith, scopeOf, untilSettled } from './record-changes.js';
import {
  checkItems,
  checkValues,
  dataOfItems,
  describeMatch,
  forRecord,
  matchFieldsOf,
  ofRecord,
  prepareAll,
  prepareIo,
  recordNotFound,
  recordsOf,
  sameIds,
  settlement,
  type RecordRefusal,
  type Write,
} from './record-batch-steps.js';

/**
 * records/create_batch, update_batch and upsert_batch: up to 1,000 records in one call, all or
 * nothing. Each record goes through the single calls' own steps (record-writer: the body, every
 * value through its type, required fields; record-lifecycle: the types' I/O before the
 * transaction and their work after the commit), and a refusal names the record:
 * `records[17]: Invalid field: foo`. Nothing is written until every record has passed.
 * validate_batch runs create_batch's own checks and answers every refusal, writing nothing.
 */

/** What the batches need of the records service around them. */
export interface BatchDeps {
  database: Database;
  now(): string;
  /** Confirms the metadata the attempt relied on against the version now: just before writing. */
  confirm(attempt: Attempt): Promise<void>;
  /**
   * The rows and data of records just before a write; the records a write leaves, read in its
   * transaction and presented after it, as record get presents them (record-reads.ts).
   */
  reads: Pick<RecordReads, 'readBefore' | 'readRows' | 'presentRows'>;
  /** The one way records are written: rows and their changes in one transaction. */
  unit: Pick<WriteUnit, 'run'>;
  /**
   * Given when the unit runs inside a transaction the caller commits (records.service's import
   * unit): the types' after-commit work is handed to it to run once that commit is done.
   */
  afterCommit?(work: () => Promise<void>): void;
}

export function createRecordBatches(deps: BatchDeps) {
  const { db, dialect } = deps.database;
  const search = recordSearchOf(dialect.name);

  /** The types' work after the commit (settlement), if any: now, or after the caller's own commit. */
  async function afterWrite(work: (() => Promise<void>) | undefined): Promise<void> {
    if (!work) return;
    if (deps.afterCommit) deps.afterCommit(work);
    else await work();
  }

  /** New records with their search text; their ids in order. */
  async function insertAll(executor: Database['db'], attempt: Attempt, writes: readonly Write[], timestamp: string): Promise<number[]> {
    const { table, actor } = attempt;
    const rows = writes.map((write) => newRecordColumns(write.values, table.fields, actor, timestamp, dialect));
    const ids = await records.insertRecordRows(executor, table.id, rows, recordColumnTypes(table, dialect));
    await search.insertText(executor, recordTableName(table.id), ids.map((id, n) => ({ id, text: buildSearchText(writes[n].values) })));
    return ids;
  }

  /** What an update batch read of its records just before writing them: rows and data by id. */
  type Before = Awaited<ReturnType<RecordReads['readBefore']>>;

  /**
   * The stored values of the records `writes` update, read before the transaction, and the
   * changes their updates make (before and after in read form).
   */
  async function describeUpdates(attempt: Attempt, writes: readonly Write[]): Promise<{ before: Before; drafts: ChangeDraft[] }> {
    const written = [...new Set(writes.flatMap((write) => [...write.values.keys()]))];
    const before = await deps.reads.readBefore(db, attempt, writes.map((write) => write.id!), written);
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
    await afterWrite(settlement(attempt, writes, new Map()));
    return created;
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
      const { previous, answer } = await commit(attempt, cleanups, () =>
        untilSettled(async () => {
          const { before, drafts } = await describeUpdates(attempt, writes);
          const timestamp = deps.now();
          return deps.unit.run(scopeOf(attempt), async (trx, changes) => {
            const replaced = await updateAll(trx, attempt, writes, timestamp, before);
            changes.push(...drafts);
            // The answer is what this write leaves (record-reads, readRows), not a later writer's.
            return { previous: replaced, answer: await deps.reads.readRows(trx, attempt, ids) };
          });
        }),
      );
      await afterWrite(settlement(attempt, writes, previous));
      return deps.reads.presentRows(attempt, answer, ids);
    },

    /**
     * `{match_on: [slug, …], records: [{data}, …]}`: each record updates the one existing record
     * whose `match_on` values equal its own, or is created when none does → the records, in order.
     */
    async upsertBatch(attempt: Attempt, body: unknown): Promise<RecordObject[]> {
      const { ids, answer } = await batches.upsert(attempt, body, true);
      return deps.reads.presentRows(attempt, answer!, ids);
    },

    /**
     * upsert_batch's write → the records' ids in order, how many of them were created, and with
     * `answering` the records as it leaves them (read in its transaction, to present).
     */
    async upsert(attempt: Attempt, body: unknown, answering = false): Promise<{ ids: number[]; created: number; answer?: RowsRead }> {
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
      const { previous, answer } = await commit(attempt, cleanups, () =>
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
            return { previous: replaced, answer: answering ? await deps.reads.readRows(trx, attempt, writes.map((write) => write.id!)) : undefined };
          });
        }),
      );
      await afterWrite(settlement(attempt, writes, previous));
      return { ids: writes.map((write) => write.id!), created: creating.length, answer };
    },
  };
  return batches;
}

export type RecordBatches = ReturnType<typeof createRecordBatches>;
