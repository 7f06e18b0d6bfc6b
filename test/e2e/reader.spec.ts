import type { Page } from '@playwright/test';
import { dragOnto } from './drag.js';
import { expect, expectAccessible, screenshot, signIn, test, type TabulaServer } from './tabula-server.js';

/** A 1×1 PNG, attached through the API. */
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

interface StoredRecord {
  id: number;
  data: Record<string, unknown>;
}

let made = 0;

/** A user of the account, a member of the space with `role`. */
async function member(tabula: TabulaServer, sid: number, role: 'reader' | 'editor') {
  made += 1;
  const email = `${role}${made}-${Date.now()}@example.com`;
  const password = `${role}-password-1`;
  const user = await tabula.api<{ id: number }>('/api/users/create', { email, name: `Rita ${role}`, password });
  await tabula.api(`/api/space/${sid}/members/add`, { user_id: user.id, role });
  return { email, password };
}

/** The owner's session cookie, one per server: every spec file signs in to the worker's one server (tabula-server.ts signIn). */
const ownerCookies = new Map<string, Promise<string>>();

async function signInOwner(tabula: TabulaServer): Promise<string> {
  for (;;) {
    const login = await fetch(`${tabula.baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: tabula.email, password: tabula.password }) });
    // Past the login throttle's 10 a minute, the next sign-in waits for its window.
    if (login.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, (Number(login.headers.get('retry-after') ?? 60) + 1) * 1000));
      continue;
    }
    expect(login.status).toBe(200);
    return login.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
  }
}

/** The owner's session outside the browser: views are created by sessions only (API keys are refused). */
async function ownerSession(tabula: TabulaServer) {
  if (!ownerCookies.has(tabula.baseUrl)) ownerCookies.set(tabula.baseUrl, signInOwner(tabula));
  const cookie = await ownerCookies.get(tabula.baseUrl)!;
  return async <T>(pathname: string, body: unknown): Promise<T> => {
    const response = await fetch(`${tabula.baseUrl}${pathname}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${pathname}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
}

/**
 * A space with a table of several kinds of field (one only admins may write), three records (one
 * with a file and a comment), a fourth in the trash, a kanban view by Stage; a reader and an editor.
 */
async function setUp(tabula: TabulaServer, name: string) {
  const space = await tabula.api<{ id: number }>('/api/spaces/create', { name });
  const table = await tabula.api<{ id: number }>(`/api/space/${space.id}/tables/create`, {
    name: 'Deals',
    fields: [
      { id: 'name', name: 'Name', type: 'text' },
      { id: 'amount', name: 'Amount', type: 'number', decimals: 2 },
      { id: 'stage', name: 'Stage', type: 'select', options: [{ value: 'lead' }, { value: 'won' }] },
      { id: 'closed', name: 'Closed', type: 'checkbox' },
      { id: 'score', name: 'Score', type: 'number', editable_by: 'admins' },
      { id: 'files', name: 'Files', type: 'file' },
    ],
  });
  const created = await tabula.api<{ id: number }[]>(`/api/table/${table.id}/records/create_batch`, {
    records: [
      { data: { name: 'Acme', amount: 10, stage: 'lead', closed: true, score: 1, files: [{ data: png, name: 'dot.png', type: 'image/png' }] } },
      { data: { name: 'Globex', amount: 20, stage: 'won', score: 2 } },
      { data: { name: 'Initech', amount: 30, stage: 'lead', score: 3 } },
      { data: { name: 'Umbrella' } },
    ],
  });
  const [acme, globex, initech, umbrella] = created;
  await tabula.api(`/api/table/${table.id}/record/${acme.id}/comments/create`, { content: 'Call them on Monday' });
  await tabula.api(`/api/table/${table.id}/record/${umbrella.id}/delete`, {});
  const session = await ownerSession(tabula);
  const board = await session<{ id: number }>(`/api/table/${table.id}/views/create`, { name: 'Board', type: 'kanban', config: { categoryField: 'stage', secondaryField: 'amount' } });
  return { space, table, board, acme, globex, initech, tableUrl: `${tabula.baseUrl}/space/${space.id}/table/${table.id}` };
}

/** Every record of the table as the API reads it. */
const recordsOf = (tabula: TabulaServer, tid: number) => tabula.api<StoredRecord[]>(`/api/table/${tid}/records/query`, {});

/** Requests that would change something (everything but reads), from the moment this is called. */
function watchWrites(page: Page): string[] {
  const writes: string[] = [];
  const reads = /\/(records\/(query|count|ids|export|trash)|record\/\d+\/(get|history|files\/get|comments\/files\/get)|comments\/get|subscriptions\/\d+\/status|notifications\/list|changes\/list)$/;
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === 'POST' && path.startsWith('/api/') && !reads.test(path)) writes.push(path);
  });
  return writes;
}

/** Pastes a tab-separated block where the grid has the focus, as Ctrl+V does. */
const paste = (page: Page, text: string) =>
  page.evaluate((tsv) => {
    const data = new DataTransfer();
    data.setData('text/plain', tsv);
    document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);

test.describe.configure({ mode: 'serial' });

test('a reader sees no edit affordances and cannot change anything: grid, record drawer, kanban, trash, table settings', async ({ page, tabula }) => {
  const { space, table, board, acme, tableUrl } = await setUp(tabula, 'Reading room');
  const reader = await member(tabula, space.id, 'reader');
  const before = await recordsOf(tabula, table.id);
  const cell = (row: number, column: number) => page.locator(`#cell-${table.id}-${row - 1}-${column}`);

  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, tabula, reader.password, reader.email);
  const writes = watchWrites(page);

  // The space: its tables, no "New table".
  await page.getByRole('link', { name: 'Reading room' }).click();
  await expect(page.getByRole('link', { name: 'Deals' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New table' })).toHaveCount(0);

  // The grid: reading and exporting stay; every control that changes something is absent.
  await page.getByRole('link', { name: 'Deals' }).click();
  await expect(page.getByText('3 records', { exact: true })).toBeVisible();
  await expect(cell(1, 0)).toHaveText('Acme');
  const records = page.getByRole('toolbar', { name: 'Records' });
  await expect(records.getByRole('button', { name: 'Export CSV' })).toBeVisible();
  await expect(records.getByRole('link', { name: 'Trash' })).toBeVisible();
  for (const name of ['Add row', 'Delete row', 'Add field', 'Import CSV']) await expect(page.getByRole('button', { name })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Table settings' })).toHaveCount(0);
  const views = page.getByRole('toolbar', { name: 'Views' });
  await expect(views.getByRole('combobox', { name: 'View' })).toBeVisible();
  await expect(views.getByRole('textbox', { name: 'New view name' })).toHaveCount(0);
  await expect(views.getByRole('button', { name: 'Save as new view' })).toHaveCount(0);
  await expect(page.getByRole('grid')).toHaveAttribute('aria-readonly', 'true');
  await expect(cell(1, 0)).toHaveAttribute('aria-readonly', 'true');

  // Enter, F2, double-click and typing open no editor; Space on a checkbox does not toggle it.
  await page.getByRole('grid').focus();
  await page.keyboard.press('Control+Home');
  await expect(cell(1, 0)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await page.keyboard.press('F2');
  await page.keyboard.type('Hacked');
  await expect(page.getByLabel('Name, row 1', { exact: true })).toHaveCount(0);
  await cell(1, 1).dblclick();
  await expect(page.getByLabel('Amount, row 1', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('grid').locator('input, textarea, select')).toHaveCount(0);
  await expect(cell(1, 0)).toHaveText('Acme');
  // Pasting is refused before any request, in words.
  await page.getByRole('grid').focus();
  await page.keyboard.press('Control+Home');
  await paste(page, 'Hacked\t99');
  await expect(page.getByRole('alert').filter({ hasText: 'You can read this table but not change it. Nothing was pasted.' })).toBeVisible();
  await expect(cell(1, 0)).toHaveText('Acme');
  await screenshot(page, 'reader-grid');
  await expectAccessible(page, "a reader's grid");

  // The record drawer: values, files and comments to read; nothing to change.
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Shift+Enter');
  const drawer = page.getByRole('dialog', { name: 'Acme' });
  await expect(drawer).toBeVisible();
  await expect(drawer.locator('.comment-body').filter({ hasText: 'Call them on Monday' })).toBeVisible();
  await expect(drawer.getByRole('link', { name: 'Download dot.png' })).toBeVisible();
  await expect(drawer.getByText('10.00')).toBeVisible();
  await expect(drawer.getByRole('button', { name: /^Edit / })).toHaveCount(0);
  await expect(drawer.getByRole('checkbox')).toHaveCount(0);
  for (const name of ['Delete record', 'Delete dot.png', 'Choose files for Files', 'Post comment']) await expect(drawer.getByRole('button', { name })).toHaveCount(0);
  await expect(drawer.getByRole('textbox')).toHaveCount(0);
  await screenshot(page, 'reader-record-drawer');
  await expectAccessible(page, "a reader's record drawer");
  // Following a record needs only read access on the server: a reader may, and it works.
  await drawer.getByRole('button', { name: 'Subscribe' }).click();
  await expect(drawer.getByRole('button', { name: 'Unsubscribe' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);

  // The kanban: cards to open, none to drag or move.
  await page.goto(`${tableUrl}/view/${board.id}`);
  const lead = page.getByRole('region', { name: /^lead/ });
  const won = page.getByRole('region', { name: /^won/ });
  await expect(lead.getByRole('button', { name: 'Acme', exact: true })).toBeVisible();
  await expect(page.getByRole('combobox', { name: /^Move .* to lane$/ })).toHaveCount(0);
  await expect(page.locator('.kanban-card[draggable="true"]')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Add record/ })).toHaveCount(0);
  for (const name of ['Layout settings', 'Delete view', 'Make table default', 'Save view']) await expect(page.getByRole('button', { name })).toHaveCount(0);
  await screenshot(page, 'reader-kanban');
  await expectAccessible(page, "a reader's kanban");
  // A mouse drag onto another lane moves nothing (and asks nothing of the server: see the end).
  await dragOnto(page, lead.locator('.kanban-card', { hasText: 'Acme' }), won.locator('.kanban-scroll'));
  await expect(lead.getByRole('button', { name: 'Acme', exact: true })).toBeVisible();
  await expect(won.getByRole('button', { name: 'Acme', exact: true })).toHaveCount(0);

  // The trash: what was deleted, nothing to restore.
  await page.goto(`${tableUrl}/trash`);
  await expect(page.getByRole('cell', { name: /Umbrella/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Restore/ })).toHaveCount(0);
  await expectAccessible(page, "a reader's trash");

  // Table settings by their address: the fields to read, nothing to change.
  await page.goto(`${tableUrl}/settings`);
  await expect(page.getByRole('cell', { name: 'Score', exact: true })).toBeVisible();
  await expect(page.getByText("Only the space's admins change")).toBeVisible();
  for (const name of ['Save table', 'Add field', 'Delete table', 'Edit field Name']) await expect(page.getByRole('button', { name })).toHaveCount(0);
  await expectAccessible(page, "a reader's table settings");

  // Nothing was asked of the server that would change anything but the subscription, and nothing changed.
  expect(writes).toEqual([`/api/subscriptions/${table.id}/${acme.id}/subscribe`]);
  expect(await recordsOf(tabula, table.id)).toEqual(before);
  expect((await tabula.api<StoredRecord>(`/api/table/${table.id}/record/${acme.id}/get`)).data.name).toBe('Acme');
});

test('an editor edits cells and records but sees no table management, and no editor on a field only admins may write', async ({ page, tabula }) => {
  const { space, table, board, acme, initech, tableUrl } = await setUp(tabula, 'Editing room');
  const editor = await member(tabula, space.id, 'editor');
  const cell = (row: number, column: number) => page.locator(`#cell-${table.id}-${row - 1}-${column}`);

  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, tabula, editor.password, editor.email);
  await page.goto(tableUrl);
  await expect(page.getByText('3 records', { exact: true })).toBeVisible();
  const records = page.getByRole('toolbar', { name: 'Records' });
  await expect(records.getByRole('button', { name: 'Add row' })).toBeVisible();
  await expect(records.getByRole('button', { name: 'Import CSV' })).toBeVisible();
  await expect(records.getByRole('button', { name: 'Add field' })).toHaveCount(0);
  await expect(records.getByRole('link', { name: 'Table settings' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Save as new view' })).toHaveCount(0);
  await expect(page.getByRole('grid')).not.toHaveAttribute('aria-readonly', 'true');

  // A cell of a field editors may write: edited and saved.
  await page.getByRole('grid').focus();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Enter');
  await page.getByLabel('Name, row 1', { exact: true }).fill('Acme Corp');
  await page.keyboard.press('Enter');
  await expect(cell(1, 0)).toHaveText('Acme Corp');
  await expect.poll(async () => (await tabula.api<StoredRecord>(`/api/table/${table.id}/record/${acme.id}/get`)).data.name).toBe('Acme Corp');

  // Score is editable by admins only: read-only for an editor, in the grid and in a paste.
  const score = cell(1, 4);
  await expect(score).toHaveAttribute('aria-readonly', 'true');
  await score.dblclick();
  await expect(page.getByLabel('Score, row 1', { exact: true })).toHaveCount(0);
  await page.getByRole('grid').focus();
  await paste(page, '99');
  await expect(page.getByRole('alert').filter({ hasText: 'Score cannot be changed here. Nothing was pasted.' })).toBeVisible();
  await screenshot(page, 'editor-grid');
  await expectAccessible(page, "an editor's grid");

  // The record: Name editable, Score not; the record may be deleted and commented on.
  await page.goto(`${tableUrl}?record=${acme.id}`);
  const drawer = page.getByRole('dialog', { name: 'Acme Corp' });
  await expect(drawer.getByRole('button', { name: 'Edit Name' })).toBeVisible();
  await expect(drawer.getByRole('button', { name: 'Edit Score' })).toHaveCount(0);
  await expect(drawer.getByRole('button', { name: 'Delete record' })).toBeVisible();
  await expect(drawer.getByRole('button', { name: 'Post comment' })).toBeVisible();
  await expect(drawer.getByRole('button', { name: 'Delete dot.png' })).toBeVisible();
  expect((await tabula.api<StoredRecord>(`/api/table/${table.id}/record/${acme.id}/get`)).data.score).toBe(1);

  // The kanban: cards drag and move between lanes (Stage is theirs to write); the view's settings are an admin's.
  await page.goto(`${tableUrl}/view/${board.id}`);
  await expect(page.getByRole('region', { name: /^lead/ }).getByRole('button', { name: 'Initech', exact: true })).toBeVisible();
  await expect(page.locator('.kanban-card[draggable="true"]')).toHaveCount(3);
  await expect(page.getByRole('button', { name: 'Add record to won' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Move Initech to lane' }).selectOption('won');
  await expect.poll(async () => (await tabula.api<StoredRecord>(`/api/table/${table.id}/record/${initech.id}/get`)).data.stage).toBe('won');
  await expect(page.getByRole('button', { name: 'Layout settings' })).toHaveCount(0);
});
