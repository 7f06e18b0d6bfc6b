import { sql, type Kysely } from 'kysely';

/** One writer at a time: a single counter row per table (shard 0, created with the table). */
export async function createSqliteCounterTriggers(db: Kysely<any>, tableId: number): Promise<void> {
  const base = sql.table(`rec_${tableId}`);
  for (const [event, delta] of [['insert', 1], ['delete', -1], ['update', 0]] as const) {
    await sql`create trigger ${sql.id(`rec_${tableId}_count_${event}`)} after ${sql.raw(event)} on ${base} begin
      update table_counters set row_count = row_count + ${sql.lit(delta)}, change_count = change_count + 1
      where table_id = ${sql.lit(tableId)} and shard = 0; end`.execute(db);
  }
}
