import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, signIn, test, type TabulaServer } from './tabula-server.js';

interface Table {
  id: number;
  fields: { id: string; name: string }[];
}

async function setUp(tabula: TabulaServer, name: string) {
  const space = await tabula.api<{ id: number }>('/api/spaces/create', { name });
  const table = await tabula.api<Table>(`/api/space/${space.id}/tables/create`, {
    name: 'Contacts',
    fields: [
      { id: 'name', name: 'Name', type: 'text' },
      { id: 'amount', name: 'Amount', type: 'number' },
      { id: 'email', name: 'Email', type: 'email' },
    ],
    title_field: 'name',
  });
  return { url: `${tabula.baseUrl}/space/${space.id}/table/${table.id}`, table };
}

const count = async (tabula: TabulaServer, tid: number) => (await tabula.api<{ count: number }>(`/api/table/${tid}/records/count`, {})).count;

/** Opens "Import CSV" and gives it a file of these lines. */
async function importFile(page: Page, name: string, lines: string[]) {
  await page.getByRole('button', { name: 'Import CSV' }).click();
  await page.getByLabel('CSV file').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n') + '\r\n') });
  await expect(page.getByRole('region', { name: 'Preview' })).toBeVisible();
}

test.describe.configure({ mode: 'serial' });

test('import: bad rows are reported by line and nothing is written; a mapping to a new field imports; the valid rows when chosen', async ({ page, tabula }) => {
  const { url, table } = await setUp(tabula, 'Import');
  await signIn(page, tabula);
  await page.goto(url);
  await expect(page.getByText('0 records', { exact: true })).toBeVisible();

  // 1,000 rows, 3 of them bad (the header is line 1, so row i is on line i + 1).
  const rows = Array.from({ length: 1000 }, (_, index) => `Person ${index + 1},${index + 1},p${index + 1}@example.com`);
  rows[9] = 'Person 10,ten,p10@example.com';
  rows[499] = 'Person 500,500';
  rows[998] = 'Person 999,9x9,p999@example.com';
  await importFile(page, 'people.csv', ['Name,Amount,Email', ...rows]);
  await expect(page.getByLabel('Field for column Amount')).toHaveValue('field:amount');
  await expectAccessible(page, 'the import dialog');
  await screenshot(page, 'import-mapping');
  await page.getByRole('button', { name: 'Import 1,000 rows' }).click();
  const report = page.getByRole('region', { name: 'Import report' });
  await expect(report.getByText(/^Nothing imported: 3 rows were rejected/)).toBeVisible();
  await expect(report.getByText('line 11: Amount: "ten" is not a number')).toBeVisible();
  await expect(report.getByText('line 501: 2 cells where the header has 3')).toBeVisible();
  await expect(report.getByText('line 1000: Amount: "9x9" is not a number')).toBeVisible();
  await expectAccessible(page, 'the import report');
  await screenshot(page, 'import-report');
  expect(await count(tabula, table.id)).toBe(0);
  await page.getByRole('button', { name: 'Close' }).click();

  // A row only the server refuses (an e-mail): what was written is taken back, and the line named.
  // This file is dropped on the dialog rather than picked.
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dropped = await page.evaluateHandle((text) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], 'emails.csv', { type: 'text/csv' }));
    return transfer;
  }, 'Name,Email\nAda,ada@example.com\nBob,not an address\nCy,cy@example.com\n');
  await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer: dropped });
  await expect(page.getByText('emails.csv: 3 rows, 2 columns.', { exact: false })).toBeVisible();
  await page.getByRole('button', { name: 'Import 3 rows' }).click();
  await expect(report.getByText(/^Nothing imported: the server rejected a row/)).toBeVisible();
  await expect(report.getByText(/^line 3: /)).toBeVisible();
  expect(await count(tabula, table.id)).toBe(0);
  await page.getByRole('button', { name: 'Close' }).click();

  // A new field from a column: created, then the rows written, and shown at once.
  await importFile(page, 'colours.csv', ['Name,Amount,Colour', 'Ada,1,red', 'Grace,2,"blue, green"', 'Linus,=3,yellow']);
  await expect(page.getByLabel('Field for column Colour')).toHaveValue('new');
  await expect(page.getByRole('region', { name: 'Preview' }).getByText('"=3" is not a number')).toBeVisible();
  await page.getByLabel('Import the valid rows even if some are rejected').check();
  await page.getByRole('button', { name: 'Import 3 rows' }).click();
  await expect(report.getByText('Imported 2 records; 1 rejected row was left out.')).toBeVisible();
  await expect(report.getByText('line 4: Amount: "=3" is not a number')).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByText('2 records', { exact: true })).toBeVisible();
  await expect(page.getByRole('gridcell', { name: 'blue, green', exact: true })).toBeVisible();
  const after = await tabula.api<Table>(`/api/table/${table.id}/get`);
  const colour = after.fields.find((field) => field.name === 'Colour');
  expect(colour).toBeDefined();
  const records = await tabula.api<{ data: Record<string, unknown> }[]>(`/api/table/${table.id}/records/query`, {});
  expect(records.map((record) => [record.data.name, record.data.amount, record.data[colour!.id]])).toEqual([
    ['Ada', 1, 'red'],
    ['Grace', 2, 'blue, green'],
  ]);
  await screenshot(page, 'import-done');

  // The table's live stream, held closed while the import sent its rows, follows changes again.
  await tabula.api(`/api/table/${table.id}/records/create`, { data: { name: 'Zed', amount: 9 } });
  await expect(page.getByText('3 records', { exact: true })).toBeVisible();
  await expect(page.getByRole('gridcell', { name: 'Zed', exact: true })).toBeVisible();
});

test('export downloads the records the toolbar shows (its search and sort), every one of them', async ({ page, tabula }) => {
  const { url, table } = await setUp(tabula, 'Export');
  await tabula.api(`/api/table/${table.id}/records/create_batch`, {
    records: ['Apple', 'Banana', 'Apricot', 'Cherry', '=cmd'].map((name, index) => ({ data: { name, amount: (index + 1) * 10 } })),
  });
  await signIn(page, tabula);
  await page.goto(url);
  await expect(page.getByText('5 records', { exact: true })).toBeVisible();
  await page.getByLabel('Search').fill('Ap');
  await page.getByLabel('Sort by').selectOption({ label: 'Amount' });
  await page.getByLabel('Direction').selectOption({ label: 'Descending' });
  await expect(page.getByText('2 records', { exact: true })).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toBe(`table-${table.id}.csv`);
  const lines = fs.readFileSync((await download.path())!, 'utf8').trim().split(/\r?\n/);
  expect(lines[0]).toBe('id,created_at,updated_at,name,amount,email');
  expect(lines.slice(1).map((line) => line.split(',').slice(3).join(','))).toEqual(['Apricot,30,', 'Apple,10,']);
});
