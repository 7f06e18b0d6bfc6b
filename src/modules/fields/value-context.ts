import type { RawBuilder } from 'kysely';
import type { Dialect } from '../../db/dialect.js';
import type { Clock } from '../../shared/clock.js';
import type { Actor } from '../auth/actor.js';

export interface UserSummary {
  id: number;
  email: string;
  name: string;
}

/** What a field type may ask while turning a write value into a stored one. */
export interface WriteContext {
  actor: Actor;
  /** Current members of the table's space (the owner included), by id and by email. */
  spaceMembers(): Promise<{ byId: Map<number, UserSummary>; byEmail: Map<string, UserSummary> }>;
  /** Which of these record ids exist in a table. */
  existingRecordIds(tableId: number, ids: readonly number[]): Promise<Set<number>>;
}

/** Batch look-ups for reads: one query per field per response, never one per record. */
export interface ReadContext {
  /** The account's users by id: user values may name any of them, members or not. */
  users(): Promise<ReadonlyMap<number, UserSummary>>;
  /** The same, synchronously, when the request can take it from the metadata cache. */
  knownUsers(): ReadonlyMap<number, UserSummary> | undefined;
  recordTitles(tableId: number, ids: readonly number[]): Promise<Map<number, string | null>>;
  /** The same, synchronously, when every id's title is already known to this request. */
  knownTitles(tableId: number, ids: readonly number[]): Map<number, string | null> | undefined;
}

export interface FilterContext {
  actor: Actor;
  dialect: Dialect;
  clock: Clock;
  /** The column of the field being filtered, as an SQL reference. */
  column: RawBuilder<unknown>;
  /** A user reference in a filter (id, email, `@me`) → user id, or null when nobody matches. */
  resolveUserReference(value: unknown): Promise<number | null>;
  /** Whether the table exists and the caller can see it (lookup targets; a lookup into any other filters as empty). */
  isVisibleTable(tableId: number): Promise<boolean>;
}
