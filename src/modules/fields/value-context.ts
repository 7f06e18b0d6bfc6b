import type { Kysely, RawBuilder } from 'kysely';
import type { Dialect } from '../../db/dialect.js';
import type { Clock } from '../../shared/clock.js';
import type { Actor } from '../auth/actor.js';
import type { Attachment, AttachmentInput } from './attachment.js';
import type { Field } from './field.js';

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
  /** The table written to, and the record when it is an update (undefined on create). */
  readonly target: { tableId: number; spaceId: number; recordId: number | undefined };
  /** The stored value of one of the target record's fields before this write (null on create). */
  currentValue(field: Field): Promise<unknown>;
  /** The files capability, for file fields. */
  readonly files: FileLedger;
  /**
   * Before a type's slow work (`prepare`: fetching URLs, storing files): confirms that the
   * metadata the write relied on is current, or throws so that the call runs again on fresh
   * metadata before doing that work rather than after. A failure after it is the write's own
   * and is answered as it is, so a URL is fetched once, within one budget.
   */
  confirmMetadata(): Promise<void>;
}

/**
 * What file fields ask of the files capability (src/modules/files implements it): the bytes,
 * the stores and the ledger of stored files stay there, and a field type only says when.
 */
export interface FileLedger {
  /**
   * The written items → attachments, before the write's transaction: inline data decoded,
   * URLs fetched, attachments of another record copied, each stored as a pending file; the
   * target record's own attachments kept as they are. Everything or nothing: on a failure,
   * what it stored is removed before it throws. `cleanup` removes it when the write fails.
   */
  store(items: readonly AttachmentInput[], field: Field, ctx: WriteContext): Promise<{ attachments: Attachment[]; cleanup(): Promise<void> }>;
  /** After the write committed: new attachments become live, the ones no longer there are released. */
  settle(next: readonly Attachment[], previous: readonly Attachment[], field: Field, ctx: WriteContext): Promise<void>;
  /** Inside a deleting transaction: these attachments' files are released (queued for reclaim). */
  releaseAttachments(db: Kysely<any>, attachments: readonly Attachment[]): Promise<void>;
  /** Inside the transaction deleting a field (alone or with its table or space): all its files are released. */
  releaseField(db: Kysely<any>, field: Field): Promise<void>;
  /** Inside the transaction deleting a table (alone or with its space): every file of it is released, its comments' too. */
  releaseTable(db: Kysely<any>, tableId: number): Promise<void>;
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
