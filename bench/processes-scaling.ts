/**
 * `npm run bench:processes [-- --seconds 10 --engine postgres|sqlite]`: get and list with
 * `tabula serve --processes 1` and `--processes 2` on one fresh database, the same load on each
 * (autocannon, 32 connections). Prints requests/s, p50, p99 and the ratio 2 ÷ 1. The built server
 * (dist/) is measured: run `npm run build` first. Figures on a shared machine are noisy: run it
 * twice and report both.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { combine, makeDrive, type Measurement, type NextRequest } from './drive.js';
import { startProcess, stopProcess } from './processes.js';
import { adminQuery, callApi, databaseUrlOf } from './bench-api.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, engine: { type: 'string', default: 'postgres' }, records: { type: 'string', default: '2000' } } });
const seconds = Number(values.seconds);
const recordCount = Number(values.records);
const drive = makeDrive(32);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-bench-processes-'));
const databaseName = `tabula_bench_processes_${crypto.randomBytes(4).toString('hex')}`;
const env: Record<string, string> = { TABULA_DATA_DIR: dataDir, TABULA_RATE_LIMIT_PER_MINUTE: '100000000', TABULA_SECRET: 'bench', LOG_LEVEL: 'error' };
if (values.engine === 'postgres') {
  await adminQuery(`CREATE DATABASE ${databaseName}`);
  env.DATABASE_URL = databaseUrlOf(databaseName);
}
const main = path.resolve('dist/main.js');

try {
  // Data first, through one server.
  let server = await startProcess(process.execPath, [main, 'serve', '--port', '0'], env);
  const { api_key: key } = JSON.parse(fs.readFileSync(path.join(dataDir, 'initial-credentials.json'), 'utf8'));
  const space = await callApi(server.url, key, 'POST', '/api/spaces/create', { name: 'Bench' });
  const table = await callApi(server.url, key, 'POST', `/api/space/${space.id}/tables/create`, { name: 'Rows', fields: [{ name: 'Name', type: 'text' }, { name: 'Amount', type: 'number' }] });
  const ids: number[] = [];
  for (let start = 0; start < recordCount; start += 500) {
    const records = Array.from({ length: Math.min(500, recordCount - start) }, (_, index) => ({ data: { name: `row ${start + index}`, amount: start + index } }));
    for (const created of await callApi(server.url, key, 'POST', `/api/table/${table.id}/records/create_batch`, { records })) ids.push(created.id);
  }
  await stopProcess(server.child);

  const shapes: Array<[string, NextRequest]> = [
    ['get', () => ({ method: 'GET', path: `/api/table/${table.id}/record/${ids[Math.floor(Math.random() * ids.length)]}/get` })],
    ['list 25', () => ({ method: 'POST', path: `/api/table/${table.id}/records/query`, body: { limit: 25, offset: Math.floor(Math.random() * 40) * 25 } })],
  ];
  const results: Record<string, Record<number, Measurement>> = {};
  for (const processes of [1, 2]) {
    server = await startProcess(process.execPath, [main, 'serve', '--port', '0', '--processes', String(processes)], env);
    const headers = { authorization: `Bearer ${key}` };
    for (const [name, next] of shapes) {
      await drive(server.url, 2, next, headers); // warm-up
      (results[name] ??= {})[processes] = combine([await drive(server.url, seconds, next, headers)]);
    }
    await stopProcess(server.child);
  }
  console.log(`engine ${values.engine}, ${os.availableParallelism()} cores, ${recordCount} records, ${seconds} s per shape, 32 connections`);
  console.log('shape     | 1 process req/s (p50/p99 ms) | 2 processes req/s (p50/p99 ms) | ratio | errors');
  for (const [name, byProcesses] of Object.entries(results)) {
    const [one, two] = [byProcesses[1], byProcesses[2]];
    const cell = (m: Measurement) => `${m.requestsPerSecond.toFixed(0)} (${m.p50}/${m.p99})`;
    console.log(`${name.padEnd(9)} | ${cell(one).padEnd(28)} | ${cell(two).padEnd(30)} | ${(two.requestsPerSecond / one.requestsPerSecond).toFixed(2)}× | ${one.errors + two.errors}`);
  }
} finally {
  if (values.engine === 'postgres') await adminQuery(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
