import { sql, type Kysely } from 'kysely';
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

/**
 * Records put back with the ids they had (a restore) are inserts to the triggers, as a create's
 * are; a cached count that reads inserts alone as records created above its highest id
 * (count-cache.ts) would miss them. One more change on the table's counter than it has rows
 * inserted tells the cache that something else happened: its next count reads afresh.
 */
export async function countRecordsReturned(db: Kysely<any>, tableId: number): Promise<void> {
  await sql`update table_counters set change_count = change_count + 1
    where table_id = ${tableId} and shard = (select min(shard) from table_counters where table_id = ${tableId})`.execute(db);
}
