import type { Kysely } from 'kysely';
import type { SystemSchema } from '../../db/schema.js';

type Db = Kysely<SystemSchema>;

/** How long the log of runs keeps a run (it is for operators and tests, not for correctness). */
const runsKeptMs = 30 * 24 * 3600_000;

/**
 * Takes the lease of job `name` for `holder` until `expiresAt`, in one statement (so two processes
 * never both get it): when nobody holds it, or its holder let it expire (a killed process), and,
 * with `dueAt`, only once its next run is due. Answers whether `holder` got it.
 */
export async function acquireLease(db: Db, name: string, holder: string, options: { now: string; expiresAt: string; due: boolean }): Promise<boolean> {
  const taken = await db
    .insertInto('job_leases')
    .values({ name, holder, expires_at: options.expiresAt, next_run_at: null })
    .onConflict((conflict) =>
      conflict.column('name').doUpdateSet({ holder, expires_at: options.expiresAt }).where((eb) =>
        eb.and([
          eb.or([eb('job_leases.holder', 'is', null), eb('job_leases.expires_at', '<', options.now)]),
          ...(options.due ? [eb.or([eb('job_leases.next_run_at', 'is', null), eb('job_leases.next_run_at', '<=', options.now)])] : []),
        ]),
      ),
    )
    .returning('holder')
    .executeTakeFirst();
  return taken?.holder === holder;
}

/** Pushes the lease's expiry on; false when `holder` no longer holds it (it expired and another process took it). */
export async function renewLease(db: Db, name: string, holder: string, expiresAt: string): Promise<boolean> {
  const result = await db.updateTable('job_leases').set({ expires_at: expiresAt }).where('name', '=', name).where('holder', '=', holder).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Gives the lease back. A run that ended (`done` or `failed`) counts and sets when the job is next
 * due (null: whenever asked, as for index builds); one handed back leaves it due, so another
 * process takes it at once.
 */
export async function releaseLease(db: Db, name: string, holder: string, ended: { counts: boolean; nextRunAt: string | null }): Promise<void> {
  await db
    .updateTable('job_leases')
    .set((eb) => ({
      holder: null,
      expires_at: null,
      ...(ended.counts ? { runs: eb('runs', '+', 1), next_run_at: ended.nextRunAt } : {}),
    }))
    .where('name', '=', name)
    .where('holder', '=', holder)
    .execute();
}

export async function recordRunStart(db: Db, job: string, holder: string, startedAt: string): Promise<number> {
  const row = await db.insertInto('job_runs').values({ job, holder, started_at: startedAt }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function recordRunEnd(db: Db, id: number, finishedAt: string, outcome: 'done' | 'failed' | 'handed back'): Promise<void> {
  await db.updateTable('job_runs').set({ finished_at: finishedAt, outcome }).where('id', '=', id).execute();
  const cutoff = new Date(Date.parse(finishedAt) - runsKeptMs).toISOString();
  await db.deleteFrom('job_runs').where('started_at', '<', cutoff).execute();
}
