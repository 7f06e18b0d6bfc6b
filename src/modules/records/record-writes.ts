import type { Database } from '../../db/database.js';
import { checkObjectBody, invalidParameters } from '../../shared/body-checks.js';
import type { WriteUnit } from '../changes/write-unit.js';
import { fromColumnValue, toColumnValue } from '../fields/column-values.js';
import type { Field } from '../fields/field.js';
import { hooksOf } from '../fields/lifecycle.js';
import { fieldColumnName, recordTableName } from '../fields/physical-names.js';
import type { Attempt } from './record-attempt.js';
import type { AttemptRunner } from './record-attempts.js';
import { assertSameColumns, ChangedMeanwhile, columnsOf, dataOf, draftsOf, presentableInside, rowWith, scopeOf, untilSettled } from './record-changes.js';
import { afterCommit, prepareValuesIo, runCleanups } from './record-lifecycle.js';
import { presentRecords, type RecordObject } from './record-reader.js';
import { recordNotFound, type RecordReads, type RowsRead } from './record-reads.js';
import type { RecordTable } from './record-table.js';
import { assertCanEditField, assertCanWriteRecords, buildSearchText, changesNothing, checkDataBody, completeUpdate, newRecordColumns, planUpdate, prepareValues, recordColumnTypes, toColumns, writtenRow } from './record-writer.js';
import * as records from './records.repository.js';
import * as trash from './record-trash.repository.js';
import { changeActorOf, payloadOf } from '../changes/change.js';
import { recordSearchOf } from './search/index.js';
import { countRecordsReturned } from './counters/index.js';
import { deleteAndQueueChanges, fitsOneStatement, insertAndQueueChange, rowVersionColumn, updateAndQueueChange } from './record-statements.js';
import { ValidationError } from '../../shared/errors.js';
import { isStorableId } from '../../shared/ids.js';
import type { Dialect } from '../../db/dialect.js';

export const maxBatchDelete = 1000;

/** The system columns a trashed row keeps beside its fields. */
const keptSystemColumns = ['created_at', 'updated_at', 'created_by'];

/**
 * The single record writes: create, update, a file field's edit, delete (to the trash) and
 * restore. Each runs its rows and its change through the write unit (changes/write-unit.ts).
 */
export function createRecordWrites(deps: { database: Database; now(): string; runner: AttemptRunner; reads: RecordReads; unit: WriteUnit; userName(userId: number): Promise<string | undefined> }) {
  const { db, dialect } = deps.database;
  const search = recordSearchOf(dialect.name);
  const { onTable, confirmCurrentMetadata } = deps.runner;

  /**
   * Moves records to the trash in one write: their rows leave the record table (counters,
   * search and every query with them) for `record_trash`, whole; files and comments stay as they
   * are until the purge. Answers the ids moved.
   */
  async function trashRecords(attempt: Attempt, ids: readonly number[]): Promise<number[]> {
    const { table, actor } = attempt;
    const columns = [...columnsOf(table.fields), ...keptSystemColumns];
    // PostgreSQL: the changes made from the rows read before, then the delete, the trash and
    // the changes in one statement (record-statements.ts), which deletes a row only as it was
    // read. One record's read also confirms the metadata: two round trips in all, where the
    // unit's transaction took six. SQLite, in the unit's transaction: presented inside it when
    // the table's values read as stored, as for an update, else from a read before it.
    const oneStatement = dialect.queuesChanges;
    const inside = !oneStatement && presentableInside(table.fields);
    const single = oneStatement && ids.length === 1;
    if (!single) await confirmCurrentMetadata(attempt);
    return untilSettled(async () => {
      const extra = oneStatement ? [...keptSystemColumns, rowVersionColumn] : keptSystemColumns;
      const before = inside ? undefined : single ? await deps.reads.readOneBeforeConfirmed(attempt, ids[0], table.fields, extra) : await deps.reads.readBefore(db, attempt, ids, table.fields, extra);
      const deletedAt = deps.now();
      if (before && oneStatement) {
        const found = [...before.keys()];
        if (found.length === 0) return [];
        const rowVersions = found.map((id) => String(before.get(id)!.row[rowVersionColumn]));
        const payloads = found.map((id) => payloadOf(draftsOf('record.deleted', [[id, before.get(id)!.data, null]])[0]));
        return deps.unit.runQueuedStatement(
          scopeOf(attempt),
          async (trx, common) => {
            const rows = await deleteAndQueueChanges(trx, table.id, found, rowVersions, payloads, columns, deletedAt, common);
            // A row read and not deleted was written meanwhile (or deleted): a batch's transaction
            // rolls back, one record's statement wrote nothing, and the delete runs again.
            if (rows.length !== found.length) throw new ChangedMeanwhile();
            return { result: rows.map((row) => Number(row.id)), queued: rows.length > 0 };
          },
          { transaction: !single },
        );
      }
      const who = changeActorOf(actor, actor.via === 'session' ? await deps.userName(actor.userId) : undefined);
      return deps.unit.run(scopeOf(attempt), async (trx, changes) => {
        const rows = (await records.deleteRecordRows(trx, table.id, ids, columns)) as records.RecordRow[];
        const moved: trash.TrashRow[] = [];
        for (const row of rows) {
          const id = Number(row.id);
          if (before) assertSameColumns(before.get(id)?.row, row, columns);
          moved.push({ table_id: table.id, record_id: id, deleted_at: deletedAt, deleted_by_user_id: who.user_id, deleted_by_api_key_id: who.api_key_id, deleted_by_name: who.name, row_json: JSON.stringify(row) });
        }
        await trash.insertTrashRows(trx, moved);
        const data = before ? rows.map((row) => before.get(Number(row.id))!.data) : await dataOf(attempt, rows, table.fields);
        changes.push(...draftsOf('record.deleted', rows.map((row, n) => [Number(row.id), data[n], null])));
        return moved.map((m) => m.record_id);
      });
    });
  }

  return {
    createRecord(actor: Attempt['actor'], tableId: number, body: unknown): Promise<RecordObject> {
      return onTable(actor, tableId, async (attempt) => {
        const { table, contexts } = attempt;
        assertCanWriteRecords(attempt.actor, table);
        const data = checkDataBody(body, false);
        const values = await prepareValues(data, table, contexts.write, true);
        const hooks = hooksOf(table.fields);
        const cleanups = hooks.prepare.length > 0 ? await prepareValuesIo(values, hooks.prepare, contexts.write) : undefined;
        const timestamp = deps.now();
        // The new row is exactly what is written: presented now, before the transaction, and
        // given its id after it (the change's `after` is its data).
        const [record] = await presentRecords([writtenRow(0, timestamp, values, table)], table, table.fields, contexts.read);
        try {
          const columns = newRecordColumns(values, table.fields, attempt.actor, timestamp, dialect);
          const text = buildSearchText(values);
          if (dialect.queuesChanges) {
            // PostgreSQL: the record, its search text and its change in one statement
            // (record-statements.ts), which checks the metadata version itself.
            const payload = payloadOf(draftsOf('record.created', [[0, null, record.data]])[0]);
            const expected = attempt.reads.versionToCheck();
            const created = await deps.unit.runQueuedStatement(scopeOf(attempt), async (db, common) => {
              const done = await insertAndQueueChange(db, tableId, columns, recordColumnTypes(table, dialect)!, text, payload, common, expected);
              return { result: done, queued: done.id !== undefined };
            });
            // A newer version: nothing was written, and the call runs again on fresh metadata.
            attempt.reads.confirm(created.version);
            record.id = created.id!;
          } else {
            record.id = await deps.unit.run(scopeOf(attempt), async (trx, changes) => {
              const { id, metadataVersion } = await records.insertRecord(trx, tableId, columns);
              // The insert read the version the write applies to: a newer one than the call
              // relied on throws, the unit rolls this write back, and the call runs again on
              // fresh metadata (record-attempts.ts), as PostgreSQL's one statement does.
              attempt.reads.confirm(metadataVersion);
              if (text !== null) await search.insertText(trx, recordTableName(tableId), [{ id, text }]);
              changes.push(...draftsOf('record.created', [[id, null, record.data]]));
              return id;
            });
          }
        } catch (error) {
          if (cleanups) await runCleanups(cleanups);
          throw error;
        }
        if (hooks.afterCommit.length > 0) await afterCommit(values, hooks.afterCommit, contexts.write);
        return record;
      });
    },

    /** Only the given fields change; the search text is rebuilt from the merged values. */
    updateRecord(actor: Attempt['actor'], tableId: number, recordId: number, body: unknown): Promise<RecordObject> {
      return onTable(actor, tableId, async (attempt) => {
        const { table, contexts } = attempt;
        assertCanWriteRecords(attempt.actor, table);
        const data = checkDataBody(body, true);
        contexts.recordId = recordId;
        const changes = await prepareValues(data, table, contexts.write, false);
        const hooks = hooksOf(table.fields);
        const cleanups = hooks.prepare.length > 0 ? await prepareValuesIo(changes, hooks.prepare, contexts.write) : undefined;
        const plan = planUpdate(table, changes, hooks);
        const written = [...changes.keys()];
        const writtenColumns = columnsOf(written);
        const previous = new Map<Field, unknown>();
        // The answer is the record as the write left it, read by the write itself: a read after
        // the commit could find it deleted meanwhile, and answer 400 for an update that was applied.
        const selection = await deps.reads.selectionOf(attempt, table.fields);
        let answer: RowsRead | undefined;
        try {
          if (fitsOneStatement(dialect, plan, written, selection)) {
            // PostgreSQL, values whose change SQL can make: one statement (record-statements.ts),
            // which checks the metadata version itself.
            const values = written.map((field) => toColumnValue(field, changes.get(field), dialect));
            const expected = attempt.reads.versionToCheck();
            const done = await deps.unit.runQueuedStatement(scopeOf(attempt), async (db, common) => {
              const updated = await updateAndQueueChange(db, tableId, recordId, written, recordColumnTypes(table, dialect)!, values, selection, deps.now(), common, expected);
              return { result: updated, queued: updated.queued };
            });
            // A newer version: nothing was written, and the call runs again on fresh metadata.
            attempt.reads.confirm(done.version);
            if (!done.row) throw recordNotFound();
            return (await deps.reads.present(attempt, [done.row], table.fields, selection))[0];
          }
          // Values that read as stored are presented inside the transaction, from the locked row;
          // others (users, lookups) from a read before it, checked again inside (record-changes.ts).
          const inside = presentableInside(written);
          answer = await untilSettled(async () => {
            const stored = inside ? undefined : (await deps.reads.readBefore(db, attempt, [recordId], written)).get(recordId);
            if (!inside && !stored) throw recordNotFound();
            const after = stored && (await dataOf(attempt, [rowWith(stored.row, changes)], written))[0];
            const timestamp = deps.now();
            return deps.unit.run(scopeOf(attempt), async (trx, log) => {
              // The stored values the update needs (search text, replaced attachments) and the
              // written ones (the change's `before`).
              // With them the version the write applies to: a newer one than the call relied on
              // throws, the unit rolls this write back, and the call runs again on fresh metadata
              // (as a create's insert confirms: decisions.md, session 32). A record not found
              // confirms nothing: the call runs again uncached and answers the same 400.
              const { row, metadataVersion } = await records.findRecordRowConfirming(trx, tableId, recordId, [...writtenColumns, ...columnsOf(plan.reads)], dialect.rowLocks);
              if (metadataVersion !== undefined) attempt.reads.confirm(metadataVersion);
              if (!row) throw recordNotFound();
              if (stored) assertSameColumns(stored.row, row, writtenColumns);
              const [was, is] = stored ? [stored.data, after!] : await dataOf(attempt, [row, rowWith(row, changes)], written);
              previous.clear();
              const text = completeUpdate(plan, row, changes, previous);
              if (!changesNothing(row, changes)) {
                await records.updateRecord(trx, tableId, recordId, { ...toColumns(changes, dialect), updated_at: timestamp });
                if (text !== undefined) await search.writeText(trx, recordTableName(tableId), [{ id: recordId, text }]);
                log.push(...draftsOf('record.updated', [[recordId, was, is]]));
              }
              return deps.reads.readRows(trx, attempt, [recordId]);
            });
          });
        } catch (error) {
          if (cleanups) await runCleanups(cleanups);
          throw error;
        }
        if (plan.replacing.length > 0) await afterCommit(changes, plan.replacing, contexts.write, previous);
        return (await deps.reads.presentRows(attempt, answer!, [recordId]))[0];
      });
    },

    /**
     * Changes one file field of one record in one write: the current value is read (the row
     * locked on PostgreSQL), `edit` answers the new one, and both are written together, so
     * concurrent files/create calls on one record never lose each other's attachment. `edit`
     * runs inside the transaction and may write its own rows with `trx`. Attachments read as
     * they are stored, so the change is presented inside the transaction without a statement.
     */
    editFileField(actor: Attempt['actor'], tableId: number, recordId: number, field: (table: RecordTable) => Field, edit: (current: unknown, field: Field, trx: Database['db']) => Promise<unknown>): Promise<unknown> {
      return onTable(actor, tableId, async (attempt) => {
        const { table } = attempt;
        const fileField = field(table);
        assertCanEditField(attempt.actor, table, fileField);
        await confirmCurrentMetadata(attempt);
        const column = fieldColumnName(fileField.id);
        const timestamp = deps.now();
        return deps.unit.run(scopeOf(attempt), async (trx, changes) => {
          const found = await records.findRecordColumn(trx, tableId, recordId, column, dialect.rowLocks);
          if (!found) throw recordNotFound();
          const current = fromColumnValue(fileField, found.value);
          const present = async (value: unknown) => (await dataOf(attempt, [writtenRow(recordId, timestamp, new Map([[fileField, value]]), table)], [fileField]))[0];
          const before = await present(current);
          // `edit` may change the list it is given in place: it gets its own copy.
          const next = await edit(structuredClone(current), fileField, trx);
          await records.updateRecord(trx, tableId, recordId, { [column]: toColumnValue(fileField, next, dialect), updated_at: timestamp });
          const after = await present(next);
          changes.push(...draftsOf('record.updated', [[recordId, before, after]]));
          return next;
        });
      });
    },

    deleteRecord(actor: Attempt['actor'], tableId: number, recordId: number) {
      return onTable(actor, tableId, async (attempt) => {
        assertCanWriteRecords(attempt.actor, attempt.table);
        if ((await trashRecords(attempt, [recordId])).length === 0) throw recordNotFound();
        return { id: recordId, deleted: true as const };
      });
    },

    deleteBatch(actor: Attempt['actor'], tableId: number, body: unknown) {
      return onTable(actor, tableId, async (attempt) => {
        assertCanWriteRecords(attempt.actor, attempt.table);
        const unique = recordIdsOf(body, 'record_ids');
        // An id no record can have (shared/ids.ts) is simply not found.
        const deleted = new Set(await trashRecords(attempt, unique.filter(isStorableId)));
        return { deleted: unique.filter((id) => deleted.has(id)), not_found: unique.filter((id) => !deleted.has(id)) };
      });
    },

    /**
     * Puts trashed records back with their ids, values (of the fields the table still has),
     * attachments and comments, in one write: `{ids}` → `{restored, not_found}`.
     */
    restoreRecords(actor: Attempt['actor'], tableId: number, body: unknown) {
      return onTable(actor, tableId, async (attempt) => {
        const { table } = attempt;
        assertCanWriteRecords(attempt.actor, table);
        const unique = recordIdsOf(body, 'ids');
        await confirmCurrentMetadata(attempt);
        const restored = await untilSettled(async () => {
          const trashed = await trash.findTrashRows(db, tableId, unique.filter(isStorableId));
          const rows = trashed.map((entry) => restoredRow(table, entry, dialect));
          const data = await dataOf(attempt, rows.map((r) => writtenRow(r.id, r.columns.updated_at as string, r.values, table)), table.fields);
          return deps.unit.run(scopeOf(attempt), async (trx, changes) => {
            const taken = await trash.removeTrashRows(trx, tableId, unique.filter(isStorableId));
            if (taken.length !== trashed.length || taken.some((row) => !trashed.some((t) => t.record_id === row.record_id && t.row_json === row.row_json))) throw new ChangedMeanwhile();
            await records.insertRecordRows(trx, tableId, rows.map((r) => r.columns), recordColumnTypes(table, dialect));
            if (rows.length > 0) await countRecordsReturned(trx, tableId);
            await search.insertText(trx, recordTableName(tableId), rows.map((r) => ({ id: r.id, text: buildSearchText(r.values) })));
            changes.push(...draftsOf('record.restored', rows.map((r, n) => [r.id, null, data[n]])));
            return rows.map((r) => r.id);
          });
        });
        const done = new Set(restored);
        return { restored: unique.filter((id) => done.has(id)), not_found: unique.filter((id) => !done.has(id)) };
      });
    },

    /** The table's trash, newest first: `[{id, title, deleted_at, deleted_by, data}]`. */
    listTrash(actor: Attempt['actor'], tableId: number, body: unknown) {
      return onTable(actor, tableId, async (attempt) => {
        const { table } = attempt;
        const { limit, offset } = pageOf(body);
        await confirmCurrentMetadata(attempt);
        const entries = await trash.listTrash(db, tableId, limit, offset);
        const rows = entries.map((entry) => restoredRow(table, entry, dialect));
        const presented = await presentRecords(rows.map((r) => writtenRow(r.id, r.columns.updated_at as string, r.values, table)), table, table.fields, attempt.contexts.read);
        return entries.map((entry, n) => ({
          id: entry.record_id,
          title: presented[n].title,
          deleted_at: entry.deleted_at,
          deleted_by: { user_id: entry.deleted_by_user_id, api_key_id: entry.deleted_by_api_key_id, name: entry.deleted_by_name },
          data: presented[n].data,
        }));
      });
    },
  };
}

/**
 * A trashed row as the table now is: the values of the fields it still has (stored form, and
 * the columns to insert), by field id, so a renamed slug still finds its value.
 */
function restoredRow(table: RecordTable, entry: trash.TrashRow, dialect: Dialect) {
  const saved = JSON.parse(entry.row_json) as Record<string, unknown>;
  const values = new Map<Field, unknown>();
  for (const field of table.fields) {
    const column = saved[fieldColumnName(field.id)];
    if (column !== undefined && column !== null) values.set(field, fromColumnValue(field, column));
  }
  const columns: Record<string, unknown> = { id: entry.record_id };
  for (const field of table.fields) columns[fieldColumnName(field.id)] = values.has(field) ? toColumnValue(field, values.get(field), dialect) : null;
  for (const column of keptSystemColumns) columns[column] = saved[column] ?? null;
  return { id: entry.record_id, values, columns };
}

/** `{ids}` or `{record_ids}` of a body: at most 1,000 record ids, without repeats. */
function recordIdsOf(body: unknown, member: 'ids' | 'record_ids'): number[] {
  const ids = (body as Record<string, unknown> | null)?.[member];
  if (!Array.isArray(ids) || ids.some((id) => !Number.isInteger(id))) {
    throw new ValidationError(`Invalid parameters: ${member} must be an array of record ids`);
  }
  if (ids.length > maxBatchDelete) throw new ValidationError(`Invalid parameters: ${member} takes at most ${maxBatchDelete} ids`);
  return [...new Set(ids as number[])];
}

function pageOf(body: unknown): { limit: number; offset: number } {
  const members = checkObjectBody(body ?? {}, ['limit', 'offset']);
  const limit = members.limit ?? 100;
  const offset = members.offset ?? 0;
  if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > 1000) throw invalidParameters('limit must be an integer from 1 to 1000');
  if (!Number.isInteger(offset) || (offset as number) < 0) throw invalidParameters('offset must be an integer of 0 or more');
  return { limit: limit as number, offset: offset as number };
}
