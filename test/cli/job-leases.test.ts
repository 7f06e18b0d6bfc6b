import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTimeout, createCli, queryDatabase, type Cli, type Server } from './run-cli.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The jobs every `tabula serve` polls for (cli/background-jobs.ts). */
const jobs = ['change-retention', 'index-maintenance', 'reclaim-sweep', 'trash-purge'];

interface RunRow {
  job: string;
  holder: string;
  finished_at: string | null;
  outcome: string | null;
}

/**
 * Three servers on one database, each job's interval an hour: each job must run once in all,
 * not once per process. Every run holds its lease 10 s before working (TABULA_TEST_JOB_HOLD), so
 * one holder can be killed (SIGKILL: nothing handed back) mid-job; its lease (2 s) then expires and
 * another process runs the job, once.
 */
describe('background jobs run once across three processes, and a killed holder hands its job on', () => {
  let cli: Cli;
  let servers: Server[];
  beforeAll(async () => {
    cli = await createCli({ env: { TABULA_RECLAIM_INTERVAL: '1h', TABULA_PURGE_INTERVAL: '1h', TABULA_JOB_LEASE: '2s', TABULA_TEST_JOB_HOLD: '10s' } });
    // All at once, as a deployment starts: migrations and the first-run bootstrap happen once.
    servers = await Promise.all([cli.startServer(), cli.startServer(), cli.startServer()]);
  }, buildTimeout);
  afterAll(async () => cli?.close());

  const runs = () => queryDatabase<RunRow>(cli, 'SELECT job, holder, finished_at, outcome FROM job_runs ORDER BY id');
  const pidOf = (holder: string) => Number(holder.split(':').at(-2));

  it('each job is done exactly once; the killed process leaves its runs unfinished and another finishes them', { timeout: 120_000 }, async () => {
    let started: RunRow[] = [];
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await wait(100)) {
      started = (await runs()).filter((run) => run.finished_at === null);
      if (started.length > 0) break;
    }
    expect(started.length, 'no job started within 60 s').toBeGreaterThan(0);
    const victimPid = pidOf(started[0].holder);
    const victim = servers.find((server) => server.pid === victimPid)!;
    expect(victim, `holder ${started[0].holder} is none of the servers`).toBeDefined();
    process.kill(victimPid, 'SIGKILL');
    await victim.stop();

    let done: RunRow[] = [];
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await wait(200)) {
      done = (await runs()).filter((run) => run.outcome === 'done');
      if (jobs.every((job) => done.some((run) => run.job === job))) break;
    }
    // A little longer: a second run, if there were one, would show now (each poll comes every second).
    await wait(3000);
    const all = await runs();
    for (const job of jobs) expect(all.filter((run) => run.job === job && run.outcome === 'done'), job).toHaveLength(1);
    const killedRuns = all.filter((run) => pidOf(run.holder) === victimPid);
    expect(killedRuns.length).toBeGreaterThan(0);
    expect(killedRuns.every((run) => run.finished_at === null)).toBe(true);
    // The job it held was finished by a live process.
    const taken = all.find((run) => run.job === started[0].job && run.outcome === 'done')!;
    expect(pidOf(taken.holder)).not.toBe(victimPid);
    expect(servers.filter((server) => server !== victim).map((server) => server.pid)).toContain(pidOf(taken.holder));
    const leases = await queryDatabase<{ name: string; runs: number | string; holder: string | null }>(cli, 'SELECT name, runs, holder FROM job_leases ORDER BY name');
    expect(leases.map((lease) => [lease.name, Number(lease.runs), lease.holder])).toEqual(jobs.map((job) => [job, 1, null]));
  });
});
