// The console's CSV import in a real Chromium against a real `tabula serve` (issue 29, item 7):
// a bench, not a test. Writes a CSV of `--rows` rows × 6 fields (text, number, select, date,
// checkbox, email) once, then per run makes a fresh table, opens it in Debian's Chromium (never
// downloaded), picks the file in "Import CSV" and clicks "Import": rows/s from that click to the
// report (every row checked by validate_batch first, then written by create_batch: the file is
// clean, so no review stops it), the page's responsiveness meanwhile (the longest gap between
// animation frames, the longest main-thread task), and where the time went (validate_batch and
// create_batch in flight, or the browser between batches).
//   node --import tsx bench/console-import-bench.ts [--rows 100000] [--engine sqlite|postgres] [--runs 3] [--watchers 0] [--profile] [--build DIR]
// --watchers opens that many more tabs on the table before the import: other people watching it
// live, whose streams carry every imported record and whose grids refetch meanwhile.
// --build runs the server and console built in DIR (its dist/ and console/dist/, e.g. a copy of
// an earlier build) instead of this checkout's: before and after, on the same machine, in turn.
// --profile also writes the page's CPU profile of the last run and the server's (node --cpu-prof)
// under $TMPDIR/tabula-import-bench-profiles and prints their costliest functions.
// Needs `npm run build` first (dist/ and console/dist/).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, signedInContext, startBenchServer } from './console-server.js';
import { createRandom, makeWords } from './dataset.js';

const argument = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const rows = Number(argument('rows', '100000'));
const engine = argument('engine', 'sqlite');
const runs = Number(argument('runs', '3'));
const profile = process.argv.includes('--profile');
const buildDir = argument('build', '.');
const watchers = Number(argument('watchers', '0'));
const profileDir = path.join(os.tmpdir(), 'tabula-import-bench-profiles');
const target = { rowsPerSecond: 10_000 };
const stages = ['lead', 'qualified', 'proposal', 'won', 'lost'];
const fields = [
  { id: 'name', name: 'Name', type: 'text' },
  { id: 'amount', name: 'Amount', type: 'number' },
  { id: 'stage', name: 'Stage', type: 'select', options: stages.map((value) => ({ value })) },
  { id: 'due', name: 'Due', type: 'date' },
  { id: 'won', name: 'Won', type: 'checkbox' },
  { id: 'email', name: 'Email', type: 'email' },
];

/** The CSV, written once per row count: the columns named as the fields, so the mapping is guessed. */
function writeCsv(): string {
  const file = path.join(os.tmpdir(), `tabula-import-bench-${rows}.csv`);
  if (fs.existsSync(file)) return file;
  const random = createRandom(29);
  const lines = ['Name,Amount,Stage,Due,Won,Email'];
  for (let index = 1; index <= rows; index += 1) {
    const words = makeWords(random, 2);
    const due = `2026-${String(1 + random.int(12)).padStart(2, '0')}-${String(1 + random.int(28)).padStart(2, '0')}`;
    lines.push(`"${words.join(' ')} ${index}",${(random.int(1_000_000) / 100).toFixed(2)},${random.pick(stages)},${due},${random.pick(['yes', 'no'])},${words[0]}.${index}@example.com`);
  }
  fs.writeFileSync(file, lines.join('\r\n') + '\r\n');
  return file;
}

interface Run {
  /** From the click on "Import N rows" to the report shown. */
  totalMs: number;
  rowsPerSecond: number;
  /** From the click to the first create_batch sent (rows converted in the page, then checked by validate_batch). */
  checkMs: number;
  /** Time with a validate_batch in flight. */
  validateInFlightMs: number;
  validateCalls: number;
  /** Sum over create_batch calls of fetch → answer's headers (the server's time, the body's upload included). */
  batchServerMs: number;
  /** Time with at least one create_batch in flight. */
  inFlightMs: number;
  /** From the last create_batch answered to the report. */
  finishMs: number;
  batches: number;
  /** Other API calls the page made meanwhile (its live view refetching). */
  otherCalls: number;
  maxFrameGapMs: number;
  longestTaskMs: number;
  /** File picked → preview shown: read, parsed (worker) and handed over. */
  parseMs: number;
  /** Records whose row comes before the previous record's in the file, in id order (0: ids follow the file). */
  outOfFileOrder: number;
}

/** Runs in the page before its scripts: every API call's path, from the fetch call to its answer's headers. */
function timeCalls() {
  const calls: { path: string; start: number; answered: number }[] = [];
  (window as unknown as { __calls: typeof calls }).__calls = calls;
  const original = window.fetch;
  window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    const call = { path: url.pathname.replace(/\/\d+\//g, '/:id/'), start: performance.now(), answered: 0 };
    calls.push(call);
    const answer = original.call(this, input, init);
    answer.then(
      () => (call.answered = performance.now()),
      () => (call.answered = performance.now()),
    );
    return answer;
  };
}

/** Time with at least one of `calls` in flight: the union of their [start, answered]. */
function timeInFlight(calls: readonly { start: number; answered: number }[]): number {
  let inFlightMs = 0;
  let reach = 0;
  for (const call of [...calls].sort((a, b) => a.start - b.start)) {
    const from = Math.max(call.start, reach);
    if (call.answered > from) inFlightMs += call.answered - from;
    reach = Math.max(reach, call.answered);
  }
  return inFlightMs;
}

async function measure(page: Page, url: string, csvFile: string, cdpProfile: string | null): Promise<Run> {
  await page.goto(url);
  await page.getByText('0 records', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const picked = performance.now();
  await page.getByLabel('CSV file').setInputFiles(csvFile);
  await page.getByRole('region', { name: 'Preview' }).waitFor({ timeout: 120_000 });
  const parseMs = performance.now() - picked;
  const cdp = cdpProfile ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  // The probe: a rAF loop (the longest gap between frames) and long tasks, from the click until the report shows.
  const probe = page.evaluate(
    () =>
      new Promise<{ clicked: number; reported: number; maxFrameGapMs: number; longestTaskMs: number; longTasks: string[] }>((resolve) => {
        let clicked = 0;
        let last = 0;
        let maxFrameGapMs = 0;
        let longestTaskMs = 0;
        const longTasks: string[] = [];
        const observer = new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            if (!clicked || entry.startTime < clicked) continue;
            longestTaskMs = Math.max(longestTaskMs, entry.duration);
            longTasks.push(`${Math.round(entry.duration)} ms at +${Math.round(entry.startTime - clicked)} ms`);
          }
        });
        observer.observe({ type: 'longtask', buffered: false });
        document.addEventListener('click', () => ((clicked = performance.now()), (last = clicked)), { capture: true, once: true });
        const frame = (now: number) => {
          if (clicked) {
            maxFrameGapMs = Math.max(maxFrameGapMs, now - last);
            last = now;
          }
          if (clicked && document.querySelector('[aria-label="Import report"]')) {
            const reported = performance.now();
            // Long tasks are reported after they end: give the last ones a moment.
            setTimeout(() => {
              observer.disconnect();
              resolve({ clicked, reported, maxFrameGapMs, longestTaskMs, longTasks });
            }, 100);
          } else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
  await page.getByRole('button', { name: `Import ${rows.toLocaleString('en')} rows` }).click();
  const seen = await probe;
  if (seen.longTasks.length) console.log(`long tasks after the click (report at +${Math.round(seen.reported - seen.clicked)} ms): ${seen.longTasks.join(', ')}`);
  await page.getByRole('region', { name: 'Import report' }).getByText(`Imported ${rows.toLocaleString('en')} records.`).waitFor({ timeout: 5_000 });
  if (cdp && cdpProfile) {
    const { profile: written } = await cdp.send('Profiler.stop');
    fs.writeFileSync(cdpProfile, JSON.stringify(written));
  }
  const calls = await page.evaluate(() => (window as unknown as { __calls: { path: string; start: number; answered: number }[] }).__calls);
  const during = calls.filter((call) => call.start >= seen.clicked && call.start <= seen.reported);
  const inWindow = during.filter((call) => call.path.endsWith('/records/create_batch'));
  const checks = during.filter((call) => call.path.endsWith('/records/validate_batch'));
  const isImportCall = (call: { path: string }) => call.path.endsWith('/records/create_batch') || call.path.endsWith('/records/validate_batch');
  const otherCalls = during.length - inWindow.length - checks.length;
  const others = new Map<string, number>();
  for (const call of during) if (!isImportCall(call)) others.set(call.path, (others.get(call.path) ?? 0) + 1);
  if (others.size) console.log(`other API calls during the import: ${JSON.stringify(Object.fromEntries(others))}`);
  const totalMs = seen.reported - seen.clicked;
  return {
    totalMs,
    rowsPerSecond: rows / (totalMs / 1000),
    checkMs: (inWindow[0]?.start ?? seen.reported) - seen.clicked,
    validateInFlightMs: timeInFlight(checks),
    validateCalls: checks.length,
    batchServerMs: inWindow.reduce((sum, call) => sum + (call.answered - call.start), 0),
    inFlightMs: timeInFlight(inWindow),
    finishMs: seen.reported - Math.max(...inWindow.map((call) => call.answered)),
    batches: inWindow.length,
    otherCalls,
    maxFrameGapMs: seen.maxFrameGapMs,
    longestTaskMs: seen.longestTaskMs,
    parseMs,
    outOfFileOrder: 0,
  };
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[];
  samples: number[];
  timeDeltas: number[];
}

/** The costliest functions of a CPU profile by self time (a sample's delta charged to its node). */
function topFunctions(file: string, count = 20): string[] {
  const profileData = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profileData.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  let total = 0;
  profileData.samples.forEach((id, index) => {
    const frame = byId.get(id)!.callFrame;
    const key = `${frame.functionName || '(anonymous)'} ${path.basename(frame.url)}:${frame.lineNumber + 1}`;
    const delta = (profileData.timeDeltas[index] ?? 0) / 1000;
    self.set(key, (self.get(key) ?? 0) + delta);
    total += delta;
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, ms]) => `${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / total).toFixed(1).padStart(5)} %  ${key}`);
}

async function main() {
  const csvFile = writeCsv();
  if (profile) fs.mkdirSync(profileDir, { recursive: true });
  const nodeArgs = profile ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const server = await startBenchServer({ name: 'import-bench', engine, buildDir, nodeArgs });
  const browser = await launchChromium();
  const pageProfile = path.join(profileDir, `page-${engine}.cpuprofile`);
  try {
    const call = server.call;
    const space = await call<{ id: number }>('/api/spaces/create', { name: 'Import bench' });
    const results: Run[] = [];
    for (let run = 0; run < runs; run += 1) {
      // A fresh table per run: every run imports into an empty table.
      const table = await call<{ id: number }>(`/api/space/${space.id}/tables/create`, { name: `Contacts ${run + 1}`, fields, title_field: 'name' });
      const context = await signedInContext(browser, server, { width: 1280, height: 800 });
      await context.addInitScript(timeCalls);
      const tableUrl = `${server.url}/space/${space.id}/table/${table.id}`;
      for (let watcher = 0; watcher < watchers; watcher += 1) {
        const other = await context.newPage();
        await other.goto(tableUrl);
        await other.getByText('0 records', { exact: true }).waitFor();
      }
      const page = await context.newPage();
      const result = await measure(page, tableUrl, csvFile, profile && run === runs - 1 ? pageProfile : null);
      const { count } = await call<{ count: number }>(`/api/table/${table.id}/records/count`, {});
      if (count !== rows) throw new Error(`the table holds ${count} records, not ${rows}`);
      // In id order, the rows' numbers (the name's last word): each one above the one before when ids follow the file.
      const byId = await call<{ id: number; data: { name: string } }[]>(`/api/table/${table.id}/records/export`, { format: 'json', fields: ['name'], order_by: 'id' });
      const numbers = byId.map((record) => Number(record.data.name.split(' ').at(-1)));
      result.outOfFileOrder = numbers.filter((number, index) => index > 0 && number < numbers[index - 1]).length;
      results.push(result);
      console.log(`run ${run + 1}: ${JSON.stringify(Object.fromEntries(Object.entries(result).map(([name, value]) => [name, Math.round(value)])))}`);
      await context.close();
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const pick = (name: keyof Run) => median(results.map((result) => result[name]));
    const ms = (name: keyof Run) => `${pick(name).toFixed(0)} ms`;
    console.log(`\nConsole CSV import, ${rows.toLocaleString('en')} rows × 6 fields, ${engine}, Chromium 1280×800 headless, median of ${runs} runs${watchers ? `, ${watchers} other tab${watchers === 1 ? '' : 's'} watching the table` : ''} (load average ${os.loadavg()[0].toFixed(1)})\n`);
    console.log('| measure | result | target |\n|---|---|---|');
    console.log(`| rows/s, click on Import → report | ${pick('rowsPerSecond').toFixed(0)} (${results.map((r) => r.rowsPerSecond.toFixed(0)).join(', ')}) | ≥ ${target.rowsPerSecond.toLocaleString('en')} (${pick('rowsPerSecond') >= target.rowsPerSecond ? 'met' : 'MISSED'}) |`);
    console.log(`| click → report | ${ms('totalMs')} | |`);
    console.log(`| click → first create_batch sent (convert, then check with validate_batch) | ${ms('checkMs')} | |`);
    console.log(`| validate_batch in flight (${pick('validateCalls')} calls) | ${ms('validateInFlightMs')} | |`);
    console.log(`| create_batch in flight (${pick('batches')} calls) | ${ms('inFlightMs')} | |`);
    console.log(`| sum of create_batch fetch → answer | ${ms('batchServerMs')} | |`);
    console.log(`| last answer → report | ${ms('finishMs')} | |`);
    console.log(`| other API calls meanwhile (the live view's refetches) | ${pick('otherCalls')} | |`);
    console.log(`| longest gap between animation frames | ${ms('maxFrameGapMs')} | |`);
    console.log(`| longest main-thread task | ${ms('longestTaskMs')} | |`);
    console.log(`| file picked → preview (read, parse in the worker) | ${ms('parseMs')} | |`);
    console.log(`| records out of the file's order, by id (max) | ${Math.max(...results.map((r) => r.outOfFileOrder))} | |`);
  } finally {
    await browser.close();
    await server.stop();
  }
  if (profile) {
    console.log(`\nPage (main thread), last run, by self time (${pageProfile}):`);
    for (const line of topFunctions(pageProfile)) console.log(line);
    const serverProfile = fs
      .readdirSync(profileDir)
      .filter((name) => name.startsWith('CPU.') && name.endsWith('.cpuprofile'))
      .map((name) => path.join(profileDir, name))
      .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
    if (serverProfile) {
      console.log(`\nServer, every run, by self time (${serverProfile}):`);
      for (const line of topFunctions(serverProfile)) console.log(line);
    } else console.log('\nThe server wrote no CPU profile.');
  }
}

await main();
