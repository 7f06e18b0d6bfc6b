import type { Kysely } from 'kysely';
import type { DialectName } from '../../../db/dialect.js';
import { createPostgresCounterTriggers } from './postgres.js';
import { createSqliteCounterTriggers } from './sqlite.js';

/**
 * Triggers that keep `table_counters` (row count and change count, made by migration 0003) in
 * step with every insert, delete and update of a record table, inside the writing statement
 * itself: no write path can forget them, and nothing holds the counter row across a client
 * round trip. They go with their table when it is dropped.
 */
export function createCounterTriggers(db: Kysely<any>, dialect: DialectName, tableId: number): Promise<void> {
  return dialect === 'sqlite' ? createSqliteCounterTriggers(db, tableId) : createPostgresCounterTriggers(db, tableId);
}
