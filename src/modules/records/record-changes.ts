import { recordChange, type ChangeDraft, type ChangeKind, type WriteScope } from '../changes/change.js';
import type { Field } from '../fields/field.js';
import { fieldColumnName } from '../fields/physical-names.js';
import { getFieldType } from '../fields/registry.js';
import type { Attempt } from './record-attempt.js';
import { presentRecords } from './record-reader.js';
import { DatabaseBusyError } from '../../shared/errors.js';
import type { RecordRow } from './records.repository.js';

/**
 * How record writes describe their changes. Values are presented (read form) before the write
 * transaction opens, from rows read just before it: a statement inside the transaction that
 * needed another connection would wait for it on SQLite, and presenting can read (users,
 * lookup titles). The transaction then re-reads the written columns and checks that nothing
 * changed them meanwhile (`assertSameColumns`); if something did, the write runs again from
 * the start (`untilSettled`), so a change's `before` is always the value its write replaced.
 */

/** Thrown inside a write transaction when a row moved since it was read before it: the write runs again. */
export class ChangedMeanwhile extends Error {}

/**
 * Rounds before a write gives up. Writers of one row take turns: each round one of them commits
 * and the others read again, so a write among n at once may need about n rounds. Five rounds
 * answered 500 to 13 of 20 concurrent updates of one record on PostgreSQL.
 */
const maxRounds = 50;

/**
 * Runs `write` until it finds its rows as it read them. A round that found them changed waits a
 * moment (random, growing with the rounds) so that the writers of one row spread out; after
 * `maxRounds`, 503 `database_busy` (nothing written; try again), never a 500.
 */
export async function untilSettled<T>(write: () => Promise<T>): Promise<T> {
  for (let round = 1; ; round++) {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof ChangedMeanwhile)) throw error;
      if (round >= maxRounds) throw new DatabaseBusyError({ cause: error });
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(round, 10)));
    }
  }
}

/** The written columns of `now` equal those of `then` (as read before the transaction). */
export function assertSameColumns(then: RecordRow | undefined, now: RecordRow | undefined, columns: readonly string[]): void {
  if (!then || !now) {
    if (then !== now) throw new ChangedMeanwhile();
    return;
  }
  for (const column of columns) if (!sameColumn(then[column], now[column])) throw new ChangedMeanwhile();
}

function sameColumn(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return (a ?? null) === (b ?? null);
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Whether the values of `fields` read as they are stored, without other rows: then a write may
 * present them inside its transaction, from the row it locked, with no read before it.
 */
export function presentableInside(fields: Iterable<Field>): boolean {
  for (const field of fields) if (getFieldType(field.type).readsOtherRows) return false;
  return true;
}

export function columnsOf(fields: Iterable<Field>): string[] {
  return [...fields].map((field) => fieldColumnName(field.id));
}

/** The `data` of rows (column or stored values), in read form: what a change's before and after hold. */
export async function dataOf(attempt: Attempt, rows: readonly RecordRow[], fields: readonly Field[]): Promise<Array<Record<string, unknown>>> {
  return (await presentRecords(rows, attempt.table, fields, attempt.contexts.read)).map((record) => record.data);
}

/** A row with `changes` (stored values) written over it: what an update leaves. */
export function rowWith(row: RecordRow, changes: ReadonlyMap<Field, unknown>): RecordRow {
  const next: RecordRow = { ...row };
  for (const [field, value] of changes) next[fieldColumnName(field.id)] = value;
  return next;
}

export function scopeOf(attempt: Attempt): WriteScope {
  return { accountId: attempt.actor.accountId, spaceId: attempt.table.spaceId, tableId: attempt.table.id, actor: attempt.actor };
}

/** Drafts of one kind for records whose before and after data are given by id (nulls for none). */
export function draftsOf(kind: ChangeKind, entries: Iterable<[number, Record<string, unknown> | null, Record<string, unknown> | null]>): ChangeDraft[] {
  const drafts: ChangeDraft[] = [];
  for (const [id, before, after] of entries) {
    const draft = recordChange(kind, id, before, after);
    if (draft) drafts.push(draft);
  }
  return drafts;
}

