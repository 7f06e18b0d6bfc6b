import { sql } from 'kysely';
import type { RecordSearch } from './record-search.js';
import { searchTextTable, searchTextWriters } from './search-text-table.js';

const likeTerm = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Conditions on the search table's `text`, served by its trigram index. */
const holdsEveryTerm = (terms: readonly string[]) =>
  sql.join(
    terms.map((term) => sql<boolean>`text like ${likeTerm(term)} escape '\\'`),
    sql` and `,
  );

/**
 * The search text table with a pg_trgm GIN index (extension made by migration 0002) that
 * serves `like '%term%'`; a statement-level trigger on the record table deletes deleted
 * records' text (`tabula_delete_search_text`, migration 0011).
 */
export const postgresRecordSearch: RecordSearch = {
  async createIndex(db, table) {
    const texts = searchTextTable(table);
    await sql`create table ${sql.table(texts)} (id integer primary key, text text not null)`.execute(db);
    await sql`create index ${sql.id(`${texts}_text`)} on ${sql.table(texts)} using gin (text gin_trgm_ops)`.execute(db);
    await sql`create trigger ${sql.id(`${table}_delete_search`)} after delete on ${sql.table(table)}
      referencing old table as old_rows for each statement execute function tabula_delete_search_text()`.execute(db);
  },
  async dropIndex(db, table) {
    await sql`drop table if exists ${sql.table(searchTextTable(table))}`.execute(db);
  },
  ...searchTextWriters('arrays'),
  /**
   * The matching ids come from the search table; a page of search results alone in id order
   * takes only its first ones (the planner walks the search table's key or its index, as it
   * costs them).
   */
  condition: (table, terms, firstMatches) => {
    const limit = firstMatches === undefined ? sql`` : sql` order by id limit ${firstMatches}`;
    return sql<boolean>`id in (select id from ${sql.table(searchTextTable(table))} where ${holdsEveryTerm(terms)}${limit})`;
  },
  textCondition: (_table, terms) => sql<boolean>`(${holdsEveryTerm(terms)})`,
};
