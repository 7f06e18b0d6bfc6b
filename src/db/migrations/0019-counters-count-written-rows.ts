import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * PostgreSQL: a statement that wrote no row leaves the table's change counter alone.
 * The counter trigger of an update is per statement, and PostgreSQL fires a statement trigger
 * even for a statement that touched nothing; the one-statement update (record-statements.ts)
 * updates no row when every written value is already stored, and its trigger still counted a
 * change that the log never got, so the table's next cached count was taken afresh. Each
 * record table's update trigger now sees the rows it updated (a transition table, as the insert
 * and delete triggers already do), and the function returns at once when a statement's rows are
 * none: an update's, and likewise an insert's or a delete's (an insert whose metadata version
 * had moved, a delete of a row version no longer there).
 * SQLite's triggers are per row and never fire for a row not updated. Frozen once released.
 */
export function countersCountWrittenRowsMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`create or replace function tabula_count_rows() returns trigger language plpgsql as $$
          declare delta bigint := 0;
          begin
            if TG_OP = 'INSERT' then select count(*) into delta from new_rows;
            elsif TG_OP = 'DELETE' then select -count(*) into delta from old_rows;
            elsif not exists (select 1 from new_rows) then return null;
            end if;
            if TG_OP <> 'UPDATE' and delta = 0 then return null; end if;
            insert into table_counters as c (table_id, shard, row_count, change_count)
              values (TG_ARGV[0]::integer, pg_backend_pid() % 16, delta, 1)
              on conflict (table_id, shard)
              do update set row_count = c.row_count + excluded.row_count, change_count = c.change_count + 1;
            return null;
          end $$`.execute(db);
      const tables = await db.selectFrom('tables').select('id').orderBy('id').execute();
      for (const { id } of tables) {
        const trigger = sql.id(`rec_${id}_count_update`);
        const base = sql.table(`rec_${id}`);
        await sql`drop trigger if exists ${trigger} on ${base}`.execute(db);
        await sql`create trigger ${trigger} after update on ${base}
          referencing new table as new_rows for each statement execute function tabula_count_rows(${sql.lit(String(id))})`.execute(db);
      }
    },
  };
}
