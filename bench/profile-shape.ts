/**
 * `node --import tsx bench/profile-shape.ts --dataset <name> --db sqlite|postgres --shape get|count|create|update|delete|create-batch`:
 * starts `tabula serve` under `node --cpu-prof` on a dataset `npm run bench` made (its
 * bench.json), drives one shape with autocannon (10 connections, `--seconds`), stops the server
 * and prints each stage's share of the server's CPU samples (bench/profile-stages.ts), idle
 * time left out. The .cpuprofile stays in `--out` for a flame graph (Chrome DevTools, speedscope).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { makeDrive } from './drive.js';
import { requestShapes } from './request-shapes.js';
import { startProcess, stopProcess } from './processes.js';
import { stageShares } from './profile-stages.js';

const { values: options } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'tabula_bench_sqlite_100000' },
    db: { type: 'string', default: 'sqlite' },
    shape: { type: 'string', default: 'get' },
    seconds: { type: 'string', default: '10' },
    rows: { type: 'string', default: '100000' },
    'first-delete': { type: 'string' },
    out: { type: 'string', default: path.join(os.tmpdir(), 'tabula-profiles') },
    /** Another build to profile (an earlier commit's, for a before and after): its dist directory. */
    dist: { type: 'string', default: 'dist' },
  },
});
const dataDir = path.join(os.tmpdir(), options.dataset!);
const adminUrl = process.env.TABULA_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbEnv: Record<string, string> = options.db === 'postgres' ? { DATABASE_URL: adminUrl.replace(/\/[^/]*$/, `/${options.dataset}`) } : {};
const dataset = JSON.parse(fs.readFileSync(path.join(dataDir, 'bench.json'), 'utf8')) as { tableId: number; apiKey: string; userIds: number[] };
const rows = Number(options.rows);
const profileDir = path.join(options.out!, `${options.db}-${options.shape}-${Date.now()}`);
fs.mkdirSync(profileDir, { recursive: true });

const server = await startProcess(process.execPath, ['--cpu-prof', '--cpu-prof-dir', profileDir, path.join(options.dist!, 'main.js'), 'serve', '--port', '0', '--data', dataDir], {
  ...dbEnv,
  TABULA_RATE_LIMIT_PER_MINUTE: '1000000000',
  LOG_LEVEL: 'warn',
});
// Deletes walk up from `--first-delete` (default: past the ids `npm run bench`'s delete shape takes first).
const next = requestShapes(dataset, rows, { seed: 3, firstDelete: options['first-delete'] === undefined ? undefined : Number(options['first-delete']) })[options.shape!];
if (!next) throw new Error(`unknown --shape ${options.shape}`);
const drive = makeDrive(10);
const auth = { authorization: `Bearer ${dataset.apiKey}` };
await drive(server.url, 2, next, auth);
const result = await drive(server.url, Number(options.seconds), next, auth);
await stopProcess(server.child);
// `tabula serve` re-executes itself once (command-heap.ts): the first process's short profile is left aside for the server's, the largest.
const [file] = fs
  .readdirSync(profileDir)
  .filter((name) => name.endsWith('.cpuprofile'))
  .sort((a, b) => fs.statSync(path.join(profileDir, b)).size - fs.statSync(path.join(profileDir, a)).size);
const profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8'));
console.log(`${options.db} ${options.shape}: ${Math.round(result.requests.average)} req/s under the profiler (${result.non2xx + result.errors} failed); ${path.join(profileDir, file)}\n`);
console.log('| stage | share of busy CPU |\n|---|---|');
// The last seconds of the load only: start-up (module loading) and the warm-up are left out.
for (const [stage, share] of stageShares(profile, (Number(options.seconds) - 1) * 1000)) console.log(`| ${stage} | ${(share * 100).toFixed(1)} % |`);
