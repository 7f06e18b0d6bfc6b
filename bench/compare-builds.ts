/**
 * `node --import tsx bench/compare-builds.ts --before <dist> --after <dist> --dataset <name> --db sqlite|postgres --shape count|get|list|create|update`:
 * the server CPU a request of two builds of `tabula serve` on one dataset `npm run bench` made,
 * the steadier measure on a shared machine whose speed moves from minute to minute. Each build
 * runs alone, `--amount` requests of 10 connections a round, the two alternating for
 * `--rounds` rounds (ABBA…); the CPU is read from /proc/<pid>/stat around each round. SQLite:
 * each build on its own copy of the dataset; PostgreSQL: both on the dataset's database.
 * `--restart`: only the round's server runs (see the option below).
 * Prints each round's µs a request, the medians and their ratio (after / before).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { makeDrive, median } from './drive.js';
import { requestShapes } from './request-shapes.js';
import { readCpuMs, readDatabaseCpuMs, startProcess, stopProcess } from './processes.js';

const { values: options } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string', default: 'dist' },
    dataset: { type: 'string' },
    db: { type: 'string', default: 'sqlite' },
    shape: { type: 'string', default: 'count' },
    rows: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '4' },
    amount: { type: 'string', default: '30000' },
    seconds: { type: 'string' },
    /**
     * Each round starts its build's server afresh and stops it after, so that only one server
     * is ever running. With both kept running, the one started first measured 25-45 % less CPU
     * a request than the other on this machine whichever build it was (session 41).
     */
    restart: { type: 'boolean', default: false },
  },
});
if (!options.before || !options.dataset) throw new Error('--before <dist> and --dataset <name> are needed');
const dataDir = path.join(os.tmpdir(), options.dataset);
const dataset = JSON.parse(fs.readFileSync(path.join(dataDir, 'bench.json'), 'utf8')) as { tableId: number; apiKey: string; userIds: number[] };
const adminUrl = process.env.TABULA_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const copyOf = (side: string) => path.join(os.tmpdir(), `${options.dataset}-compare-${side}`);
const copied = new Set<string>();

async function start(dist: string, side: string) {
  const env: Record<string, string> = { TABULA_RATE_LIMIT_PER_MINUTE: '1000000000', LOG_LEVEL: 'warn' };
  let data = dataDir;
  if (options.db === 'postgres') env.DATABASE_URL = adminUrl.replace(/\/[^/]*$/, `/${options.dataset}`);
  else {
    // Copied once: a restarted server (--restart) goes on with its own copy.
    data = copyOf(side);
    if (!copied.has(side)) {
      fs.rmSync(data, { recursive: true, force: true });
      fs.cpSync(dataDir, data, { recursive: true });
      copied.add(side);
    }
  }
  return { data, ...(await startProcess(process.execPath, [path.join(dist, 'main.js'), 'serve', '--port', '0', '--data', data], env)) };
}

const next = requestShapes(dataset, Number(options.rows), { seed: 7 })[options.shape!];
if (!next) throw new Error(`unknown --shape ${options.shape}`);
const amount = Number(options.amount);
/** `--seconds`: each round runs this long instead of `--amount` requests, and requests a second are reported (an amount ends on autocannon's one-second tick, which makes its rate meaningless). */
const seconds = Number(options.seconds ?? 0);
const drive = makeDrive(10);
const auth = { authorization: `Bearer ${dataset.apiKey}` };

const builds = [options.before, options.after!];
const restart = options.restart!;
type Server = Awaited<ReturnType<typeof start>>;
const servers: Array<Server | undefined> = restart ? [undefined, undefined] : [await start(builds[0], 'before'), await start(builds[1], 'after')];
const perRequest: number[][] = [[], []];
const rates: number[][] = [[], []];
/** The main thread's CPU alone (its thread id is the process id): what bounds a server's requests a second. */
const mainThread: number[][] = [[], []];
/** PostgreSQL: the database's CPU a request (every postgres process), what bounds its writes. */
const database: number[][] = [[], []];

async function stop(side: number): Promise<void> {
  const server = servers[side];
  if (!server) return;
  servers[side] = undefined;
  await stopProcess(server.child);
}

try {
  for (const server of servers) if (server) await drive(server.url, 0, next, auth, Math.ceil(amount / 4));
  for (let round = 0; round < Number(options.rounds); round += 1) {
    for (const side of round % 2 === 0 ? [0, 1] : [1, 0]) {
      if (restart) {
        servers[side] = await start(builds[side], side === 0 ? 'before' : 'after');
        await drive(servers[side].url, 0, next, auth, Math.ceil(amount / 4));
      }
      const server = servers[side]!;
      const pid = server.child.pid!;
      const cpuBefore = readCpuMs(pid);
      const mainBefore = readCpuMs(pid, pid);
      const databaseBefore = options.db === 'postgres' ? readDatabaseCpuMs() : 0;
      const result = seconds > 0 ? await drive(server.url, seconds, next, auth) : await drive(server.url, 0, next, auth, amount);
      if (result.errors || result.non2xx) throw new Error(`${builds[side]}: ${result.errors + result.non2xx} requests failed`);
      perRequest[side].push((1000 * (readCpuMs(pid) - cpuBefore)) / result.requests.total);
      mainThread[side].push((1000 * (readCpuMs(pid, pid) - mainBefore)) / result.requests.total);
      if (options.db === 'postgres') database[side].push((1000 * (readDatabaseCpuMs() - databaseBefore)) / result.requests.total);
      if (seconds > 0) rates[side].push(result.requests.total / seconds);
      if (restart) await stop(side);
    }
  }
} finally {
  await stop(0);
  await stop(1);
  for (const side of ['before', 'after']) if (options.db !== 'postgres') fs.rmSync(copyOf(side), { recursive: true, force: true });
}
for (const side of [0, 1]) {
  console.log(`${builds[side]}: µs of server CPU a request ${perRequest[side].map((v) => v.toFixed(1)).join(', ')} (median ${median(perRequest[side]).toFixed(1)})`);
  console.log(`${builds[side]}: µs of the main thread's CPU a request ${mainThread[side].map((v) => v.toFixed(1)).join(', ')} (median ${median(mainThread[side]).toFixed(1)})`);
  if (options.db === 'postgres') console.log(`${builds[side]}: µs of the database's CPU a request ${database[side].map((v) => v.toFixed(1)).join(', ')} (median ${median(database[side]).toFixed(1)})`);
  if (seconds > 0) console.log(`${builds[side]}: requests a second ${rates[side].map((v) => v.toFixed(0)).join(', ')} (median ${median(rates[side]).toFixed(0)})`);
}
console.log(`${options.db} ${options.shape}: after / before ${(median(perRequest[1]) / median(perRequest[0])).toFixed(3)} (CPU), ${(median(mainThread[1]) / median(mainThread[0])).toFixed(3)} (main thread)${options.db === 'postgres' ? `, ${(median(database[1]) / median(database[0])).toFixed(3)} (database)` : ''}${seconds > 0 ? `, ${(median(rates[1]) / median(rates[0])).toFixed(3)} (requests a second)` : ''}`);
