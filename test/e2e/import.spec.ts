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

const changes = async (tabula: TabulaServer, tid: number) => (await tabula.api<{ changes: { kind: string }[] }>(`/api/table/${tid}/changes/list`, { after: 0, limit: 1000 })).changes;

test('import: rows refused by the browser or the server are reported by line before anything is written; accepted, the valid rows are', async ({ page, tabula }) => {
  const { url, table } = await setUp(tabula, 'Import');
  await signIn(page, tabula);
  await page.goto(url);
  await expect(page.getByText('0 records', { exact: true })).toBeVisible();

  // 1,000 rows, 3 of them bad (the header is line 1, so row i is on line i + 1): two the
  // browser refuses (a number, a short row), one only the server can (an e-mail address).
  const rows = Array.from({ length: 1000 }, (_, index) => `Person ${index + 1},${index + 1},p${index + 1}@example.com`);
  rows[9] = 'Person 10,ten,p10@example.com';
  rows[499] = 'Person 500,500';
  rows[998] = 'Person 999,999,p999 at example.com';
  await importFile(page, 'people.csv', ['Name,Amount,Email', ...rows]);
  await expect(page.getByLabel('Field for column Amount')).toHaveValue('field:amount');
  await expectAccessible(page, 'the import dialog');
  await screenshot(page, 'import-mapping');
  await page.getByRole('button', { name: 'Import 1,000 rows' }).click();
  const review = page.getByRole('region', { name: 'Rejected rows' });
  await expect(review.getByText('3 rows of 1,000 are rejected. Nothing has been written yet: import the 997 rows that passed, or cancel and fix the file.')).toBeVisible();
  await expect(review.getByText('line 11: Amount: "ten" is not a number')).toBeVisible();
  await expect(review.getByText('line 501: 2 cells where the header has 3')).toBeVisible();
  await expect(review.getByText('line 1000: Invalid value for field email: "p999 at example.com" is not an email address')).toBeVisible();
  await expectAccessible(page, 'the rejected rows before writing');
  await screenshot(page, 'import-review');
  // Checked, and nothing written: no record, no change.
  expect(await count(tabula, table.id)).toBe(0);
  expect(await changes(tabula, table.id)).toEqual([]);

  await page.getByRole('button', { name: 'Import 997 valid rows' }).click();
  const report = page.getByRole('region', { name: 'Import report' });
  await expect(report.getByText('Imported 997 records; 3 rejected rows were left out.')).toBeVisible();
  await expect(report.getByText('line 1000: Invalid value for field email: "p999 at example.com" is not an email address')).toBeVisible();
  await screenshot(page, 'import-accepted');
  expect(await count(tabula, table.id)).toBe(997);
  expect((await changes(tabula, table.id)).filter((change) => change.kind === 'record.created')).toHaveLength(997);
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByText('997 records', { exact: true })).toBeVisible();

  // A row only the server refuses, in a file dropped on the dialog: reported before writing; cancelled, nothing is written.
  const dropFile = async () => {
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dropped = await page.evaluateHandle((text) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], 'emails.csv', { type: 'text/csv' }));
      return transfer;
    }, 'Name,Email\nAda,ada@example.com\nBob,not an address\nCy,cy@example.com\n');
    await page.locator('.drop-zone').dispatchEvent('drop', { dataTransfer: dropped });
    await expect(page.getByText('emails.csv: 3 rows, 2 columns.', { exact: false })).toBeVisible();
    await page.getByRole('button', { name: 'Import 3 rows' }).click();
    await expect(review.getByText('line 3: Invalid value for field email: "not an address" is not an email address')).toBeVisible();
  };
  await dropFile();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(review).toBeHidden();
  expect(await count(tabula, table.id)).toBe(997);
  expect(await changes(tabula, table.id)).toHaveLength(997);

  // The table changes between the check and the write (its e-mail field deleted): the write is
  // refused, what was written taken back, and the report says which line and why.
  await dropFile();
  await tabula.api(`/api/table/${table.id}/field/email/delete`, {});
  await page.getByRole('button', { name: 'Import 2 valid rows' }).click();
  await expect(report.getByText(/^Nothing imported: the import failed: line 2 was refused while writing \(the table may have changed since the check\): Invalid field: email\.$/)).toBeVisible();
  await screenshot(page, 'import-refused-while-writing');
  expect(await count(tabula, table.id)).toBe(997);
});

test('import: a mapping to a new field imports after the check; a clean file goes straight on', async ({ page, tabula }) => {
  const { url, table } = await setUp(tabula, 'Import new field');
  await signIn(page, tabula);
  await page.goto(url);
  await expect(page.getByText('0 records', { exact: true })).toBeVisible();
  const report = page.getByRole('region', { name: 'Import report' });

  // A new field from a column: nothing made until the rows are accepted; then created, the rows written, and shown at once.
  await importFile(page, 'colours.csv', ['Name,Amount,Colour', 'Ada,1,red', 'Grace,2,"blue, green"', 'Linus,=3,yellow']);
  await expect(page.getByLabel('Field for column Colour')).toHaveValue('new');
  await expect(page.getByRole('region', { name: 'Preview' }).getByText('"=3" is not a number')).toBeVisible();
  await page.getByRole('button', { name: 'Import 3 rows' }).click();
  await expect(page.getByRole('region', { name: 'Rejected rows' }).getByText('line 4: Amount: "=3" is not a number')).toBeVisible();
  expect((await tabula.api<Table>(`/api/table/${table.id}/get`)).fields.map((field) => field.name)).toEqual(['Name', 'Amount', 'Email']);
  await page.getByRole('button', { name: 'Import 2 valid rows' }).click();
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

  // Nothing refused: one click imports.
  await importFile(page, 'clean.csv', ['Name,Amount', 'Mary,5', 'Annie,6']);
  await page.getByRole('button', { name: 'Import 2 rows' }).click();
  await expect(report.getByText('Imported 2 records.')).toBeVisible();
  await screenshot(page, 'import-done');
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByText('4 records', { exact: true })).toBeVisible();

  // The table's live stream, held closed while the import sent its rows, follows changes again.
  await tabula.api(`/api/table/${table.id}/records/create`, { data: { name: 'Zed', amount: 9 } });
  await expect(page.getByText('5 records', { exact: true })).toBeVisible();
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
