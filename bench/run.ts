/**
 * `npm run bench -- --rows 1000000 --db sqlite|postgres`: makes a 10-field table as a user
 * would (account and users through the command line, everything else through the HTTP API, the
 * records through records/create_batch), then drives the real server and the floor (same SQL,
 * bare node:http) with autocannon on each shape, and prints requests/s, p50, p99 and server RSS
 * side by side. The shapes an index decides (list, list-deep, list-newest, search-list, count,
 * count-after-write) run twice: before any index (automatic indexes off), then with the default
 * settings once the list queries (by amount, and newest first by created_at) have had their
 * automatic indexes built. Each shape's time is cut into `--slices`
 * turns that alternate between Tabula and the floor, so that a slow moment of the machine
 * weighs on both rather than on one of them.
 * The `csv` shape runs `tabula export` of the whole table and `tabula import` of that file into a
 * new table (bench/csv-bench.ts): wall time and peak RSS of each command.
 * The `views` shape compares query, count and ids through a saved view (made in a session
 * through the public API) with the same request without it, in the same alternating slices.
 * The `comments-*` shapes read a thread of `--comments` comments (default 10,000) posted
 * through comments/create before the shapes run: its newest page and a page 90 % of the way
 * back (offset 9,000 of 10,000), and post comments with a mention on another record.
 * The `delete` shape deletes records one by one (record/<id>/delete: to the trash since the
 * change log), Tabula from id 1 up, the floor from the middle of the table up (its figure is
 * only indicative: past the last id it goes round again and deletes nothing), carried on from
 * run to run with --reuse; run it last, the others read and update random ids. The `history` shapes
 * page the history of a record given `--history` changes (default 10,000, made through
 * record/update before the shapes run): its newest page of 50 and a page 90 % of the way back,
 * one client at a time, so that the latency is a page's own.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createRandom, generateRecords, loadBenchThroughApi, makeRecord, makeWords, stages } from './dataset.js';
import { measureCsv } from './csv-bench.js';
import { combine, makeDrive, warmUp, type Measurement, type NextRequest } from './drive.js';
import { fileShapeNames, runFileShapes } from './files-bench.js';
import { readCpuMs, readDatabaseCpuMs, readRssMb, startProcess, stopProcess } from './processes.js';

const { values: options } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    db: { type: 'string', default: 'sqlite' },
    duration: { type: 'string', default: '10' },
    /**
     * Each side's warm-up: at least this many seconds, on while its rate still rises, up to
     * `--warmup-max` (drive.ts, warmUp). 20 s: V8 still compiles a server the size of Tabula's
     * tens of seconds into a shape (158 optimisations in 8 s after a 4 s warm-up of creates, 36
     * after 30 s), where the bare floor is compiled within a second; a short warm-up measured
     * Tabula's start-up against the others' steady state (docs/performance.md, session 48).
     */
    warmup: { type: 'string', default: '20' },
    'warmup-max': { type: 'string', default: '30' },
    slices: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    shapes: { type: 'string', default: 'list,list-deep,list-newest,search-list,count,count-after-write,count-all,search,get,create,create-batch,update,comments-newest,comments-deep,comments-create,history,history-deep,views,csv,heavy+light,delete' },
    comments: { type: 'string', default: '10000' },
    history: { type: 'string', default: '10000' },
    /** The dataset's name (its data directory under the temporary directory, its PostgreSQL database): two checkouts benched side by side need their own. */
    dataset: { type: 'string' },
    reuse: { type: 'boolean', default: false },
    /** Concurrent clients of the files shapes (`--shapes files`): each holds a whole file in flight. */
    'file-clients': { type: 'string', default: '2' },
  },
});
const rows = Number(options.rows);
const engine = options.db === 'postgres' ? 'postgres' : 'sqlite';
const duration = Number(options.duration);
const connections = Number(options.connections);
const searchTerm = 'dorm';
const adminUrl = process.env.TABULA_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const datasetName = options.dataset ?? `tabula_bench_${engine}_${rows}`;
const dataDir = path.join(os.tmpdir(), datasetName);
const databaseUrl = engine === 'postgres' ? adminUrl.replace(/\/[^/]*$/, `/${datasetName}`) : null;
const markerFile = path.join(dataDir, 'bench.json');
const commentCount = Number(options.comments);
/** The page of the `comments-deep` shape: 90 % of the way back (offset 9,000 of 10,000). */
const deepCommentOffset = Math.floor(commentCount * 0.9);
const commentsMarkerFile = path.join(dataDir, `comments-${commentCount}.json`);
const historyCount = Number(options.history);
const historyMarkerFile = path.join(dataDir, `history-${historyCount}.json`);
/** Where the `delete` shape goes on from with --reuse: the next id on each side. */
const deletesMarkerFile = path.join(dataDir, 'deletes.json');

function log(line: string) {
  process.stderr.write(`${line}\n`);
}

async function adminQuery(statement: string, url = adminUrl) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(statement)).rows;
  } finally {
    await client.end();
  }
}

/** The floor works on the database directly: the physical column of each field of the table. */
async function readFieldColumns(tableId: number): Promise<Record<string, string>> {
  const statement = `select id, slug from fields where table_id = ${Number(tableId)}`;
  let fields: Array<{ id: number; slug: string }>;
  if (engine === 'postgres') fields = await adminQuery(statement, databaseUrl!);
  else {
    const db = new Database(path.join(dataDir, 'tabula.db'), { readonly: true });
    fields = db.prepare(statement).all() as Array<{ id: number; slug: string }>;
    db.close();
  }
  return Object.fromEntries(fields.map((f) => [f.slug, `f_${f.id}`]));
}

/** Loads the dataset (or reuses the previous one with --reuse) and returns what the shapes need. */
async function prepareDataset() {
  if (options.reuse && fs.existsSync(markerFile)) {
    log(`reusing dataset in ${databaseUrl ?? dataDir}`);
    return JSON.parse(fs.readFileSync(markerFile, 'utf8'));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  if (engine === 'postgres') {
    await adminQuery(`drop database if exists ${datasetName} with (force)`);
    await adminQuery(`create database ${datasetName}`);
  }
  const dbEnv: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : {};
  const bench = await loadBenchThroughApi({ dataDir, env: dbEnv, rows, log });
  const columns = await readFieldColumns(bench.tableId);
  // What autovacuum does shortly after a bulk load: statistics for the planner, a visibility map
  // for index-only scans. SQLite gathers no statistics by itself, and Tabula runs no ANALYZE.
  // The search table too: never analysed, it left the planner guessing (a filtered, sorted
  // search on a million records 340 ms instead of 150; decisions.md, "Search text beside the record").
  // The change log too: a million appended changes, never analysed on a server with autovacuum
  // off (this machine's). Then a checkpoint, as the server would make within minutes: the load
  // and the vacuum leave gigabytes of dirty pages. Without both, the first shapes after a fresh
  // load measured that aftermath: a cached count 4,362 a second against 18,749 on the same
  // dataset reused, a count after an update 10.0 ms against 0.9 (docs/performance.md, session 49).
  if (engine === 'postgres') {
    await adminQuery(`vacuum (analyze) rec_${bench.tableId}, rec_${bench.tableId}_search, changes`, databaseUrl!);
    await adminQuery('checkpoint', databaseUrl!);
  }
  const dataset = { tableId: bench.tableId, apiKey: bench.apiKey, userIds: bench.userIds, loadSeconds: bench.loadSeconds, columns };
  fs.writeFileSync(markerFile, JSON.stringify(dataset));
  return dataset;
}

interface Shape {
  name: string;
  service: (random: ReturnType<typeof createRandom>) => { method: 'GET' | 'POST'; path: string; body?: unknown };
  /** The floor's path, or its path and body when it needs the request's data. */
  floor: (random: ReturnType<typeof createRandom>) => string | { path: string; body: unknown };
  /** Records each request writes, for a records/s figure. */
  recordsPerRequest?: number;
  /** Concurrent clients, when not `--connections` (the history shapes: one, for a page's own latency). */
  clients?: number;
  /** The bare floor's request (bench/bare-floor.ts), for the shapes it answers: get, create and update. */
  bare?: (random: ReturnType<typeof createRandom>) => string | { path: string; body: unknown };
}

/** Records in each request of the `create-batch` shape: the most create_batch takes. */
const batchSize = 1000;
/**
 * A few different batches, made and serialised once (about 300 KB each): building and
 * stringifying 1,000 records for every request would load the client, which shares the machine.
 */
let batchBodies: string[] | undefined;

function nextBatch(random: ReturnType<typeof createRandom>, userIds: readonly number[]): string {
  batchBodies ??= Array.from({ length: 8 }, (_, n) => JSON.stringify({ records: Array.from(generateRecords(batchSize, userIds, 1000 + n), (data) => ({ data })) }));
  return batchBodies[random.int(batchBodies.length)];
}

function defineShapes(dataset: Awaited<ReturnType<typeof prepareDataset>>, thread: CommentThread | null, history: HistoryRecord | null = null): Shape[] {
  const t = `/api/table/${dataset.tableId}`;
  const randomId = (random: ReturnType<typeof createRandom>) => 1 + random.int(rows);
  return [
    { name: 'list', service: () => ({ method: 'POST', path: `${t}/records/query`, body: list }), floor: () => '/list' },
    { name: 'list-deep', service: () => ({ method: 'POST', path: `${t}/records/query`, body: { ...list, offset: 10_000 } }), floor: () => '/list-deep' },
    { name: 'list-newest', service: () => ({ method: 'POST', path: `${t}/records/query`, body: listNewest }), floor: () => '/list-newest' },
    { name: 'count', service: () => ({ method: 'POST', path: `${t}/records/count`, body: { where: { stage: 'won' } } }), floor: () => '/count' },
    { name: 'count-all', service: () => ({ method: 'POST', path: `${t}/records/count`, body: {} }), floor: () => '/count-all' },
    { name: 'search', service: () => ({ method: 'POST', path: `${t}/records/query`, body: { search: searchTerm, limit: 100 } }), floor: () => '/search' },
    { name: 'search-list', service: () => ({ method: 'POST', path: `${t}/records/query`, body: { ...list, search: searchTerm } }), floor: () => '/search-list' },
    { name: 'get', service: (r) => ({ method: 'GET', path: `${t}/record/${randomId(r)}/get` }), floor: (r) => `/get/${randomId(r)}`, bare: (r) => `/get/${randomId(r)}` },
    {
      name: 'create',
      service: (r) => ({ method: 'POST', path: `${t}/records/create`, body: { data: makeRecord(r, dataset.userIds) } }),
      floor: () => '/create',
      bare: (r) => ({ path: '/create', body: { data: makeRecord(r, dataset.userIds) } }),
    },
    {
      name: 'create-batch',
      service: (r) => ({ method: 'POST', path: `${t}/records/create_batch`, body: nextBatch(r, dataset.userIds) }),
      floor: (r) => ({ path: '/create-batch', body: nextBatch(r, dataset.userIds) }),
      recordsPerRequest: batchSize,
    },
    {
      name: 'update',
      service: (r) => ({ method: 'POST', path: `${t}/record/${randomId(r)}/update`, body: { data: { amount: r.int(1_000_000) / 100 } } }),
      floor: (r) => `/update/${randomId(r)}`,
      bare: (r) => ({ path: `/update/${randomId(r)}`, body: { data: { amount: r.int(1_000_000) / 100 } } }),
    },
    ...(thread
      ? ([
          { name: 'comments-newest', service: () => ({ method: 'GET', path: `${t}/record/${thread.threadId}/comments/get` }), floor: () => '/comments-newest' },
          { name: 'comments-deep', service: () => ({ method: 'GET', path: `${t}/record/${thread.threadId}/comments/get?offset=${deepCommentOffset}` }), floor: () => '/comments-deep' },
          {
            name: 'comments-create',
            service: () => ({ method: 'POST', path: `${t}/record/${thread.createId}/comments/create`, body: { content: mentionContent(dataset.userIds[0]) } }),
            floor: () => '/comments-create',
          },
        ] satisfies Shape[])
      : []),
    ...(history
      ? ([
          { name: 'history', service: () => ({ method: 'POST', path: `${t}/record/${history.recordId}/history`, body: { limit: 50 } }), floor: () => '/history', clients: 1 },
          { name: 'history-deep', service: () => ({ method: 'POST', path: `${t}/record/${history.recordId}/history`, body: { limit: 50, before: history.deepBefore } }), floor: () => `/history-deep/${history.deepBefore}`, clients: 1 },
        ] satisfies Shape[])
      : []),
    {
      name: 'delete',
      service: () => ({ method: 'POST', path: `${t}/record/${deletes.tabula++}/delete` }),
      floor: () => `/delete/${half + 1 + ((deletes.floor++ - half - 1) % (rows - half))}`,
    },
  ];
}

/** The next id the `delete` shape deletes: Tabula from the first record up, the floor from the middle up (round again past the last). */
const half = Math.floor(rows / 2);
const deletes = fs.existsSync(deletesMarkerFile) && options.reuse ? (JSON.parse(fs.readFileSync(deletesMarkerFile, 'utf8')) as { tabula: number; floor: number }) : { tabula: 1, floor: half + 1 };

interface HistoryRecord {
  /** The record given `--history` changes. */
  recordId: number;
  /** The `before` cursor of a page 90 % of the way back. */
  deepBefore: number;
  seconds: number;
}

/**
 * A record with `--history` changes, each a record/update through the public API (one client:
 * writers of one record take turns), and the cursor of a page 90 % of the way back (paged there 100 at a time); with
 * --reuse, the previous run's.
 */
async function prepareHistoryRecord(url: string, dataset: Awaited<ReturnType<typeof prepareDataset>>): Promise<HistoryRecord> {
  if (options.reuse && fs.existsSync(historyMarkerFile)) return JSON.parse(fs.readFileSync(historyMarkerFile, 'utf8')) as HistoryRecord;
  const auth = { authorization: `Bearer ${dataset.apiKey}` };
  const t = `/api/table/${dataset.tableId}`;
  const api = async (requestPath: string, body: unknown) => {
    const response = await fetch(`${url}${requestPath}`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`POST ${requestPath}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<any>;
  };
  const recordId = (await api(`${t}/records/create`, { data: { name: 'Bench: a record with a long history' } })).id as number;
  let updates = 0;
  log(`updating one record ${historyCount.toLocaleString('en')} times through record/update…`);
  const started = performance.now();
  // Each update a new amount: an update that changes nothing appends no change.
  const result = await drive(url, 0, () => ({ method: 'POST', path: `${t}/record/${recordId}/update`, body: { data: { amount: (updates += 1) } } }), auth, historyCount - 1, 1);
  const seconds = (performance.now() - started) / 1000;
  if (result.errors || result.non2xx) throw new Error(`updating the history record: ${result.errors} errors, ${result.non2xx} answers other than 2xx`);
  let before: number | undefined;
  for (let paged = 0; paged < Math.floor(historyCount * 0.9); paged += 100) {
    const page = (await api(`${t}/record/${recordId}/history`, { limit: 100, ...(before === undefined ? {} : { before }) })) as Array<{ seq: number }>;
    before = page.at(-1)!.seq;
  }
  // What autovacuum does soon after 10,000 appends: statistics, without which the planner
  // guessed a record had 23 changes, read all 10,000 and sorted them (11 ms instead of 0.06).
  if (engine === 'postgres') await adminQuery('analyze changes', databaseUrl!);
  const history = { recordId, deepBefore: before!, seconds };
  log(`  ${historyCount.toLocaleString('en')} changes in ${seconds.toFixed(1)} s; the deep page is before seq ${before}`);
  fs.writeFileSync(historyMarkerFile, JSON.stringify(history));
  return history;
}

/** The comment of the `comments-create` shape: a mention of a member of the space, who gets a notification each time. */
const mentionContent = (userId: number) => `@{${userId}:Member 0} can you confirm the amount before Friday? The client asked twice.`;

interface CommentThread {
  /** The record holding `--comments` comments, read by the `comments-newest` and `comments-deep` shapes. */
  threadId: number;
  /** The record `comments-create` posts to (and the floor too), so that the thread keeps its size. */
  createId: number;
  /** How the API key's comments are signed, for the floor's own inserts. */
  apiKeyId: number;
  userName: string;
  seconds: number;
}

/**
 * Two records, and `--comments` comments on the first, posted through the public API
 * (comments/create, 10 connections), as an integration would; with --reuse, the previous
 * run's (per comment count).
 */
async function prepareCommentThread(url: string, dataset: Awaited<ReturnType<typeof prepareDataset>>): Promise<CommentThread> {
  if (options.reuse && fs.existsSync(commentsMarkerFile)) return JSON.parse(fs.readFileSync(commentsMarkerFile, 'utf8')) as CommentThread;
  const auth = { authorization: `Bearer ${dataset.apiKey}` };
  const t = `/api/table/${dataset.tableId}`;
  const api = async (method: 'GET' | 'POST', requestPath: string, body?: unknown) => {
    const response = await fetch(`${url}${requestPath}`, { method, headers: { ...auth, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!response.ok) throw new Error(`${method} ${requestPath}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<any>;
  };
  const threadId = (await api('POST', `${t}/records/create`, { data: { name: 'Bench: a long thread of comments' } })).id as number;
  const createId = (await api('POST', `${t}/records/create`, { data: { name: 'Bench: comments/create' } })).id as number;
  const random = createRandom(11);
  let posted = 0;
  log(`posting ${commentCount.toLocaleString('en')} comments through comments/create…`);
  const started = performance.now();
  const result = await drive(url, 0, () => ({ method: 'POST', path: `${t}/record/${threadId}/comments/create`, body: { content: `Comment ${(posted += 1)}: ${makeWords(random, 12).join(' ')}` } }), auth, commentCount);
  const seconds = (performance.now() - started) / 1000;
  if (result.errors || result.non2xx) throw new Error(`posting comments: ${result.errors} errors, ${result.non2xx} answers other than 2xx`);
  const [newest] = (await api('GET', `${t}/record/${threadId}/comments/get?limit=1`)) as Array<{ api_key_id: number; user_name: string }>;
  const thread = { threadId, createId, apiKeyId: newest.api_key_id, userName: newest.user_name, seconds };
  log(`  ${commentCount.toLocaleString('en')} comments in ${seconds.toFixed(1)} s (${Math.round(commentCount / seconds)} comments/s)`);
  fs.writeFileSync(commentsMarkerFile, JSON.stringify(thread));
  return thread;
}

const drive = makeDrive(connections);
/** A side warmed up before its slices (drive.ts, warmUp): its rate, to plan the slices by. */
const warm = (url: string, next: NextRequest, headers: Record<string, string>, clients = connections) =>
  warmUp(drive, url, next, headers, { clients, minSeconds: Number(options.warmup), maxSeconds: Number(options['warmup-max']) });

/** The saved view of the `views` shape: the `list` shape's filter and sort. */
const benchView = { name: 'Bench: won by amount', type: 'grid', filters: [{ column: 'stage', compare: '=', value: 'won' }], order_by: 'amount', order_dir: 'D' };

/**
 * The bench view's id: found by name (a reused dataset keeps it), or created the way a person
 * would, in a session of the account owner (API keys may not create views).
 */
async function ensureBenchView(url: string, dataset: Awaited<ReturnType<typeof prepareDataset>>): Promise<number> {
  const t = `${url}/api/table/${dataset.tableId}`;
  const listed = (await (await fetch(`${t}/views/list`, { headers: { authorization: `Bearer ${dataset.apiKey}` } })).json()) as Array<{ id: number; name: string }>;
  const found = listed.find((view) => view.name === benchView.name);
  if (found) return found.id;
  const login = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.com', password: 'bench-password' }) });
  const cookie = /tabula_session=[^;]+/.exec(login.headers.get('set-cookie') ?? '')?.[0];
  if (!login.ok || !cookie) throw new Error(`bench login failed: ${login.status} ${await login.text()}`);
  const created = await fetch(`${t}/views/create`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(benchView) });
  if (!created.ok) throw new Error(`bench view create failed: ${created.status} ${await created.text()}`);
  return ((await created.json()) as { id: number }).id;
}

/**
 * Query (first page), count and ids through the saved view, each next to the same request
 * without it (the view's filters and sort written in the body), in alternating slices: what
 * reading the view costs a request. Target: the view keeps ≥ 95 % of the plain requests/s.
 */
async function measureViews(url: string, dataset: Awaited<ReturnType<typeof prepareDataset>>): Promise<string[]> {
  const viewId = await ensureBenchView(url, dataset);
  const auth = { authorization: `Bearer ${dataset.apiKey}` };
  const t = `/api/table/${dataset.tableId}`;
  const plain = { filters: benchView.filters, order_by: benchView.order_by, order_dir: benchView.order_dir };
  const pairs: Array<[string, string, Record<string, unknown>, Record<string, unknown>]> = [
    ['query', 'query', { ...plain, limit: 100 }, { view_id: viewId, limit: 100 }],
    ['count', 'count', plain, { view_id: viewId }],
    ['ids', 'ids', plain, { view_id: viewId }],
  ];
  const lines: string[] = [];
  for (const [name, path, plainBody, viewBody] of pairs) {
    const plainNext: NextRequest = () => ({ method: 'POST', path: `${t}/records/${path}`, body: plainBody });
    const viewNext: NextRequest = () => ({ method: 'POST', path: `${t}/records/${path}`, body: viewBody });
    log(`shape views/${name}: warm-up, then ${duration}s each without and through view ${viewId}, in ${options.slices} alternating slices…`);
    const warmPlain = await warm(url, plainNext, auth);
    await warm(url, viewNext, auth);
    const slices = Math.max(1, Number(options.slices));
    // One number of requests for both sides: the same request, with or without the view.
    const amount = requestsPerSlice(warmPlain, slices);
    const plainSlices: autocannon.Result[] = [];
    const viewSlices: autocannon.Result[] = [];
    for (let slice = 0; slice < slices; slice += 1) {
      // Each slice starts with the other side, so that neither always follows the other.
      const order: Array<[autocannon.Result[], NextRequest]> = [
        [plainSlices, plainNext],
        [viewSlices, viewNext],
      ];
      if (slice % 2 === 1) order.reverse();
      for (const [results, next] of order) results.push(await drive(url, duration / slices, next, auth, amount));
    }
    const without = combine(plainSlices);
    const through = combine(viewSlices);
    const share = without.requestsPerSecond > 0 ? Math.round((100 * through.requestsPerSecond) / without.requestsPerSecond) : 0;
    const errors = without.errors || through.errors ? ` errors: ${without.errors}/${through.errors}` : '';
    lines.push(`| ${name} | ${without.requestsPerSecond.toFixed(0)} | ${without.p50} | ${without.p99} | ${through.requestsPerSecond.toFixed(0)} | ${through.p50} | ${through.p99} | ${share}% |${errors}`);
  }
  return lines;
}

/**
 * A side answering a few requests a second would lose much of each slice to the requests still
 * in flight when it ends: it runs a fixed number of requests per slice instead, in whole rounds
 * of `connections`: a part-filled last round takes about as long as a full one, so a side whose
 * count ended mid-round looked slower than one doing the same work in whole rounds (PostgreSQL
 * ids through a view read 93 % of the same request without it, in two sessions; 112 % in
 * whole rounds, with the same number of requests on both sides).
 */
function requestsPerSlice(rate: number, slices: number): number | undefined {
  const expected = rate * (duration / slices);
  return expected < 100 ? Math.max(1, Math.round(expected / connections)) * connections : undefined;
}

/** Clients sending the slow query of the heavy + light shape. */
const heavyClients = 4;

/**
 * A second account with a one-record table (made through the command line and the API, kept for
 * --reuse): the light caller of the heavy + light shape is another tenant.
 */
async function ensureLightTenant(url: string, dbEnv: Record<string, string>): Promise<{ apiKey: string; tableId: number }> {
  const marker = path.join(dataDir, 'light-tenant.json');
  if (fs.existsSync(marker)) return JSON.parse(fs.readFileSync(marker, 'utf8'));
  const created = spawnSync(process.execPath, ['dist/main.js', 'accounts', 'create', '--email', 'light@example.com', '--password', 'light-password', '--data', dataDir, '--json'], { env: { ...process.env, ...dbEnv } });
  if (created.status !== 0) throw new Error(`accounts create: ${created.stderr}`);
  const apiKey = (JSON.parse(created.stdout.toString()) as { api_key: string }).api_key;
  const api = async (requestPath: string, body: unknown) => {
    const response = await fetch(`${url}${requestPath}`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`POST ${requestPath}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<any>;
  };
  const space = await api('/api/spaces/create', { name: 'Light' });
  const table = await api(`/api/space/${space.id}/tables/create`, { name: 'One record', fields: [{ id: 'name', name: 'Name', type: 'text' }] });
  await api(`/api/table/${table.id}/records/create`, { data: { name: 'only' } });
  const tenant = { apiKey, tableId: table.id as number };
  fs.writeFileSync(marker, JSON.stringify(tenant));
  return tenant;
}

/**
 * Light calls alone, then the same calls while four clients of the bench account send counts of
 * 50 substring conditions over every record (each a different query, so none is answered from
 * the count cache): how much one tenant's heavy queries slow everyone's cheap calls. Two light
 * callers: the bench account's own record gets (which never take a query slot), and another
 * account's `records/query {}` on its one-record table (which does: issue 26).
 */
async function measureHeavyAndLight(url: string, dataset: Awaited<ReturnType<typeof prepareDataset>>, dbEnv: Record<string, string>): Promise<string[]> {
  const auth = { authorization: `Bearer ${dataset.apiKey}` };
  const t = `/api/table/${dataset.tableId}`;
  const tenant = await ensureLightTenant(url, dbEnv);
  const random = createRandom(7);
  const lights: Array<{ name: string; next: NextRequest; headers: Record<string, string> }> = [
    { name: 'get, same account', next: () => ({ method: 'GET', path: `${t}/record/${1 + random.int(rows)}/get` }), headers: auth },
    { name: 'query {} of another account', next: () => ({ method: 'POST', path: `/api/table/${tenant.tableId}/records/query`, body: {} }), headers: { authorization: `Bearer ${tenant.apiKey}` } },
  ];
  const heavyNext: NextRequest = () => ({
    method: 'POST',
    path: `${t}/records/count`,
    body: { filters: Array.from({ length: 50 }, (_, i) => ({ column: 'name', compare: 'C', value: `q${random.int(1_000_000)}x${i}`, connector: 'OR' })) },
  });
  log(`shape heavy+light: light calls alone for ${duration}s each, then beside ${heavyClients} clients of slow counts…`);
  const alone: autocannon.Result[] = [];
  for (const light of lights) {
    await warm(url, light.next, light.headers);
    alone.push(await drive(url, duration, light.next, light.headers));
  }
  const heavy = drive(url, duration * lights.length + 2, heavyNext, auth, undefined, heavyClients);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const loaded: autocannon.Result[] = [];
  for (const light of lights) loaded.push(await drive(url, duration, light.next, light.headers));
  const heavyResult = await heavy;
  const timedOut = heavyResult.non2xx;
  return lights.map((light, index) => {
    const [quiet, busy] = [alone[index], loaded[index]];
    const ratio = quiet.latency.p99 > 0 ? busy.latency.p99 / quiet.latency.p99 : 0;
    return `| ${light.name} | ${quiet.requests.average.toFixed(0)} | ${quiet.latency.p50} | ${quiet.latency.p99} | ${busy.requests.average.toFixed(0)} | ${busy.latency.p50} | ${busy.latency.p99} | ${ratio.toFixed(1)}× | ${busy.non2xx} | ${heavyResult.requests.total - timedOut} answered, ${timedOut} over budget |`;
  });
}

async function main() {
  log(`building…`);
  if (spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' }).status !== 0) process.exit(1);
  // `files` stands for every files shape; they need no records dataset and run on their own.
  const wanted = new Set(options.shapes!.split(',').flatMap((shape) => (shape === 'files' ? fileShapeNames : [shape])));
  const fileShapes = fileShapeNames.filter((shape) => wanted.has(shape));
  if (fileShapes.length > 0) {
    const table = await runFileShapes({ engine, adminUrl, adminQuery: async (statement: string) => void (await adminQuery(statement)), shapes: fileShapes, duration, slices: Math.max(1, Number(options.slices)), clients: Number(options['file-clients']), log });
    console.log(`\n${table}`);
  }
  if (![...wanted].some((shape) => !fileShapeNames.includes(shape))) return;
  await runRecordShapes(wanted);
}

/** The shapes an index decides: measured twice, before any index and after the automatic ones. */
const indexShapes = new Set(['list', 'list-deep', 'list-newest', 'search-list', 'count', 'count-after-write']);

/** The list shapes' bodies: a stage's records by amount, and a stage's newest records (a system column's index). */
const list = { where: { stage: 'won' }, order_by: 'amount', order_dir: 'D', limit: 100 };
const listNewest = { where: { stage: 'won' }, order_by: 'created_at', order_dir: 'D', limit: 100 };

/** The server's warnings and errors through a run, appended to the dataset's `server.log`. */
function startServer(dbEnv: Record<string, string>, extra: Record<string, string> = {}) {
  const args = ['dist/main.js', 'serve', '--port', '0', '--data', dataDir];
  return startProcess(process.execPath, args, { ...dbEnv, TABULA_RATE_LIMIT_PER_MINUTE: '1000000000', LOG_LEVEL: 'warn', ...extra }, path.join(dataDir, 'server.log'));
}

/** A server the shapes drive: its address, and its process for RSS and CPU time. */
interface Side {
  url: string;
  pid: number;
}

/** One side's slices of a shape: the autocannon results, the server CPU time they took and (PostgreSQL) the database's. */
class SideSlices {
  readonly results: autocannon.Result[] = [];
  cpuMs = 0;
  databaseCpuMs = 0;

  async run(side: Side, work: () => Promise<autocannon.Result>): Promise<void> {
    const cpuBefore = readCpuMs(side.pid);
    const databaseBefore = readDatabaseCpuMs();
    this.results.push(await work());
    this.cpuMs += readCpuMs(side.pid) - cpuBefore;
    this.databaseCpuMs += readDatabaseCpuMs() - databaseBefore;
  }

  /** Server CPU per answered request, in ms (clock ticks of 10 ms: a long slice keeps the rounding small); with the database's after a slash on PostgreSQL. */
  cpuPerRequest(): string {
    const requests = this.results.reduce((sum, r) => sum + r.requests.total, 0);
    if (requests === 0) return '';
    return engine === 'postgres' ? `${(this.cpuMs / requests).toFixed(2)} / ${(this.databaseCpuMs / requests).toFixed(2)}` : (this.cpuMs / requests).toFixed(2);
  }
}

/**
 * Each shape on Tabula, the floor and, for get, create and update, the bare floor
 * (bench/bare-floor.ts), in alternating slices: one table row each, with the server CPU time per
 * request of Tabula and the bare floor.
 */
async function measureShapes(server: Side, floor: Side, bare: Side | null, shapes: Shape[], dataset: Awaited<ReturnType<typeof prepareDataset>>, recordLines: string[]) {
  const rowsOut: string[] = [];
  let maxRss = readRssMb(server.pid);
  for (const shape of shapes) {
    const random = createRandom(99);
    const serviceNext = () => shape.service(random);
    const asRequest = (request: string | { path: string; body: unknown }) => ({ method: 'POST' as const, ...(typeof request === 'string' ? { path: request } : request) });
    const floorNext = () => asRequest(shape.floor(random));
    const bareSide = bare && shape.bare ? bare : null;
    // The bare floor's get is a GET, as Tabula's; its writes are POSTs.
    const bareNext = () => ({ ...asRequest(shape.bare!(random)), ...(shape.name === 'get' ? { method: 'GET' as const } : {}) });
    const auth = { authorization: `Bearer ${dataset.apiKey}` };
    log(`shape ${shape.name}: warm-up, then ${duration}s each on Tabula, the floor${bareSide ? ' and the bare floor' : ''}, in ${options.slices} alternating slices…`);
    const warmTabula = await warm(server.url, serviceNext, auth, shape.clients);
    const warmFloor = await warm(floor.url, floorNext, {}, shape.clients);
    const warmBare = bareSide ? await warm(bareSide.url, bareNext, {}, shape.clients) : null;
    const slices = Math.max(1, Number(options.slices));
    const tabulaAmount = requestsPerSlice(warmTabula, slices);
    const floorAmount = requestsPerSlice(warmFloor, slices);
    const bareAmount = warmBare ? requestsPerSlice(warmBare, slices) : undefined;
    const tabulaSlices = new SideSlices();
    const floorSlices = new SideSlices();
    const bareSlices = new SideSlices();
    for (let slice = 0; slice < slices; slice += 1) {
      const sampler = setInterval(() => (maxRss = Math.max(maxRss, readRssMb(server.pid))), 200);
      await tabulaSlices.run(server, () => drive(server.url, duration / slices, serviceNext, auth, tabulaAmount, shape.clients));
      clearInterval(sampler);
      await floorSlices.run(floor, () => drive(floor.url, duration / slices, floorNext, {}, floorAmount, shape.clients));
      if (bareSide) await bareSlices.run(bareSide, () => drive(bareSide.url, duration / slices, bareNext, {}, bareAmount, shape.clients));
    }
    const tabula = combine(tabulaSlices.results);
    const floored = combine(floorSlices.results);
    const bared = bareSide ? combine(bareSlices.results) : null;
    const shareOf = (other: Measurement | null) => (other && other.requestsPerSecond > 0 ? `${Math.round((100 * tabula.requestsPerSecond) / other.requestsPerSecond)}%` : '');
    if (shape.recordsPerRequest) {
      const perSecond = (measurement: Measurement) => Math.round(measurement.requestsPerSecond * shape.recordsPerRequest!);
      recordLines.push(`| ${shape.name} | ${perSecond(tabula)} records/s | | | ${perSecond(floored)} records/s | | | ${shareOf(floored)} | (${shape.recordsPerRequest} records a request) | | | | |`);
    }
    const errors = tabula.errors || floored.errors || bared?.errors ? ` errors: ${tabula.errors}/${floored.errors}${bared ? `/${bared.errors}` : ''}${tabula.failures ? ` (Tabula: ${tabula.failures})` : ''}` : '';
    rowsOut.push(
      `| ${shape.name} | ${tabula.requestsPerSecond.toFixed(0)} | ${tabula.p50} | ${tabula.p99} | ${floored.requestsPerSecond.toFixed(0)} | ${floored.p50} | ${floored.p99} | ${shareOf(floored)} | ${maxRss.toFixed(0)} | ${bared ? bared.requestsPerSecond.toFixed(0) : ''} | ${shareOf(bared)} | ${tabulaSlices.cpuPerRequest()} | ${bared ? bareSlices.cpuPerRequest() : ''} |${errors}`,
    );
  }
  return rowsOut;
}

/**
 * A filtered count right after a write, one at a time: a record created (`create`) or a random
 * record's stage changed (`update`, which moves it in or out of the count), then the count of
 * `stage = won` timed; the floor writes the same way, then counts.
 */
async function measureCountAfterWrite(url: string, floorUrl: string, dataset: Awaited<ReturnType<typeof prepareDataset>>, write: 'create' | 'update'): Promise<string> {
  const auth = { authorization: `Bearer ${dataset.apiKey}` };
  const t = `/api/table/${dataset.tableId}`;
  const random = createRandom(write === 'create' ? 5 : 6);
  /** Answers false for a record that is not there (deleted by the `delete` shape of an earlier run on a reused dataset). */
  const post = async (base: string, requestPath: string, body?: unknown, headers: Record<string, string> = {}): Promise<boolean> => {
    const response = await fetch(`${base}${requestPath}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    if (response.status === 400 && text.includes('record_not_found')) return false;
    if (!response.ok) throw new Error(`POST ${requestPath}: ${response.status} ${text}`);
    return true;
  };
  /** A random record that exists, updated to a random stage; `changing`: to a stage other than its own, so that the update writes. */
  const updateSomeRecord = async (changing = false) => {
    for (;;) {
      const id = 1 + random.int(rows);
      let stage = random.pick(stages);
      if (changing) {
        const response = await fetch(`${url}${t}/record/${id}/get`, { headers: auth });
        if (!response.ok) continue;
        const current = ((await response.json()) as { data: { stage: string | null } }).data.stage;
        stage = random.pick(stages.filter((other) => other !== current));
      }
      if (await post(url, `${t}/record/${id}/update`, { data: { stage } }, auth)) return id;
    }
  };
  const tabula: number[] = [];
  const bare: number[] = [];
  log(`shape count-after-write: ${countAfterWriteRounds} rounds of a ${write}, then a timed count, on each side…`);
  // Tabula's rounds first, then the floor's: the floor writes behind Tabula's back (no change
  // logged), which a cached count cannot follow and takes afresh. The first two counts fill the
  // cache (after the floor's earlier writes, a plain count first, then the ids it follows from).
  // Each after an update that writes: one that changes nothing leaves the cached count as it
  // is, and the ids were then read by the first timed count (a 259-374 ms round 0, sessions 46-47).
  for (let warm = 0; warm < 2; warm += 1) {
    await updateSomeRecord(true);
    await post(url, `${t}/records/count`, { where: { stage: 'won' } }, auth);
  }
  // The records Tabula's rounds updated; the floor updates the same ones.
  const ids: number[] = [];
  for (let round = 0; round < countAfterWriteRounds; round += 1) {
    if (write === 'create') await post(url, `${t}/records/create`, { data: makeRecord(random, dataset.userIds) }, auth);
    else ids.push(await updateSomeRecord());
    const started = performance.now();
    await post(url, `${t}/records/count`, { where: { stage: 'won' } }, auth);
    tabula.push(performance.now() - started);
  }
  for (let round = 0; round < countAfterWriteRounds; round += 1) {
    await post(floorUrl, write === 'create' ? '/create' : `/update/${ids[round]}`);
    const started = performance.now();
    await post(floorUrl, '/count');
    bare.push(performance.now() - started);
  }
  const percentile = (values: number[], share: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))].toFixed(1);
  // A p99 of 40 samples is their slowest: say which rounds were slow, so that one can be looked into.
  const slow = tabula.flatMap((ms, round) => (ms > 20 ? [`round ${round}: ${ms.toFixed(1)} ms`] : []));
  if (slow.length > 0) log(`  count-after-${write}: counts over 20 ms: ${slow.join(', ')}`);
  return `| count-after-${write} | | ${percentile(tabula, 0.5)} | ${percentile(tabula, 0.99)} | | ${percentile(bare, 0.5)} | ${percentile(bare, 0.99)} | | |`;
}

const countAfterWriteRounds = 40;

/**
 * Sends each list shape until the automatic index it asks for is built, as a user's repeated
 * queries would; answers the indexes as listed, and how long each took.
 */
async function awaitAutomaticIndexes(url: string, dataset: Awaited<ReturnType<typeof prepareDataset>>): Promise<string[]> {
  const auth = { authorization: `Bearer ${dataset.apiKey}`, 'content-type': 'application/json' };
  const t = `${url}/api/table/${dataset.tableId}`;
  const lines: string[] = [];
  for (const body of [list, listNewest]) {
    const started = performance.now();
    log(`sending ${JSON.stringify(body)} until its automatic index is built…`);
    const sortedBy = (index: { fields: string[] }) => index.fields.at(-1) === body.order_by;
    // By time, not by queries: a fast query (PostgreSQL at 100,000 records) sent 600 times had
    // not waited long enough for the build job, which runs in whichever process holds its lease.
    for (;;) {
      if (performance.now() - started > 180_000) throw new Error(`no automatic index after 3 minutes of ${JSON.stringify(body)}`);
      const indexes = (await (await fetch(`${t}/indexes/list`, { headers: auth })).json()) as Array<{ name: string; origin: string; fields: string[]; direction: string | null; reason: string }>;
      const built = indexes.find((index) => index.origin === 'automatic' && sortedBy(index));
      if (built) {
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        lines.push(`| ${built.name} | ${built.fields.join(', ')}${built.direction ? ` ${built.direction}` : ''} | ${built.reason} | ${seconds} s from the first query to the index listed |`);
        break;
      }
      await (await fetch(`${t}/records/query`, { method: 'POST', headers: auth, body: JSON.stringify(body) })).arrayBuffer();
    }
  }
  return lines;
}

/**
 * Deletes the bench table's automatic indexes through the API, so that a reused dataset's
 * "before any index" phase has none either (a fresh one has none yet).
 */
async function dropAutomaticIndexes(url: string, dataset: Awaited<ReturnType<typeof prepareDataset>>): Promise<void> {
  const auth = { authorization: `Bearer ${dataset.apiKey}`, 'content-type': 'application/json' };
  const t = `${url}/api/table/${dataset.tableId}`;
  const indexes = (await (await fetch(`${t}/indexes/list`, { headers: auth })).json()) as Array<{ name: string; origin: string }>;
  for (const index of indexes.filter((candidate) => candidate.origin === 'automatic')) {
    const response = await fetch(`${t}/index/${index.name}/delete`, { method: 'POST', headers: auth, body: '{}' });
    if (!response.ok) throw new Error(`could not delete the automatic index ${index.name}: ${response.status} ${await response.text()}`);
    log(`deleted the automatic index ${index.name} left by an earlier run`);
  }
}

async function runRecordShapes(wanted: Set<string>) {
  log(`preparing ${rows.toLocaleString('en')} records on ${engine}…`);
  const dataset = await prepareDataset();
  const dbEnv: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : {};
  const floorConfig = {
    engine,
    sqlitePath: path.join(dataDir, 'tabula.db'),
    databaseUrl,
    tableId: dataset.tableId,
    columns: dataset.columns,
    stage: 'won',
    searchTerm,
    userId: dataset.userIds[0],
    comments: null as null | Record<string, unknown>,
    history: null as null | { recordId: number },
  };
  // Before any index: automatic indexes off, so that none appears while the shapes run.
  const beforeLines: string[] = [];
  const recordLines: string[] = [];
  if ([...wanted].some((name) => indexShapes.has(name))) {
    const bare = await startServer(dbEnv, { TABULA_AUTO_INDEXES: 'off' });
    const floor = await startProcess(process.execPath, ['--import', 'tsx', 'bench/floor-server.ts'], { BENCH_FLOOR_CONFIG: JSON.stringify(floorConfig) });
    try {
      await dropAutomaticIndexes(bare.url, dataset);
      log('before any index (TABULA_AUTO_INDEXES=off):');
      beforeLines.push(...(await measureShapes({ url: bare.url, pid: bare.child.pid! }, { url: floor.url, pid: floor.child.pid! }, null, defineShapes(dataset, null).filter((s) => wanted.has(s.name) && indexShapes.has(s.name)), dataset, [])));
      if (wanted.has('count-after-write')) for (const write of ['create', 'update'] as const) beforeLines.push(await measureCountAfterWrite(bare.url, floor.url, dataset, write));
    } finally {
      await stopProcess(bare.child);
      await stopProcess(floor.child);
    }
  }
  // Out of the box: the default settings, whose automatic indexes the list queries ask for.
  const server = await startServer(dbEnv);
  const indexLines = [...wanted].some((name) => indexShapes.has(name)) ? await awaitAutomaticIndexes(server.url, dataset) : [];
  const thread = [...wanted].some((name) => name.startsWith('comments-')) ? await prepareCommentThread(server.url, dataset) : null;
  const history = [...wanted].some((name) => name.startsWith('history')) ? await prepareHistoryRecord(server.url, dataset) : null;
  floorConfig.history = history && { recordId: history.recordId };
  floorConfig.comments = thread && { threadId: thread.threadId, createId: thread.createId, apiKeyId: thread.apiKeyId, userName: thread.userName, deepOffset: deepCommentOffset, content: mentionContent(dataset.userIds[0]), mentionUserId: dataset.userIds[0] };
  const floor = await startProcess(process.execPath, ['--import', 'tsx', 'bench/floor-server.ts'], { BENCH_FLOOR_CONFIG: JSON.stringify(floorConfig) });
  const bareWanted = defineShapes(dataset, null).some((shape) => shape.bare && wanted.has(shape.name));
  const bareFloor = bareWanted ? await startProcess(process.execPath, ['--import', 'tsx', 'bench/bare-floor.ts'], { BENCH_FLOOR_CONFIG: JSON.stringify(floorConfig) }) : null;
  let rowsOut: string[] = [];
  let heavyLines: string[] = [];
  let viewLines: string[] = [];
  let csvLines: string[] = [];
  try {
    const bareSide = bareFloor && { url: bareFloor.url, pid: bareFloor.child.pid! };
    rowsOut = await measureShapes({ url: server.url, pid: server.child.pid! }, { url: floor.url, pid: floor.child.pid! }, bareSide, defineShapes(dataset, thread, history).filter((s) => wanted.has(s.name)), dataset, recordLines);
    fs.writeFileSync(deletesMarkerFile, JSON.stringify(deletes));
    if (wanted.has('count-after-write')) for (const write of ['create', 'update'] as const) rowsOut.push(await measureCountAfterWrite(server.url, floor.url, dataset, write));
    if (wanted.has('views')) viewLines = await measureViews(server.url, dataset);
    if (wanted.has('csv')) csvLines = await measureCsv({ url: server.url, apiKey: dataset.apiKey, tableId: dataset.tableId, dataDir, dbEnv, log });
    // Last: the heavy queries it leaves running until their budget would slow the next shape.
    if (wanted.has('heavy+light')) heavyLines = await measureHeavyAndLight(server.url, dataset, dbEnv);
  } finally {
    await stopProcess(server.child);
    await stopProcess(floor.child);
    if (bareFloor) await stopProcess(bareFloor.child);
  }
  console.log(`\n${engine}, ${rows.toLocaleString('en')} records made through the API, ${connections} connections, ${duration}s per shape\n`);
  // The bare floor (get, create, update): node:http, one prepared statement, JSON.stringify of the row.
  const header = `| shape | Tabula req/s | p50 ms | p99 ms | floor req/s | floor p50 | floor p99 | of floor | server RSS MB | bare floor req/s | of bare floor | Tabula CPU ms/req${engine === 'postgres' ? ' (server / database)' : ''} | bare CPU ms/req${engine === 'postgres' ? ' (server / database)' : ''} |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|`;
  if (beforeLines.length > 0) {
    console.log(`Before any index (the first queries on a new table; TABULA_AUTO_INDEXES=off):\n\n${header}`);
    for (const line of beforeLines) console.log(line);
    console.log('\nThe automatic indexes the list queries asked for:\n\n| index | fields | reason | built |\n|---|---|---|---|');
    for (const line of indexLines) console.log(line);
    console.log('\nAfter the automatic indexes (default settings):\n');
  }
  console.log(header);
  for (const line of rowsOut) console.log(line);
  for (const line of recordLines) console.log(line);
  console.log(`| load | ${Math.round(rows / dataset.loadSeconds)} records/s | | | | | | | (${dataset.loadSeconds.toFixed(1)} s for ${rows.toLocaleString('en')}) |`);
  if (history) console.log(`| history load | ${Math.round(historyCount / history.seconds)} updates/s | | | | | | | (${history.seconds.toFixed(1)} s for ${historyCount.toLocaleString('en')} through record/update, one record) |`);
  if (thread) console.log(`| comments load | ${Math.round(commentCount / thread.seconds)} comments/s | | | | | | | (${thread.seconds.toFixed(1)} s for ${commentCount.toLocaleString('en')} through comments/create) |`);
  if (viewLines.length > 0) {
    console.log('\n| through a saved view | without req/s | p50 ms | p99 ms | through the view req/s | p50 ms | p99 ms | view / without (target ≥ 95%) |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const line of viewLines) console.log(line);
  }
  if (csvLines.length > 0) console.log(`\n${csvLines.join('\n')}`);
  if (heavyLines.length > 0) {
    console.log('\n| heavy+light: light call | alone req/s | p50 ms | p99 ms | beside heavy req/s | p50 ms | p99 ms | p99 ratio (target ≤ 5×) | light non-2xx | heavy counts |');
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const line of heavyLines) console.log(line);
  }
}

await main();
