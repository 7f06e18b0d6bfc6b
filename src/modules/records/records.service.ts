import type { Database } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { formatDateTime } from '../../shared/clock.js';
import type { MetadataCache } from '../../db/metadata-cache.js';
import { ErrorCode, NotFoundError, ValidationError } from '../../shared/errors.js';
import { readMetadataVersion } from '../../db/metadata-cache.js';
import { RecordContexts } from './record-context.js';
import type { Attempt } from './record-attempt.js';
import type { Actor } from '../auth/actor.js';
import type { Field } from '../fields/field.js';
import { fieldColumnName } from '../fields/physical-names.js';
import { fromColumnValue } from '../fields/column-values.js';
import type { FileLedger } from '../fields/value-context.js';
import type { WriteUnit } from '../changes/write-unit.js';
import type { QueryShapeObserver } from './query/query-shape.js';
import type { SavedViewReader } from './query/saved-view.js';
import type { RecordObject } from './record-reader.js';
import type { RecordTable } from './record-table.js';
import { createAttemptRunner } from './record-attempts.js';
import { createRecordReads, invalidField, recordNotFound } from './record-reads.js';
import { createRecordQueries } from './record-queries.js';
import { createRecordWrites } from './record-writes.js';
import { createTrashPurge, type RecordsDeletedListener } from './trash-purge.js';
import { maxResponseMegabytes, assertResponseFits } from './response-size.js';
import { assertCanEditField, assertCanWriteRecords } from './record-writer.js';
import * as records from './records.repository.js';
import { findTrashRows } from './record-trash.repository.js';
import { createRecordBatches } from './record-batches.js';
import { maxBatchRecords } from './record-batch-steps.js';
export type { RecordsDeletedListener } from './trash-purge.js';
export { maxBatchDelete } from './record-writes.js';
export { exportPageSize } from './record-queries.js';

/**
 * Records: the attempt runner (record-attempts), reads (record-reads), queries
 * (record-queries), and writes, single (record-writes) and in batches (record-batches), every
 * write through the write unit (changes/write-unit.ts). This file puts them together and adds
 * the access answers other modules ask for.
 */
export function createRecordsService(deps: {
  database: Database;
  clock: Clock;
  metadataCache: MetadataCache;
  files: FileLedger;
  views: SavedViewReader;
  unit: WriteUnit;
  /** The name a session's changes show (its user's). */
  userName(userId: number): Promise<string | undefined>;
  /** What goes with records purged from the trash besides their values (comments): set once the comments capability exists. */
  recordsDeleted?: { listener?: RecordsDeletedListener };
  maxResponseSize?: number;
  strictConfirmation?: boolean;
  /** Told each query's shape: the automatic indexes. */
  queryShapes?: QueryShapeObserver;
  /** Days a deleted record stays in the trash (TABULA_TRASH_DAYS). */
  trashDays?: number;
}) {
  const { db } = deps.database;
  const now = () => formatDateTime(deps.clock.now());
  const maxResponseSize = deps.maxResponseSize ?? maxResponseMegabytes * 1024 * 1024;
  const runner = createAttemptRunner(deps);
  const { onTable, openAttempt, confirmCurrentMetadata } = runner;
  const reads = createRecordReads(deps);
  const queries = createRecordQueries({ ...deps, runner, reads, maxResponseSize });
  const writes = createRecordWrites({ ...deps, now, runner, reads });
  const batches = createRecordBatches({ database: deps.database, now, confirm: confirmCurrentMetadata, reads, unit: deps.unit });
  const purge = createTrashPurge({ ...deps, openAttempt, operatorActor, trashDays: deps.trashDays ?? 30 });

  /**
   * The command line acts as the owner of the table's account, through an unrestricted account
   * key of its own (no key row): 400 `Invalid Table` for a table that does not exist.
   */
  async function operatorActor(tableId: number, readOnly: boolean): Promise<Actor> {
    const owner = await records.findTableOwner(db, tableId);
    // It sees every account, so a table it does not find does not exist: the message names the id.
    if (!owner) throw new NotFoundError(`Table ${tableId} not found (no account of this database has a table with that id)`, ErrorCode.tableNotFound);
    return { accountId: owner.accountId, userId: owner.ownerUserId, userEmail: owner.ownerEmail, ownerUserId: owner.ownerUserId, via: 'account_key', keyId: null, keyName: null, readOnly, spaceIds: null };
  }

  return {
    ...queries,
    createRecord: writes.createRecord,
    updateRecord: writes.updateRecord,
    deleteRecord: writes.deleteRecord,
    deleteBatch: writes.deleteBatch,
    restoreRecords: writes.restoreRecords,
    listTrash: writes.listTrash,
    purgeTrash: purge.purgeTrash,
    operatorActor,

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
     * Trusted code's bulk path (CSV import, the bench loader): create_batch's insert, a thousand
     * records at a time, each thousand all-or-nothing; progress is reported after each. Answers
     * the number inserted. Metadata is read afresh (an import is long; its caller is trusted code).
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
     * (docs/decisions.md, "CSV import: one unit"); its changes go with it (write-unit `within`). Metadata is read afresh and confirmed before each batch.
     */
    async importAsOneUnit<T>(actor: Actor, tableId: number, work: (unit: ImportUnit) => Promise<T>): Promise<T> {
      const attempt = await openAttempt(actor, tableId, false);
      assertCanWriteRecords(actor, attempt.table);
      const afterCommit: Array<() => Promise<void>> = [];
      let nested: ReturnType<WriteUnit['within']> | undefined;
      const result = await db.transaction().execute(async (trx) => {
        const database: Database = { ...deps.database, db: trx };
        nested = deps.unit.within(trx);
        const inUnit: Attempt = { ...attempt, contexts: new RecordContexts(database, deps.clock, runner.schemaCache, attempt.reads, actor, attempt.table, deps.files) };
        const unit = createRecordBatches({
          database,
          now,
          confirm: async (current) => current.reads.confirm(await readMetadataVersion(trx)),
          reads,
          unit: nested,
          afterCommit: (task) => void afterCommit.push(task),
        });
        const answer = await work({
          create: (body) => unit.create(inUnit, body),
          upsert: async (body) => {
            const { ids, created } = await unit.upsert(inUnit, body);
            return { created, updated: ids.length - created };
          },
        });
        return answer;
      });
      await nested?.committed();
      for (const task of afterCommit) await task();
      return result;
    },

    createBatch(actor: Actor, tableId: number, body: unknown): Promise<RecordObject[]> {
      return onTable(actor, tableId, (attempt) => batches.createBatch(attempt, body));
    },

    /** What create_batch would refuse of this body, every record of it, writing nothing (record-batches validateCreateBatch). */
    validateBatch(actor: Actor, tableId: number, body: unknown): Promise<{ errors: Array<{ index: number; code: string; message: string }> }> {
      return onTable(actor, tableId, async (attempt) => {
        const refusals = await batches.validateCreateBatch(attempt, body);
        return { errors: refusals.map(({ index, error }) => ({ index, code: error.code, message: error.message })) };
      });
    },

    updateBatch(actor: Actor, tableId: number, body: unknown): Promise<RecordObject[]> {
      return onTable(actor, tableId, (attempt) => batches.updateBatch(attempt, body));
    },

    upsertBatch(actor: Actor, tableId: number, body: unknown): Promise<RecordObject[]> {
      return onTable(actor, tableId, (attempt) => batches.upsertBatch(attempt, body));
    },

    getRecord(actor: Actor, tableId: number, recordId: number): Promise<RecordObject> {
      return onTable(actor, tableId, async (attempt) => {
        const record = await reads.readRecord(attempt, recordId);
        assertResponseFits([record], maxResponseSize, 'this record holds', 'read it a few fields at a time with records/query and fields');
        return record;
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
     * The table a caller may read (or `write`), for the change log's readers: 400 `Invalid Table`
     * as a record call answers. Answers where it lives.
     */
    tableAccess(actor: Actor, tableId: number, access: 'read' | 'write'): Promise<{ tableId: number; spaceId: number; accountId: number }> {
      return onTable(actor, tableId, async (attempt) => {
        if (access === 'write') assertCanWriteRecords(attempt.actor, attempt.table);
        await confirmCurrentMetadata(attempt);
        return { tableId, spaceId: attempt.table.spaceId, accountId: attempt.actor.accountId };
      });
    },

    /** Whether a record is live or in the trash (history of a record with no changes left). */
    async recordKnown(tableId: number, recordId: number): Promise<boolean> {
      if ((await records.findExistingIds(db, tableId, [recordId])).size > 0) return true;
      return (await findTrashRows(db, tableId, [recordId])).length > 0;
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

    /** Changes one file field of one record in one write (record-writes `editFileField`). */
    editFileField(actor: Actor, tableId: number, recordId: number, slug: unknown, edit: (current: unknown, field: Field, trx: Database['db']) => Promise<unknown>): Promise<unknown> {
      return writes.editFileField(actor, tableId, recordId, (table) => fileFieldOf(table, slug), edit);
    },
  };
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

/** What an import writes with inside `importAsOneUnit`: create_batch and upsert_batch bodies, answering counts. */
export interface ImportUnit {
  /** A create_batch body → how many records it created. */
  create(body: unknown): Promise<number>;
  /** An upsert_batch body → how many records it created and how many it updated. */
  upsert(body: unknown): Promise<{ created: number; updated: number }>;
}

export type RecordsService = ReturnType<typeof createRecordsService>;
