import { expect, expectAccessible, screenshot, signIn, test, type TabulaServer } from './tabula-server.js';

interface Table {
  id: number;
  fields: { id: string; name: string }[];
}

/** One field of every type (docs/api.md, "Field definition"), in this order in the grid. */
function everyType(peopleId: number) {
  return [
    { id: 'name', name: 'Name', type: 'text' },
    { id: 'notes', name: 'Notes', type: 'longtext' },
    { id: 'amount', name: 'Amount', type: 'number', decimals: 2 },
    { id: 'active', name: 'Active', type: 'checkbox' },
    { id: 'email', name: 'Email', type: 'email' },
    { id: 'site', name: 'Site', type: 'url' },
    { id: 'stage', name: 'Stage', type: 'select', options: [{ value: 'lead', color: '#2b59c3' }, { value: 'customer' }] },
    { id: 'owner', name: 'Owner', type: 'user' },
    { id: 'person', name: 'Person', type: 'lookup', table_id: peopleId },
    { id: 'due', name: 'Due', type: 'date' },
    { id: 'at', name: 'At', type: 'datetime' },
    { id: 'at_time', name: 'At time', type: 'time' },
    { id: 'files', name: 'Files', type: 'file' },
  ];
}

/** A 1×1 transparent PNG. */
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

async function setUp(tabula: TabulaServer) {
  const space = await tabula.api<{ id: number }>('/api/spaces/create', { name: 'Editing' });
  const people = await tabula.api<Table>(`/api/space/${space.id}/tables/create`, { name: 'People', fields: [{ id: 'name', name: 'Name', type: 'text' }] });
  await tabula.api(`/api/table/${people.id}/records/create_batch`, { records: [{ data: { name: 'Ada' } }, { data: { name: 'Grace' } }] });
  const table = await tabula.api<Table>(`/api/space/${space.id}/tables/create`, { name: 'Everything', fields: everyType(people.id) });
  const records = Array.from({ length: 5 }, (_, index) => ({ data: { name: `R${index + 1}` } }));
  records[0].data = { ...records[0].data, files: [{ data: png, name: 'dot.png', type: 'image/png' }] } as never;
  await tabula.api(`/api/table/${table.id}/records/create_batch`, { records });
  await tabula.api(`/api/table/${table.id}/indexes/create`, { fields: ['amount'], direction: 'asc' });
  return { space, table, fields: everyType(people.id) };
}

test.describe.configure({ mode: 'serial' });

test.describe('grid editing, paste and table settings', () => {
  test('edit every type, copy and paste a block in one update_batch, manage the table and its fields', async ({ page, tabula }) => {
    const { space, table, fields } = await setUp(tabula);
    const column = (name: string) => fields.findIndex((field) => field.name === name);
    /** The grid cell at a row (1-based) and field name, by its id (the grid is virtualised: reach it with the keyboard first). */
    const cell = (row: number, name: string) => page.locator(`#cell-${table.id}-${row - 1}-${column(name)}`);
    const goTo = async (row: number, name: string) => {
      // From the first cell by keys: Ctrl+Home, then down and right (each move scrolls its cell into view).
      await page.getByRole('grid').focus();
      await page.keyboard.press('Control+Home');
      for (let step = 1; step < row; step += 1) await page.keyboard.press('ArrowDown');
      for (let step = 0; step < column(name); step += 1) await page.keyboard.press('ArrowRight');
      await expect(cell(row, name)).toHaveAttribute('aria-selected', 'true');
    };
    const edit = async (row: number, name: string) => {
      await goTo(row, name);
      await page.keyboard.press('Enter');
      return page.getByLabel(`${name}, row ${row}`, { exact: true });
    };
    const batches: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/records/update_batch')) batches.push(request.postData() ?? '');
    });

    await page.setViewportSize({ width: 1600, height: 800 });
    await signIn(page, tabula);
    await page.goto(`${tabula.baseUrl}/space/${space.id}/table/${table.id}`);
    await expect(page.getByText('5 records', { exact: true })).toBeVisible();
    await expect(cell(1, 'Name')).toHaveText('R1');

    // Every type with its editor.
    await (await edit(1, 'Name')).fill('Ada Lovelace');
    await page.keyboard.press('Enter');
    await expect(cell(1, 'Name')).toHaveText('Ada Lovelace');
    await (await edit(1, 'Notes')).fill('Notes on the engine');
    await page.keyboard.press('Enter');
    await expect(cell(1, 'Notes')).toHaveText('Notes on the engine');
    await (await edit(1, 'Amount')).fill('12.5');
    await page.keyboard.press('Enter');
    await expect(cell(1, 'Amount')).toHaveText('12.50');
    await goTo(1, 'Active');
    await page.keyboard.press(' ');
    await expect(cell(1, 'Active').getByRole('img', { name: 'Yes' })).toBeVisible();
    await (await edit(1, 'Email')).fill('ada@example.com');
    await page.keyboard.press('Enter');
    await expect(cell(1, 'Email')).toHaveText('ada@example.com');
    await (await edit(1, 'Site')).fill('https://example.com/ada');
    await page.keyboard.press('Enter');
    await expect(cell(1, 'Site')).toHaveText('https://example.com/ada');
    await (await edit(1, 'Stage')).selectOption('customer');
    await page.keyboard.press('Enter');
    await expect(cell(1, 'Stage')).toHaveText('customer');
    const owner = await edit(1, 'Owner');
    await owner.selectOption({ index: 1 });
    await page.keyboard.press('Enter');
    await expect(cell(1, 'Owner')).toHaveText(/\S/);
    await edit(1, 'Person');
    await page.getByLabel('Search Person, row 1').fill('Grace');
    await expect(page.getByRole('option', { name: 'Grace' })).toBeVisible();
    await page.getByLabel('Person, row 1', { exact: true }).selectOption({ label: 'Grace' });
    await screenshot(page, 'grid-lookup-picker');
    await expectAccessible(page, 'the grid with the lookup picker open');
    await page.keyboard.press('Enter');
    await expect(cell(1, 'Person')).toHaveText('Grace');
    await (await edit(1, 'Due')).fill('2024-03-09');
    await page.keyboard.press('Enter');
    await expect(cell(1, 'Due')).toHaveText('9 Mar 2024');
    await (await edit(1, 'At')).fill('2024-03-09T10:30:15');
    await page.keyboard.press('Enter');
    await expect(cell(1, 'At')).toHaveText('9 Mar 2024, 10:30:15 UTC');
    await (await edit(1, 'At time')).fill('09:15:00');
    await page.keyboard.press('Enter');
    await expect(cell(1, 'At time')).toHaveText('09:15:00');
    await goTo(1, 'Files');
    await expect(cell(1, 'Files')).toContainText('dot.png');
    // Its image is the server's 64-pixel thumbnail, loaded.
    const thumb = cell(1, 'Files').locator('img.file-thumb');
    await expect(thumb).toHaveAttribute('src', /\/files\/thumbnail\?.*size=64/);
    await expect.poll(() => thumb.evaluate((image) => (image as HTMLImageElement).naturalWidth)).toBe(1);
    await expect(cell(1, 'Files')).toHaveAttribute('aria-readonly', 'true');
    await screenshot(page, 'grid-every-type');
    await expectAccessible(page, 'the grid with every type');

    // Copy: shift+arrows select a range; the copy event gets it as TSV.
    await goTo(1, 'Name');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    const copied = await page.evaluate(() => {
      const data = new DataTransfer();
      document.activeElement!.dispatchEvent(new ClipboardEvent('copy', { clipboardData: data, bubbles: true, cancelable: true }));
      return data.getData('text/plain');
    });
    expect(copied).toBe('Ada Lovelace\tNotes on the engine\nR2\t');
    // Shift+click stretches the range from the active cell; Esc drops it.
    await cell(3, 'Notes').click({ modifiers: ['Shift'] });
    await expect(cell(3, 'Name')).toHaveAttribute('aria-selected', 'true');
    await screenshot(page, 'grid-range');
    await page.keyboard.press('Escape');
    await expect(cell(3, 'Name')).toHaveAttribute('aria-selected', 'false');

    // Paste a 5×3 block (number, checkbox, e-mail) at row 1's Amount: one update_batch, all saved.
    const block = ['1\ttrue\ta@example.com', '2\t0\tb@example.com', '3\tyes\tc@example.com', '1,000\tfalse\td@example.com', '5.25\t1\te@example.com'].join('\n');
    const paste = (text: string) =>
      page.evaluate((tsv) => {
        const data = new DataTransfer();
        data.setData('text/plain', tsv);
        document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      }, text);
    await goTo(1, 'Amount');
    await paste(block);
    await expect(page.getByRole('status').filter({ hasText: 'Pasted 15 cells into 5 records' })).toBeVisible();
    expect(batches).toHaveLength(1);
    expect(JSON.parse(batches[0]).records).toHaveLength(5);
    await expect(cell(4, 'Amount')).toHaveText('1000.00');
    await expect(cell(5, 'Email')).toHaveText('e@example.com');
    await expect(cell(2, 'Active').getByRole('img', { name: 'No' })).toBeVisible();
    await screenshot(page, 'grid-pasted');

    // A refused value: nothing is written, the message names the record.
    await goTo(2, 'Email');
    await paste('x@example.com\nnot an address');
    await expect(page.getByRole('alert').filter({ hasText: 'Nothing was pasted' })).toContainText('row 3 (R3)');
    expect(batches).toHaveLength(2);
    await expect(cell(2, 'Email')).toHaveText('b@example.com');
    // A block reaching past the last row is refused before any request.
    await goTo(4, 'Name');
    await paste('a\nb\nc');
    await expect(page.getByRole('alert').filter({ hasText: 'add rows first' })).toBeVisible();
    expect(batches).toHaveLength(2);

    await page.reload();
    await expect(cell(3, 'Amount')).toHaveText('3.00');
    await expect(cell(1, 'Person')).toHaveText('Grace');

    // Table settings: fields, indexes, rename, delete.
    await page.getByRole('link', { name: 'Table settings' }).click();
    await expect(page.getByRole('heading', { name: 'Everything: settings' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Indexes' })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: 'idx_amount_asc' })).toContainText('Amount (asc)manual');
    await screenshot(page, 'table-settings');
    await expectAccessible(page, 'the table settings');

    await page.getByRole('button', { name: 'Edit field Notes' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('Remarks');
    await page.getByRole('dialog').getByLabel('Required').check();
    await expectAccessible(page, 'the field dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Save field' }).click();
    await expect(page.getByRole('cell', { name: 'Remarks', exact: true })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: 'Remarks' })).toContainText('required');

    await page.getByRole('button', { name: 'Delete field Site' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete field' }).click();
    await expect(page.getByRole('cell', { name: 'Site', exact: true })).toHaveCount(0);

    await page.getByRole('button', { name: 'Add field' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Priority');
    await dialog.getByLabel('Type').selectOption('select');
    await dialog.getByRole('button', { name: 'Add option' }).click();
    await dialog.getByLabel('Option 1', { exact: true }).fill('high');
    await dialog.getByLabel('Option 1 colour').fill('#b42318');
    await dialog.getByRole('button', { name: 'Add option' }).click();
    await dialog.getByLabel('Option 2', { exact: true }).fill('low');
    await screenshot(page, 'field-dialog-select');
    await dialog.getByRole('button', { name: 'Add field' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'Priority' })).toContainText('high (#b42318), low');

    await page.getByLabel('Table name').fill('All types');
    await page.getByLabel('Title field').selectOption('email');
    await page.getByRole('button', { name: 'Save table' }).click();
    await expect(page.getByRole('heading', { name: 'All types: settings' })).toBeVisible();

    const saved = await tabula.api<Table & { name: string; title_field: string }>(`/api/table/${table.id}/get`);
    expect(saved.name).toBe('All types');
    expect(saved.title_field).toBe('email');
    expect(saved.fields.map((field) => field.id)).not.toContain('site');
    expect(saved.fields.find((field) => field.id === 'notes')?.name).toBe('Remarks');

    // Delete the table: the button waits for its name typed out.
    await page.getByRole('button', { name: 'Delete table' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm.getByRole('button', { name: 'Delete table' })).toBeDisabled();
    await confirm.getByLabel('Table name').fill('All types');
    await confirm.getByRole('button', { name: 'Delete table' }).click();
    await expect(page.getByRole('heading', { name: 'Editing' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'All types' })).toHaveCount(0);
  });
});
