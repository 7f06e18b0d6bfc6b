import type { Page } from '@playwright/test';
import { expect, expectAccessible, screenshot, signIn, test } from './tabula-server.js';

/** The text of the cell at a row (1-based, as shown) under the column whose header starts with `column`. */
async function cellText(page: Page, row: number, column: string): Promise<string> {
  const headers = await page.getByRole('columnheader').allTextContents();
  const index = headers.findIndex((text) => text.startsWith(column));
  const rowElement = page.getByRole('row').filter({ has: page.getByRole('gridcell', { name: `Open record ${row}`, exact: true }) });
  return (await rowElement.getByRole('gridcell').nth(index).textContent()) ?? '';
}

const fruits = ['Apple', 'Banana', 'Cherry', 'Damson', 'Elder', 'Fig', 'Guava', 'Hazel', 'Iris', 'Juniper'];

test.describe.configure({ mode: 'serial' });

test('filter, sort, search and columns; save a view, reload and see it; switch views; errors on the setting', async ({ page, tabula }) => {
  const space = await tabula.api<{ id: number }>('/api/spaces/create', { name: 'Deals' });
  const table = await tabula.api<{ id: number }>(`/api/space/${space.id}/tables/create`, {
    name: 'Pipeline',
    fields: [
      { name: 'Name', type: 'text' },
      { name: 'Amount', type: 'number' },
      { name: 'Stage', type: 'select', options: [{ value: 'lead' }, { value: 'customer' }] },
      { name: 'Due', type: 'date' },
      { name: 'Owner', type: 'user' },
    ],
  });
  const records = fruits.map((name, index) => ({
    data: { name, amount: (index + 1) * 10, stage: index % 2 ? 'customer' : 'lead', due: `2024-01-${String(index + 1).padStart(2, '0')}`, owner: index < 3 ? tabula.email : null },
  }));
  await tabula.api(`/api/table/${table.id}/records/create_batch`, { records });
  const tableUrl = `${tabula.baseUrl}/space/${space.id}/table/${table.id}`;

  await signIn(page, tabula);
  await page.goto(tableUrl);
  await expect(page.getByText('10 records', { exact: true })).toBeVisible();

  // Two conditions (AND) and a sort.
  await page.getByRole('button', { name: 'Add filter' }).click();
  await page.getByLabel('Filter 1 field').selectOption({ label: 'Stage' });
  await page.getByLabel('Filter 1 operator').selectOption({ label: 'is' });
  await page.getByLabel('Filter 1 value').fill('customer');
  await expect(page.getByText('5 records', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Add filter' }).click();
  await page.getByLabel('Filter 2 field').selectOption({ label: 'Amount' });
  await page.getByLabel('Filter 2 operator').selectOption({ label: 'after / more than' });
  await page.getByLabel('Filter 2 value').fill('40');
  await expect(page.getByText('3 records', { exact: true })).toBeVisible();
  await page.getByLabel('Sort by').selectOption({ label: 'Amount' });
  await page.getByLabel('Direction').selectOption({ label: 'Descending' });
  await expect.poll(() => cellText(page, 1, 'Name')).toBe('Juniper');
  expect(await cellText(page, 3, 'Name')).toBe('Fig');

  // Hide a column and put Amount first.
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('checkbox', { name: 'Due' }).uncheck();
  await page.getByRole('button', { name: 'Move Amount left' }).click();
  // Widths: Amount's header edge dragged 60 px narrower, then one arrow key step (10 px) back; kept in this browser.
  const amountEdge = page.getByRole('separator', { name: 'Resize Amount' });
  const before = Number(await amountEdge.getAttribute('aria-valuenow'));
  const edge = (await amountEdge.boundingBox())!;
  await page.mouse.move(edge.x + edge.width / 2, edge.y + edge.height / 2);
  await page.mouse.down();
  await page.mouse.move(edge.x + edge.width / 2 - 30, edge.y + edge.height / 2, { steps: 3 });
  await page.mouse.move(edge.x + edge.width / 2 - 60, edge.y + edge.height / 2, { steps: 3 });
  await page.mouse.up();
  await expect(amountEdge).toHaveAttribute('aria-valuenow', String(before - 60));
  await amountEdge.focus();
  await page.keyboard.press('ArrowRight');
  await expect(amountEdge).toHaveAttribute('aria-valuenow', String(before - 50));
  expect((await page.getByRole('columnheader', { name: /^Amount/ }).boundingBox())!.width).toBe(before - 50);
  await expect(page.getByRole('columnheader', { name: /^Due/ })).toHaveCount(0);
  await expect(page.getByRole('columnheader').nth(1)).toHaveText(/^Amount/);
  await screenshot(page, 'views-toolbar');
  await expectAccessible(page, 'the grid with filters and the columns panel');

  // A refused name is shown on the name; then the view is saved and has its own address.
  await page.getByRole('button', { name: 'Save as new view' }).click();
  await expect(page.getByRole('textbox', { name: 'New view name' })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert').filter({ hasText: /name/i })).toBeVisible();
  await page.getByRole('textbox', { name: 'New view name' }).fill('Big customers');
  await page.getByRole('button', { name: 'Save as new view' }).click();
  await expect(page).toHaveURL(/\/view\/\d+$/);
  const viewUrl = page.url();

  // Reload: the view applies (rows, count, sort, columns).
  await page.reload();
  await expect(page.getByText('3 records', { exact: true })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'View', exact: true })).toHaveValue(viewUrl.split('/').at(-1)!);
  await expect.poll(() => cellText(page, 1, 'Name')).toBe('Juniper');
  await expect(page.getByRole('columnheader', { name: /^Due/ })).toHaveCount(0);
  await expect(page.getByRole('columnheader').nth(1)).toHaveText(/^Amount/);
  await expect(page.getByRole('separator', { name: 'Resize Amount' })).toHaveAttribute('aria-valuenow', String(before - 50));
  await expect(page.getByText('Unsaved changes')).toHaveCount(0);

  // Search on top of the view.
  await page.getByRole('searchbox', { name: 'Search' }).fill('Hazel');
  await expect(page.getByText('1 record', { exact: true })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await expect(page.getByText('3 records', { exact: true })).toBeVisible();

  // Switch to the Default view and back.
  await page.getByRole('combobox', { name: 'View', exact: true }).selectOption({ label: 'Default view' });
  await expect(page.getByText('10 records', { exact: true })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: /^Due/ })).toHaveCount(1);
  await page.getByRole('combobox', { name: 'View', exact: true }).selectOption({ label: 'Big customers' });
  await expect(page.getByText('3 records', { exact: true })).toBeVisible();
  expect(page.url()).toBe(viewUrl);

  // @me and a date token on the Default view; a bad value is shown on its filter.
  await page.getByRole('combobox', { name: 'View', exact: true }).selectOption({ label: 'Default view' });
  await page.getByRole('button', { name: 'Add filter' }).click();
  await page.getByLabel('Filter 1 field').selectOption({ label: 'Owner' });
  await page.getByLabel('Filter 1 value').fill('@me');
  await expect(page.getByText('3 records', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Add filter' }).click();
  await page.getByLabel('Filter 2 field').selectOption({ label: 'Due' });
  await page.getByLabel('Filter 2 operator').selectOption({ label: 'before / less than' });
  await page.getByLabel('Filter 2 value').fill('today');
  await expect(page.getByText('3 records', { exact: true })).toBeVisible();
  await page.getByLabel('Filter 2 value').fill('not a date');
  await expect(page.getByRole('listitem').filter({ has: page.getByLabel('Filter 2 value') }).getByRole('alert')).toBeVisible();
  await expect(page.getByLabel('Filter 2 value')).toHaveAttribute('aria-invalid', 'true');
  await screenshot(page, 'views-filter-error');

  // The table default: the table's address opens it; then delete the view.
  await page.getByRole('combobox', { name: 'View', exact: true }).selectOption({ label: 'Big customers' });
  await page.getByRole('button', { name: 'Make table default' }).click();
  await expect(page.getByRole('button', { name: 'Unset table default' })).toBeVisible();
  await page.goto(tableUrl);
  await expect(page).toHaveURL(viewUrl);
  await expect(page.getByText('3 records', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Delete view' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete view' }).click();
  await expect(page.getByText('10 records', { exact: true })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'View', exact: true }).locator('option')).toHaveCount(1);
  await expectAccessible(page, 'the grid after deleting the view');
});

test('the view settings wait for the saved views: disabled and busy until views/list answers, then a sort chosen stands', async ({ page, tabula }) => {
  const space = await tabula.api<{ id: number }>('/api/spaces/create', { name: 'Slow views' });
  const table = await tabula.api<{ id: number }>(`/api/space/${space.id}/tables/create`, {
    name: 'Fruit',
    fields: [
      { name: 'Name', type: 'text' },
      { name: 'Amount', type: 'number' },
    ],
  });
  await tabula.api(`/api/table/${table.id}/records/create_batch`, { records: fruits.slice(0, 3).map((name, index) => ({ data: { name, amount: index + 1 } })) });
  // The views answer late, as on a slow machine: the settings they bring must not replace a
  // choice made before them, so nothing can be chosen until they are read.
  let answerViews!: () => void;
  const viewsHeld = new Promise<void>((resolve) => (answerViews = resolve));
  await page.route('**/api/table/*/views/list', async (route) => {
    await viewsHeld;
    await route.continue();
  });
  await signIn(page, tabula);
  await page.goto(`${tabula.baseUrl}/space/${space.id}/table/${table.id}`);
  await expect(page.getByText('3 records', { exact: true })).toBeVisible();
  const settings = page.getByRole('region', { name: 'View settings' });
  await expect(settings).toHaveAttribute('aria-busy', 'true');
  await expect(page.getByLabel('Sort by')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Add filter' })).toBeDisabled();
  answerViews();
  await expect(page.getByLabel('Sort by')).toBeEnabled();
  await expect(settings).not.toHaveAttribute('aria-busy', 'true');
  await page.getByLabel('Sort by').selectOption({ label: 'Amount' });
  await page.getByLabel('Direction').selectOption({ label: 'Descending' });
  await expect.poll(() => cellText(page, 1, 'Name')).toBe('Cherry');
  await expect(page.getByLabel('Sort by').locator('option:checked')).toHaveText('Amount');
});
