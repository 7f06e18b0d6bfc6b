import { sql, type Kysely } from 'kysely';

/**
 * Statement-level, so a bulk insert adds its row count once (and as many changes as rows, as
 * SQLite's per-row triggers count: migration 0020); concurrent writers spread over
 * shards by backend, so they do not queue on one counter row (`tabula_count_rows`, migration 0003).
 * Each sees the rows its statement wrote, and a statement that wrote none (an update of values
 * already stored, say) counts no change: PostgreSQL fires a statement trigger for no rows too
 * (migration 0019).
 */
export async function createPostgresCounterTriggers(db: Kysely<any>, tableId: number): Promise<void> {
  const base = sql.table(`rec_${tableId}`);
  const id = sql.lit(String(tableId));
  await sql`create trigger ${sql.id(`rec_${tableId}_count_insert`)} after insert on ${base}
    referencing new table as new_rows for each statement execute function tabula_count_rows(${id})`.execute(db);
  await sql`create trigger ${sql.id(`rec_${tableId}_count_delete`)} after delete on ${base}
    referencing old table as old_rows for each statement execute function tabula_count_rows(${id})`.execute(db);
  await sql`create trigger ${sql.id(`rec_${tableId}_count_update`)} after update on ${base}
    referencing new table as new_rows for each statement execute function tabula_count_rows(${id})`.execute(db);
}
