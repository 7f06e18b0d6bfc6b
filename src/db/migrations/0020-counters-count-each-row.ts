import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * PostgreSQL: the table's change counter moves by the rows a statement wrote, not by one a
 * statement, as SQLite's per-row triggers count. A cached count follows the log only while the
 * log's record changes since it equal the counter's moves since (count-cache.ts), and reads
 * records created since through the primary key only while the counter grew exactly as much as
 * the row count: one change for a statement of many rows (create_batch, update_batch, and the
 * creates that arrive together and go as one statement: record-statements.ts) made every such
 * cached count read afresh. A statement that wrote no row still counts nothing (0019).
 * Frozen once released.
 */
export function countersCountEachRowMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`create or replace function tabula_count_rows() returns trigger language plpgsql as $$
          declare delta bigint := 0;
          declare written bigint := 0;
          begin
            if TG_OP = 'INSERT' then select count(*) into written from new_rows; delta := written;
            elsif TG_OP = 'DELETE' then select count(*) into written from old_rows; delta := -written;
            else select count(*) into written from new_rows;
            end if;
            if written = 0 then return null; end if;
            insert into table_counters as c (table_id, shard, row_count, change_count)
              values (TG_ARGV[0]::integer, pg_backend_pid() % 16, delta, written)
              on conflict (table_id, shard)
              do update set row_count = c.row_count + excluded.row_count, change_count = c.change_count + excluded.change_count;
            return null;
          end $$`.execute(db);
    },
  };
}
