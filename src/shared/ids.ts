/** Every id column is a PostgreSQL `integer` (`serial`; see the migrations): ids run from 1 to 2^31 − 1. */
export const maxId = 2_147_483_647;

/**
 * An id no row has, inside every engine's integer range: what an id that cannot exist (2^31,
 * 2^53, 0, -5) is looked up as, so that it answers exactly as a missing object does instead of
 * failing the look-up (PostgreSQL refuses an `integer` comparison past its range).
 */
export const noSuchId = -1;

/** Whether `value` is an integer some row could have as its id; any other integer names nothing. */
export function isStorableId(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= maxId;
}

/** The id to look `id` up as: itself, or `noSuchId` when no row can have it. */
export function lookupIdOf(id: number): number {
  return isStorableId(id) ? id : noSuchId;
}
