import type { Kysely } from 'kysely';
import type { DialectName } from '../../db/dialect.js';
import { recordTableName } from '../fields/physical-names.js';
import { createCounterTriggers } from './counters/index.js';
import { recordSearchOf } from './search/index.js';

/**
 * What the records module keeps inside each record table besides its columns, for the tables
 * module that makes and drops record tables: the search text table beside it with its index,
 * and the triggers that keep `table_counters`. Each runs inside the caller's transaction.
 *
 * A service of its own rather than exports of records.service.ts: records.service.ts reaches
 * the tables module (field lists, table access), and tables reaching it back would close an
 * import cycle. This file imports nothing from tables.
 */

export async function createSearchIndexAndCounters(db: Kysely<any>, dialect: DialectName, tableId: number): Promise<void> {
  await recordSearchOf(dialect).createIndex(db, recordTableName(tableId));
  await createCounterTriggers(db, dialect, tableId);
}

/** Before the record table itself is dropped: the search text and its index are tables of their own. */
export async function dropSearchIndex(db: Kysely<any>, dialect: DialectName, tableId: number): Promise<void> {
  await recordSearchOf(dialect).dropIndex(db, recordTableName(tableId));
}
