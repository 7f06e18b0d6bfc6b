// The console's kanban in a real Chromium against a real `tabula serve` (issue 29, "Performance"):
// a bench, not a test. 10,000 cards over 5 lanes (records/create_batch), a kanban view on the
// single-select field, then in Debian's Chromium (never downloaded): the time from navigation to
// the first cards painted, how many records the opening fetched (a page per lane, not all), and
// what scrolling one lane to its end fetches.
//   node --import tsx bench/console-kanban-bench.ts [--cards 10000] [--runs 3] [--engine sqlite|postgres]
// Needs `npm run build` first (dist/ and console/dist/).
import type { Page } from 'playwright-core';
import { launchChromium, signedInContext, startBenchServer, type BenchServer } from './console-server.js';

const argument = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const cards = Number(argument('cards', '10000'));
const runs = Number(argument('runs', '3'));
const engine = argument('engine', 'sqlite');
const lanes = ['lead', 'qualified', 'proposal', 'won', 'lost'];
const firstCardsTargetMs = 1000;

async function load(server: BenchServer): Promise<{ sid: number; tid: number }> {
  const space = await server.call<{ id: number }>('/api/spaces/create', { name: 'Kanban bench' });
  const table = await server.call<{ id: number }>(`/api/space/${space.id}/tables/create`, {
    name: 'Deals',
    fields: [
      { name: 'Name', type: 'text' },
      { name: 'Stage', type: 'select', options: lanes.map((value) => ({ value })) },
      { name: 'Amount', type: 'number' },
    ],
  });
  for (let start = 0; start < cards; start += 1000) {
    const records = Array.from({ length: Math.min(1000, cards - start) }, (_, index) => ({ data: { name: `Deal ${start + index + 1}`, stage: lanes[(start + index) % lanes.length], amount: start + index } }));
    await server.call(`/api/table/${table.id}/records/create_batch`, { records });
  }
  return { sid: space.id, tid: table.id };
}

interface Run {
  firstCardsMs: number;
  openQueries: number;
  openRecords: number;
  scrollQueries: number;
  scrollRecords: number;
}

async function measure(page: Page, url: string): Promise<Run> {
  let queries = 0;
  const answered: Promise<number>[] = [];
  page.on('response', (response) => {
    if (!response.url().endsWith('/records/query')) return;
    queries += 1;
    answered.push(response.json().then((body: unknown) => (Array.isArray(body) ? body.length : 0), () => 0));
  });
  const recordsSoFar = async () => (await Promise.all(answered)).reduce((sum, count) => sum + count, 0);
  await page.goto(url, { waitUntil: 'commit' });
  // A rAF loop in the page: navigation start is its time origin.
  const firstCardsMs = await page.evaluate(
    (laneCount) =>
      new Promise<number>((resolve) => {
        const check = () => (document.querySelectorAll('.kanban-lane').length >= laneCount && document.querySelector('.kanban-card') ? resolve(performance.now()) : requestAnimationFrame(check));
        check();
      }),
    lanes.length,
  );
  await page.waitForLoadState('networkidle');
  const openQueries = queries;
  const openRecords = await recordsSoFar();
  // Scroll the first lane to its end: to the bottom, again as each page arrives, until nothing more comes (or a minute).
  await page.evaluate(async () => {
    const lane = document.querySelector('.kanban-scroll')!;
    const gaveUp = performance.now() + 60_000;
    let settled = 0;
    while (settled < 5 && performance.now() < gaveUp) {
      const before = lane.scrollHeight;
      lane.scrollTop = lane.scrollHeight;
      await new Promise((resolve) => setTimeout(resolve, 150));
      settled = lane.scrollHeight === before && !lane.textContent?.includes('Loading more') ? settled + 1 : 0;
    }
  });
  await page.waitForLoadState('networkidle');
  const scrollRecords = (await recordsSoFar()) - openRecords;
  return { firstCardsMs, openQueries, openRecords, scrollQueries: queries - openQueries, scrollRecords };
}

async function main() {
  const server = await startBenchServer({ name: 'kanban-bench', engine });
  const browser = await launchChromium();
  try {
    console.log(`Loading ${cards.toLocaleString('en')} cards over ${lanes.length} lanes…`);
    const { sid, tid } = await load(server);
    const results: Run[] = [];
    let viewUrl = '';
    for (let run = 0; run < runs; run += 1) {
      const context = await signedInContext(browser, server, { width: 1600, height: 900 });
      if (!viewUrl) {
        // Views are created by sessions only.
        const view = await context.request.post(`${server.url}/api/table/${tid}/views/create`, { data: { name: 'Pipeline', type: 'kanban', config: { categoryField: 'stage' } } });
        if (!view.ok()) throw new Error(`views/create: ${view.status()} ${await view.text()}`);
        viewUrl = `${server.url}/space/${sid}/table/${tid}/view/${((await view.json()) as { id: number }).id}`;
      }
      const page = await context.newPage();
      results.push(await measure(page, viewUrl));
      await context.close();
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const pick = (name: keyof Run) => median(results.map((result) => result[name]));
    console.log(`\nConsole kanban, ${cards.toLocaleString('en')} cards in ${lanes.length} lanes, ${engine}, Chromium 1600×900 headless, median of ${runs} runs\n`);
    console.log(`| measure | result | target |\n|---|---|---|`);
    console.log(`| first cards painted after navigation | ${pick('firstCardsMs').toFixed(0)} ms | ≤ ${firstCardsTargetMs} ms (${pick('firstCardsMs') <= firstCardsTargetMs ? 'met' : 'MISSED'}) |`);
    console.log(`| records fetched to open the board | ${pick('openRecords')} in ${pick('openQueries')} records/query | not all ${cards} |`);
    console.log(`| scrolling one lane (${cards / lanes.length} cards) to its end fetched | ${pick('scrollRecords')} in ${pick('scrollQueries')} records/query | that lane only |`);
    console.log(`\nper run: ${JSON.stringify(results.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Math.round(v)]))))}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
