import type { DeletionContext } from '../fields/field-type.js';
import type { Field } from '../fields/field.js';
import { getFieldType } from '../fields/registry.js';
import type { WriteContext } from '../fields/value-context.js';

/**
 * The record writer's side of the field types' lifecycle hooks (field-type.ts). Callers pass
 * the fields hooksOf found for the hook, and skip these entirely when there are none.
 */

/** What the types' prepare did, to be undone when the write does not commit. */
export type Cleanups = Array<() => Promise<void>>;

/**
 * A cleanup that fails leaves an orphan behind (a blob nobody references), which is no worse
 * than a crash at the same moment: the write's own error is the one to report.
 */
export async function runCleanups(cleanups: Cleanups): Promise<void> {
  await Promise.allSettled(cleanups.map((cleanup) => cleanup()));
}

/**
 * Runs `prepare` of the written fields among `fields`, after every value passed toStored:
 * their stored values become the prepared ones. If one throws, those before it are undone.
 */
export async function prepareValuesIo(values: Map<Field, unknown>, fields: readonly Field[], ctx: WriteContext): Promise<Cleanups> {
  const cleanups: Cleanups = [];
  // Stale metadata is found before the I/O, not after it: the I/O is done once (a URL fetched once).
  if (fields.some((field) => values.has(field))) await ctx.confirmMetadata();
  try {
    for (const field of fields) {
      if (!values.has(field)) continue;
      const prepared = await getFieldType(field.type).prepare!(values.get(field), field, ctx);
      values.set(field, prepared.stored);
      if (prepared.cleanup) cleanups.push(() => prepared.cleanup!());
    }
  } catch (error) {
    await runCleanups(cleanups);
    throw error;
  }
  return cleanups;
}

/** Runs `afterCommit` of the written fields among `fields`; `previous` holds what an update replaced. */
export async function afterCommit(values: ReadonlyMap<Field, unknown>, fields: readonly Field[], ctx: WriteContext, previous?: ReadonlyMap<Field, unknown>): Promise<void> {
  for (const field of fields) {
    if (!values.has(field)) continue;
    await getFieldType(field.type).afterCommit!({ stored: values.get(field), previous: previous?.get(field) }, field, ctx);
  }
}

/** What else goes with deleted records (their comments), inside the deleting transaction. */
export type RecordsDeletedListener = (db: DeletionContext['db'], tableId: number, recordIds: readonly number[]) => Promise<void>;
