import type { DialectName } from '../../../db/dialect.js';
import { postgresRecordSearch } from './postgres.js';
import type { RecordSearch } from './record-search.js';
import { sqliteRecordSearch } from './sqlite.js';

export type { RecordSearch } from './record-search.js';
export { searchTextTable } from './search-text-table.js';

/** The search index of record tables on this engine (record-search.ts). */
export function recordSearchOf(dialect: DialectName): RecordSearch {
  return dialect === 'sqlite' ? sqliteRecordSearch : postgresRecordSearch;
}
