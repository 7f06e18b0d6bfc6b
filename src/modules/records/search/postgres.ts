import { sql } from 'kysely';
import type { RecordSearch } from './record-search.js';

/** A pg_trgm GIN index (extension made by migration 0002) that serves `like '%term%'`. */
export const postgresRecordSearch: RecordSearch = {
  async createIndex(db, table) {
    await sql`create index ${sql.id(`${table}_search`)} on ${sql.table(table)} using gin (_search gin_trgm_ops)`.execute(db);
  },
  async dropIndex() {
    // The GIN index goes with its table.
  },
  condition: (_table, terms) =>
    sql<boolean>`(${sql.join(
      terms.map((term) => sql<boolean>`_search like ${`%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`),
      sql` and `,
    )})`,
};
