import type { Kysely, RawBuilder } from 'kysely';
import type { GroupDeferral } from '../../changes/group-commit.js';
import type { RepeatingTask } from '../../../shared/repeating-task.js';

/** A record's search text: the lower-cased text of its searchable fields (buildSearchText), null for none. */
export interface SearchText {
  id: number;
  text: string | null;
}

/**
 * Substring search over a record table. The search text lives beside the record table, not in
 * it, in `rec_<id>_search (id, text)`: one row per record that has any (see decisions.md,
 * "Search text beside the record"). SQLite indexes it with an FTS5 trigram table, PostgreSQL
 * with a pg_trgm GIN index. Deleting a record deletes its text (a trigger on the record table).
 */
export interface RecordSearch {
  /** The search table, its index and the trigger that deletes with the record, for a new record table. */
  createIndex(db: Kysely<any>, table: string): Promise<void>;
  /** Before the record table itself is dropped. */
  dropIndex(db: Kysely<any>, table: string): Promise<void>;
  /**
   * Sets the search text of these records (null removes it), in the caller's transaction: the
   * record write and its text commit together.
   */
  writeText(db: Kysely<any>, table: string, rows: readonly SearchText[]): Promise<void>;
  /** `writeText` for records inserted by the caller's transaction, which have no text yet (create, restore). */
  insertText(db: Kysely<any>, table: string, rows: readonly SearchText[]): Promise<void>;
  /**
   * What the engine's writes of a group commit (SQLite) put off to the group's end: the texts
   * written inside a group's transaction are written there, once (deferred-texts.ts).
   */
  groupDeferral?: GroupDeferral;
  /**
   * Every lower-cased term is a substring of the record's search text; uses the index where the
   * engine can. The statement's record table must be visible under its own name `table`.
   * `firstMatches`: the caller keeps only that many matches in id order (the search is a page's
   * only condition and the page is ordered by id), so the index may stop there.
   */
  condition(table: string, terms: readonly string[], firstMatches?: number): RawBuilder<boolean>;
  /**
   * The same test on the search table's own rows (`id`, `text`), for a statement that reads the
   * search table alone: a count whose only condition is the search counts there, since the
   * search table holds a row for exactly the records that have text (written and deleted with
   * the record, in its transaction), and needs no look-up of each match in the record table.
   */
  textCondition(table: string, terms: readonly string[]): RawBuilder<boolean>;
  /**
   * SQLite: indexes, in the background, the texts written since the last catch-up
   * (search-catch-up.ts); until then searches check those records' texts beside the index.
   * PostgreSQL's index takes each text in its write.
   */
  startCatchUp?(db: Kysely<any>, onError: (error: unknown) => void): RepeatingTask;
  /** SQLite: how many records the index does not hold yet, of every table (the catch-up's backlog). */
  countPending?(db: Kysely<any>): Promise<number>;
}
