import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.js';

/** Shards per table on PostgreSQL: concurrent writers rarely share a counter row. */
const counterShards = 16;

/**
 * Row counts move from `table_row_counts` (one row per table, updated by the service inside
 * its write transactions) to `table_counters`, kept by triggers on each record table. Besides
 * the row count, `change_count` grows with every write, so a per-process cache of query
 * counts can tell, with the one read it makes anyway, whether the table changed.
 *
 * On PostgreSQL the single counter row serialised every insert of a table behind the previous
 * one's commit; rows are now spread over shards picked by backend and summed on read.
 * Frozen once released.
 */
export function tableCountersMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('table_counters')
        .addColumn('table_id', 'integer', (c) => c.notNull().references('tables.id').onDelete('cascade'))
        .addColumn('shard', 'integer', (c) => c.notNull())
        .addColumn('row_count', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('change_count', 'bigint', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('table_counters_pk', ['table_id', 'shard'])
        .execute();
      await sql`insert into table_counters (table_id, shard, row_count, change_count) select table_id, 0, row_count, 0 from table_row_counts`.execute(db);
      if (dialect === 'postgres') {
        await sql`create or replace function tabula_count_rows() returns trigger language plpgsql as $$
          declare delta bigint := 0;
          begin
            if TG_OP = 'INSERT' then select count(*) into delta from new_rows;
            elsif TG_OP = 'DELETE' then select -count(*) into delta from old_rows;
            end if;
            insert into table_counters as c (table_id, shard, row_count, change_count)
              values (TG_ARGV[0]::integer, pg_backend_pid() % ${sql.lit(counterShards)}, delta, 1)
              on conflict (table_id, shard)
              do update set row_count = c.row_count + excluded.row_count, change_count = c.change_count + 1;
            return null;
          end $$`.execute(db);
      }
      const tables = await db.selectFrom('tables').select('id').execute();
      for (const { id } of tables) await createCounterTriggers(db, dialect, id);
      await db.schema.dropTable('table_row_counts').execute();
    },
  };
}

/** The counter triggers of one record table, as this release made them (migrations never call current code). */
async function createCounterTriggers(db: Kysely<any>, dialect: DialectName, tableId: number): Promise<void> {
  const base = sql.table(`rec_${tableId}`);
  if (dialect === 'sqlite') {
    for (const [event, delta] of [['insert', 1], ['delete', -1], ['update', 0]] as const) {
      await sql`create trigger ${sql.id(`rec_${tableId}_count_${event}`)} after ${sql.raw(event)} on ${base} begin
        update table_counters set row_count = row_count + ${sql.lit(delta)}, change_count = change_count + 1
        where table_id = ${sql.lit(tableId)} and shard = 0; end`.execute(db);
    }
    return;
  }
  const id = sql.lit(String(tableId));
  await sql`create trigger ${sql.id(`rec_${tableId}_count_insert`)} after insert on ${base}
    referencing new table as new_rows for each statement execute function tabula_count_rows(${id})`.execute(db);
  await sql`create trigger ${sql.id(`rec_${tableId}_count_delete`)} after delete on ${base}
    referencing old table as old_rows for each statement execute function tabula_count_rows(${id})`.execute(db);
  await sql`create trigger ${sql.id(`rec_${tableId}_count_update`)} after update on ${base}
    for each statement execute function tabula_count_rows(${id})`.execute(db);
}
