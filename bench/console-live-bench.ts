// Live updates in a real Chromium against a real `tabula serve` (issue 29, "Performance": "a
// change appears in a second browser p95 ≤ 1 s"): a bench, not a test. A table of `--records`
// records over the 5 options of a single-select field (records/create_batch) and a kanban view on
// it (created with a session); three browser contexts of Debian's Chromium (never downloaded),
// each signed in: A on the table's grid (the writer), B on the grid, C on the kanban. Then
// `--changes` updates of a record's Name, one at a time, `--interval` ms apart: four in five
// through the API with the account key, one in five typed into a cell of A's grid. For each,
// the time from the write's answer (the API call's answer in this process, or the
// record/<rid>/update answer in A's page) to the new name in B's grid and in C's board,
// seen by a MutationObserver installed in those pages; every timestamp is
// performance.timeOrigin + performance.now(), so the process's and the pages' clocks agree.
//   node --import tsx bench/console-live-bench.ts [--records 1000] [--changes 100] [--interval 200] [--runs 3] [--engine sqlite|postgres]
// Each run opens the three contexts afresh and makes `--changes` changes; the figures pool every run's.
// Needs `npm run build` first (dist/ and console/dist/).
import os from 'node:os';
import type { Page } from 'playwright-core';
import { launchChromium, signedInContext, startBenchServer } from './console-server.js';

const argument = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const recordCount = Number(argument('records', '1000'));
const changes = Number(argument('changes', '100'));
const intervalMs = Number(argument('interval', '200'));
const engine = argument('engine', 'sqlite');
const runs = Number(argument('runs', '3'));
const p95TargetMs = 1000;
/** A change not seen after this long counts as missed. */
const gaveUpMs = 10_000;
/** Every fifth change is typed into A's grid; the others go through the API. */
const typedEvery = 5;
const lanes = ['lead', 'qualified', 'proposal', 'won', 'lost'];
/** The records changed: the first ones by id, in sight at the top of the grid and of each lane (the view's order is the record order). */
const changedRecords = 20;
const viewport = { width: 1600, height: 1000 };
const watcherLabels = ['B, grid', 'C, kanban'] as const;

const now = () => performance.timeOrigin + performance.now();

/**
 * Runs in B's and C's pages before their scripts: `__live.expect(text)` starts watching for a
 * text in the grid or the board; `__live.seen(text)` answers when it appeared (epoch ms, read at
 * the MutationObserver's callback, i.e. once the DOM holds it), or null after `gaveUpMs`.
 */
function watchForText(gaveUp: number) {
  const pending = new Map<string, (at: number) => void>();
  const seen = new Map<string, Promise<number | null>>();
  const check = () => {
    if (!pending.size) return;
    const text = document.querySelector('.grid-scroller, .kanban-lanes')?.textContent ?? '';
    for (const [wanted, resolve] of pending) {
      if (!text.includes(wanted)) continue;
      pending.delete(wanted);
      resolve(performance.timeOrigin + performance.now());
    }
  };
  const start = () => new MutationObserver(check).observe(document.documentElement, { subtree: true, childList: true, characterData: true });
  if (document.documentElement) start();
  else document.addEventListener('readystatechange', start, { once: true });
  (window as unknown as { __live: unknown }).__live = {
    expect(text: string) {
      seen.set(
        text,
        new Promise<number | null>((resolve) => {
          pending.set(text, resolve);
          setTimeout(() => {
            if (pending.delete(text)) resolve(null);
          }, gaveUp);
        }),
      );
      check();
    },
    seen: (text: string) => seen.get(text) ?? Promise.resolve(null),
  };
}

/** Runs in A's page before its scripts: each record/<rid>/update's epoch times, sent (the fetch call) and answered (its headers). */
function timeUpdates() {
  const answers: Array<{ rid: number; sent: number; at: number; ok: boolean }> = [];
  (window as unknown as { __updates: typeof answers }).__updates = answers;
  const original = window.fetch;
  window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
    const sent = performance.timeOrigin + performance.now();
    const answer = original.call(this, input, init);
    const match = /\/record\/(\d+)\/update$/.exec(input instanceof Request ? input.url : String(input));
    if (match) answer.then((response) => answers.push({ rid: Number(match[1]), sent, at: performance.timeOrigin + performance.now(), ok: response.ok }), () => undefined);
    return answer;
  };
}

type Watcher = { label: string; page: Page };
type Path = 'API' | 'typed in A';
interface Sample {
  run: number;
  path: Path;
  watcher: string;
  /** ms from the write's answer to the text in the watcher's DOM (negative: shown before the writer had its answer); null: not seen within gaveUpMs. */
  ms: number | null;
  /** ms from the write sent to the text in the watcher's DOM. */
  fromSentMs: number | null;
}

/** The page's clock minus this process's, estimated across an evaluate (± half its round trip). */
async function clockOffset(page: Page): Promise<{ offset: number; within: number }> {
  const before = now();
  const inPage = await page.evaluate(() => performance.timeOrigin + performance.now());
  const after = now();
  return { offset: inPage - (before + after) / 2, within: (after - before) / 2 };
}

async function main() {
  const server = await startBenchServer({ name: 'live-bench', engine });
  const browser = await launchChromium();
  try {
    console.log(`Loading ${recordCount.toLocaleString('en')} records on ${engine}…`);
    const space = await server.call<{ id: number }>('/api/spaces/create', { name: 'Live bench' });
    const table = await server.call<{ id: number }>(`/api/space/${space.id}/tables/create`, {
      name: 'Tasks',
      fields: [
        { id: 'name', name: 'Name', type: 'text' },
        { id: 'stage', name: 'Stage', type: 'select', options: lanes.map((value) => ({ value })) },
        { id: 'amount', name: 'Amount', type: 'number' },
      ],
      title_field: 'name',
    });
    const ids: number[] = [];
    for (let start = 0; start < recordCount; start += 1000) {
      const records = Array.from({ length: Math.min(1000, recordCount - start) }, (_, index) => ({ data: { name: `Task ${start + index + 1}`, stage: lanes[(start + index) % lanes.length], amount: start + index } }));
      ids.push(...(await server.call<Array<{ id: number }>>(`/api/table/${table.id}/records/create_batch`, { records })).map((record) => record.id));
    }
    await server.sql(`VACUUM (ANALYZE) rec_${table.id}`);
    const changed = ids.slice(0, changedRecords);

    const tableUrl = `${server.url}/space/${space.id}/table/${table.id}`;
    const maker = await signedInContext(browser, server, viewport);
    const view = await maker.request.post(`${server.url}/api/table/${table.id}/views/create`, { data: { name: 'Board', type: 'kanban', config: { categoryField: 'stage' } } });
    if (!view.ok()) throw new Error(`views/create: ${view.status()} ${await view.text()}`);
    const kanbanUrl = `${tableUrl}/view/${((await view.json()) as { id: number }).id}`;
    await maker.close();

    const loadBefore = os.loadavg()[0];
    const samples: Sample[] = [];
    let changeNumber = 0;
    for (let run = 0; run < runs; run += 1) {
      // Each run: three fresh contexts (browsers), each signed in with its own session.
      const contextA = await signedInContext(browser, server, viewport);
      await contextA.addInitScript(timeUpdates);
      const writer = await contextA.newPage();
      await writer.goto(tableUrl);
      await writer.getByText(`${recordCount.toLocaleString('en')} records`, { exact: true }).waitFor();
      const watchers: Watcher[] = [];
      for (const [label, url, ready] of [
        [watcherLabels[0], tableUrl, '.grid-scroller [role=row] .cell-text'],
        [watcherLabels[1], kanbanUrl, '.kanban-card'],
      ] as const) {
        const context = await signedInContext(browser, server, viewport);
        await context.addInitScript(watchForText, gaveUpMs);
        const page = await context.newPage();
        await page.goto(url);
        await page.locator(ready).first().waitFor();
        watchers.push({ label, page });
      }
      // Every changed record in sight in both watchers before the first change (the grid's first rows, each lane's first cards).
      for (const watcher of watchers) for (const rid of changed) await watcher.page.locator(`[data-record-id="${rid}"], [role=row][aria-rowindex="${changed.indexOf(rid) + 2}"] .cell-text`).first().waitFor();
      const clocks: Array<{ offset: number; within: number }> = [];
      for (const page of [writer, ...watchers.map((watcher) => watcher.page)]) clocks.push(await clockOffset(page));
      console.log(`run ${run + 1}: page clocks − this process's: ${clocks.map(({ offset, within }) => `${offset.toFixed(1)} ms (± ${within.toFixed(1)})`).join(', ')}`);

      for (let change = 0; change < changes; change += 1) {
        changeNumber += 1;
        const slot = change % changed.length;
        const rid = changed[slot];
        const text = `Live ${changeNumber}-${Math.random().toString(36).slice(2, 8)}`;
        for (const watcher of watchers) await watcher.page.evaluate((wanted) => (window as unknown as { __live: { expect(text: string): void } }).__live.expect(wanted), text);
        const path: Path = change % typedEvery === typedEvery - 1 ? 'typed in A' : 'API';
        let answeredAt: number;
        let sentAt: number;
        if (path === 'API') {
          sentAt = now();
          await server.call(`/api/table/${table.id}/record/${rid}/update`, { data: { name: text } });
          answeredAt = now();
        } else {
          // In A's grid (record order): click the record's Name cell, type over it, Enter saves.
          const answersBefore = await writer.evaluate(() => (window as unknown as { __updates: unknown[] }).__updates.length);
          await writer.locator(`[role=row][aria-rowindex="${slot + 2}"] [role=gridcell][aria-colindex="2"]`).click();
          await writer.keyboard.type(text);
          await writer.keyboard.press('Enter');
          const answer = await writer.evaluate(
            ({ from, wanted }) =>
              new Promise<{ sent: number; at: number; ok: boolean }>((resolve) => {
                const check = () => {
                  const found = (window as unknown as { __updates: Array<{ rid: number; sent: number; at: number; ok: boolean }> }).__updates.slice(from).find((entry) => entry.rid === wanted);
                  if (found) resolve(found);
                  else setTimeout(check, 5);
                };
                check();
              }),
            { from: answersBefore, wanted: rid },
          );
          if (!answer.ok) throw new Error(`A's edit of record ${rid} was refused`);
          answeredAt = answer.at;
          sentAt = answer.sent;
        }
        for (const watcher of watchers) {
          const seenAt = await watcher.page.evaluate((wanted) => (window as unknown as { __live: { seen(text: string): Promise<number | null> } }).__live.seen(wanted), text);
          samples.push({ run, path, watcher: watcher.label, ms: seenAt === null ? null : seenAt - answeredAt, fromSentMs: seenAt === null ? null : seenAt - sentAt });
        }
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
      for (const page of [writer, ...watchers.map((watcher) => watcher.page)]) await page.context().close();
    }

    const percentile = (values: number[], share: number) => values[Math.min(values.length - 1, Math.ceil(share * values.length) - 1)];
    const ms = (value: number | undefined) => (value === undefined ? '–' : `${value.toFixed(0)} ms`);
    const sortedMs = (chosen: Sample[], pick: (sample: Sample) => number | null = (sample) => sample.ms) => chosen.flatMap((sample) => (pick(sample) === null ? [] : [pick(sample)!])).sort((x, y) => x - y);
    const line = (label: string, chosen: Sample[]) => {
      const seen = sortedMs(chosen);
      const fromSent = sortedMs(chosen, (sample) => sample.fromSentMs);
      const missed = chosen.length - seen.length;
      const p95 = percentile(seen, 0.95);
      console.log(
        `| ${label} | ${chosen.length} | ${ms(percentile(seen, 0.5))} | ${ms(p95)} | ${ms(percentile(seen, 0.99))} | ${ms(seen.at(-1))} | ${ms(percentile(fromSent, 0.5))} / ${ms(percentile(fromSent, 0.95))} / ${ms(fromSent.at(-1))} | ${missed} | ${missed === 0 && p95 <= p95TargetMs ? 'met' : 'MISSED'} |`,
      );
    };
    console.log(`\nLive updates, ${runs} runs × ${changes} changes of a record's Name ${intervalMs} ms apart (a run: ${changes - Math.floor(changes / typedEvery)} through the API, ${Math.floor(changes / typedEvery)} typed in A's grid), a table of ${recordCount.toLocaleString('en')} records, ${engine}, Chromium ${viewport.width}×${viewport.height} headless (1-minute load average ${loadBefore.toFixed(1)} before, ${os.loadavg()[0].toFixed(1)} after)\n`);
    console.log(`| new value in the other browser's DOM | changes | p50 after the write's answer | p95 | p99 | max | after the write was sent: p50 / p95 / max | not seen in ${gaveUpMs / 1000} s | p95 ≤ ${p95TargetMs} ms |\n|---|---|---|---|---|---|---|---|---|`);
    for (const watcher of watcherLabels) for (const path of ['API', 'typed in A'] as const) line(`${watcher}, written ${path === 'API' ? 'through the API' : "in A's grid"}`, samples.filter((sample) => sample.watcher === watcher && sample.path === path));
    line('all', samples);
    const p95s = Array.from({ length: runs }, (_, run) => percentile(sortedMs(samples.filter((sample) => sample.run === run)), 0.95));
    console.log(`\np95 of each run (every watcher and path): ${p95s.map((value) => ms(value)).join(', ')}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
