import { checkObjectBody, invalidParameters } from '../../shared/body-checks.js';
import { AppError, ErrorCode, ValidationError } from '../../shared/errors.js';
import type { Field } from '../fields/field.js';
import { hooksOf } from '../fields/lifecycle.js';
import { fieldTypeNames, getFieldType } from '../fields/registry.js';
import type { Attempt } from './record-attempt.js';
import { afterCommit, prepareValuesIo, runCleanups, type Cleanups } from './record-lifecycle.js';
import { checkDataBody, prefetchReferences, prepareValues } from './record-writer.js';

/**
 * The steps of a records batch (record-batches.ts) that stand by themselves: reading the body,
 * checking each record's values (a refusal names the record), the types' I/O before the write
 * and their work after the commit, and the upsert's `match_on`.
 */

/** The most records one batch call takes. */
export const maxBatchRecords = 1000;

/** One record of a batch on its way to the database: its index in `records` and its stored values. */
export interface Write {
  index: number;
  values: Map<Field, unknown>;
  /** The record it updates; undefined for a new one. */
  id?: number;
}

/** A refusal of one record (4xx, or a storage failure), its message naming the record. */
export function ofRecord(index: number, error: unknown): unknown {
  // The error was made for this record's step alone: naming the record changes nothing else.
  if (error instanceof AppError) error.message = `records[${index}]: ${error.message}`;
  return error;
}

/** Runs one record's step: a refusal names the record. */
export async function forRecord<T>(index: number, step: () => T | Promise<T>): Promise<T> {
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
export function recordsOf(body: unknown, allowed: readonly string[]): { members: Record<string, unknown>; items: unknown[] } {
  const members = checkObjectBody(body, allowed);
  const items = members.records;
  if (items === undefined) throw invalidParameters('records is required');
  if (!Array.isArray(items)) throw invalidParameters('records must be an array');
  if (items.length > maxBatchRecords) throw invalidParameters(`records takes at most ${maxBatchRecords} records, got ${items.length}`);
  return { members, items };
}

/** The `data` of every item `{data}`, checked as records/create checks its body. */
export function checkItems(items: readonly unknown[]): Promise<Checked<unknown>> {
  return checkEach(items, 0, (item) => checkDataBody(item, false, ['data'], 'record'));
}

/** Every value through its type and the required checks (`creating`: all required fields), references looked up in one batch. */
export async function checkValues(attempt: Attempt, datas: readonly unknown[], creating: boolean, firstIndex = 0, skip?: ReadonlySet<number>): Promise<Checked<Map<Field, unknown>>> {
  const { table, contexts } = attempt;
  const { prefetch } = hooksOf(table.fields);
  if (prefetch.length > 0) await prefetchReferences(datas, prefetch, contexts.write);
  return checkEach(datas, firstIndex, (data) => prepareValues(data, table, contexts.write, creating), skip);
}

export const dataOfItems = async (items: readonly unknown[]): Promise<unknown[]> => throwFirst(await checkItems(items));
export const prepareAll = async (attempt: Attempt, datas: readonly unknown[], creating: boolean, firstIndex = 0): Promise<Map<Field, unknown>[]> =>
  throwFirst(await checkValues(attempt, datas, creating, firstIndex));

/**
 * The types' I/O of every record (file fields store what they bring), once all of them passed
 * validation; an update's own attachments are kept. Undone on the first failure.
 */
export async function prepareIo(attempt: Attempt, writes: readonly Write[]): Promise<Cleanups> {
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
 * The types' work after the commit (file fields settle what they stored and release what was
 * replaced), or undefined when no write has any. `previous` holds what each update replaced, by
 * record index; a new record has none. It keeps only the writes it settles: a CSV import's unit
 * holds this work until its one commit, and work kept for each batch (every record's values)
 * held a million-record import's memory at 1.7 GB.
 */
export function settlement(attempt: Attempt, writes: readonly Write[], previous: ReadonlyMap<number, Map<Field, unknown>>): (() => Promise<void>) | undefined {
  const fields = hooksOf(attempt.table.fields).afterCommit;
  const settled = fields.length === 0 ? [] : writes.filter((write) => fields.some((field) => write.values.has(field)));
  if (settled.length === 0) return undefined;
  return async () => {
    for (const write of settled) await afterCommit(write.values, fields, attempt.contexts.write, previous.get(write.index));
  };
}

export function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, index) => id === b[index]);
}

/** The `match_on` fields of an upsert: known, writable by value, and single-valued. */
export function matchFieldsOf(raw: unknown, attempt: Attempt): Field[] {
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

export const recordNotFound = () => new ValidationError('Record not found', ErrorCode.recordNotFound);

/** The types whose fields `match_on` takes (single-valued ones), as a refusal lists them. */
const matchableTypes = fieldTypeNames.filter((name) => getFieldType(name).matchable);

/** `{"email":"ada@example.com"}`: the match values as stored (an email trimmed), for messages. */
export function describeMatch(fields: readonly Field[], tuple: readonly unknown[]): string {
  return JSON.stringify(Object.fromEntries(fields.map((field, index) => [field.slug, tuple[index]])));
}
