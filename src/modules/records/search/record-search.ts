import type { Kysely, RawBuilder } from 'kysely';

/**
 * Substring search index over a record table's `_search` column (lower-cased text of its
 * searchable fields): an FTS5 trigram table kept in step by triggers on SQLite, a pg_trgm GIN
 * index on PostgreSQL.
 */
export interface RecordSearch {
  createIndex(db: Kysely<any>, table: string): Promise<void>;
  dropIndex(db: Kysely<any>, table: string): Promise<void>;
  /**
   * Every lower-cased term is a substring of `_search`; uses the index where the engine can.
   * `firstMatches`: the caller keeps only that many matches in id order (the search is a page's
   * only condition and the page is ordered by id), so the index may stop there.
   */
  condition(table: string, terms: readonly string[], firstMatches?: number): RawBuilder<boolean>;
}
