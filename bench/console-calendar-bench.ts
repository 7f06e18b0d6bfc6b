// The console's calendar month in a real Chromium against a real `tabula serve` (issue 29,
// "Performance": "a calendar month with 5,000 events ≤ 1.0 s"): a bench, not a test. A table
// with a date field and a datetime field (the same day on each record), `--events` records on
// the days of this month, as many again spread over the six months either side, and 100 without
// a date (records/create_batch); two calendar views (created with a session), one on each field.
// Then, per run and per view, in Debian's Chromium (never downloaded), a fresh context: the time
// from navigation to the month's events painted (every event the month's cells show, three a day
// and "+ N more"), and the requests and records the month took.
//   node --import tsx bench/console-calendar-bench.ts [--events 5000] [--engine sqlite|postgres] [--runs 3] [--waterfall]
// --waterfall prints each run's requests (sent → received, ms after navigation start).
// Needs `npm run build` first (dist/ and console/dist/).
import os from 'node:os';
import type { Page, Response } from 'playwright-core';
import { launchChromium, signedInContext, startBenchServer } from './console-server.js';

const argument = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const events = Number(argument('events', '5000'));
const engine = argument('engine', 'sqlite');
const runs = Number(argument('runs', '3'));
const waterfall = process.argv.includes('--waterfall');
const paintedTargetMs = 1000;
/** What the month view shows of a day before "+ N more" (console/src/layouts/calendar/calendar-view.tsx). */
const perDayInMonth = 3;
const undated = 100;
const kinds = [
  { value: 'meeting', color: '#2563eb' },
  { value: 'call', color: '#16a34a' },
  { value: 'deadline', color: '#dc2626' },
];

const pad = (value: number) => String(value).padStart(2, '0');
const dayKey = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** The days the month view shows this month: its whole weeks, Monday first (the views set no weekStart). The browser runs in this process's time zone. */
function visibleDays(now: Date): string[] {
  const first = new Date(now.getFullYear(), now.getMonth(), 1);
  const last = new Date(now.getFullYear(), now.getMonth() + 1, 0);
  const start = new Date(first);
  start.setDate(first.getDate() - ((first.getDay() + 6) % 7));
  const end = new Date(last);
  end.setDate(last.getDate() + (6 - ((last.getDay() + 6) % 7)));
  const days: string[] = [];
  for (const day = new Date(start); day <= end; day.setDate(day.getDate() + 1)) days.push(dayKey(day));
  return days;
}

/** The records: `events` on this month's days (spread evenly), as many on days of the six months before and after, `undated` without a date. */
function makeRecords(now: Date): Array<{ name: string; when?: string; at?: string; kind: string }> {
  const daysInMonth = new Date(now.getFullYear(), now.getMonth() + 1, 0).getDate();
  const records: Array<{ name: string; when?: string; at?: string; kind: string }> = [];
  const dated = (name: string, day: Date, index: number) => {
    const when = dayKey(day);
    records.push({ name, when, at: `${when} ${pad(8 + (index % 10))}:${pad((index * 7) % 60)}:00`, kind: kinds[index % kinds.length].value });
  };
  for (let index = 0; index < events; index += 1) dated(`Event ${index + 1}`, new Date(now.getFullYear(), now.getMonth(), 1 + (index % daysInMonth)), index);
  const otherMonths = [-6, -5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6];
  for (let index = 0; index < events; index += 1) dated(`Elsewhere ${index + 1}`, new Date(now.getFullYear(), now.getMonth() + otherMonths[index % otherMonths.length], 1 + ((index * 13) % 28)), index);
  for (let index = 0; index < undated; index += 1) records.push({ name: `Someday ${index + 1}`, kind: kinds[index % kinds.length].value });
  return records;
}

interface Run {
  paintedMs: number;
  /** Navigation → the month's first records/query sent (the console loaded, the table and view read). */
  firstRangeSentMs: number;
  /** The month's first records/query sent → its last one received: its pages, one after the other. */
  rangeFetchMs: number;
  /** The last page received → the events painted (its JSON parsed, the month laid out, React's render). */
  renderMs: number;
  rangeQueries: number;
  rangeRecords: number;
  otherQueries: number;
  apiCalls: number;
  shown: number;
  more: number;
}

async function measure(page: Page, url: string, expected: { shown: number; more: number }): Promise<Run> {
  const queries: Array<Promise<{ range: boolean; records: number; sent: number; answered: number }>> = [];
  let apiCalls = 0;
  const everything: Array<{ response: Response; finished: Promise<unknown> }> = [];
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    // The live feed's stream never finishes.
    if (pathname.endsWith('/changes/stream')) return;
    everything.push({ response, finished: response.finished() });
    if (!pathname.startsWith('/api/')) return;
    apiCalls += 1;
    if (!pathname.endsWith('/records/query')) return;
    // The undated list asks with `is_empty`; the month's pages with the start field's range.
    const range = !(response.request().postData() ?? '').includes('is_empty');
    queries.push(
      response.json().then(
        (body: unknown) => {
          // Chromium's timing: the request's start (epoch ms) and its answer's end (ms after it; its headers' when the end is not known).
          const timing = response.request().timing();
          return { range, records: Array.isArray(body) ? body.length : 0, sent: timing.startTime, answered: timing.startTime + Math.max(timing.responseEnd, timing.responseStart) };
        },
        () => ({ range, records: 0, sent: NaN, answered: NaN }),
      ),
    );
  });
  await page.goto(url, { waitUntil: 'commit' });
  const timeOrigin = await page.evaluate(() => performance.timeOrigin);
  // A rAF loop in the page (navigation start is its time origin): painted once the month's cells hold every event they show.
  const paintedMs = await page.evaluate(
    (shown) =>
      new Promise<number>((resolve, reject) => {
        const gaveUp = performance.now() + 60_000;
        const check = () => {
          if (document.querySelectorAll('.calendar-table .calendar-event').length >= shown) resolve(performance.now());
          else if (performance.now() > gaveUp) reject(new Error(`the month never showed its ${shown} events: ${document.querySelectorAll('.calendar-table .calendar-event').length} shown`));
          else requestAnimationFrame(check);
        };
        check();
      }),
    expected.shown,
  );
  await page.waitForLoadState('networkidle');
  // What the cells show once settled: the events and the sum of their "+ N more" (a check that the month is whole, not timed).
  const { shown, more } = await page.evaluate(() => ({
    shown: document.querySelectorAll('.calendar-table .calendar-event').length,
    more: [...document.querySelectorAll('.calendar-table .calendar-more')].reduce((sum, button) => sum + Number(/\d+/.exec(button.textContent ?? '')?.[0] ?? 0), 0),
  }));
  if (waterfall) {
    // Every request of the page (documents, scripts, API calls), ms after navigation start: where the time before the month's first query goes.
    await Promise.all(everything.map((entry) => entry.finished.catch(() => undefined)));
    const lines = everything.map(({ response }) => {
      const timing = response.request().timing();
      const { pathname } = new URL(response.url());
      return { sent: timing.startTime - timeOrigin, received: timing.startTime + Math.max(timing.responseEnd, timing.responseStart) - timeOrigin, pathname };
    });
    for (const line of lines.sort((a, b) => a.sent - b.sent)) console.log(`${line.sent.toFixed(0).padStart(6)} → ${line.received.toFixed(0).padStart(6)} ms  ${line.pathname}`);
    console.log(`${paintedMs.toFixed(0).padStart(6)} ms  the month's events painted`);
  }
  const ofRange = (await Promise.all(queries)).filter((query) => query.range);
  const firstSent = Math.min(...ofRange.map((query) => query.sent)) - timeOrigin;
  const lastAnswered = Math.max(...ofRange.map((query) => query.answered)) - timeOrigin;
  return {
    paintedMs,
    firstRangeSentMs: firstSent,
    rangeFetchMs: lastAnswered - firstSent,
    renderMs: paintedMs - lastAnswered,
    rangeQueries: ofRange.length,
    rangeRecords: ofRange.reduce((sum, query) => sum + query.records, 0),
    otherQueries: queries.length - ofRange.length,
    apiCalls,
    shown,
    more,
  };
}

async function main() {
  const now = new Date();
  const days = visibleDays(now);
  const records = makeRecords(now);
  const perDay = new Map<string, number>();
  for (const record of records) if (record.when) perDay.set(record.when, (perDay.get(record.when) ?? 0) + 1);
  const inView = days.reduce((sum, day) => sum + (perDay.get(day) ?? 0), 0);
  const expected = {
    shown: days.reduce((sum, day) => sum + Math.min(perDayInMonth, perDay.get(day) ?? 0), 0),
    more: days.reduce((sum, day) => sum + Math.max(0, (perDay.get(day) ?? 0) - perDayInMonth), 0),
  };

  const server = await startBenchServer({ name: 'calendar-bench', engine });
  const browser = await launchChromium();
  try {
    console.log(`Loading ${records.length.toLocaleString('en')} records on ${engine} (${events.toLocaleString('en')} this month, ${inView.toLocaleString('en')} on the ${days.length} days its view shows)…`);
    const space = await server.call<{ id: number }>('/api/spaces/create', { name: 'Calendar bench' });
    const table = await server.call<{ id: number }>(`/api/space/${space.id}/tables/create`, {
      name: 'Events',
      fields: [
        { id: 'name', name: 'Name', type: 'text' },
        { id: 'when', name: 'When', type: 'date' },
        { id: 'at', name: 'At', type: 'datetime' },
        { id: 'kind', name: 'Kind', type: 'select', options: kinds },
      ],
      title_field: 'name',
    });
    for (let start = 0; start < records.length; start += 1000) await server.call(`/api/table/${table.id}/records/create_batch`, { records: records.slice(start, start + 1000).map((data) => ({ data })) });
    // What autovacuum does shortly after a bulk load (as bench/console-bench.ts): statistics for the planner.
    await server.sql(`VACUUM (ANALYZE) rec_${table.id}`);

    const viewport = { width: 1600, height: 1000 };
    // Views are created by sessions only; each makes its start field's index (idx_layout_<field>).
    const views: Array<{ label: string; url: string }> = [];
    const maker = await signedInContext(browser, server, viewport);
    for (const [label, startField] of [
      ['date field', 'when'],
      ['datetime field', 'at'],
    ] as const) {
      const view = await maker.request.post(`${server.url}/api/table/${table.id}/views/create`, { data: { name: `By ${startField}`, type: 'calendar', config: { startField, colorField: 'kind', mode: 'month' } } });
      if (!view.ok()) throw new Error(`views/create: ${view.status()} ${await view.text()}`);
      views.push({ label, url: `${server.url}/space/${space.id}/table/${table.id}/view/${((await view.json()) as { id: number }).id}` });
    }
    await maker.close();

    const loadBefore = os.loadavg()[0];
    const results = new Map<string, Run[]>(views.map((view) => [view.label, []]));
    for (let run = 0; run < runs; run += 1) {
      for (const view of views) {
        const context = await signedInContext(browser, server, viewport);
        const result = await measure(await context.newPage(), view.url, expected);
        results.get(view.label)!.push(result);
        console.log(`run ${run + 1}, ${view.label}: ${JSON.stringify(Object.fromEntries(Object.entries(result).map(([name, value]) => [name, Math.round(value)])))}`);
        await context.close();
      }
    }

    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    console.log(`\nConsole calendar month, ${events.toLocaleString('en')} events this month (${inView.toLocaleString('en')} on the ${days.length} days shown, ${records.length.toLocaleString('en')} records in the table), ${engine}, Chromium 1600×1000 headless, median of ${runs} runs (1-minute load average ${loadBefore.toFixed(1)} before the runs, ${os.loadavg()[0].toFixed(1)} after)\n`);
    console.log(`| measure | ${views.map((view) => view.label).join(' | ')} | target |\n|---|${views.map(() => '---|').join('')}---|`);
    const row = (label: string, cell: (list: Run[]) => string, target = '') => console.log(`| ${label} | ${views.map((view) => cell(results.get(view.label)!)).join(' | ')} | ${target} |`);
    const painted = (list: Run[]) => median(list.map((r) => r.paintedMs));
    row('navigation → the month\'s events painted', (list) => `${painted(list).toFixed(0)} ms (${list.map((r) => r.paintedMs.toFixed(0)).join(', ')})`, `≤ ${paintedTargetMs} ms (${views.every((view) => painted(results.get(view.label)!) <= paintedTargetMs) ? 'met' : 'MISSED'})`);
    const ms = (name: keyof Run) => (list: Run[]) => `${median(list.map((r) => r[name])).toFixed(0)} ms`;
    row('… navigation → the month\'s first records/query sent', ms('firstRangeSentMs'));
    row('… first records/query sent → last one received', ms('rangeFetchMs'));
    row('… last one received → painted (parsed, laid out, rendered)', ms('renderMs'));
    row('records/query for the month (records fetched)', (list) => `${median(list.map((r) => r.rangeQueries))} (${median(list.map((r) => r.rangeRecords)).toLocaleString('en')})`, `the ${inView.toLocaleString('en')} on its days`);
    row('other records/query (the undated list)', (list) => `${median(list.map((r) => r.otherQueries))}`);
    row('API calls until the network is idle', (list) => `${median(list.map((r) => r.apiCalls))}`);
    row('events shown / in "+ N more"', (list) => `${median(list.map((r) => r.shown))} / ${median(list.map((r) => r.more)).toLocaleString('en')}`, `${expected.shown} / ${expected.more.toLocaleString('en')}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
