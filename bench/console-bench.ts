// The console's grid in a real Chromium against a real `tabula serve` (issue 28, "Performance"):
// a bench, not a test. Loads a large table through records/create_batch, then measures in
// Debian's Chromium (never downloaded) what a person waits for:
//   node --import tsx bench/console-bench.ts [--rows 200000] [--engine sqlite|postgres] [--runs 3]
// Needs `npm run build` first (dist/ and console/dist/).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import pg from 'pg';
import { startProcess, stopProcess } from './processes.js';

const argument = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const rows = Number(argument('rows', '200000'));
const engine = argument('engine', 'sqlite');
const runs = Number(argument('runs', '3'));
const adminUrl = process.env.TABULA_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const chromiumPath = process.env.TABULA_E2E_CHROMIUM ?? '/usr/bin/chromium';
const targets = { first: 1000, middle: 300, inFlight: 1, jsKb: 300, heapMb: 150, editMs: 100 };

/** Initial JavaScript of the console: the scripts index.html loads, gzipped as served over the wire would be. */
function initialJsGzipKb(): number {
  const html = fs.readFileSync('console/dist/index.html', 'utf8');
  const scripts = [...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+\.js)"/g)].map((match) => match[1]);
  return scripts.reduce((sum, src) => sum + zlib.gzipSync(fs.readFileSync(path.join('console/dist', src.replace(/^\//, '')))).length, 0) / 1024;
}

async function database(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (engine !== 'postgres') return { env: {}, drop: async () => undefined };
  const name = `tabula_console_bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { env: { DATABASE_URL: url.toString() }, drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

const stages = ['lead', 'qualified', 'proposal', 'won', 'lost'];

async function load(base: string, key: string): Promise<{ sid: number; tid: number; seconds: number }> {
  const call = async <T>(pathname: string, body: unknown): Promise<T> => {
    const response = await fetch(base + pathname, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  const space = await call<{ id: number }>('/api/spaces/create', { name: 'Bench' });
  const table = await call<{ id: number }>(`/api/space/${space.id}/tables/create`, {
    name: 'Deals',
    fields: [
      { name: 'Name', type: 'text' },
      { name: 'Amount', type: 'number', decimals: 2 },
      { name: 'Stage', type: 'select', options: stages.map((value) => ({ value })) },
      { name: 'Due', type: 'date' },
      { name: 'Active', type: 'checkbox' },
      { name: 'Email', type: 'email' },
      { name: 'Notes', type: 'longtext' },
    ],
  });
  const started = performance.now();
  const batch = 1000;
  let next = 0;
  const worker = async () => {
    while (next < rows) {
      const start = next;
      next += batch;
      const records = Array.from({ length: Math.min(batch, rows - start) }, (_, index) => {
        const n = start + index + 1;
        return { data: { name: `Deal ${n}`, amount: (n * 7919) % 100000 / 100, stage: stages[n % 5], due: `2025-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 28) + 1).padStart(2, '0')}`, active: n % 3 === 0, email: `buyer${n}@example.com`, notes: `Note for deal ${n}` } };
      });
      await call(`/api/table/${table.id}/records/create_batch`, { records });
      if ((start / batch) % 20 === 0) process.stdout.write(`\r  loaded ${start + records.length} / ${rows}`);
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  process.stdout.write('\n');
  return { sid: space.id, tid: table.id, seconds: (performance.now() - started) / 1000 };
}

/** A rAF loop in the page: the time (performance.now) when the row at `rowIndex` (0-based) first shows its record. */
const waitForRow = (page: Page, rowIndex: number) =>
  page.evaluate(
    (aria) =>
      new Promise<number>((resolve) => {
        const check = () => {
          const row = document.querySelector(`[role=row][aria-rowindex="${aria}"]`);
          if (row && !row.hasAttribute('aria-busy') && row.querySelector('.cell-text')) resolve(performance.now());
          else requestAnimationFrame(check);
        };
        check();
      }),
    rowIndex + 2,
  );

interface Run {
  first: number;
  middle: number;
  inFlightMax: number;
  dragQueries: number;
  heapMb: number;
  editMs: number;
}

async function measure(page: Page, url: string, total: number): Promise<Run> {
  let inFlight = 0;
  let inFlightMax = 0;
  let queries = 0;
  const isQuery = (u: string) => u.endsWith('/records/query');
  page.on('request', (request) => {
    if (!isQuery(request.url())) return;
    queries += 1;
    inFlight += 1;
    inFlightMax = Math.max(inFlightMax, inFlight);
  });
  const done = (request: { url(): string }) => {
    if (isQuery(request.url())) inFlight -= 1;
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);

  // First rows: navigation start is the page's time origin.
  await page.goto(url, { waitUntil: 'commit' });
  const first = await waitForRow(page, 0);

  // Drag the scrollbar to the middle: the scroller moves in steps over ~250 ms, as a thumb dragged by hand, then stops.
  const middleRow = Math.floor(total / 2);
  const beforeDrag = queries;
  const stoppedAt = await page.evaluate(async (target) => {
    const scroller = document.querySelector('.grid-scroller')!;
    const steps = 15;
    for (let step = 1; step <= steps; step += 1) {
      scroller.scrollTop = (target * 32 * step) / steps;
      await new Promise((resolve) => setTimeout(resolve, 16));
    }
    return performance.now();
  }, middleRow);
  const topRow = await page.evaluate(() => Math.floor(document.querySelector('.grid-scroller')!.scrollTop / 32));
  const middlePainted = await waitForRow(page, topRow + 2);
  const middle = middlePainted - stoppedAt;
  await page.waitForLoadState('networkidle');
  const dragQueries = queries - beforeDrag;

  // An edit: the Name cell of a row in view, Enter, type, Enter; timed from the saving Enter to the new text painted.
  const editRow = topRow + 3;
  const value = `Edited ${Date.now()}`;
  await page.locator(`[role=row][aria-rowindex="${editRow + 2}"] [role=gridcell][aria-colindex="2"]`).click();
  // Typing on a cell starts editing it with what is typed (the value is replaced).
  await page.keyboard.type(value);
  const watch = page.evaluate(
    ({ aria, text }) =>
      new Promise<number>((resolve, reject) => {
        let pressed = 0;
        const gaveUp = performance.now() + 5000;
        document.addEventListener('keydown', (event) => event.key === 'Enter' && (pressed = performance.now()), { capture: true, once: true });
        const check = () => {
          const cell = document.querySelector(`[role=row][aria-rowindex="${aria}"] [role=gridcell][aria-colindex="2"]`);
          if (pressed && cell?.textContent === text) resolve(performance.now() - pressed);
          else if (performance.now() > gaveUp) reject(new Error(`the edit never showed: ${cell?.outerHTML ?? 'no cell'}`));
          else requestAnimationFrame(check);
        };
        check();
      }),
    { aria: editRow + 2, text: value },
  );
  watch.catch(() => undefined);
  await page.waitForTimeout(50);
  await page.keyboard.press('Enter');
  const editMs = await watch;
  await page.waitForLoadState('networkidle');

  // Scroll through 200,000 rows (or the table) from the top, a screen of rows at a time with pauses so pages are fetched, then the heap.
  const scrolled = Math.min(200_000, total);
  await page.evaluate(async (count) => {
    const scroller = document.querySelector('.grid-scroller')!;
    scroller.scrollTop = 0;
    const step = 1000;
    for (let row = 0; row < count; row += step) {
      scroller.scrollTop = row * 32;
      await new Promise((resolve) => setTimeout(resolve, row % 10_000 === 0 ? 200 : 20));
    }
  }, scrolled);
  await page.waitForLoadState('networkidle');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  return { first, middle, inFlightMax, dragQueries, heapMb: heap.usedSize / 1024 / 1024, editMs };
}

async function main() {
  if (!fs.existsSync('console/dist/index.html') || !fs.existsSync('dist/main.js')) throw new Error('run npm run build first');
  const db = await database();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-console-bench-'));
  const server = await startProcess(process.execPath, ['dist/main.js', 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataDir], { ...db.env, TABULA_RATE_LIMIT_PER_MINUTE: '1000000000', LOG_LEVEL: 'error' });
  // The first account's credentials, as `serve` wrote them for its operator.
  const saved = fs.readFileSync(path.join(dataDir, 'initial-credentials.json'), 'utf8');
  const credentials = { email: /"email":\s*"([^"]+)"/.exec(saved)?.[1], password: /"password":\s*"([^"]+)"/.exec(saved)?.[1] ?? '', api_key: /"(?:api_key|key|secret)":\s*"([^"]+)"/.exec(saved)?.[1] };
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  try {
    const key = credentials.api_key;
    const email = credentials.email ?? 'admin@localhost';
    if (!key) throw new Error('no API key printed');
    console.log(`Loading ${rows.toLocaleString('en')} records on ${engine} through create_batch…`);
    const { sid, tid, seconds: loadSeconds } = await load(server.url, key);
    console.log(`  ${loadSeconds.toFixed(1)} s (${Math.round(rows / loadSeconds).toLocaleString('en')} records/s)`);
    const results: Run[] = [];
    for (let run = 0; run < runs; run += 1) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const login = await context.request.post(`${server.url}/api/auth/login`, { data: { email, password: credentials.password } });
      if (!login.ok()) throw new Error(`login: ${login.status()} ${await login.text()}`);
      // tsx compiles the page functions below with esbuild's keepNames, which calls __name.
      await context.addInitScript({ content: 'globalThis.__name = (target) => target;' });
      const page = await context.newPage();
      results.push(await measure(page, `${server.url}/space/${sid}/table/${tid}`, rows));
      await context.close();
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const pick = (name: keyof Run) => median(results.map((result) => result[name]));
    const js = initialJsGzipKb();
    const line = (label: string, value: string, target: string, ok: boolean) => console.log(`| ${label.padEnd(48)} | ${value.padStart(12)} | ${target.padStart(10)} | ${ok ? 'met ' : 'MISSED'} |`);
    console.log(`\nConsole grid, ${rows.toLocaleString('en')} records, ${engine}, Chromium 1280×800 headless, median of ${runs} runs\n`);
    console.log(`| ${'measure'.padEnd(48)} | ${'result'.padStart(12)} | ${'target'.padStart(10)} | met?   |`);
    console.log(`|${'-'.repeat(50)}|${'-'.repeat(14)}|${'-'.repeat(12)}|--------|`);
    line('first rows painted after navigation', `${pick('first').toFixed(0)} ms`, '≤ 1000 ms', pick('first') <= targets.first);
    line('rows painted after the drag to the middle stops', `${pick('middle').toFixed(0)} ms`, '≤ 300 ms', pick('middle') <= targets.middle);
    line('records/query in flight at once (max)', `${Math.max(...results.map((r) => r.inFlightMax))}`, '≤ 1', Math.max(...results.map((r) => r.inFlightMax)) <= targets.inFlight);
    line('records/query requests for the whole drag', `${pick('dragQueries')}`, '', true);
    line('table loaded through create_batch', `${loadSeconds.toFixed(1)} s`, '', true);
    line('initial JavaScript, gzipped', `${js.toFixed(1)} KB`, '≤ 300 KB', js <= targets.jsKb);
    line(`JS heap after scrolling ${Math.min(200_000, rows).toLocaleString('en')} rows`, `${pick('heapMb').toFixed(1)} MB`, '≤ 150 MB', pick('heapMb') <= targets.heapMb);
    line('edit visible after Enter', `${pick('editMs').toFixed(0)} ms`, '≤ 100 ms', pick('editMs') <= targets.editMs);
    console.log(`\nper run: ${JSON.stringify(results.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Math.round(v * 10) / 10]))))}`);
  } finally {
    await browser.close();
    await stopProcess(server.child);
    await db.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
