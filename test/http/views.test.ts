import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, login, type World } from '../factories.js';

describe('views: saved views, queries through them, session-only management', () => {
  const ctx = useTestApp();
  let world: World;
  let spaceId: number;
  let tableId: number;
  let otherTableId: number;
  let ownerSession: string;
  let editorSession: string;
  let editorKey: string;

  const asSession = (cookie: string, method: 'GET' | 'POST', url: string, body?: unknown) => call(ctx, method, url, { cookie, body: body ?? (method === 'POST' ? {} : undefined) });
  const asKey = (method: 'GET' | 'POST', url: string, body?: unknown, key = world.accountKey) => call(ctx, method, url, { key, body: body ?? (method === 'POST' ? {} : undefined) });
  const createView = async (body: unknown, table = tableId) => asSession(ownerSession, 'POST', `/api/table/${table}/views/create`, body);
  const query = (body: unknown, path = 'query', key = world.accountKey) => asKey('POST', `/api/table/${tableId}/records/${path}`, body, key);
  const names = (records: Array<{ data: { name: string } }>) => records.map((r) => r.data.name);

  beforeAll(async () => {
    world = await createAccount(ctx);
    spaceId = (await createSpace(ctx, world, 'Views')).id;
    tableId = (
      await createTable(ctx, world, spaceId, {
        name: 'Deals',
        fields: [
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'amount', name: 'Amount', type: 'number' },
          { id: 'stage', name: 'Stage', type: 'select', options: [{ value: 'lead' }, { value: 'won' }] },
          { id: 'tags', name: 'Tags', type: 'select', multiple: true, options: [{ value: 'a' }] },
          { id: 'due', name: 'Due', type: 'date' },
          { id: 'photo', name: 'Photo', type: 'file' },
          { id: 'secret', name: 'Secret', type: 'text', hidden: 'always' },
        ],
      })
    ).id;
    otherTableId = (await createTable(ctx, world, spaceId, { name: 'Other', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
    for (const [name, amount, stage] of [['alpha', 10, 'lead'], ['beta', 50, 'won'], ['gamma', 30, 'won'], ['delta', 70, 'lead']] as const) {
      await asKey('POST', `/api/table/${tableId}/records/create`, { data: { name, amount, stage } });
    }
    ownerSession = await login(ctx, world.ownerEmail, world.ownerPassword);
    const editor = await createUser(ctx, world, 'Eddie');
    await addMember(ctx, world, spaceId, editor.id, 'editor');
    editorKey = (await createKey(ctx, { userId: editor.id })).key;
    editorSession = await login(ctx, editor.email, 'user-password');
  });

  it('lists the Default view first, then saved views by name', async () => {
    await createView({ name: 'Zed', type: 'grid' });
    await createView({ name: 'Big won', type: 'grid', filters: [{ column: 'stage', compare: '=', value: 'won' }], order_by: 'amount', order_dir: 'D' });
    const list = await asKey('GET', `/api/table/${tableId}/views/list`);
    expect(list.status).toBe(200);
    expect(list.body.map((v: { name: string }) => v.name)).toEqual(['Default', 'Big won', 'Zed']);
    expect(list.body[0]).toEqual({ id: 0, account_id: world.accountId, table_id: tableId, name: 'Default', type: 'grid', config: null, filters: [], order_by: null, order_dir: null, created_by: 0, created_at: '', updated_at: '', is_default: true, is_table_default: false });
    expect(list.body[1]).toMatchObject({ type: 'grid', config: { columns: [] }, order_by: 'amount', order_dir: 'D', is_default: false, is_table_default: false, created_by: world.ownerId });
  });

  it('gets a view by id; 0 is the Default view; another table\'s or a missing id is 404 View not found', async () => {
    const [, saved] = (await asKey('GET', `/api/table/${tableId}/views/list`)).body;
    expect((await asKey('GET', `/api/table/${tableId}/view/${saved.id}/get`)).body).toEqual(saved);
    expect((await asKey('GET', `/api/table/${tableId}/view/0/get`)).body.name).toBe('Default');
    for (const url of [`/api/table/${otherTableId}/view/${saved.id}/get`, `/api/table/${tableId}/view/999999/get`]) {
      const answer = await asKey('GET', url);
      expect(answer.status).toBe(404);
      expect(answer.body.error.message).toBe('View not found');
    }
  });

  it('refuses view changes with API keys (403, nothing changed) and with an editor\'s session', async () => {
    const before = (await asKey('GET', `/api/table/${tableId}/views/list`)).body;
    for (const [url, body] of [[`/api/table/${tableId}/views/create`, { name: 'K' }], [`/api/table/${tableId}/view/${before[1].id}/update`, { name: 'K' }], [`/api/table/${tableId}/view/${before[1].id}/delete`, {}]] as const) {
      for (const key of [world.accountKey, editorKey]) {
        const answer = await asKey('POST', url, body, key);
        expect(answer.status).toBe(403);
        expect(answer.body.error.message).toBe('API endpoint not available to API keys');
      }
      expect((await asSession(editorSession, 'POST', url, body)).status).toBe(403);
    }
    expect((await asKey('GET', `/api/table/${tableId}/views/list`)).body).toEqual(before);
  });

  it('checks config by type and names the bad key; grid config never fails', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ name: 'C', type: 'calendar', config: { startField: 'name' } }, /config\.startField: must be a date or datetime field/],
      [{ name: 'C', type: 'calendar', config: {} }, /config\.startField: is required/],
      [{ name: 'C', type: 'calendar', config: { startField: 'due', colorField: 'amount' } }, /config\.colorField/],
      [{ name: 'C', type: 'calendar', config: { startField: 'due', mode: 'year' } }, /config\.mode/],
      [{ name: 'C', type: 'calendar', config: { startField: 'due', colour: 'stage' } }, /config\.colour: unknown key/],
      [{ name: 'G', type: 'gallery', config: { imageField: 'name' } }, /config\.imageField: must be a file field/],
      [{ name: 'K', type: 'kanban', config: { categoryField: 'tags' } }, /config\.categoryField: .*takes several values/],
      [{ name: 'K', type: 'board' }, /Invalid type/],
      [{ name: 'F', filters: [{ column: 'nope', compare: '=', value: 1 }] }, /nope/],
      [{ name: 'F', order_by: 'photo' }, /order_by/],
      [{ type: 'grid' }, /Invalid name/],
    ];
    for (const [body, message] of cases) {
      const answer = await createView(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message).toMatch(message);
    }
    const grid = await createView({ name: 'Cols', type: 'grid', config: { columns: ['amount', 'gone', 'secret', 'name', 'amount', 7] } });
    expect(grid.body.config).toEqual({ columns: ['amount', 'name'] });
    const kanban = await createView({ name: 'Board', type: 'kanban', config: { categoryField: 'stage', secondaryField: 'amount' } });
    expect(kanban.status).toBe(200);
    expect((await createView({ name: 'Pics', type: 'gallery', config: { imageField: 'photo' } })).status).toBe(200);
  });

  it('a calendar weekStart takes a day name in any case (read back lower-cased) or its number 0-6 (read back as given)', async () => {
    const given: Array<[unknown, unknown]> = [
      ['monday', 'monday'],
      ['Monday', 'monday'],
      ['SUNDAY', 'sunday'],
      ['saturday', 'saturday'],
      [0, 0],
      [6, 6],
    ];
    for (const [weekStart, stored] of given) {
      const view = await createView({ name: `Week from ${String(weekStart)}`, type: 'calendar', config: { startField: 'due', weekStart } });
      expect(view.status, JSON.stringify(view.body)).toBe(200);
      expect(view.body.config.weekStart).toBe(stored);
      expect((await asKey('GET', `/api/table/${tableId}/view/${view.body.id}/get`)).body.config.weekStart).toBe(stored);
    }
    for (const weekStart of ['mon', 'funday', '1', 7, -1, 1.5, true]) {
      const refused = await createView({ name: 'Bad week', type: 'calendar', config: { startField: 'due', weekStart } });
      expect(refused.body, JSON.stringify(weekStart)).toEqual({
        error: { code: 'invalid_parameters', message: 'Invalid config.weekStart: must be a day name (sunday to saturday, any case) or its number 0-6 (0 = Sunday)' },
      });
    }
  });

  it('a calendar view creates the index idx_layout_<startField>', async () => {
    const calendar = await createView({ name: 'Calendar', type: 'calendar', config: { startField: 'due', mode: 'month', weekStart: 1 } });
    expect(calendar.status).toBe(200);
    const table = (await asKey('GET', `/api/table/${tableId}/get`)).body;
    expect(table.indexes).toContainEqual(expect.objectContaining({ name: 'idx_layout_due', fields: ['due'], origin: 'calendar', direction: null }));
    const refused = await asKey('POST', `/api/table/${tableId}/index/idx_layout_due/delete`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'index_in_use', message: `Index idx_layout_due is needed by calendar view ${calendar.body.id} (Calendar)` });
    expect((await asKey('GET', `/api/table/${tableId}/get`)).body.indexes.map((i: { name: string }) => i.name)).toContain('idx_layout_due');
  });

  it('is_table_default: setting it on one view clears it on the others', async () => {
    const first = (await createView({ name: 'First default', is_table_default: true })).body;
    const second = (await createView({ name: 'Second default', is_table_default: true })).body;
    expect((await asKey('GET', `/api/table/${tableId}/view/${first.id}/get`)).body.is_table_default).toBe(false);
    expect((await asKey('GET', `/api/table/${tableId}/view/${second.id}/get`)).body.is_table_default).toBe(true);
    // Never applied on its own: a query without view_id is unfiltered.
    expect((await query({})).body).toHaveLength(4);
  });

  it('a query through a view takes its filters and sort; search, fields, limit and offset still apply', async () => {
    const view = (await asKey('GET', `/api/table/${tableId}/views/list`)).body.find((v: { name: string }) => v.name === 'Big won');
    expect(names((await query({ view_id: view.id })).body)).toEqual(['beta', 'gamma']);
    expect(names((await query({ view_id: view.id, filters: [{ column: 'name', compare: '=', value: 'alpha' }], order_by: 'name', order_dir: 'A' })).body)).toEqual(['beta', 'gamma']);
    expect(names((await query({ view_id: view.id, limit: 1, offset: 1 })).body)).toEqual(['gamma']);
    expect(names((await query({ view_id: view.id, search: 'gam' })).body)).toEqual(['gamma']);
    expect(Object.keys((await query({ view_id: view.id, fields: ['name'] })).body[0].data)).toEqual(['name']);
    expect(names((await query({ view_id: view.id, append_filters: true, filters: [{ column: 'amount', compare: '<', value: 40 }] })).body)).toEqual(['gamma']);
    expect(names((await query({ view_id: 0 })).body)).toEqual(['alpha', 'beta', 'gamma', 'delta']);
    expect((await query({ view_id: view.id }, 'count')).body).toEqual({ count: 2, total: 4, total_approx: false, restricted: true });
    const ids = (await query({ view_id: view.id }, 'ids')).body;
    expect(ids).toHaveLength(2);
  });

  it('a missing view or another table\'s answers 500 View not found; a table the caller cannot see, 500 Not Authorized', async () => {
    const otherView = (await createView({ name: 'Other view' }, otherTableId)).body;
    for (const viewId of [999_999, otherView.id]) {
      const answer = await query({ view_id: viewId });
      expect(answer.status).toBe(500);
      expect(answer.body.error.message).toBe('View not found');
    }
    const stranger = await createAccount(ctx);
    for (const path of ['query', 'count', 'ids']) {
      const answer = await query({ view_id: otherView.id }, path, stranger.accountKey);
      expect(answer.status).toBe(500);
      expect(answer.body.error.message).toBe('Not Authorized');
    }
    expect((await query({}, 'query', stranger.accountKey)).body.error.message).toBe('Invalid Table');
    const listed = await asKey('GET', `/api/table/${tableId}/views/list`, undefined, stranger.accountKey);
    expect(listed.status).toBe(404);
    expect(listed.body.error.message).toBe('Not Authorized');
  });

  it('updates and deletes a view in a session', async () => {
    const view = (await createView({ name: 'Temp', filters: [{ column: 'stage', compare: '=', value: 'lead' }] })).body;
    const updated = await asSession(ownerSession, 'POST', `/api/table/${tableId}/view/${view.id}/update`, { name: 'Leads', order_by: 'amount', order_dir: 'D' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Leads', filters: view.filters, order_by: 'amount', order_dir: 'D' });
    expect(names((await query({ view_id: view.id })).body)).toEqual(['delta', 'alpha']);
    expect((await asSession(ownerSession, 'POST', `/api/table/${tableId}/view/${view.id}/delete`)).body).toEqual({ id: view.id, deleted: true });
    expect((await asKey('GET', `/api/table/${tableId}/view/${view.id}/get`)).status).toBe(404);
  });

  it('a view whose filter names a field deleted since answers 400, never a crash', async () => {
    await asKey('POST', `/api/table/${tableId}/fields/create`, { id: 'temp', name: 'Temp', type: 'number' });
    const view = (await createView({ name: 'On temp', filters: [{ column: 'temp', compare: 'EMPTY' }] })).body;
    expect((await query({ view_id: view.id })).body).toHaveLength(4);
    await asKey('POST', `/api/table/${tableId}/field/temp/delete`);
    const answer = await query({ view_id: view.id });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('invalid_filter');
  });
});
