import type { Database } from '../../db/database.js';
import { ErrorCode, ValidationError } from '../../shared/errors.js';
import type { Field } from '../fields/field.js';
import { fieldColumnName } from '../fields/physical-names.js';
import { getFieldType } from '../fields/registry.js';
import { titleReader } from '../fields/title.js';
import type { Attempt } from './record-attempt.js';
import { columnsFor, presentRecords, type RecordObject } from './record-reader.js';
import { visibilityScope, type RecordTable } from './record-table.js';
import * as records from './records.repository.js';

export const recordNotFound = () => new ValidationError('Record not found', ErrorCode.recordNotFound);
export const invalidField = (slug: string) => new ValidationError(`Invalid field: ${slug}`, ErrorCode.invalidField);

/** Reading records as the API presents them: one record, records by id, and rows a query read. */
export function createRecordReads(deps: { database: Database }) {
  const { db, dialect } = deps.database;
  const selections = new WeakMap<RecordTable, WeakMap<readonly Field[], Map<number | string, records.ReadSelection>>>();

  /**
   * The columns a read of `fields` selects, with the titles of single lookups read by the same
   * statement. Kept on the table object: that object lives only as long as its metadata-cache
   * entry, whose version the request's statement confirms, and every title column was read at
   * that same version (a newer one clears the cache, and with it this table object's entry).
   * Which targets' titles are read depends on what the caller may see: kept per visibility scope.
   */
  async function selectionOf(attempt: Attempt, fields: readonly Field[]): Promise<records.ReadSelection> {
    const known = selections.get(attempt.table)?.get(fields)?.get(visibilityScope(attempt.actor));
    if (known) return known;
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
      const { foundAlias: found, titleAlias: title } = lookup;
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
    const selection = await selectionOf(attempt, attempt.table.fields);
    const { row, version } = await records.findRecordWithVersion(db, recordId, selection, dialect.gathersReadsByTurn);
    attempt.reads.confirm(version);
    if (!row) throw recordNotFound();
    return (await present(attempt, [row], attempt.table.fields, selection))[0];
  }

  /**
   * The rows of `recordIds` as readRecord selects them (with `fields`), through `executor`: a
   * write's own transaction reads what that write leaves, which a read after its commit could
   * find changed or deleted by another writer. Presented with presentRows, after the commit
   * (presenting may read through other connections).
   */
  async function readRows(executor: Database['db'], attempt: Attempt, recordIds: readonly number[], fields: readonly Field[] = attempt.table.fields): Promise<RowsRead> {
    const selection = await selectionOf(attempt, fields);
    return { rows: await records.findRecordsById(executor, attempt.table.id, recordIds, selection), fields, selection };
  }

  /** Rows read by readRows → records in the order of `recordIds`; one that is gone is left out. */
  function presentRows(attempt: Attempt, read: RowsRead, recordIds: readonly number[]): Promise<RecordObject[]> {
    const rows = new Map(read.rows.map((row) => [Number(row.id), row]));
    return present(attempt, recordIds.flatMap((id) => rows.get(id) ?? []), read.fields, read.selection);
  }

  /**
   * The rows of `ids` with the columns of `fields` (and `extra`) and their data, read just
   * before a write (record-changes.ts): one statement with the lookups' titles, as a get reads
   * them, through `executor` (the service's database, or the transaction of an import).
   */
  async function readBefore(executor: Database['db'], attempt: Attempt, ids: readonly number[], fields: readonly Field[], extra: readonly string[] = []): Promise<Map<number, { row: records.RecordRow; data: Record<string, unknown> }>> {
    const selection = await selectionWith(attempt, fields, extra);
    const rows = await records.findRecordsById(executor, attempt.table.id, ids, selection);
    return beforeOf(attempt, rows, fields, selection);
  }

  async function selectionWith(attempt: Attempt, fields: readonly Field[], extra: readonly string[]): Promise<records.ReadSelection> {
    const base = await selectionOf(attempt, fields);
    const more = extra.filter((column) => !base.columns.includes(column) && !records.isSystemColumn(column));
    return more.length === 0 ? base : records.describeSelection(base.tableId, [...base.columns, ...more], base.titles);
  }

  async function beforeOf(attempt: Attempt, rows: readonly records.RecordRow[], fields: readonly Field[], selection: records.ReadSelection) {
    const presented = await present(attempt, rows, fields, selection);
    return new Map(rows.map((row, n) => [Number(row.id), { row, data: presented[n].data }]));
  }

  /**
   * As readBefore for one record, confirming the attempt's metadata with the version the same
   * statement read (as a get does): a single write's confirmation and its read in one round trip.
   */
  async function readOneBeforeConfirmed(attempt: Attempt, id: number, fields: readonly Field[], extra: readonly string[] = []): Promise<Map<number, { row: records.RecordRow; data: Record<string, unknown> }>> {
    const selection = await selectionWith(attempt, fields, extra);
    const { row, version } = await records.findRecordWithVersion(db, id, selection);
    attempt.reads.confirm(version);
    return beforeOf(attempt, row ? [row] : [], fields, selection);
  }

  return {
    selectionOf,
    present,
    readRecord,
    readRows,
    presentRows,
    readBefore,
    readOneBeforeConfirmed,
    /** Records by id, in that order (one that is gone is left out), as readRecord presents one. */
    async readRecords(attempt: Attempt, recordIds: readonly number[], fields: readonly Field[] = attempt.table.fields): Promise<RecordObject[]> {
      return presentRows(attempt, await readRows(db, attempt, recordIds, fields), recordIds);
    },
  };
}

export type RecordReads = ReturnType<typeof createRecordReads>;

/** Records read by a write before its commit (readRows), to be presented after it. */
export interface RowsRead {
  rows: records.RecordRow[];
  fields: readonly Field[];
  selection: records.ReadSelection;
}
