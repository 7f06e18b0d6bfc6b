/**
 * `npm run bench:directus -- --rows 100000`: Tabula against Directus, a peer, on PostgreSQL,
 * each out of the box and as a user makes a table: the same records (bench/dataset.ts's
 * generator) in a Directus collection made through its API, and in the Tabula table that
 * `npm run bench -- --rows N --db postgres` made (run that first). The filtered, sorted list
 * (`stage = won`, by amount descending, 100 a page) and the filtered count, in alternating
 * slices: Tabula before any index (automatic indexes off), then with its default settings once
 * the list has had its automatic index. Directus indexes nothing but the primary key.
 *
 * Directus is not a dependency: install it apart, for example
 * `mkdir /tmp/directus-peer && cd /tmp/directus-peer && npm install directus@12`, and name
 * the folder with `--directus DIR` (default /tmp/directus-peer).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type autocannon from 'autocannon';
import pg from 'pg';
import { generateRecords } from './dataset.js';
import { combine, makeDrive, type NextRequest } from './drive.js';
import { startProcess, stopProcess } from './processes.js';

const { values: options } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '9' },
    slices: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    directus: { type: 'string', default: '/tmp/directus-peer' },
  },
});
const rows = Number(options.rows);
const duration = Number(options.duration);
const slices = Number(options.slices);
const drive = makeDrive(Number(options.connections));
const adminUrl = process.env.TABULA_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const tabulaName = `tabula_bench_postgres_${rows}`;
const tabulaDir = path.join(os.tmpdir(), tabulaName);
const tabulaEnv = { DATABASE_URL: adminUrl.replace(/\/[^/]*$/, `/${tabulaName}`), TABULA_RATE_LIMIT_PER_MINUTE: '1000000000', LOG_LEVEL: 'warn' };
const directusName = `tabula_peer_directus_${rows}`;
const directusCli = path.join(options.directus!, 'node_modules/directus/cli.js');
const adminToken = 'peer-bench-admin-token';
const log = (line: string) => process.stderr.write(`${line}\n`);

const directusEnv = (port: number) => {
  const database = new URL(adminUrl.replace(/\/[^/]*$/, `/${directusName}`));
  return {
    DB_CLIENT: 'pg',
    DB_HOST: database.hostname,
    DB_PORT: database.port || '5432',
    DB_DATABASE: directusName,
    DB_USER: decodeURIComponent(database.username),
    DB_PASSWORD: decodeURIComponent(database.password),
    SECRET: 'peer-bench-secret-peer-bench-secret',
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'peer-bench-password',
    ADMIN_TOKEN: adminToken,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    TELEMETRY: 'false',
    LOG_LEVEL: 'warn',
    MAX_PAYLOAD_SIZE: '10mb',
  };
};

async function adminQuery(statement: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Starts Directus on `port` and waits until its /server/ping answers. */
async function startDirectus(port: number) {
  const child = spawn(process.execPath, [directusCli, 'start'], { env: { ...process.env, ...directusEnv(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`directus exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/server/ping`).then((response) => response.ok, () => false);
    if (ok) return { child, url };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('directus did not answer /server/ping within 60 s');
}

async function call(url: string, token: string, method: 'GET' | 'POST' | 'DELETE', route: string, body?: unknown) {
  const response = await fetch(`${url}${route}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : ((await response.json()) as any);
}

/** A fresh database, Directus's own tables (`bootstrap`), then the Deals collection and its records through the API. */
async function prepareDirectus(userIds: readonly number[]) {
  const { rows: existing } = await adminQuery(`select 1 from pg_database where datname = '${directusName}'`);
  if (existing.length > 0) {
    const client = new pg.Client({ connectionString: adminUrl.replace(/\/[^/]*$/, `/${directusName}`) });
    await client.connect();
    const count = await client.query('select count(*)::int as n from deals').then((result) => result.rows[0].n as number, () => -1);
    await client.end();
    if (count === rows) return log(`reusing the Directus database ${directusName} (${rows.toLocaleString('en')} deals)`);
    await adminQuery(`drop database ${directusName} with (force)`);
  }
  await adminQuery(`create database ${directusName}`);
  const bootstrap = spawnSync(process.execPath, [directusCli, 'bootstrap'], { env: { ...process.env, ...directusEnv(0) }, encoding: 'utf8' });
  if (bootstrap.status !== 0) throw new Error(`directus bootstrap: ${bootstrap.stderr}`);
  const directus = await startDirectus(8065);
  try {
    await call(directus.url, adminToken, 'POST', '/collections', {
      collection: 'deals',
      schema: {},
      meta: {},
      fields: [
        { field: 'id', type: 'integer', meta: { hidden: true }, schema: { is_primary_key: true, has_auto_increment: true } },
        { field: 'name', type: 'string' },
        { field: 'notes', type: 'text' },
        { field: 'amount', type: 'decimal', schema: { numeric_precision: 12, numeric_scale: 2 } },
        { field: 'stage', type: 'string' },
        { field: 'tags', type: 'json', meta: { special: ['cast-json'], interface: 'tags' }, schema: {} },
        { field: 'owner', type: 'integer' },
        { field: 'due', type: 'date' },
        { field: 'closed_at', type: 'dateTime' },
        { field: 'won', type: 'boolean' },
        { field: 'company', type: 'integer' },
      ],
    });
    const records = generateRecords(rows, userIds);
    const started = performance.now();
    let loaded = 0;
    for (;;) {
      const batch = [];
      for (let next = records.next(); !next.done && batch.length < 1000; next = records.next()) batch.push(next.value);
      if (batch.length === 0) break;
      await call(directus.url, adminToken, 'POST', '/items/deals', batch);
      loaded += batch.length;
      if (loaded % (rows / 10) === 0) log(`  Directus: ${loaded.toLocaleString('en')} deals (${Math.round(loaded / ((performance.now() - started) / 1000))} records/s)`);
    }
  } finally {
    await stopProcess(directus.child);
  }
}

/** Tabula's and Directus's requests for one shape, driven in alternating slices. */
async function sideBySide(name: string, tabula: { url: string; next: NextRequest; headers: Record<string, string> }, directus: { url: string; next: NextRequest; headers: Record<string, string> }) {
  await drive(tabula.url, 2, tabula.next, tabula.headers);
  await drive(directus.url, 2, directus.next, directus.headers);
  const tabulaSlices: autocannon.Result[] = [];
  const directusSlices: autocannon.Result[] = [];
  for (let slice = 0; slice < slices; slice += 1) {
    tabulaSlices.push(await drive(tabula.url, duration / slices, tabula.next, tabula.headers));
    directusSlices.push(await drive(directus.url, duration / slices, directus.next, directus.headers));
  }
  const t = combine(tabulaSlices);
  const d = combine(directusSlices);
  return `| ${name} | ${t.requestsPerSecond.toFixed(0)} | ${t.p50} | ${t.p99} | ${d.requestsPerSecond.toFixed(0)} | ${d.p50} | ${d.p99} | ${(t.requestsPerSecond / d.requestsPerSecond).toFixed(2)}× |${t.errors || d.errors ? ` errors ${t.errors}/${d.errors}` : ''}`;
}

async function main() {
  const markerFile = path.join(tabulaDir, 'bench.json');
  if (!fs.existsSync(markerFile)) throw new Error(`no Tabula dataset of ${rows} records on PostgreSQL: run \`npm run bench -- --rows ${rows} --db postgres --shapes list\` first`);
  const dataset = JSON.parse(fs.readFileSync(markerFile, 'utf8')) as { apiKey: string; tableId: number; userIds: number[] };
  await prepareDirectus(dataset.userIds);
  const directus = await startDirectus(8066);
  const dHeaders = { authorization: `Bearer ${adminToken}` };
  const directusList = { url: directus.url, headers: dHeaders, next: (() => ({ method: 'GET', path: '/items/deals?filter[stage][_eq]=won&sort=-amount&limit=100' })) as NextRequest };
  const directusCount = { url: directus.url, headers: dHeaders, next: (() => ({ method: 'GET', path: '/items/deals?aggregate[count]=*&filter[stage][_eq]=won' })) as NextRequest };
  const t = `/api/table/${dataset.tableId}`;
  const tHeaders = { authorization: `Bearer ${dataset.apiKey}` };
  const list = { where: { stage: 'won' }, order_by: 'amount', order_dir: 'D', limit: 100 };
  const lines: string[] = [];
  try {
    for (const phase of ['before any index (TABULA_AUTO_INDEXES=off)', 'default settings, after the automatic index'] as const) {
      const off = phase.startsWith('before');
      const server = await startProcess(process.execPath, ['dist/main.js', 'serve', '--port', '0', '--data', tabulaDir], { ...tabulaEnv, ...(off ? { TABULA_AUTO_INDEXES: 'off' } : {}) });
      try {
        const indexes = (await call(server.url, dataset.apiKey, 'GET', `${t}/indexes/list`)) as Array<{ name: string; origin: string }>;
        if (off) for (const index of indexes.filter((i) => i.origin === 'automatic')) await call(server.url, dataset.apiKey, 'POST', `${t}/index/${index.name}/delete`);
        else {
          for (let attempt = 0; ; attempt += 1) {
            if (attempt === 600) throw new Error('no automatic index after 600 list queries');
            const listed = (await call(server.url, dataset.apiKey, 'GET', `${t}/indexes/list`)) as Array<{ origin: string }>;
            if (listed.some((i) => i.origin === 'automatic')) break;
            await call(server.url, dataset.apiKey, 'POST', `${t}/records/query`, list);
          }
        }
        log(`${phase}: list and count, ${duration} s each side…`);
        lines.push(`| **${phase}** | | | | | | | |`);
        lines.push(await sideBySide('list', { url: server.url, headers: tHeaders, next: () => ({ method: 'POST', path: `${t}/records/query`, body: list }) }, directusList));
        lines.push(await sideBySide('count', { url: server.url, headers: tHeaders, next: () => ({ method: 'POST', path: `${t}/records/count`, body: { where: { stage: 'won' } } }) }, directusCount));
      } finally {
        await stopProcess(server.child);
      }
    }
  } finally {
    await stopProcess(directus.child);
  }
  console.log(`\nPostgreSQL, ${rows.toLocaleString('en')} records, ${options.connections} connections, ${duration} s per side in ${slices} alternating slices\n`);
  console.log('| shape | Tabula req/s | p50 ms | p99 ms | Directus req/s | p50 ms | p99 ms | Tabula / Directus |\n|---|---|---|---|---|---|---|---|');
  for (const line of lines) console.log(line);
}

await main();
