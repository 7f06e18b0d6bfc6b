import type { Locator, Page, Request } from '@playwright/test';
import { dragOnto } from './drag.js';
import { expect, expectAccessible, screenshot, signIn, test, type TabulaServer } from './tabula-server.js';

/** A 1×1 PNG, uploaded through the API as a record's image. */
const pixelPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

interface Made {
  tableUrl: string;
  tid: number;
  ids: number[];
}

async function makeTable(tabula: TabulaServer, name: string, fields: unknown[], records: Record<string, unknown>[]): Promise<Made> {
  const space = await tabula.api<{ id: number }>('/api/spaces/create', { name: `${name} space` });
  const table = await tabula.api<{ id: number }>(`/api/space/${space.id}/tables/create`, { name, fields });
  const created = await tabula.api<{ id: number }[]>(`/api/table/${table.id}/records/create_batch`, { records: records.map((data) => ({ data })) });
  return { tableUrl: `${tabula.baseUrl}/space/${space.id}/table/${table.id}`, tid: table.id, ids: created.map((record) => record.id) };
}

const fieldOf = (tabula: TabulaServer, tid: number, rid: number, field: string) => async () => (await tabula.api<{ data: Record<string, unknown> }>(`/api/table/${tid}/record/${rid}/get`)).data[field];

/** Names a new view and saves it with the layout settings chosen before. */
async function saveNewView(page: Page, name: string): Promise<void> {
  await page.getByRole('textbox', { name: 'New view name' }).fill(name);
  await page.getByRole('button', { name: 'Save as new view' }).click();
}

/** Starts a mouse drag of `source` and holds it over `target` (the caller checks the drop zone, then releases). */
async function holdDragOver(page: Page, source: Locator, target: Locator): Promise<void> {
  await source.scrollIntoViewIfNeeded();
  const from = (await source.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + 6, from.y + Math.min(from.height / 2, 12));
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + Math.min(to.height / 2, 40), { steps: 8 });
}

/** The grid's own controls are not offered on a kanban, calendar or gallery. */
async function expectNoGridControls(page: Page): Promise<void> {
  for (const name of ['Add row', 'Delete row', 'Columns']) await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
}

/** The record the drawer shows (`?record=<rid>`), once the address carries it. */
async function openedRecord(page: Page): Promise<number> {
  await expect(page).toHaveURL(/[?&]record=\d+$/);
  return Number(new URL(page.url()).searchParams.get('record'));
}

async function closeDrawer(page: Page): Promise<void> {
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

interface ListedView {
  id: number;
  name: string;
  type: string;
  config: Record<string, unknown>;
}

/** The table's saved views, read with the page's session (views are a session's to manage). */
async function listViews(page: Page, tabula: TabulaServer, tid: number): Promise<ListedView[]> {
  const response = await page.request.get(`${tabula.baseUrl}/api/table/${tid}/views/list`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as ListedView[];
}

test.describe.configure({ mode: 'serial' });

test('kanban: created from the console (a bad config refused on its setting), lanes with counts, drag and keyboard moves write the record, a card opens its record', async ({ page, tabula }) => {
  const { tableUrl, tid, ids } = await makeTable(
    tabula,
    'Tasks',
    [
      { name: 'Name', type: 'text' },
      { name: 'Stage', type: 'select', options: [{ value: 'todo' }, { value: 'doing' }, { value: 'done' }] },
      { name: 'Notes', type: 'text' },
    ],
    [
      { name: 'Alpha', stage: 'todo', notes: 'first' },
      { name: 'Bravo', stage: 'todo', notes: 'second' },
      { name: 'Charlie', stage: 'doing', notes: 'third' },
      { name: 'Delta', notes: 'no stage' },
    ],
  );
  const [alpha, bravo, charlie] = ids;
  await signIn(page, tabula);
  await page.goto(tableUrl);
  await expect(page.getByText('4 records', { exact: true })).toBeVisible();

  // No lane field: the server's refusal is shown on the setting.
  await page.getByRole('combobox', { name: 'Layout', exact: true }).selectOption('kanban');
  await page.getByRole('combobox', { name: 'Lane field' }).selectOption('');
  await saveNewView(page, 'Board');
  await expect(page.getByRole('combobox', { name: 'Lane field' })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert').filter({ hasText: 'config.categoryField' })).toBeVisible();
  await screenshot(page, 'layouts-config-error');

  await page.getByRole('combobox', { name: 'Lane field' }).selectOption({ label: 'Stage' });
  await page.getByRole('combobox', { name: 'Card field' }).selectOption({ label: 'Notes' });
  await saveNewView(page, 'Board');
  await expect(page).toHaveURL(/\/view\/\d+$/);
  const todo = page.getByRole('region', { name: /^todo/ });
  const doing = page.getByRole('region', { name: /^doing/ });
  await expect(todo.getByRole('button', { name: 'Alpha', exact: true })).toBeVisible();
  await expect(todo.getByRole('heading')).toContainText('2 cards');
  await expect(page.getByRole('region', { name: /^No Stage/ }).getByRole('button', { name: 'Delta', exact: true })).toBeVisible();
  await expect(todo.getByText('Notes: first')).toBeVisible();
  // Only what applies to a kanban: no grid row buttons or columns; the fixed order is explained.
  await expectNoGridControls(page);
  await expect(page.getByText('In record order; sort by a number field to reorder cards by hand.')).toBeVisible();
  await screenshot(page, 'layouts-kanban');
  await expectAccessible(page, 'the kanban');
  await page.getByLabel('Sort by').selectOption({ label: 'Name' });
  await expect(page.getByText('Ordered by Name; sort by a number field to reorder cards by hand.')).toBeVisible();
  await page.getByLabel('Sort by').selectOption({ label: 'Record order' });
  await expect(page.getByText('Unsaved changes')).toHaveCount(0);

  // Drag Alpha: its own lane refuses it (no reordering without a number sort), "doing" takes it.
  await holdDragOver(page, todo.locator('.kanban-card', { hasText: 'Alpha' }), todo.locator('.kanban-scroll'));
  await expect(todo.locator('.kanban-drop')).not.toHaveAttribute('data-drop-target');
  const doingBox = (await doing.locator('.kanban-scroll').boundingBox())!;
  await page.mouse.move(doingBox.x + doingBox.width / 2, doingBox.y + 40, { steps: 8 });
  await expect(doing.locator('.kanban-drop')).toHaveAttribute('data-drop-target');
  await page.mouse.up();
  await expect.poll(fieldOf(tabula, tid, alpha, 'stage')).toBe('doing');
  await expect(doing.getByRole('button', { name: 'Alpha', exact: true })).toBeVisible();
  await expect(doing.getByRole('heading')).toContainText('2 cards');

  // The keyboard's way: Bravo's "Move to lane" select.
  const move = page.getByRole('combobox', { name: 'Move Bravo to lane' });
  await move.focus();
  await move.selectOption('done');
  await expect.poll(fieldOf(tabula, tid, bravo, 'stage')).toBe('done');
  await expect(page.getByRole('region', { name: /^done/ }).getByRole('button', { name: 'Bravo', exact: true })).toBeVisible();

  // Editing the layout: the card shows another field.
  await page.getByRole('button', { name: 'Layout settings' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: 'Lane field' }).selectOption('');
  await dialog.getByRole('button', { name: 'Save layout' }).click();
  await expect(dialog.getByRole('combobox', { name: 'Lane field' })).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByRole('alert').filter({ hasText: 'config.categoryField' })).toBeVisible();
  await screenshot(page, 'layouts-settings-error');
  await dialog.getByRole('combobox', { name: 'Lane field' }).selectOption({ label: 'Stage' });
  await dialog.getByRole('combobox', { name: 'Card field' }).selectOption({ label: 'Name' });
  await page.getByRole('button', { name: 'Save layout' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(doing.getByText('Name: Charlie')).toBeVisible();

  // A card opens its record (the drawer reads ?record=).
  await doing.getByRole('button', { name: 'Charlie', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`\\?record=${charlie}$`));
  await closeDrawer(page);

  // A lane's "Add record" creates a record with the lane's option and opens it in the drawer.
  await doing.getByRole('button', { name: 'Add record to doing' }).click();
  const added = await openedRecord(page);
  expect(await fieldOf(tabula, tid, added, 'stage')()).toBe('doing');
  await closeDrawer(page);
  await expect(doing.getByRole('button', { name: `Record ${added}`, exact: true })).toBeVisible();
  await page.getByRole('region', { name: /^No Stage/ }).getByRole('button', { name: 'Add record to No Stage' }).click();
  const unstaged = await openedRecord(page);
  expect(await fieldOf(tabula, tid, unstaged, 'stage')()).toBeNull();
  await closeDrawer(page);

  // "Save as new view" starts from this view's layout and config: the copy is the same kanban.
  await expect(page.getByRole('combobox', { name: 'Layout', exact: true })).toHaveValue('kanban');
  await expect(page.getByRole('combobox', { name: 'Lane field' }).first()).toHaveValue('stage');
  await saveNewView(page, 'Board copy');
  await expect(page.getByRole('combobox', { name: 'View', exact: true }).locator('option:checked')).toHaveText('Board copy');
  const copy = (await listViews(page, tabula, tid)).find((view) => view.name === 'Board copy');
  expect(copy).toMatchObject({ type: 'kanban', config: { categoryField: 'stage', secondaryField: 'name' } });
  await expect(page).toHaveURL(new RegExp(`/view/${copy!.id}$`));
  await expect(page.getByRole('region', { name: /^doing/ }).getByRole('button', { name: 'Charlie', exact: true })).toBeVisible();
});

test('kanban ordered by a number field: cards move up and down from the keyboard and are dropped where they land', async ({ page, tabula }) => {
  const { tableUrl, tid, ids } = await makeTable(
    tabula,
    'Queue',
    [
      { name: 'Name', type: 'text' },
      { name: 'Stage', type: 'select', options: [{ value: 'todo' }, { value: 'done' }] },
      { name: 'Rank', type: 'number' },
    ],
    [
      { name: 'Echo', stage: 'todo', rank: 1 },
      { name: 'Foxtrot', stage: 'todo', rank: 2 },
      { name: 'Golf', stage: 'todo', rank: 3 },
    ],
  );
  const [echo, , golf] = ids;
  await signIn(page, tabula);
  await page.goto(tableUrl);
  await page.getByLabel('Sort by').selectOption({ label: 'Rank' });
  await page.getByRole('combobox', { name: 'Layout', exact: true }).selectOption('kanban');
  await saveNewView(page, 'Queue board');
  await expect(page).toHaveURL(/\/view\/\d+$/);
  const todo = page.getByRole('region', { name: /^todo/ });
  const titles = () => todo.locator('.card-title').allTextContents();
  await expect.poll(titles).toEqual(['Echo', 'Foxtrot', 'Golf']);
  await expect(page.getByText(/sort by a number field to reorder/)).toHaveCount(0);

  await todo.getByRole('button', { name: 'Move Golf up' }).click();
  await expect.poll(fieldOf(tabula, tid, golf, 'rank')).toBe(1.5);
  await expect.poll(titles).toEqual(['Echo', 'Golf', 'Foxtrot']);
  await expectAccessible(page, 'an ordered kanban');

  // Echo dropped below the last card goes to the lane's end.
  await dragOnto(page, todo.locator('.kanban-card', { hasText: 'Echo' }), todo.locator('.kanban-scroll'), 'end');
  await expect.poll(fieldOf(tabula, tid, echo, 'rank')).toBe(3);
  await expect.poll(titles).toEqual(['Golf', 'Foxtrot', 'Echo']);
  expect(await fieldOf(tabula, tid, echo, 'stage')()).toBe('todo');
});

test('calendar: a month shows records on their days and loads only its range, drag and keyboard reschedule, week view, undated records aside', async ({ page, tabula }) => {
  const now = new Date();
  const month = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
  const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  const nextMonth = now.getMonth() === 11 ? `${now.getFullYear() + 1}-01` : `${now.getFullYear()}-${String(now.getMonth() + 2).padStart(2, '0')}`;
  const { tableUrl, tid, ids } = await makeTable(
    tabula,
    'Events',
    [
      { name: 'Name', type: 'text' },
      { name: 'When', type: 'date' },
      { name: 'Until', type: 'date' },
    ],
    [
      { name: 'Kickoff', when: `${month}-10` },
      { name: 'Review', when: `${month}-12`, until: `${month}-13` },
      { name: 'Someday' },
      { name: 'Later', when: `${nextMonth}-20` },
      { name: 'Standup', when: today },
    ],
  );
  const [kickoff, review] = ids;
  const queries: string[] = [];
  page.on('request', (request: Request) => {
    if (request.url().endsWith('/records/query')) queries.push(request.postData() ?? '');
  });
  await signIn(page, tabula);
  await page.goto(tableUrl);
  await page.getByRole('combobox', { name: 'Layout', exact: true }).selectOption('calendar');
  await page.getByRole('combobox', { name: 'Date field' }).selectOption({ label: 'When' });
  await page.getByRole('combobox', { name: 'End field' }).selectOption({ label: 'Until' });
  await saveNewView(page, 'Schedule');
  await expect(page).toHaveURL(/\/view\/\d+$/);

  const monthName = now.toLocaleString('en', { month: 'long', year: 'numeric' });
  await expect(page.getByRole('heading', { name: monthName })).toBeVisible();
  const day = (date: string) => page.locator(`td[data-day="${date}"]`);
  await expect(day(`${month}-10`).getByRole('button', { name: 'Kickoff', exact: true })).toBeVisible();
  await expect(day(`${month}-12`).getByRole('button', { name: 'Review', exact: true })).toBeVisible();
  await expect(day(`${month}-13`).getByRole('button', { name: 'Review', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Later', exact: true })).toHaveCount(0);
  await expect(page.getByRole('complementary', { name: /Without When/ }).getByRole('button', { name: 'Someday', exact: true })).toBeVisible();
  // The month's records were asked for by range (the start field between the first and last day shown).
  expect(queries.some((body) => body.includes('"compare":">="') && body.includes('"column":"when"'))).toBe(true);
  await expectNoGridControls(page);
  // A new view starts from this one's layout and settings.
  await expect(page.getByRole('combobox', { name: 'Layout', exact: true })).toHaveValue('calendar');
  await expect(page.getByRole('combobox', { name: 'Date field' })).toHaveValue('when');
  await expect(page.getByRole('combobox', { name: 'End field' })).toHaveValue('until');
  await screenshot(page, 'layouts-calendar-month');
  await expectAccessible(page, 'the calendar month');

  // Adding on a day sets the date field; the record opens in the drawer.
  await day(`${month}-08`).getByRole('button', { name: /^Add record on 8 / }).click();
  const added = await openedRecord(page);
  expect(await fieldOf(tabula, tid, added, 'when')()).toBe(`${month}-08`);
  await closeDrawer(page);
  await expect(day(`${month}-08`).getByRole('button', { name: `Record ${added}`, exact: true })).toBeVisible();

  // Drag Kickoff onto the 20th.
  await dragOnto(page, day(`${month}-10`).locator('.calendar-event', { hasText: 'Kickoff' }), day(`${month}-20`).locator('.calendar-drop'));
  await expect.poll(fieldOf(tabula, tid, kickoff, 'when')).toBe(`${month}-20`);
  await expect(day(`${month}-20`).getByRole('button', { name: 'Kickoff', exact: true })).toBeVisible();

  // The keyboard's way: Review to the 5th (its end moves with it).
  await day(`${month}-12`).getByRole('button', { name: 'Reschedule Review' }).click();
  await page.getByLabel('New date').fill(`${month}-05`);
  await page.getByLabel('New date').press('Enter');
  await expect.poll(fieldOf(tabula, tid, review, 'when')).toBe(`${month}-05`);
  expect(await fieldOf(tabula, tid, review, 'until')()).toBe(`${month}-06`);
  await expect(day(`${month}-06`).getByRole('button', { name: 'Review', exact: true })).toBeVisible();

  // An undated record dragged from the list aside onto a day gets that date.
  const undated = page.getByRole('complementary', { name: /Without When/ });
  await dragOnto(page, undated.locator('.calendar-event', { hasText: 'Someday' }), day(`${month}-15`).locator('.calendar-drop'));
  await expect.poll(fieldOf(tabula, tid, ids[2], 'when')).toBe(`${month}-15`);
  await expect(day(`${month}-15`).getByRole('button', { name: 'Someday', exact: true })).toBeVisible();
  await expect(undated.getByText('Every record has a date.')).toBeVisible();

  // The next month shows its own record; the week view shows seven days.
  await page.getByRole('button', { name: 'Next month' }).click();
  await expect(page.getByRole('button', { name: 'Later', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Today' }).click();
  await page.getByRole('button', { name: 'Week', exact: true }).click();
  await expect(page.getByRole('heading', { name: /^Week of / })).toBeVisible();
  await expect(page.locator('td.calendar-day')).toHaveCount(7);
  await expect(day(today).getByRole('button', { name: 'Standup', exact: true })).toBeVisible();
  await screenshot(page, 'layouts-calendar-week');
  await expectAccessible(page, 'the calendar week');
});

test('calendar: events that began before the month and end in it are shown on its first days (a second, bounded request)', async ({ page, tabula }) => {
  const now = new Date();
  const pad = (value: number) => String(value).padStart(2, '0');
  const month = `${now.getFullYear()}-${pad(now.getMonth() + 1)}`;
  const previous = new Date(now.getFullYear(), now.getMonth() - 1, 1);
  const previousMonth = `${previous.getFullYear()}-${pad(previous.getMonth() + 1)}`;
  const { tableUrl } = await makeTable(
    tabula,
    'Trips',
    [
      { name: 'Name', type: 'text' },
      { name: 'Starts', type: 'date' },
      { name: 'Ends', type: 'date' },
    ],
    [
      { name: 'Offsite', starts: `${previousMonth}-25`, ends: `${month}-03` },
      // The 15th is always before the month's first week: only the second request can bring it.
      { name: 'Retreat', starts: `${previousMonth}-15`, ends: `${month}-02` },
      { name: 'Over', starts: `${previousMonth}-05`, ends: `${previousMonth}-12` },
      { name: 'Inside', starts: `${month}-10`, ends: `${month}-11` },
    ],
  );
  const queries: string[] = [];
  page.on('request', (request: Request) => {
    if (request.url().endsWith('/records/query')) queries.push(request.postData() ?? '');
  });
  await signIn(page, tabula);
  await page.goto(tableUrl);
  await page.getByRole('combobox', { name: 'Layout', exact: true }).selectOption('calendar');
  await page.getByRole('combobox', { name: 'Date field' }).selectOption({ label: 'Starts' });
  await page.getByRole('combobox', { name: 'End field' }).selectOption({ label: 'Ends' });
  await saveNewView(page, 'Trips calendar');
  await expect(page).toHaveURL(/\/view\/\d+$/);

  const day = (date: string) => page.locator(`td[data-day="${date}"]`);
  for (const date of ['01', '02', '03']) await expect(day(`${month}-${date}`).getByRole('button', { name: 'Offsite', exact: true })).toBeVisible();
  await expect(day(`${month}-04`).getByRole('button', { name: 'Offsite', exact: true })).toHaveCount(0);
  for (const date of ['01', '02']) await expect(day(`${month}-${date}`).getByRole('button', { name: 'Retreat', exact: true })).toBeVisible();
  await expect(day(`${month}-03`).getByRole('button', { name: 'Retreat', exact: true })).toHaveCount(0);
  await expect(day(`${month}-10`).getByRole('button', { name: 'Inside', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Over', exact: true })).toHaveCount(0);
  // The month's own request stays on the start field alone; the second one is bounded and sorted by the start field (its index).
  expect(queries.some((body) => body.includes('"compare":"<"') && body.includes('"column":"ends","compare":">="') && body.includes('"order_by":"starts"'))).toBe(true);
  expect(queries.some((body) => body.includes('"compare":"<="') && !body.includes('"column":"ends"'))).toBe(true);
  await screenshot(page, 'layouts-calendar-spill');
  await expectAccessible(page, 'the calendar with events from the month before');
});

test('gallery: cards with the first image as a thumbnail, title and field', async ({ page, tabula }) => {
  const { tableUrl, tid, ids } = await makeTable(
    tabula,
    'Photos',
    [
      { name: 'Name', type: 'text' },
      { name: 'Picture', type: 'file' },
      { name: 'Caption', type: 'text' },
    ],
    [
      { name: 'Sunset', caption: 'red sky' },
      { name: 'Blank', caption: 'nothing yet' },
    ],
  );
  await tabula.api(`/api/table/${tid}/record/${ids[0]}/files/create`, { field_id: 'picture', name: 'pixel.png', type: 'image/png', data: pixelPng });
  await signIn(page, tabula);
  await page.goto(tableUrl);
  await page.getByRole('combobox', { name: 'Layout', exact: true }).selectOption('gallery');
  await page.getByRole('combobox', { name: 'Card field' }).selectOption({ label: 'Caption' });
  await saveNewView(page, 'Wall');
  await expect(page).toHaveURL(/\/view\/\d+$/);

  const sunset = page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Sunset', exact: true }) });
  const image = sunset.getByRole('img', { name: 'pixel.png' });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
  // The server's thumbnail (a WebP of 256 px at most; 512 on a 2× screen), not the file itself.
  const shown = new URL((await image.evaluate((element: HTMLImageElement) => element.currentSrc)) as string);
  expect(shown.pathname).toBe(`/api/table/${tid}/record/${ids[0]}/files/thumbnail`);
  expect(Object.fromEntries(shown.searchParams)).toMatchObject({ field_id: 'picture', size: '256' });
  expect(await image.getAttribute('srcset')).toContain('size=512 2x');
  await expect(sunset.getByText('Caption: red sky')).toBeVisible();
  await expect(page.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'Blank', exact: true }) }).getByText('No image')).toBeVisible();
  await expectNoGridControls(page);
  await screenshot(page, 'layouts-gallery');
  await expectAccessible(page, 'the gallery');
  await sunset.getByRole('button', { name: 'Sunset', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`\\?record=${ids[0]}$`));
  await closeDrawer(page);

  // The gallery's "Add record" creates a record and opens it in the drawer; its card follows.
  await page.getByRole('button', { name: 'Add record', exact: true }).click();
  const added = await openedRecord(page);
  await closeDrawer(page);
  await expect(page.getByRole('listitem').filter({ has: page.getByRole('button', { name: `Record ${added}`, exact: true }) }).getByText('No image')).toBeVisible();
  expect((await tabula.api<{ count: number }>(`/api/table/${tid}/records/count`, {})).count).toBe(3);
});

test('gallery of 60 images: only the cards in sight ask for their thumbnail, never the file; scrolling brings the rest', async ({ page, tabula }) => {
  const records = Array.from({ length: 60 }, (_, index) => ({ name: `Photo ${index + 1}`, picture: [{ data: pixelPng, name: `photo-${index + 1}.png`, type: 'image/png' }] }));
  const { tableUrl } = await makeTable(
    tabula,
    'Album',
    [
      { name: 'Name', type: 'text' },
      { name: 'Picture', type: 'file' },
    ],
    records,
  );
  const thumbnails = new Set<string>();
  const downloads = new Set<string>();
  page.on('request', (request: Request) => {
    if (request.url().includes('/files/thumbnail')) thumbnails.add(request.url());
    if (request.url().includes('/files/download')) downloads.add(request.url());
  });
  await signIn(page, tabula);
  await page.goto(tableUrl);
  await page.getByRole('combobox', { name: 'Layout', exact: true }).selectOption('gallery');
  await saveNewView(page, 'Album wall');
  await expect(page).toHaveURL(/\/view\/\d+$/);
  await expect(page.getByRole('img', { name: 'photo-1.png' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const first = thumbnails.size;
  expect(first).toBeGreaterThan(0);
  expect(first).toBeLessThan(60);

  const scroller = page.locator('.gallery-scroll');
  await expect(async () => {
    await scroller.evaluate((element) => (element.scrollTop = element.scrollHeight));
    await expect(page.getByRole('img', { name: 'photo-60.png' })).toBeVisible({ timeout: 1000 });
  }).toPass();
  await page.waitForLoadState('networkidle');
  expect(thumbnails.size).toBeGreaterThan(first);
  expect([...downloads], 'no card downloads the file itself').toEqual([]);
});
