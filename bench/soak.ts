/**
 * `npm run soak -- --minutes 30 [--engine sqlite|postgres] [--connections 64] [--processes 1] [--node-args '--flag …']`:
 * a mixed load (record gets and lists, creates, batches, updates, comments, small files, and 8
 * change streams held open throughout) on the built server (dist/; run `npm run build` first),
 * one autocannon run per minute. Prints per minute: requests/s, p50, p99, errors, the server's
 * RSS and open descriptors (summed over its processes with --processes), then the verdicts of
 * issue 31: RSS growth after the first 5 minutes ≤ 10%, descriptors flat, p99 of the last 5
 * minutes within 1.5× of the first 5. Figures on a shared machine are noisy.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { makeDrive, median, type NextRequest } from './drive.js';
import { readRssMb, startProcess, stopProcess } from './processes.js';
import { openStream, type SseStream } from '../test/sse-client.js';
import { adminQuery, callApi, databaseUrlOf } from './bench-api.js';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '30' }, engine: { type: 'string', default: 'postgres' }, connections: { type: 'string', default: '64' }, processes: { type: 'string', default: '1' }, 'node-args': { type: 'string', default: '' } },
});
const minutes = Number(values.minutes);
const drive = makeDrive(Number(values.connections));

/** The server's processes: itself and, with --processes, its workers. */
function processTree(pid: number): number[] {
  const children = fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [pid, ...children];
}

const descriptorsOf = (pid: number) => fs.readdirSync(`/proc/${pid}/fd`).length;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-soak-'));
const databaseName = `tabula_soak_${crypto.randomBytes(4).toString('hex')}`;
const env: Record<string, string> = { TABULA_DATA_DIR: dataDir, TABULA_RATE_LIMIT_PER_MINUTE: '100000000', TABULA_SECRET: 'soak', LOG_LEVEL: 'error' };
if (values.engine === 'postgres') {
  await adminQuery(`CREATE DATABASE ${databaseName}`);
  env.DATABASE_URL = databaseUrlOf(databaseName);
}

const streams: SseStream[] = [];
// --node-args: V8 or Node flags for the server (a heap setting to compare, say).
const server = await startProcess(process.execPath, [...values['node-args']!.split(' ').filter(Boolean), path.resolve('dist/main.js'), 'serve', '--port', '0', '--processes', values.processes!], env);
try {
  const { api_key: key } = JSON.parse(fs.readFileSync(path.join(dataDir, 'initial-credentials.json'), 'utf8'));
  const space = await callApi(server.url, key, 'POST', '/api/spaces/create', { name: 'Soak' });
  const table = await callApi(server.url, key, 'POST', `/api/space/${space.id}/tables/create`, {
    name: 'Rows',
    fields: [{ name: 'Name', type: 'text' }, { name: 'Amount', type: 'number' }, { name: 'Files', type: 'file' }],
  });
  const ids: number[] = [];
  for (let start = 0; start < 2000; start += 500) {
    const records = Array.from({ length: 500 }, (_, index) => ({ data: { name: `row ${start + index}`, amount: start + index } }));
    for (const created of await callApi(server.url, key, 'POST', `/api/table/${table.id}/records/create_batch`, { records })) ids.push(created.id);
  }
  // Comments and files go to records of their own, each in turn: on the 2,000 that gets read,
  // each record gathered ~45 files and ~60 comments in 30 minutes, its get answered 5.7 KB
  // instead of 132 bytes at 2.2× the cost, and the run measured the records' growth rather
  // than the server's health (session 20). In turn over 20,000, each gets a few of each.
  const attachTo: number[] = [];
  for (let start = 0; start < 20_000; start += 1000) {
    const records = Array.from({ length: 1000 }, (_, index) => ({ data: { name: `attachments ${start + index}` } }));
    for (const created of await callApi(server.url, key, 'POST', `/api/table/${table.id}/records/create_batch`, { records })) attachTo.push(created.id);
  }
  let attached = 0;
  const nextAttachTarget = () => attachTo[attached++ % attachTo.length];
  for (let index = 0; index < 8; index++) streams.push(await openStream(server.url, `/api/table/${table.id}/changes/stream`, { key }));

  const pick = () => ids[Math.floor(Math.random() * ids.length)];
  const t = `/api/table/${table.id}`;
  // Weights: mostly reads, as a real service sees.
  const mix: Array<[number, NextRequest]> = [
    [40, () => ({ method: 'GET', path: `${t}/record/${pick()}/get` })],
    [25, () => ({ method: 'POST', path: `${t}/records/query`, body: { limit: 25, offset: Math.floor(Math.random() * 80) * 25 } })],
    [10, () => ({ method: 'POST', path: `${t}/records/create`, body: { data: { name: 'soak', amount: 1 } } })],
    [8, () => ({ method: 'POST', path: `${t}/record/${pick()}/update`, body: { data: { amount: Math.floor(Math.random() * 1000) } } })],
    [5, () => ({ method: 'POST', path: `${t}/records/create_batch`, body: { records: Array.from({ length: 10 }, () => ({ data: { name: 'batch' } })) } })],
    [7, () => ({ method: 'POST', path: `${t}/record/${nextAttachTarget()}/comments/create`, body: { content: 'soak comment' } })],
    [5, () => ({ method: 'POST', path: `${t}/record/${nextAttachTarget()}/files/create`, body: { field_id: 'files', name: 'soak.txt', type: 'text/plain', data: Buffer.from(`soak ${Date.now()}`).toString('base64') } })],
  ];
  const total = mix.reduce((sum, [weight]) => sum + weight, 0);
  const next: NextRequest = () => {
    let roll = Math.random() * total;
    for (const [weight, make] of mix) if ((roll -= weight) < 0) return make();
    return mix[0][1]();
  };

  const rows: Array<{ minute: number; rps: number; p50: number; p99: number; errors: number; rssMb: number; fds: number }> = [];
  console.log(`soak: ${values.engine}, ${values.processes} process(es), ${values.connections} connections, ${minutes} min, 8 streams open`);
  console.log('minute | req/s | p50 ms | p99 ms | errors | RSS MiB | fds | changes streamed');
  for (let minute = 1; minute <= minutes; minute++) {
    const result = await drive(server.url, 60, next, { authorization: `Bearer ${key}` });
    const pids = processTree(server.child.pid!);
    const row = {
      minute,
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.non2xx,
      rssMb: pids.reduce((sum, pid) => sum + readRssMb(pid), 0),
      fds: pids.reduce((sum, pid) => sum + descriptorsOf(pid), 0),
    };
    rows.push(row);
    // The streams' events are counted and let go each minute: kept, 8 streams of every change
    // filled this process's heap (4 GB in 20 minutes at ~1,000 writes a second).
    const streamed = streams.reduce((sum, stream) => sum + stream.events.filter((event) => event.data !== undefined).length, 0);
    for (const stream of streams) stream.events.length = 0;
    console.log(`${String(minute).padStart(6)} | ${row.rps.toFixed(0).padStart(5)} | ${String(row.p50).padStart(6)} | ${String(row.p99).padStart(6)} | ${String(row.errors).padStart(6)} | ${row.rssMb.toFixed(0).padStart(7)} | ${String(row.fds).padStart(3)} | ${streamed}`);
  }
  const window = Math.min(5, Math.max(1, Math.floor(rows.length / 2)));
  const first = rows.slice(0, window);
  const last = rows.slice(-window);
  const rssGrowth = (last.at(-1)!.rssMb - first.at(-1)!.rssMb) / first.at(-1)!.rssMb;
  const p99Ratio = median(last.map((row) => row.p99)) / median(first.map((row) => row.p99));
  console.log(`RSS after the first ${window} min → end: ${(rssGrowth * 100).toFixed(1)}% (target ≤ 10%)`);
  console.log(`descriptors: first ${first.at(-1)!.fds}, last ${last.at(-1)!.fds} (target flat)`);
  console.log(`p99 of the last ${window} min ÷ the first ${window}: ${p99Ratio.toFixed(2)}× (target ≤ 1.5×)`);
  console.log(`streams still open: ${streams.filter((stream) => !stream.closed).length} of ${streams.length}`);
} finally {
  for (const stream of streams) stream.close();
  await stopProcess(server.child);
  if (values.engine === 'postgres') await adminQuery(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
