import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { SystemSchema } from './schema.js';
import { getDialect } from './dialect.js';
import { querySlotsOf, withProgressTicks, type Database, type DdlProgress, type QueryBounds } from './database-engine.js';
import { registerBoundedReader } from './bounded-read.js';
import { createPostgresBoundedReader } from './postgres-bounded-reader.js';
import { kyselyPoolOf } from './postgres-pool.js';

// pg returns int8 (counts, bigserial) as strings by default; every id and count here fits a double.
pg.types.setTypeParser(20, (value) => Number(value));

/** PostgreSQL at DATABASE_URL: loaded by openDatabase only when one is configured. */
export function openPostgres(url: string, bounds: QueryBounds): Database {
  const pool = new pg.Pool({ connectionString: url, max: bounds.databaseConnections });
  // An idle connection dropped by the server (restart, failover, terminated backend) emits here;
  // unhandled, it would crash the process. The pool replaces it on the next checkout.
  pool.on('error', (error) => process.emitWarning(`PostgreSQL idle connection lost: ${error.message}`));
  const db = new Kysely<SystemSchema>({ dialect: new PostgresDialect({ pool: kyselyPoolOf(pool) }) });
  const boundedReader = createPostgresBoundedReader(url, querySlotsOf(bounds));
  registerBoundedReader(db, boundedReader);
  return {
    db,
    dialect: getDialect('postgres'),
    runLongDdl: (statement, onProgress) => runPostgresDdl(url, pool, statement, onProgress),
    destroy: async () => {
      await boundedReader.close();
      await db.destroy();
    },
  };
}

/**
 * On a client of its own, not the pool's: a build of minutes holds no pooled connection.
 * PostgreSQL reports a build's progress in `pg_stat_progress_create_index`.
 */
async function runPostgresDdl(url: string, pool: pg.Pool, statement: string, onProgress?: (progress: DdlProgress) => void): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  // A connection ended under the build also rejects its statement; unheard, the event would end the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
    const readProgress = async (): Promise<Partial<DdlProgress>> => {
      const { rows } = await pool.query('select phase, blocks_done, blocks_total from pg_stat_progress_create_index where pid = $1', [pid]);
      return rows[0] ? { phase: rows[0].phase, done: Number(rows[0].blocks_done), total: Number(rows[0].blocks_total) } : {};
    };
    await withProgressTicks(client.query(statement).then(() => undefined), onProgress, readProgress);
  } finally {
    await client.end();
  }
}
