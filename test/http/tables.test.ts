import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, type World } from '../factories.js';
import { fieldIds, physicalColumns, physicalTableExists } from '../schema-inspection.js';


const base = { required: false, editable_by: 'members', hidden: null };

describe('tables', () => {
  const ctx = useTestApp();
  let world: World;
  let spaceId: number;
  let companiesId: number;

  beforeAll(async () => {
    world = await createAccount(ctx);
    spaceId = (await createSpace(ctx, world, 'CRM')).id;
    companiesId = (await createTable(ctx, world, spaceId, { name: 'Companies', fields: [{ name: 'Name', type: 'text' }] })).id;
  });

  const post = (url: string, body?: unknown, key: string = world.accountKey) => call(ctx, 'POST', url, { key, body });
  const get = (url: string, key: string = world.accountKey) => call(ctx, 'GET', url, { key });
  /** The body of a GET: what comparisons before and after a rejected request look at. */
  const read = async (url: string) => (await get(url)).body;

  describe('create', () => {
    it('creates a table with a field of every type and answers its exact shape', async () => {
      const response = await post(`/api/space/${spaceId}/tables/create`, {
        name: 'Contacts',
        fields: [
          { name: 'Full Name', type: 'text' },
          { name: 'Notes', type: 'longtext' },
          { name: 'Score', type: 'number', decimals: 2 },
          { name: 'Raw Number', type: 'number' },
          { name: 'Active', type: 'checkbox' },
          { name: 'Email Address', type: 'email' },
          { name: 'Website', type: 'url' },
          { name: 'Stage', type: 'select', options: [{ value: 'Lead', color: '#ff0000' }, { value: 'Customer' }] },
          { name: 'Tags', type: 'select', multiple: true, options: [{ value: 'vip' }, { value: 'new', color: 'green' }] },
          { name: 'Owner', type: 'user' },
          { name: 'Watchers', type: 'user', multiple: true },
          { name: 'Company', type: 'lookup', table_id: companiesId },
          { name: 'Partners', type: 'lookup', table_id: companiesId, multiple: true },
          { name: 'Birthday', type: 'date' },
          { name: 'Last Contact', type: 'datetime' },
          { name: 'Call Time', type: 'time' },
          { name: 'Photos', type: 'file', image_only: true },
          { name: 'Attachments', type: 'file' },
        ],
      });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual({
        id: expect.any(Number),
        name: 'Contacts',
        space_id: spaceId,
        title_field: 'full_name',
        fields: [
          { id: 'full_name', name: 'Full Name', type: 'text', multiple: false, ...base },
          { id: 'notes', name: 'Notes', type: 'longtext', multiple: false, ...base },
          { id: 'score', name: 'Score', type: 'number', multiple: false, ...base, decimals: 2 },
          { id: 'raw_number', name: 'Raw Number', type: 'number', multiple: false, ...base, decimals: null },
          { id: 'active', name: 'Active', type: 'checkbox', multiple: false, ...base },
          { id: 'email_address', name: 'Email Address', type: 'email', multiple: false, ...base },
          { id: 'website', name: 'Website', type: 'url', multiple: false, ...base },
          { id: 'stage', name: 'Stage', type: 'select', multiple: false, ...base, options: [{ value: 'Lead', color: '#ff0000' }, { value: 'Customer' }] },
          { id: 'tags', name: 'Tags', type: 'select', multiple: true, ...base, options: [{ value: 'vip' }, { value: 'new', color: 'green' }] },
          { id: 'owner', name: 'Owner', type: 'user', multiple: false, ...base },
          { id: 'watchers', name: 'Watchers', type: 'user', multiple: true, ...base },
          { id: 'company', name: 'Company', type: 'lookup', multiple: false, ...base, table_id: companiesId },
          { id: 'partners', name: 'Partners', type: 'lookup', multiple: true, ...base, table_id: companiesId },
          { id: 'birthday', name: 'Birthday', type: 'date', multiple: false, ...base },
          { id: 'last_contact', name: 'Last Contact', type: 'datetime', multiple: false, ...base },
          { id: 'call_time', name: 'Call Time', type: 'time', multiple: false, ...base },
          { id: 'photos', name: 'Photos', type: 'file', multiple: true, ...base, image_only: true },
          { id: 'attachments', name: 'Attachments', type: 'file', multiple: true, ...base, image_only: false },
        ],
        indexes: [],
      });

      const tableId = response.body.id;
      expect(await get(`/api/table/${tableId}/get`)).toMatchObject({ status: 200, body: response.body });

      // One physical column per field; multi-valued fields hold JSON.
      const ids = await fieldIds(ctx, tableId);
      const columns = await physicalColumns(ctx, tableId);
      expect(Object.keys(columns)).toEqual(expect.arrayContaining(['id', 'created_at', 'updated_at']));
      expect(Object.keys(columns).filter((c) => c.startsWith('f_')).sort()).toEqual(Object.values(ids).map((id) => `f_${id}`).sort());
      const jsonType = ctx.container.database.dialect.jsonType;
      for (const slug of ['tags', 'watchers', 'partners', 'photos', 'attachments']) expect(columns[`f_${ids[slug]}`]).toBe(jsonType);
    });

    it('creates a table without fields', async () => {
      const response = await post(`/api/space/${spaceId}/tables/create`, { name: 'Empty' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ id: expect.any(Number), name: 'Empty', space_id: spaceId, title_field: null, fields: [], indexes: [] });
      expect(await physicalTableExists(ctx, response.body.id)).toBe(true);
    });

    it('trims the table name', async () => {
      const response = await post(`/api/space/${spaceId}/tables/create`, { name: '  Padded  ' });
      expect(response.body.name).toBe('Padded');
    });

    it('generates de-duplicated slugs that step around ids given explicitly later in the request', async () => {
      const response = await post(`/api/space/${spaceId}/tables/create`, {
        name: 'Slugs',
        fields: [
          { name: 'Email', type: 'email' },
          { name: 'Email', type: 'email' },
          { id: 'email', name: 'Work email', type: 'email' },
          { name: 'Title', type: 'text' },
        ],
      });
      expect(response.status).toBe(200);
      expect(response.body.fields.map((f: { id: string }) => f.id)).toEqual(['email_2', 'email_3', 'email', 'title_2']);
    });

    it.each([
      [{ name: '' }, 'Invalid name: must be 1 to 200 characters'],
      [{ name: '   ' }, 'Invalid name: must be 1 to 200 characters'],
      [{ name: 'T', fields: [{ id: 'a', name: 'A', type: 'text' }, { id: 'a', name: 'B', type: 'text' }] }, 'Invalid field definition: id "a" is already used in this table'],
      [{ name: 'T', fields: [{ name: 'A', type: 'nope' }] }, 'Invalid field type: "nope"'],
    ])('rejects %j with 400 and creates nothing', async (body, message) => {
      const before = await read(`/api/space/${spaceId}/tables/list`);
      const response = await post(`/api/space/${spaceId}/tables/create`, body);
      expect(response.status).toBe(400);
      expect(response.body.error.message).toContain(message);
      expect(await read(`/api/space/${spaceId}/tables/list`)).toEqual(before);
    });
  });

  describe('title_field', () => {
    it('defaults to the first text field, whatever comes before it', async () => {
      const response = await post(`/api/space/${spaceId}/tables/create`, {
        name: 'Default title',
        fields: [
          { name: 'Amount', type: 'number' },
          { name: 'Body', type: 'longtext' },
          { name: 'Headline', type: 'text' },
          { name: 'Subtitle', type: 'text' },
        ],
      });
      expect(response.body.title_field).toBe('headline');
    });

    it('is null when the table has no text field', async () => {
      const response = await post(`/api/space/${spaceId}/tables/create`, { name: 'No title', fields: [{ name: 'Amount', type: 'number' }] });
      expect(response.body.title_field).toBeNull();
    });

    it.each([
      ['subtitle', 'text'],
      ['amount', 'number'],
      ['body', 'longtext'],
      ['stage', 'single select'],
      ['day', 'date'],
      ['mail', 'email'],
    ])('can be set explicitly to %s (%s)', async (slug) => {
      const response = await post(`/api/space/${spaceId}/tables/create`, {
        name: 'Explicit title',
        title_field: slug,
        fields: [
          { name: 'Headline', type: 'text' },
          { name: 'Subtitle', type: 'text' },
          { name: 'Amount', type: 'number' },
          { name: 'Body', type: 'longtext' },
          { name: 'Stage', type: 'select', options: [{ value: 'a' }] },
          { name: 'Day', type: 'date' },
          { name: 'Mail', type: 'email' },
        ],
      });
      expect(response.status).toBe(200);
      expect(response.body.title_field).toBe(slug);
    });

    it.each([
      ['nope', 'Invalid title_field: no field "nope"'],
      ['flag', 'Invalid title_field: a checkbox field cannot be a title'],
      ['owner', 'Invalid title_field: a user field cannot be a title'],
      ['company', 'Invalid title_field: a lookup field cannot be a title'],
      ['files', 'Invalid title_field: a file field cannot be a title'],
      ['tags', 'Invalid title_field: a select field cannot be a title'],
    ])('rejects %j on create with 400 and creates nothing', async (slug, message) => {
      const before = await read(`/api/space/${spaceId}/tables/list`);
      const response = await post(`/api/space/${spaceId}/tables/create`, {
        name: 'Bad title',
        title_field: slug,
        fields: [
          { name: 'Headline', type: 'text' },
          { name: 'Flag', type: 'checkbox' },
          { name: 'Owner', type: 'user' },
          { name: 'Company', type: 'lookup', table_id: companiesId },
          { name: 'Files', type: 'file' },
          { name: 'Tags', type: 'select', multiple: true, options: [{ value: 'a' }] },
        ],
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: { code: 'invalid_parameters', message } });
      expect(await read(`/api/space/${spaceId}/tables/list`)).toEqual(before);
    });

    it('follows its field through a slug rename and falls back to the default once the field is deleted', async () => {
      const table = await createTable(ctx, world, spaceId, {
        name: 'Title follows',
        title_field: 'code',
        fields: [{ name: 'Headline', type: 'text' }, { name: 'Code', type: 'text' }],
      });
      const renamed = await post(`/api/table/${table.id}/field/code/update`, { id: 'ref' });
      expect(renamed.body.title_field).toBe('ref');
      const deleted = await post(`/api/table/${table.id}/field/ref/delete`);
      expect(deleted.body.title_field).toBe('headline');
    });
  });

  describe('list and get', () => {
    it('lists the tables of a space as {id, name, space_id}, oldest first', async () => {
      const listSpace = (await createSpace(ctx, world, 'Listing')).id;
      const first = await createTable(ctx, world, listSpace, { name: 'First' });
      const second = await createTable(ctx, world, listSpace, { name: 'Second', fields: [{ name: 'A', type: 'text' }] });
      const response = await get(`/api/space/${listSpace}/tables/list`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual([
        { id: first.id, name: 'First', space_id: listSpace },
        { id: second.id, name: 'Second', space_id: listSpace },
      ]);
    });

    it('lists nothing for a space without tables', async () => {
      const emptySpace = (await createSpace(ctx, world, 'Nothing here')).id;
      expect(await get(`/api/space/${emptySpace}/tables/list`)).toMatchObject({ status: 200, body: [] });
    });

    it('answers 404 for a table that does not exist', async () => {
      const response = await get('/api/table/2147483647/get');
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: { code: 'table_not_found', message: 'Table not found' } });
    });

    it('answers 404 for tables of a space that does not exist', async () => {
      const response = await get('/api/space/2147483647/tables/list');
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('space_not_found');
    });
  });

  describe('update', () => {
    it('renames a table and sets, changes and clears its title_field', async () => {
      const table = await createTable(ctx, world, spaceId, { name: 'Before', fields: [{ name: 'Headline', type: 'text' }, { name: 'Amount', type: 'number' }] });
      const renamed = await post(`/api/table/${table.id}/update`, { name: 'After' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ id: table.id, name: 'After', space_id: spaceId, title_field: 'headline' });
      expect((await post(`/api/table/${table.id}/update`, { title_field: 'amount' })).body.title_field).toBe('amount');
      expect((await get(`/api/table/${table.id}/get`)).body).toMatchObject({ name: 'After', title_field: 'amount' });
      expect((await post(`/api/table/${table.id}/update`, { title_field: null })).body.title_field).toBe('headline');
      const both = await post(`/api/table/${table.id}/update`, { name: 'Both', title_field: 'amount' });
      expect(both.body).toMatchObject({ name: 'Both', title_field: 'amount' });
      expect((await get(`/api/space/${spaceId}/tables/list`)).body).toContainEqual({ id: table.id, name: 'Both', space_id: spaceId });
    });

    it('answers the full table shape for an empty update', async () => {
      const table = await createTable(ctx, world, spaceId, { name: 'Unchanged', fields: [{ name: 'Headline', type: 'text' }] });
      const response = await post(`/api/table/${table.id}/update`, {});
      expect(response.status).toBe(200);
      expect(response.body).toEqual(await read(`/api/table/${table.id}/get`));
    });

    it.each([
      [{ title_field: 'nope' }, 'Invalid title_field: no field "nope"'],
      [{ title_field: 'flag' }, 'Invalid title_field: a checkbox field cannot be a title'],
      [{ name: '' }, 'Invalid name: must be 1 to 200 characters'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ color: 'red' }, 'unknown property "color"'],
    ])('rejects %j with 400 and changes nothing', async (body, message) => {
      const table = await createTable(ctx, world, spaceId, { name: 'Keep me', fields: [{ name: 'Headline', type: 'text' }, { name: 'Flag', type: 'checkbox' }] });
      const before = await read(`/api/table/${table.id}/get`);
      const response = await post(`/api/table/${table.id}/update`, body);
      expect(response.status).toBe(400);
      expect(response.body.error.message).toContain(message);
      expect(await read(`/api/table/${table.id}/get`)).toEqual(before);
    });
  });

  describe('delete', () => {
    it('deletes the table, its fields and its physical table', async () => {
      const table = await createTable(ctx, world, spaceId, { name: 'Doomed', fields: [{ name: 'Headline', type: 'text' }] });
      expect(await physicalTableExists(ctx, table.id)).toBe(true);
      const response = await post(`/api/table/${table.id}/delete`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ id: table.id, deleted: true });
      expect(await physicalTableExists(ctx, table.id)).toBe(false);
      expect(await fieldIds(ctx, table.id)).toEqual({});
      expect((await get(`/api/table/${table.id}/get`)).status).toBe(404);
      expect((await get(`/api/space/${spaceId}/tables/list`)).body.map((t: { id: number }) => t.id)).not.toContain(table.id);
      expect((await post(`/api/table/${table.id}/delete`)).status).toBe(404);
    });

    it('deletes once when two deletes race, answering the other 404', async () => {
      const table = await createTable(ctx, world, spaceId, { name: 'Raced', fields: [{ name: 'Headline', type: 'text' }] });
      const responses = await Promise.all([post(`/api/table/${table.id}/delete`), post(`/api/table/${table.id}/delete`)]);
      expect(responses.map((r) => r.status).sort()).toEqual([200, 404]);
      expect(await physicalTableExists(ctx, table.id)).toBe(false);
    });

    it('answers 404 to a field created while its table is being deleted, never a 500', async () => {
      const table = await createTable(ctx, world, spaceId, { name: 'Raced again', fields: [{ name: 'Headline', type: 'text' }] });
      const [deleted, created] = await Promise.all([post(`/api/table/${table.id}/delete`), post(`/api/table/${table.id}/fields/create`, { name: 'Late', type: 'text' })]);
      expect(deleted.status).toBe(200);
      expect([200, 404]).toContain(created.status);
      expect(await physicalTableExists(ctx, table.id)).toBe(false);
      expect(await fieldIds(ctx, table.id)).toEqual({});
    });

    it('accepts a delete sent with Content-Type: application/json and no body', async () => {
      const table = await createTable(ctx, world, spaceId, { name: 'Doomed too' });
      const response = await call(ctx, 'POST', `/api/table/${table.id}/delete`, { key: world.accountKey, headers: { 'content-type': 'application/json' }, payload: '' });
      expect(response).toMatchObject({ status: 200, body: { id: table.id, deleted: true } });
    });
  });

  describe('who may do what', () => {
    let strangerKey: string;
    let readOnlyKey: string;
    let readerKey: string;
    let editorKey: string;
    let adminKey: string;
    let otherSpaceKey: string;
    let tableId: number;

    beforeAll(async () => {
      strangerKey = (await createAccount(ctx)).accountKey;
      readOnlyKey = (await createKey(ctx, { accountId: world.accountId, readOnly: true })).key;
      const otherSpace = await createSpace(ctx, world, 'Elsewhere');
      otherSpaceKey = (await createKey(ctx, { accountId: world.accountId, spaceIds: [otherSpace.id] })).key;
      for (const [role, assign] of [
        ['reader', (key: string) => (readerKey = key)],
        ['editor', (key: string) => (editorKey = key)],
        ['admin', (key: string) => (adminKey = key)],
      ] as const) {
        const user = await createUser(ctx, world, role);
        await addMember(ctx, world, spaceId, user.id, role);
        assign((await createKey(ctx, { userId: user.id })).key);
      }
      tableId = (await createTable(ctx, world, spaceId, { name: 'Guarded', fields: [{ name: 'Headline', type: 'text' }] })).id;
    });

    const writes = () => [
      ['POST', `/api/space/${spaceId}/tables/create`, { name: 'Intruder' }],
      ['POST', `/api/table/${tableId}/update`, { name: 'Intruded' }],
      ['POST', `/api/table/${tableId}/fields/create`, { name: 'Intruder', type: 'text' }],
      ['POST', `/api/table/${tableId}/field/headline/update`, { name: 'Intruded' }],
      ['POST', `/api/table/${tableId}/field/headline/delete`, undefined],
      ['POST', `/api/table/${tableId}/delete`, undefined],
    ] as const;
    const reads = () => [`/api/space/${spaceId}/tables/list`, `/api/table/${tableId}/get`];

    async function expectUntouched(check: () => Promise<void>) {
      const table = await read(`/api/table/${tableId}/get`);
      const list = await read(`/api/space/${spaceId}/tables/list`);
      await check();
      expect(await read(`/api/table/${tableId}/get`)).toEqual(table);
      expect(await read(`/api/space/${spaceId}/tables/list`)).toEqual(list);
    }

    it('answers 401 without a key, for reads and writes', async () => {
      await expectUntouched(async () => {
        for (const url of reads()) expect((await call(ctx, 'GET', url)).status).toBe(401);
        for (const [method, url, body] of writes()) {
          const response = await call(ctx, method, url, { body });
          expect(response.status).toBe(401);
          expect(response.body.error.code).toBe('missing_api_key');
        }
      });
    });

    it('answers 401 for an unknown key', async () => {
      expect((await get(`/api/table/${tableId}/get`, 'tbk_not-a-real-key')).status).toBe(401);
    });

    it('hides tables of another account behind 404', async () => {
      await expectUntouched(async () => {
        expect((await get(`/api/table/${tableId}/get`, strangerKey)).body.error.code).toBe('table_not_found');
        expect((await get(`/api/space/${spaceId}/tables/list`, strangerKey)).status).toBe(404);
        for (const [method, url, body] of writes()) expect((await call(ctx, method, url, { key: strangerKey, body })).status).toBe(404);
      });
    });

    it('hides tables outside a restricted key’s spaces behind 404', async () => {
      await expectUntouched(async () => {
        expect((await get(`/api/table/${tableId}/get`, otherSpaceKey)).status).toBe(404);
        for (const [method, url, body] of writes()) expect((await call(ctx, method, url, { key: otherSpaceKey, body })).status).toBe(404);
      });
    });

    it('lets a read-only key read but answers 403 to its writes', async () => {
      for (const url of reads()) expect((await get(url, readOnlyKey)).status).toBe(200);
      await expectUntouched(async () => {
        for (const [method, url, body] of writes()) {
          const response = await call(ctx, method, url, { key: readOnlyKey, body });
          expect(response.status).toBe(403);
          expect(response.body.error.code).toBe('read_only_key');
        }
      });
    });

    it.each(['reader', 'editor'])('lets a %s read but answers 403 to schema changes', async (role) => {
      const key = role === 'reader' ? readerKey : editorKey;
      expect((await get(`/api/table/${tableId}/get`, key)).body.name).toBe('Guarded');
      expect((await get(`/api/space/${spaceId}/tables/list`, key)).body.map((t: { id: number }) => t.id)).toContain(tableId);
      await expectUntouched(async () => {
        for (const [method, url, body] of writes()) {
          const response = await call(ctx, method, url, { key, body });
          expect(response.status).toBe(403);
          expect(response.body.error.code).toBe('admin_required');
        }
      });
    });

    it('lets a space admin change tables and fields', async () => {
      const created = await post(`/api/space/${spaceId}/tables/create`, { name: 'By admin', fields: [{ name: 'Headline', type: 'text' }] }, adminKey);
      expect(created.status).toBe(200);
      const id = created.body.id;
      expect((await post(`/api/table/${id}/update`, { name: 'By admin, renamed' }, adminKey)).status).toBe(200);
      expect((await post(`/api/table/${id}/fields/create`, { name: 'More', type: 'text' }, adminKey)).status).toBe(200);
      expect((await post(`/api/table/${id}/field/more/update`, { name: 'Most' }, adminKey)).status).toBe(200);
      expect((await post(`/api/table/${id}/field/more/delete`, undefined, adminKey)).status).toBe(200);
      expect((await post(`/api/table/${id}/delete`, undefined, adminKey)).body).toEqual({ id, deleted: true });
    });

    it('does not let a member of another space see the table', async () => {
      const user = await createUser(ctx, world, 'outsider');
      const key = (await createKey(ctx, { userId: user.id })).key;
      expect((await get(`/api/table/${tableId}/get`, key)).status).toBe(404);
    });
  });
});
