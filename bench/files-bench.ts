/**
 * The files shapes of `npm run bench` (`--shapes files`, or any of `fileShapeNames`): files/create
 * and files/get of 1 MiB and 20 MiB files, the raw upload and download of 20 MiB, each against
 * the floor (bench/files-floor.ts: the same file bytes streamed to or from the same disk by a
 * bare node:http server), in MB/s of file bytes (1 MB = 2^20 bytes here), with the server's peak
 * RSS. Then one 50 MiB request of each kind on a fresh server: its RSS before, its peak, and the
 * difference. Everything goes through the public surface: the account from `tabula init`, the
 * space, table, records and files through HTTP.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { readPeakRssMb, readRssMb, resetPeakRss, startProcess, stopProcess } from './processes.js';

export const fileShapeNames = ['file-create-1mb', 'file-get-1mb', 'file-create-20mb', 'file-get-20mb', 'file-upload-20mb', 'file-download-20mb', 'file-one-50mb'];

const MB = 1024 * 1024;
const recordPool = 40;

export interface FileBenchOptions {
  engine: 'sqlite' | 'postgres';
  /** Where a fresh PostgreSQL database for the bench is made (the engine's admin URL). */
  adminUrl: string;
  adminQuery: (statement: string) => Promise<void>;
  shapes: string[];
  duration: number;
  slices: number;
  clients: number;
  log: (line: string) => void;
}

interface Sent {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

/** One request; resolves with the status and the number of body bytes received. */
function request(base: URL, agent: http.Agent, sent: Sent): Promise<{ status: number; bytes: number; body: Buffer | undefined }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ host: base.hostname, port: base.port, method: sent.method, path: sent.path, agent, headers: { ...sent.headers, ...(sent.body ? { 'content-length': sent.body.length } : {}) } }, (response) => {
      let bytes = 0;
      const small: Buffer[] = [];
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes <= 64 * 1024) small.push(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes, body: bytes <= 64 * 1024 ? Buffer.concat(small) : undefined }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(sent.body);
  });
}

async function json(base: URL, agent: http.Agent, sent: Sent): Promise<any> {
  const answer = await request(base, agent, { ...sent, headers: { 'content-type': 'application/json', ...sent.headers } });
  const parsed = answer.body ? JSON.parse(answer.body.toString()) : undefined;
  if (answer.status !== 200) throw new Error(`${sent.method} ${sent.path} answered ${answer.status}: ${answer.body?.toString().slice(0, 300)}`);
  return parsed;
}

interface Measured {
  count: number;
  seconds: number;
  latencies: number[];
  errors: number;
}

/** `clients` closed loops sending `next()` for `seconds`; each answer must be 200 with `expectBytes` of body, when given. */
async function drive(base: URL, seconds: number, clients: number, next: () => Sent, expectBytes?: number): Promise<Measured> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const latencies: number[] = [];
  let count = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline) {
      const sentAt = performance.now();
      const answer = await request(base, agent, next()).catch(() => ({ status: 0, bytes: 0 }));
      latencies.push(performance.now() - sentAt);
      if (answer.status === 200 && (expectBytes === undefined || answer.bytes === expectBytes)) count += 1;
      else errors += 1;
    }
  };
  await Promise.all(Array.from({ length: clients }, loop));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return { count, seconds: elapsed, latencies, errors };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

function summarise(runs: Measured[], fileBytes: number) {
  const count = runs.reduce((sum, run) => sum + run.count, 0);
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  const latencies = runs.flatMap((run) => run.latencies);
  return { mbPerSecond: (count * fileBytes) / MB / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors: runs.reduce((sum, run) => sum + run.errors, 0) };
}

/** The same bytes written to new files, then read back, on the same disk by this process with fs, one at a time, for about a second each. */
async function measureDiskAlone(directory: string, file: Buffer): Promise<{ write: number; read: number }> {
  fs.mkdirSync(directory, { recursive: true });
  let written = 0;
  let started = performance.now();
  while (performance.now() - started < 1000) await fs.promises.writeFile(path.join(directory, `${written++}.bin`), file, { flag: 'wx' });
  const write = (written * file.length) / MB / ((performance.now() - started) / 1000);
  let read = 0;
  started = performance.now();
  while (performance.now() - started < 1000) await fs.promises.readFile(path.join(directory, `${read++ % written}.bin`));
  const readRate = (read * file.length) / MB / ((performance.now() - started) / 1000);
  fs.rmSync(directory, { recursive: true, force: true });
  return { write, read: readRate };
}

export async function runFileShapes(options: FileBenchOptions): Promise<string> {
  const { log } = options;
  const wanted = new Set(options.shapes);
  const name = `tabula_bench_files_${options.engine}`;
  const dataDir = path.join(os.tmpdir(), name);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  let databaseUrl: string | null = null;
  if (options.engine === 'postgres') {
    await options.adminQuery(`drop database if exists ${name} with (force)`);
    await options.adminQuery(`create database ${name}`);
    databaseUrl = options.adminUrl.replace(/\/[^/]*$/, `/${name}`);
  }
  const dbEnv: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : {};
  const init = spawnSync(process.execPath, ['dist/main.js', 'init', '--email', 'files-bench@example.com', '--password', 'files-bench-password', '--json', '--data', dataDir], { env: { ...process.env, ...dbEnv }, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`tabula init failed: ${init.stderr}`);
  const apiKey = (JSON.parse(init.stdout.trim().split('\n').at(-1)!) as { api_key: string }).api_key;
  const auth = { authorization: `Bearer ${apiKey}` };
  const serverEnv = { ...dbEnv, TABULA_RATE_LIMIT_PER_MINUTE: '1000000000', LOG_LEVEL: 'error' };
  const startServer = () => startProcess(process.execPath, ['dist/main.js', 'serve', '--port', '0', '--data', dataDir], serverEnv);
  const floorDir = path.join(dataDir, 'floor');
  const startFloor = () => startProcess(process.execPath, ['--import', 'tsx', 'bench/files-floor.ts'], { BENCH_FILES_FLOOR_DIR: floorDir });

  const files = { '1mb': crypto.randomBytes(MB), '20mb': crypto.randomBytes(20 * MB), '50mb': crypto.randomBytes(50 * MB) };
  fs.mkdirSync(floorDir, { recursive: true });
  for (const [size, bytes] of Object.entries(files)) fs.writeFileSync(path.join(floorDir, `${size}.bin`), bytes);

  let server = await startServer();
  let base = new URL(server.url);
  const setupAgent = new http.Agent({ keepAlive: true });
  // The table, its records and the files to read, through the API.
  const space = await json(base, setupAgent, { method: 'POST', path: '/api/spaces/create', headers: auth, body: Buffer.from(JSON.stringify({ name: 'Files bench' })) });
  const table = await json(base, setupAgent, { method: 'POST', path: `/api/space/${space.id}/tables/create`, headers: auth, body: Buffer.from(JSON.stringify({ name: 'Files', fields: [{ id: 'docs', name: 'Docs', type: 'file' }] })) });
  const t = `/api/table/${table.id}`;
  const newRecord = async () => (await json(base, setupAgent, { method: 'POST', path: `${t}/records/create`, headers: auth, body: Buffer.from('{"data":{}}') })).id as number;
  const records: number[] = [];
  for (let i = 0; i < recordPool; i += 1) records.push(await newRecord());
  const readRecord = await newRecord();
  const stored: Record<string, string> = {};
  // Said, not sniffed: random bytes could look like some format, and files/get's length depends on the type.
  const readType = 'application/x-bench';
  for (const [size, bytes] of Object.entries(files)) {
    const answer = await json(base, setupAgent, { method: 'POST', path: `${t}/record/${readRecord}/files/upload?field_id=docs&name=read-${size}.bin`, headers: { ...auth, 'content-type': readType }, body: bytes });
    stored[size] = answer.files.at(-1).path;
  }
  setupAgent.destroy();
  const createBodies = { '1mb': Buffer.from(JSON.stringify({ field_id: 'docs', name: 'create-1mb.bin', data: files['1mb'].toString('base64') })), '20mb': Buffer.from(JSON.stringify({ field_id: 'docs', name: 'create-20mb.bin', data: files['20mb'].toString('base64') })) };
  let turn = 0;
  const nextRecord = () => records[turn++ % records.length];
  const jsonHeaders = { ...auth, 'content-type': 'application/json' };
  const getBody = (size: string) => Buffer.from(JSON.stringify({ field_id: 'docs', path: stored[size] }));
  const downloadPath = (size: string) => `${t}/record/${readRecord}/files/download?field_id=docs&path=${encodeURIComponent(stored[size])}`;
  const base64Length = (bytes: number, size: string) => JSON.stringify({ name: `read-${size}.bin`, type: readType, size: bytes, data: '' }).length + 4 * Math.ceil(bytes / 3);

  interface FileShape {
    name: string;
    kind: 'base64' | 'raw';
    size: '1mb' | '20mb';
    tabula: () => Sent;
    floor: () => Sent;
    /** Body bytes each answer must have (reads), so that a cut answer counts as an error. */
    tabulaBytes?: number;
    floorBytes?: number;
  }
  const shapes: FileShape[] = [
    ...(['1mb', '20mb'] as const).flatMap((size): FileShape[] => [
      { name: `file-create-${size}`, kind: 'base64', size, tabula: () => ({ method: 'POST', path: `${t}/record/${nextRecord()}/files/create`, headers: jsonHeaders, body: createBodies[size] }), floor: () => ({ method: 'POST', path: '/upload', body: files[size] }) },
      { name: `file-get-${size}`, kind: 'base64', size, tabula: () => ({ method: 'POST', path: `${t}/record/${readRecord}/files/get`, headers: jsonHeaders, body: getBody(size) }), floor: () => ({ method: 'GET', path: `/download/${size}.bin` }), tabulaBytes: base64Length(files[size].length, size), floorBytes: files[size].length },
    ]),
    { name: 'file-upload-20mb', kind: 'raw', size: '20mb', tabula: () => ({ method: 'POST', path: `${t}/record/${nextRecord()}/files/upload?field_id=docs&name=upload-20mb.bin`, headers: { ...auth, 'content-type': 'application/octet-stream' }, body: files['20mb'] }), floor: () => ({ method: 'POST', path: '/upload', body: files['20mb'] }) },
    { name: 'file-download-20mb', kind: 'raw', size: '20mb', tabula: () => ({ method: 'GET', path: downloadPath('20mb'), headers: auth }), floor: () => ({ method: 'GET', path: '/download/20mb.bin' }), tabulaBytes: files['20mb'].length, floorBytes: files['20mb'].length },
  ];

  const lines: string[] = [];
  let floor = await startFloor();
  try {
    const disk = { '1mb': await measureDiskAlone(path.join(dataDir, 'disk-alone'), files['1mb']), '20mb': await measureDiskAlone(path.join(dataDir, 'disk-alone'), files['20mb']) };
    for (const shape of shapes.filter((s) => wanted.has(s.name))) {
      // Each shape starts on a quiet disk: what the previous one wrote is flushed first, not written back during this one.
      spawnSync('sync');
      await new Promise((resolve) => setTimeout(resolve, 500));
      log(`shape ${shape.name}: warm-up, then ${options.duration}s each on Tabula and the floor, in ${options.slices} alternating slices…`);
      const floorBase = new URL(floor.url);
      await drive(base, 0.5, 1, shape.tabula, shape.tabulaBytes);
      await drive(floorBase, 0.5, 1, shape.floor, shape.floorBytes);
      resetPeakRss(server.child.pid!);
      resetPeakRss(floor.child.pid!);
      const tabulaRuns: Measured[] = [];
      const floorRuns: Measured[] = [];
      for (let slice = 0; slice < options.slices; slice += 1) {
        tabulaRuns.push(await drive(base, options.duration / options.slices, options.clients, shape.tabula, shape.tabulaBytes));
        floorRuns.push(await drive(floorBase, options.duration / options.slices, options.clients, shape.floor, shape.floorBytes));
      }
      const tabula = summarise(tabulaRuns, files[shape.size].length);
      const bare = summarise(floorRuns, files[shape.size].length);
      const share = Math.round((100 * tabula.mbPerSecond) / bare.mbPerSecond);
      const target = shape.kind === 'base64' ? 40 : 70;
      const reads = shape.name.includes('get') || shape.name.includes('download');
      const diskAlone = reads ? disk[shape.size].read : disk[shape.size].write;
      const errors = tabula.errors || bare.errors ? ` errors: ${tabula.errors}/${bare.errors}` : '';
      lines.push(
        `| ${shape.name} | ${tabula.mbPerSecond.toFixed(0)} | ${tabula.p50.toFixed(0)} | ${tabula.p99.toFixed(0)} | ${bare.mbPerSecond.toFixed(0)} | ${bare.p50.toFixed(0)} | ${bare.p99.toFixed(0)} | ${share}% (≥ ${target}%) | ${diskAlone.toFixed(0)} ${reads ? 'read' : 'write'} | ${readPeakRssMb(server.child.pid!).toFixed(0)} | ${readPeakRssMb(floor.child.pid!).toFixed(0)} |${errors}`,
      );
    }

    const single: string[] = [];
    if (wanted.has('file-one-50mb')) {
      const fileMb = files['50mb'].length / MB;
      /** One request on a fresh process, after one small request of the same kind: RSS before, peak, peak − before. */
      const once = async (start: () => Promise<{ child: ChildProcess; url: string }>, warm: (url: URL) => Sent, measured: (url: URL) => Sent, expectBytes?: number) => {
        const started = await start();
        try {
          const url = new URL(started.url);
          const agent = new http.Agent({ keepAlive: false });
          const warmed = await request(url, agent, warm(url));
          if (warmed.status !== 200) throw new Error(`warm-up answered ${warmed.status}: ${warmed.body?.toString().slice(0, 200)}`);
          await new Promise((resolve) => setTimeout(resolve, 500));
          const before = readRssMb(started.child.pid!);
          resetPeakRss(started.child.pid!);
          const answer = await request(url, agent, measured(url));
          if (answer.status !== 200 || (expectBytes !== undefined && answer.bytes !== expectBytes)) throw new Error(`the 50 MB request answered ${answer.status} with ${answer.bytes} bytes: ${answer.body?.toString().slice(0, 200)}`);
          const peak = readPeakRssMb(started.child.pid!);
          return { before, peak, delta: peak - before };
        } finally {
          await stopProcess(started.child);
        }
      };
      await stopProcess(server.child);
      await stopProcess(floor.child);
      const small = Buffer.from('small warm-up file');
      const smallCreate = Buffer.from(JSON.stringify({ field_id: 'docs', name: 'warm.txt', data: small.toString('base64') }));
      const bigCreate = Buffer.from(JSON.stringify({ field_id: 'docs', name: 'create-50mb.bin', data: files['50mb'].toString('base64') }));
      const record = () => records[turn++ % records.length];
      const rows: Array<[string, string, Awaited<ReturnType<typeof once>>, Awaited<ReturnType<typeof once>> | undefined]> = [];
      log('one 50 MB request of each kind, each on a fresh server…');
      const floorUpload = await once(startFloor, () => ({ method: 'POST', path: '/upload', body: small }), () => ({ method: 'POST', path: '/upload', body: files['50mb'] }));
      const floorDownload = await once(startFloor, () => ({ method: 'GET', path: '/download/1mb.bin' }), () => ({ method: 'GET', path: '/download/50mb.bin' }), files['50mb'].length);
      rows.push(['files/create (base64)', `< ${3 * fileMb} MB (3×)`, await once(startServer, () => ({ method: 'POST', path: `${t}/record/${record()}/files/create`, headers: jsonHeaders, body: smallCreate }), () => ({ method: 'POST', path: `${t}/record/${record()}/files/create`, headers: jsonHeaders, body: bigCreate })), floorUpload]);
      rows.push(['files/get (base64)', `< ${3 * fileMb} MB (3×)`, await once(startServer, () => ({ method: 'POST', path: `${t}/record/${readRecord}/files/get`, headers: jsonHeaders, body: getBody('1mb') }), () => ({ method: 'POST', path: `${t}/record/${readRecord}/files/get`, headers: jsonHeaders, body: getBody('50mb') }), base64Length(files['50mb'].length, '50mb')), floorDownload]);
      rows.push(['raw upload', '< 100 MB', await once(startServer, () => ({ method: 'POST', path: `${t}/record/${record()}/files/upload?field_id=docs&name=warm.txt`, headers: { ...auth, 'content-type': 'text/plain' }, body: small }), () => ({ method: 'POST', path: `${t}/record/${record()}/files/upload?field_id=docs&name=upload-50mb.bin`, headers: { ...auth, 'content-type': 'application/octet-stream' }, body: files['50mb'] })), floorUpload]);
      rows.push(['raw download', '< 100 MB', await once(startServer, () => ({ method: 'GET', path: downloadPath('1mb'), headers: auth }), () => ({ method: 'GET', path: downloadPath('50mb'), headers: auth }), files['50mb'].length), floorDownload]);
      single.push('', 'one 50 MB request on a fresh server (after one small request of the same kind); RSS in MB from /proc VmRSS and VmHWM', '', '| request | RSS before | peak RSS | peak − before | target (peak − before) | floor peak − before |', '|---|---|---|---|---|---|');
      for (const [label, target, tabula, bare] of rows) single.push(`| ${label} | ${tabula.before.toFixed(0)} | ${tabula.peak.toFixed(0)} | ${tabula.delta.toFixed(0)} | ${target} | ${bare ? bare.delta.toFixed(0) : ''} |`);
      server = await startServer();
      floor = await startFloor();
      base = new URL(server.url);
    }
    const header = [
      `files on ${options.engine}: ${options.clients} clients, ${options.duration}s per shape and side; MB/s of file bytes (1 MB = 2^20 B); floor = the same bytes streamed to/from the same disk by bare node:http; disk alone = fs.writeFile/readFile in one process`,
      '',
      '| shape | Tabula MB/s | p50 ms | p99 ms | floor MB/s | floor p50 | floor p99 | of floor (target) | disk alone MB/s | server peak RSS MB | floor peak RSS MB |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
    ];
    return [...header, ...lines, ...single].join('\n');
  } finally {
    await stopProcess(server.child);
    await stopProcess(floor.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
