import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * Background jobs that must run in one process at a time across every process on the database
 * (docs/decisions.md, "Background jobs run once: leases in the database"): one lease row per job,
 * and a log of runs so an operator (and the tests) can see who ran what. Times are ISO 8601 text
 * with milliseconds, compared as text. Frozen once released.
 */
export function jobLeasesMigration(dialect: DialectName): Migration {
  const postgres = dialect === 'postgres';
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('job_leases')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('holder', 'text')
        .addColumn('expires_at', 'text')
        .addColumn('next_run_at', 'text')
        .addColumn('runs', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('job_runs')
        .addColumn('id', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('job', 'text', (c) => c.notNull())
        .addColumn('holder', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .addColumn('outcome', 'text')
        .execute();
      await db.schema.createIndex('job_runs_job_started').on('job_runs').columns(['job', 'started_at']).execute();
    },
  };
}
