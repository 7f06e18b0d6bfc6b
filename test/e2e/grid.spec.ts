import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, signIn, test, type TabulaServer } from './tabula-server.js';

/** The grid's cell at a row (1-based, as shown) and a column header's name. */
function cell(page: Page, row: number, column: string) {
  return page.getByRole('row').filter({ has: page.getByRole('gridcell', { name: `Open record ${row}`, exact: true }) }).getByRole('gridcell').nth(columnIndexes.get(column)!);
}
const columnIndexes = new Map<string, number>();

async function readColumns(page: Page) {
  const headers = await page.getByRole('columnheader').allTextContents();
  columnIndexes.clear();
  headers.forEach((text, index) => columnIndexes.set(text.replace(/(text|longtext|number|checkbox|email|url|select|date|datetime|time)$/, ''), index));
}

async function addField(page: Page, name: string, type: string, options?: string) {
  await page.getByRole('button', { name: 'Add field' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Type').selectOption(type);
  if (options) await dialog.getByLabel(/^Options/).fill(options);
  await dialog.getByRole('button', { name: 'Add field' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('columnheader', { name: new RegExp(`^${name}`) })).toBeVisible();
}

/** Creates the space through the page; until owner sessions may create spaces (contract section 3), through the account key. */
async function createSpace(page: Page, tabula: TabulaServer, name: string) {
  await page.getByRole('button', { name: 'New space' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(name);
  await screenshot(page, 'new-space-dialog');
  await expectAccessible(page, 'the New space dialog');
  await dialog.getByRole('button', { name: 'Create space' }).click();
  const refused = dialog.getByRole('alert');
  await expect(refused.or(page.getByRole('link', { name }))).toBeVisible();
  if (await refused.isVisible()) {
    await expect(refused).toContainText('account key');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await tabula.api('/api/spaces/create', { name });
    await page.reload();
  }
  await expect(page.getByRole('link', { name })).toBeVisible();
}

test.describe.configure({ mode: 'serial' });

test.describe('spaces, tables and the grid', () => {
  test('create a space and a table, enter records by keyboard, edit them, reload and see them', async ({ page, tabula }) => {
    await signIn(page, tabula);
    await expect(page.getByRole('heading', { name: 'Spaces' })).toBeVisible();
    await createSpace(page, tabula, 'Sales');
    await screenshot(page, 'home');
    await page.getByRole('link', { name: 'Sales' }).click();
    await expect(page.getByRole('heading', { name: 'Sales' })).toBeVisible();
    await expect(page.getByText('No tables yet.')).toBeVisible();
    await expectAccessible(page, 'an empty space');

    await page.getByRole('button', { name: 'New table' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Contacts');
    await page.getByRole('dialog').getByRole('button', { name: 'Create table' }).click();
    await expect(page.getByRole('heading', { name: 'Contacts' })).toBeVisible();
    await expect(page).toHaveURL(/\/space\/\d+\/table\/\d+$/);
    await expect(page.getByText('0 records')).toBeVisible();
    const tableUrl = page.url();

    await addField(page, 'Amount', 'number');
    await addField(page, 'Active', 'checkbox');
    await addField(page, 'Stage', 'select', 'lead, customer');
    await addField(page, 'Email', 'email');
    await addField(page, 'Due', 'date');
    await addField(page, 'Notes', 'longtext');
    await readColumns(page);

    // Three records, typed: Add row puts the cursor on the new row's first cell; typing starts editing.
    const rows = [
      ['Ada Lovelace', '1815'],
      ['Grace Hopper', '1906'],
      ['Alan Turing', '1912'],
    ];
    for (const [index, [name, amount]] of rows.entries()) {
      await page.getByRole('button', { name: 'Add row' }).click();
      await expect(page.getByText(`${index + 1} record${index ? 's' : ''}`, { exact: true })).toBeVisible();
      await page.getByRole('grid').focus();
      await page.keyboard.type(name);
      await page.keyboard.press('Tab');
      await page.keyboard.type(amount);
      await page.keyboard.press('Enter');
      await expect(cell(page, index + 1, 'Amount')).toHaveText(amount);
    }
    await expect(cell(page, 1, 'Name')).toHaveText('Ada Lovelace');
    await expect(page.getByText('3 records', { exact: true })).toBeVisible();

    // Edit with the right editors: checkbox by Space, select, date, e-mail, long text.
    await cell(page, 2, 'Active').click();
    await page.keyboard.press(' ');
    await expect(cell(page, 2, 'Active').getByRole('img', { name: 'Yes' })).toBeVisible();
    await cell(page, 2, 'Stage').dblclick();
    await page.getByRole('combobox', { name: 'Stage, row 2' }).selectOption('customer');
    await page.keyboard.press('Enter');
    await expect(cell(page, 2, 'Stage')).toHaveText('customer');
    await cell(page, 2, 'Due').dblclick();
    await page.getByLabel('Due, row 2').fill('2024-03-09');
    await page.keyboard.press('Enter');
    await expect(cell(page, 2, 'Due')).toHaveText('9 Mar 2024');
    await cell(page, 3, 'Notes').dblclick();
    await page.getByLabel('Notes, row 3').fill('Computing Machinery and Intelligence');
    await page.keyboard.press('Enter');
    await expect(cell(page, 3, 'Notes')).toHaveText('Computing Machinery and Intelligence');

    // Esc cancels an edit.
    await cell(page, 1, 'Name').dblclick();
    await page.getByLabel('Name, row 1').fill('Changed my mind');
    await page.keyboard.press('Escape');
    await expect(cell(page, 1, 'Name')).toHaveText('Ada Lovelace');

    // The server's refusal is shown on the cell; fixing the value clears it.
    await cell(page, 1, 'Email').dblclick();
    await page.getByLabel('Email, row 1').fill('not an address');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert')).toContainText('Invalid value for field email');
    await screenshot(page, 'grid-cell-error');
    await page.getByLabel('Email, row 1').fill('ada@example.com');
    await page.keyboard.press('Enter');
    await expect(cell(page, 1, 'Email')).toHaveText('ada@example.com');
    await expect(page.getByRole('alert')).toHaveCount(0);

    await cell(page, 1, 'Name').click();
    await screenshot(page, 'grid');
    await expectAccessible(page, 'the grid');

    // Reload: the same address opens the same table with what was saved.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Contacts' })).toBeVisible();
    expect(page.url()).toBe(tableUrl);
    await readColumns(page);
    await expect(cell(page, 1, 'Name')).toHaveText('Ada Lovelace');
    await expect(cell(page, 1, 'Email')).toHaveText('ada@example.com');
    await expect(cell(page, 2, 'Stage')).toHaveText('customer');
    await expect(cell(page, 2, 'Due')).toHaveText('9 Mar 2024');
    await expect(cell(page, 3, 'Amount')).toHaveText('1912');
    await expect(page.getByText('3 records', { exact: true })).toBeVisible();

    // A record opens over the grid at an address of its own (?record=<rid>, the record drawer).
    await cell(page, 2, 'Name').getByRole('link').or(page.getByRole('link', { name: 'Open record 2' })).first().click();
    await expect(page.getByRole('heading', { name: 'Grace Hopper' })).toBeVisible();
    const recordUrl = page.url();
    await page.goto(recordUrl);
    await expect(page.getByRole('heading', { name: 'Grace Hopper' })).toBeVisible();
    await screenshot(page, 'record');
    await expectAccessible(page, 'a record page');
    await page.getByRole('dialog', { name: 'Grace Hopper' }).getByRole('button', { name: 'Close' }).click();

    // Delete a row, with confirmation (the grid's headers are back before they are read).
    await expect(page.getByRole('columnheader', { name: /^Name/ })).toBeVisible();
    await readColumns(page);
    await cell(page, 3, 'Name').click();
    await page.getByRole('button', { name: 'Delete row' }).click();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete row' }).click();
    await expect(page.getByText('2 records', { exact: true })).toBeVisible();
    await expect(page.getByRole('gridcell', { name: 'Open record 3' })).toHaveCount(0);
  });

  test('a large table: the total as text, Ctrl+End to the last row, only the visible window fetched', async ({ page, tabula }) => {
    const space = await tabula.api<{ id: number }>('/api/spaces/create', { name: 'Bulk' });
    const table = await tabula.api<{ id: number }>(`/api/space/${space.id}/tables/create`, { name: 'Numbers', fields: [{ name: 'Label', type: 'text' }, { name: 'N', type: 'number' }] });
    for (let start = 0; start < 3000; start += 1000) {
      const records = Array.from({ length: 1000 }, (_, index) => ({ data: { label: `Row ${start + index + 1}`, n: start + index + 1 } }));
      await tabula.api(`/api/table/${table.id}/records/create_batch`, { records });
    }
    const queries: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/records/query')) queries.push(request.postData() ?? '');
    });
    await signIn(page, tabula);
    await page.goto(`${tabula.baseUrl}/space/${space.id}/table/${table.id}`);
    await expect(page.getByText('3,000 records', { exact: true })).toBeVisible();
    await readColumns(page);
    await expect(cell(page, 1, 'Label')).toHaveText('Row 1');
    expect(queries.map((body) => JSON.parse(body).offset), `the queries: ${queries.join(' | ')}`).toEqual([0]);

    await cell(page, 1, 'Label').click();
    await page.keyboard.press('Control+End');
    await expect(cell(page, 3000, 'N')).toHaveText('3000');
    await expect(page.getByRole('grid')).toHaveAttribute('aria-rowcount', '3001');
    // Only the rows around the end were asked for, each once.
    const offsets = queries.map((body) => JSON.parse(body).offset as number);
    expect(new Set(offsets).size).toBe(offsets.length);
    expect(offsets.every((offset) => offset === 0 || offset >= 2800)).toBe(true);
    // The rows around the end came in ONE request (the missing span's offset and limit).
    expect(offsets.filter((offset) => offset >= 2800)).toHaveLength(1);
    await screenshot(page, 'grid-large-end');
    // Back to the top: its rows are still held, shown without asking again.
    const asked = queries.length;
    await page.keyboard.press('Control+Home');
    await expect(cell(page, 1, 'Label')).toHaveText('Row 1');
    await expect(cell(page, 20, 'Label')).toHaveText('Row 20');
    expect(queries).toHaveLength(asked);

    // Readable on a phone: the same page at 390×844.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByText('3,000 records', { exact: true })).toBeVisible();
    await screenshot(page, 'grid-phone');
    await expectAccessible(page, 'the grid at 390×844');
  });
});
