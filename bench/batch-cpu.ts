/**
 * The CPU one records/create_batch of 1,000 costs the server and the database, measured directly
 * (docs/performance.md, "Session 25"): `npm run bench` rounds of a few seconds each differ by
 * ±10 % or more on a shared VM, which hides a change of a few percent; CPU time read from /proc
 * around a fixed amount of work does not.
 *
 * Drives an already running `tabula serve` (its pid given) on a bench dataset (bench/run.ts
 * `--dataset`): a checkpoint, then `--batches` create_batch calls of 1,000 records from
 * `--clients` concurrent clients, then waits until the change queue is empty (the sequencer's
 * work counts), and prints records/s and the CPU milliseconds a batch of the server process and
 * of every PostgreSQL process together, and the WAL a record wrote (pg_stat_wal: checkpoints, and
 * so the full-page images after them, come as often as the WAL fills `max_wal_size`).
 *
 *   node --import tsx bench/batch-cpu.ts --port 4100 --pid 1234 --dataset cb300 [--batches 40] [--clients 4]
 */
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { generateRecords } from './dataset.js';

const { values: options } = parseArgs({
  options: {
    port: { type: 'string' },
    pid: { type: 'string' },
    dataset: { type: 'string' },
    batches: { type: 'string', default: '40' },
    clients: { type: 'string', default: '4' },
    'wal-detail': { type: 'boolean', default: false },
  },
});
if (!options.port || !options.pid || !options.dataset) throw new Error('--port, --pid and --dataset are needed');
const dataset = JSON.parse(fs.readFileSync(`/tmp/${options.dataset}/bench.json`, 'utf8')) as { tableId: number; apiKey: string; userIds: number[] };
const batches = Number(options.batches);
const clients = Number(options.clients);

/** CPU milliseconds (user + system) of one process, from /proc (clock ticks of 10 ms). */
function cpuOf(pid: string): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0; // a backend that ended meanwhile
  }
}

/** The PostgreSQL processes alive now (backends come and go: a run sums those alive at its end, and those that ended meanwhile up to its start). */
function postgresPids(): string[] {
  return execFileSync('pgrep', ['-x', 'postgres']).toString().trim().split('\n');
}

const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:5432/${options.dataset}` });
await client.connect();
await client.query('checkpoint');

const bodies = Array.from({ length: 8 }, (_, n) => JSON.stringify({ records: Array.from(generateRecords(1000, dataset.userIds, 5000 + n), (data) => ({ data })) }));
const url = `http://127.0.0.1:${options.port}/api/table/${dataset.tableId}/records/create_batch`;
const headers = { authorization: `Bearer ${dataset.apiKey}`, 'content-type': 'application/json' };

const walOf = async () => (await client.query('select wal_records, wal_fpi, wal_bytes from pg_stat_wal')).rows[0] as Record<string, string>;
const walBefore = await walOf();
const startLsn = (await client.query('select pg_current_wal_insert_lsn() as lsn')).rows[0].lsn as string;
const pids = postgresPids();
const serverBefore = cpuOf(options.pid);
const databaseBefore = new Map(pids.map((pid) => [pid, cpuOf(pid)]));
const started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: clients }, async () => {
    while (next < batches) {
      const body = bodies[next++ % bodies.length];
      const response = await fetch(url, { method: 'POST', headers, body });
      if (response.status !== 200) throw new Error(`create_batch answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
// The sequencer's runs after the last answer are part of a batch's cost.
const queued = async () => Number((await client.query("select count(*) as n from change_queue where to_regclass('change_queue') is not null").catch(() => ({ rows: [{ n: 0 }] }))).rows[0].n);
while ((await queued()) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
await new Promise((resolve) => setTimeout(resolve, 200));
const server = cpuOf(options.pid) - serverBefore;
let database = 0;
// Backends started during the run (a server's pool connects as it needs) count from their start.
for (const pid of new Set([...databaseBefore.keys(), ...postgresPids()])) database += Math.max(0, cpuOf(pid) - (databaseBefore.get(pid) ?? 0));
const walAfter = await walOf();
if (options['wal-detail']) {
  // Which kinds of WAL a record wrote (pg_walinspect, PostgreSQL 15: `create extension pg_walinspect` in the dataset's database).
  const detail = await client.query(`select "resource_manager/record_type" as kind, count, fpi_size, combined_size from pg_get_wal_stats($1, pg_current_wal_insert_lsn(), true) where count > 0 order by combined_size desc limit 15`, [startLsn]);
  for (const row of detail.rows) console.log(`${String(row.kind).padEnd(28)} records/record ${(row.count / (batches * 1000)).toFixed(2).padStart(6)}  fpi bytes/record ${Math.round(row.fpi_size / (batches * 1000)).toString().padStart(6)}  bytes/record ${Math.round(row.combined_size / (batches * 1000)).toString().padStart(6)}`);
}
await client.end();
const walPerRecord = (column: string) => Math.round((Number(walAfter[column]) - Number(walBefore[column])) / (batches * 10)) / 100;
console.log(
  JSON.stringify({
    recordsPerSecond: Math.round((batches * 1000) / seconds),
    serverMsPerBatch: Math.round(server / batches),
    databaseMsPerBatch: Math.round(database / batches),
    walRecordsPerRecord: walPerRecord('wal_records'),
    walBytesPerRecord: Math.round(walPerRecord('wal_bytes')),
  }),
);
