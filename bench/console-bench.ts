// The console's grid in a real Chromium against a real `tabula serve` (issue 28, "Performance"):
// a bench, not a test. Loads the Deals table of bench/dataset.ts through records/create_batch
// once (kept by name for later runs), then measures in Debian's Chromium (never downloaded)
// what a person waits for:
//   node --import tsx bench/console-bench.ts [--rows 200000] [--engine sqlite|postgres] [--runs 3] [--fresh]
// --runs 0 only loads the dataset; --fresh loads it again. Needs `npm run build` first (dist/ and console/dist/).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import pg from 'pg';
import { loadBenchThroughApi } from './dataset.js';
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

/**
 * The bench table, loaded once through the HTTP API by bench/dataset.ts and kept by name (a data
 * directory under the temporary directory and, on PostgreSQL, a database of that name): a million
 * records take minutes to load, so later runs reuse them (`--fresh` loads them again).
 */
async function prepareDataset(): Promise<{ dataDir: string; env: Record<string, string>; tableId: number; loadSeconds: number }> {
  const name = `tabula_console_bench_${engine}_${rows}`;
  const dataDir = path.join(os.tmpdir(), name);
  const marker = path.join(dataDir, 'console-bench.json');
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const env: Record<string, string> = engine === 'postgres' ? { DATABASE_URL: url.toString() } : {};
  if (!process.argv.includes('--fresh') && fs.existsSync(marker)) {
    console.log(`Reusing the ${rows.toLocaleString('en')}-record dataset in ${engine === 'postgres' ? url : dataDir}`);
    return { dataDir, env, ...(JSON.parse(fs.readFileSync(marker, 'utf8')) as { tableId: number; loadSeconds: number }) };
  }
  const admin = async (sql: string, connectionString = adminUrl) => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  if (engine === 'postgres') {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${name}`);
  }
  console.log(`Loading ${rows.toLocaleString('en')} records on ${engine} through create_batch…`);
  const bench = await loadBenchThroughApi({ dataDir, env, rows, log: (line) => console.log(line) });
  // What autovacuum does shortly after a bulk load (as bench/run.ts): statistics for the planner, a visibility map for index-only scans.
  if (engine === 'postgres') await admin(`VACUUM (ANALYZE) rec_${bench.tableId}`, url.toString());
  const saved = { tableId: bench.tableId, loadSeconds: bench.loadSeconds };
  fs.writeFileSync(marker, JSON.stringify(saved));
  return { dataDir, env, ...saved };
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
  /** records/query requests the page had in flight at once: started, not yet answered nor aborted (countFetches). */
  inFlightMax: number;
  /** The same seen on the wire by Playwright's request events (an abort shows there a little late). */
  onWireMax: number;
  dragQueries: number;
  heapMb: number;
  editMs: number;
}

async function measure(page: Page, url: string, total: number): Promise<Run> {
  // On the wire: a request counts from Chromium's 'request' until it finishes or fails (an
  // aborted one only once its failure reaches Playwright, a little after the page let it go).
  let onWire = 0;
  let onWireMax = 0;
  let queries = 0;
  const isQuery = (u: string) => u.endsWith('/records/query');
  page.on('request', (request) => {
    if (!isQuery(request.url())) return;
    queries += 1;
    onWire += 1;
    onWireMax = Math.max(onWireMax, onWire);
  });
  const done = (request: { url(): string }) => {
    if (isQuery(request.url())) onWire -= 1;
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
  const inFlightMax = await page.evaluate(() => (window as unknown as { __recordQueries: { max: number } }).__recordQueries.max);
  return { first, middle, inFlightMax, onWireMax, dragQueries, heapMb: heap.usedSize / 1024 / 1024, editMs };
}

/**
 * Runs in the page before its scripts: counts the records/query requests in flight, from the
 * fetch call until its answer or its AbortSignal's abort (the moment the page gives it up).
 */
function countFetches() {
  const counts = { inFlight: 0, max: 0 };
  (window as unknown as { __recordQueries: typeof counts }).__recordQueries = counts;
  const original = window.fetch;
  window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
    const url = input instanceof Request ? input.url : String(input);
    const answer = original.call(this, input, init);
    if (!url.endsWith('/records/query')) return answer;
    counts.inFlight += 1;
    counts.max = Math.max(counts.max, counts.inFlight);
    let open = true;
    const close = () => {
      if (open) counts.inFlight -= 1;
      open = false;
    };
    (input instanceof Request ? input.signal : init?.signal)?.addEventListener('abort', close, { once: true });
    answer.then(close, close);
    return answer;
  };
}

/** The owner bench/dataset.ts makes with `init`. */
const owner = { email: 'bench@example.com', password: 'bench-password' };

async function main() {
  if (!fs.existsSync('console/dist/index.html') || !fs.existsSync('dist/main.js')) throw new Error('run npm run build first');
  const dataset = await prepareDataset();
  // --runs 0: only load (or check) the dataset, for a later run.
  if (runs === 0) return;
  const server = await startProcess(process.execPath, ['dist/main.js', 'serve', '--port', '0', '--host', '127.0.0.1', '--data', dataset.dataDir], { ...dataset.env, TABULA_RATE_LIMIT_PER_MINUTE: '1000000000', LOG_LEVEL: 'error' });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  try {
    const tid = dataset.tableId;
    const loadSeconds = dataset.loadSeconds;
    const results: Run[] = [];
    for (let run = 0; run < runs; run += 1) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const login = await context.request.post(`${server.url}/api/auth/login`, { data: owner });
      if (!login.ok()) throw new Error(`login: ${login.status()} ${await login.text()}`);
      // tsx compiles the page functions below with esbuild's keepNames, which calls __name.
      await context.addInitScript({ content: 'globalThis.__name = (target) => target;' });
      await context.addInitScript(countFetches);
      const spaces = (await (await context.request.get(`${server.url}/api/spaces/list`)).json()) as Array<{ id: number; name: string }>;
      const sid = spaces.find((space) => space.name === 'Bench')!.id;
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
    line('records/query on the wire at once (max)', `${Math.max(...results.map((r) => r.onWireMax))}`, '', true);
    line('records/query requests for the whole drag', `${pick('dragQueries')}`, '', true);
    line('table loaded through create_batch', `${loadSeconds.toFixed(1)} s`, '', true);
    line('initial JavaScript, gzipped', `${js.toFixed(1)} KB`, '≤ 300 KB', js <= targets.jsKb);
    line(`JS heap after scrolling ${Math.min(200_000, rows).toLocaleString('en')} rows`, `${pick('heapMb').toFixed(1)} MB`, '≤ 150 MB', pick('heapMb') <= targets.heapMb);
    line('edit visible after Enter', `${pick('editMs').toFixed(0)} ms`, '≤ 100 ms', pick('editMs') <= targets.editMs);
    console.log(`\nper run: ${JSON.stringify(results.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Math.round(v * 10) / 10]))))}`);
  } finally {
    await browser.close();
    await stopProcess(server.child);
  }
}

await main();
