/**
 * `node --import tsx bench/instructions.ts --dataset <name> --db sqlite|postgres --shape count|get|create|update [--dist dist] [--requests 2000] [--warmup 10000] [--rounds 3]`:
 * the instructions a request costs `tabula serve`, counted by valgrind's callgrind on a dataset
 * `npm run bench` made. This machine has no hardware counters and its CPU time a request moves
 * by ±6 % between identical builds (more with two servers running: compare-builds.ts), so a
 * change worth 2–5 % cannot be seen by timing it; instructions move by a few percent only (GC
 * and timers still vary). The server runs under callgrind with counting off through its
 * start-up and `--warmup` requests (valgrind's JIT support: `--smc-check`), counting on
 * for `--requests` requests of 4 connections, then dumped. Every thread of the server is counted
 * (the SQLite workers too); on PostgreSQL the database's own work is not. A few minutes a round.
 * Needs Debian's `valgrind`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { makeDrive, median } from './drive.js';
import { startProcess, stopProcess } from './processes.js';
import { requestShapes } from './request-shapes.js';

const { values: options } = parseArgs({
  options: {
    dataset: { type: 'string' },
    db: { type: 'string', default: 'sqlite' },
    shape: { type: 'string', default: 'count' },
    dist: { type: 'string', default: 'dist' },
    requests: { type: 'string', default: '2000' },
    /** Requests before counting: V8 still compiles the hot path's functions for thousands of requests (about 15 % of a create's instructions after 3,000). */
    warmup: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '3' },
    rows: { type: 'string', default: '1000000' },
  },
});
if (!options.dataset) throw new Error('--dataset <name> is needed (a dataset npm run bench made)');
const dataDir = path.join(os.tmpdir(), options.dataset);
const dataset = JSON.parse(fs.readFileSync(path.join(dataDir, 'bench.json'), 'utf8')) as { tableId: number; apiKey: string; userIds: number[] };
const adminUrl = process.env.TABULA_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const next = requestShapes(dataset, Number(options.rows), { seed: 11 })[options.shape!];
if (!next) throw new Error(`unknown --shape ${options.shape}`);
const requests = Number(options.requests);
const auth = { authorization: `Bearer ${dataset.apiKey}` };
const drive = makeDrive(4);

/** One round: the server started under callgrind, warmed up, counted over `requests` requests. */
async function countRound(round: number): Promise<number> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-callgrind-'));
  const env: Record<string, string> = { TABULA_RATE_LIMIT_PER_MINUTE: '1000000000', LOG_LEVEL: 'warn' };
  if (options.db === 'postgres') env.DATABASE_URL = adminUrl.replace(/\/[^/]*$/, `/${options.dataset}`);
  // The young generation's flag given here, so that `serve` does not re-execute itself (command-heap.ts) out of valgrind's sight.
  const args = ['-q', '--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', `--callgrind-out-file=${outDir}/out`, process.execPath, '--max-semi-space-size=8', path.join(options.dist!, 'main.js'), 'serve', '--port', '0', '--data', dataDir];
  const server = await startProcess('valgrind', args, env);
  const pid = String(server.child.pid);
  try {
    await drive(server.url, 0, next, auth, Number(options.warmup));
    execFileSync('callgrind_control', ['--instr=on', pid], { stdio: 'ignore' });
    const result = await drive(server.url, 0, next, auth, requests);
    if (result.errors || result.non2xx) throw new Error(`${result.errors + result.non2xx} requests failed`);
    // The dump holds what was counted since counting went on; the one at exit, nothing more.
    execFileSync('callgrind_control', ['--dump', pid], { stdio: 'ignore' });
    execFileSync('callgrind_control', ['--instr=off', pid], { stdio: 'ignore' });
    const [dump] = fs.readdirSync(outDir).map((name) => path.join(outDir, name)).sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
    const totals = /^summary:\s+(\d+)/m.exec(fs.readFileSync(dump, 'utf8'));
    if (!totals) throw new Error(`no summary in ${dump}`);
    const perRequest = Number(totals[1]) / result.requests.total;
    console.log(`round ${round + 1}: ${Math.round(perRequest).toLocaleString('en')} instructions a request (${result.requests.total} requests)`);
    return perRequest;
  } finally {
    await stopProcess(server.child);
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

const counts: number[] = [];
for (let round = 0; round < Number(options.rounds); round += 1) counts.push(await countRound(round));
console.log(`${options.dist} ${options.db} ${options.shape}: median ${Math.round(median(counts)).toLocaleString('en')} instructions a request`);
