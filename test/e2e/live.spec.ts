import type { Page } from '@playwright/test';
import { expect, screenshot, signIn, test, type TabulaServer } from './tabula-server.js';

interface Table {
  id: number;
}

async function setUp(tabula: TabulaServer) {
  const space = await tabula.api<{ id: number }>('/api/spaces/create', { name: 'Live' });
  const table = await tabula.api<Table>(`/api/space/${space.id}/tables/create`, { name: 'Tasks', fields: [{ id: 'name', name: 'Name', type: 'text' }], title_field: 'name' });
  const records = await tabula.api<{ id: number }[]>(`/api/table/${table.id}/records/create_batch`, { records: ['Alpha', 'Beta', 'Gamma'].map((name) => ({ data: { name } })) });
  return { url: `${tabula.baseUrl}/space/${space.id}/table/${table.id}`, table, ids: records.map((record) => record.id) };
}

/** How long from `write` until `shown` is visible in the other browser (printed: a figure for the report, never asserted). */
async function timed(label: string, write: () => Promise<unknown>, shown: () => Promise<void>) {
  const started = performance.now();
  await write();
  await shown();
  console.log(`live: ${label} shown ${Math.round(performance.now() - started)} ms after the write was sent`);
}

/** The page fixture fails on uncaught errors; a second page gets the same watch. */
function watch(page: Page, problems: string[]) {
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
}

test.describe.configure({ mode: 'serial' });

test('a change in one browser (or through the API) appears in another without reload, also after the connection dropped', async ({ page, tabula, browser }) => {
  const { url, table, ids } = await setUp(tabula);
  await signIn(page, tabula);
  await page.goto(url);
  await expect(page.getByText('3 records', { exact: true })).toBeVisible();
  await expect(page.getByRole('gridcell', { name: 'Alpha', exact: true })).toBeVisible();
  const streams: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/changes/stream')) streams.push(new URL(request.url()).search);
  });
  let loads = 0;
  page.on('framenavigated', () => (loads += 1));

  // Through the API: an update is patched in, a create is fetched.
  await timed('an update through the API', () => tabula.api(`/api/table/${table.id}/record/${ids[0]}/update`, { data: { name: 'Alpha edited' } }), () => expect(page.getByRole('gridcell', { name: 'Alpha edited', exact: true })).toBeVisible());
  await timed('a record created through the API', () => tabula.api(`/api/table/${table.id}/records/create`, { data: { name: 'Delta' } }), () => expect(page.getByRole('gridcell', { name: 'Delta', exact: true })).toBeVisible());
  await expect(page.getByText('4 records', { exact: true })).toBeVisible();

  // A second browser (the same user's session in another context) edits: the first follows.
  const other = await browser.newContext({ storageState: await page.context().storageState() });
  const second = await other.newPage();
  const problems: string[] = [];
  watch(second, problems);
  await second.goto(url);
  await expect(second.getByText('4 records', { exact: true })).toBeVisible();
  // Its rows shown first, as a person would see them before adding one.
  await expect(second.getByRole('gridcell', { name: 'Delta', exact: true })).toBeVisible();
  await timed('a row added in the other browser', () => second.getByRole('button', { name: 'Add row' }).click(), () => expect(page.getByText('5 records', { exact: true })).toBeVisible());
  // The other browser deletes the row it added (its active cell): both agree.
  await second.getByRole('button', { name: 'Delete row' }).click();
  await second.getByRole('alertdialog').getByRole('button', { name: 'Delete row' }).click();
  await expect(second.getByText('4 records', { exact: true })).toBeVisible();
  await expect(page.getByText('4 records', { exact: true })).toBeVisible();
  // And the first browser's edits reach the second.
  await tabula.api(`/api/table/${table.id}/record/${ids[1]}/update`, { data: { name: 'Beta edited' } });
  await expect(second.getByRole('gridcell', { name: 'Beta edited', exact: true })).toBeVisible();

  // Offline: the stream is dropped; what happens meanwhile arrives after reconnecting, from the last seq seen.
  await page.context().setOffline(true);
  await tabula.api(`/api/table/${table.id}/record/${ids[2]}/update`, { data: { name: 'Gamma while offline' } });
  await tabula.api(`/api/table/${table.id}/records/create`, { data: { name: 'Epsilon while offline' } });
  await page.waitForTimeout(500);
  await expect(page.getByRole('gridcell', { name: 'Gamma while offline', exact: true })).toHaveCount(0);
  await page.context().setOffline(false);
  await expect(page.getByRole('gridcell', { name: 'Gamma while offline', exact: true })).toBeVisible();
  await expect(page.getByRole('gridcell', { name: 'Epsilon while offline', exact: true })).toBeVisible();
  await expect(page.getByText('5 records', { exact: true })).toBeVisible();
  expect(streams.some((search) => /^\?after=\d+$/.test(search)), `the stream was reopened after the last seq seen (${streams.join(' ')})`).toBe(true);
  expect(loads, 'the page was never reloaded').toBe(0);
  await screenshot(page, 'live-after-reconnect');

  await other.close();
  expect(problems).toEqual([]);
});
