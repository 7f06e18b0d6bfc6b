import { beforeAll, describe, expect, it } from 'vitest';
import { blobCount } from '../blob-files.js';
import { type TestContext, useTestApp } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, type Response, type World } from '../factories.js';
import { accountLimit, expectRateLimitHeaders } from '../rate-limit/scenarios.js';

const text = (content: string) => Buffer.from(content).toString('base64');

async function fileState(ctx: TestContext, filePath: string): Promise<string | undefined> {
  return (await ctx.container.database.db.selectFrom('stored_files').select('state').where('path', '=', filePath).executeTakeFirst())?.state;
}

/**
 * records/create_batch, update_batch and upsert_batch (docs/api.md "Bulk writes"): the same
 * records, checks and side effects as the single calls (search text, counters and the count
 * cache), all or nothing, a refusal naming the record by its index.
 */

describe('bulk writes', () => {
  const ctx = useTestApp();
  let world: World;
  let spaceId: number;
  let targetId: number;
  let targetIds: number[];
  let memberId: number;

  const post = (url: string, body: unknown, key: string = world.accountKey) => call(ctx, 'POST', url, { key, body });
  const batch = (tableId: number, kind: 'create' | 'update' | 'upsert', body: unknown, key?: string) => post(`/api/table/${tableId}/records/${kind}_batch`, body, key);
  const getRecord = async (tableId: number, id: number) => (await call(ctx, 'GET', `/api/table/${tableId}/record/${id}/get`, { key: world.accountKey })).body;
  const ids = async (tableId: number, body: unknown = {}) => (await post(`/api/table/${tableId}/records/ids`, body)).body as number[];
  const count = async (tableId: number, body: unknown = {}) => (await post(`/api/table/${tableId}/records/count`, body)).body as { count: number; total: number };
  const search = async (tableId: number, text: string) => ((await post(`/api/table/${tableId}/records/query`, { search: text, limit: 1000 })).body as Array<{ id: number }>).map((r) => r.id);

  function expectError(response: Response, status: number, code: string, message: string) {
    expect({ status: response.status, body: response.body }).toEqual({ status, body: { error: { code, message } } });
  }

  /** A fresh table with a text title, a required-free mix of types, and a field only admins may edit. */
  async function newTable(name: string, extra: unknown[] = []): Promise<number> {
    return (
      await createTable(ctx, world, spaceId, {
        name,
        fields: [
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'email', name: 'Email', type: 'email' },
          { id: 'amount', name: 'Amount', type: 'number' },
          { id: 'stage', name: 'Stage', type: 'select', options: [{ value: 'lead' }, { value: 'won' }] },
          { id: 'tags', name: 'Tags', type: 'select', multiple: true, options: [{ value: 'red' }, { value: 'blue' }] },
          { id: 'owner', name: 'Owner', type: 'user' },
          { id: 'company', name: 'Company', type: 'lookup', table_id: targetId },
          { id: 'due', name: 'Due', type: 'date' },
          { id: 'done', name: 'Done', type: 'checkbox' },
          { id: 'docs', name: 'Docs', type: 'file' },
          ...extra,
        ],
      })
    ).id;
  }

  beforeAll(async () => {
    world = await createAccount(ctx);
    spaceId = (await createSpace(ctx, world, 'Bulk')).id;
    targetId = (await createTable(ctx, world, spaceId, { name: 'Companies', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
    const created = await batch(targetId, 'create', { records: ['Acme', 'Globex', 'Initech'].map((name) => ({ data: { name } })) });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    targetIds = created.body.map((r: { id: number }) => r.id);
    const member = await createUser(ctx, world, 'Mia Member');
    await addMember(ctx, world, spaceId, member.id, 'editor');
    memberId = member.id;
  });

  describe('create_batch', () => {
    it('creates the records in order and answers each exactly as records/create and record get do', async () => {
      const tableId = await newTable('Create order');
      const data = [
        { name: 'first', email: ' first@example.com ', amount: 1.5, stage: 'lead', tags: ['red', 'blue'], owner: memberId, company: targetIds[1], due: '2024-02-29', done: true },
        { name: 'second', company: { id: targetIds[0] } },
        {},
      ];
      const response = await batch(tableId, 'create', { records: data.map((d) => ({ data: d })) });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const created = response.body as Array<{ id: number; title: string | null; data: Record<string, unknown> }>;
      expect(created.map((r) => r.title)).toEqual(['first', 'second', null]);
      expect(created[0].id).toBeLessThan(created[1].id);
      expect(created[1].id).toBeLessThan(created[2].id);
      expect(created[0].data).toEqual({
        name: 'first',
        email: 'first@example.com',
        amount: 1.5,
        stage: 'lead',
        tags: ['red', 'blue'],
        owner: { id: memberId, email: expect.any(String), name: 'Mia Member' },
        company: { id: targetIds[1], title: 'Globex' },
        due: '2024-02-29',
        done: true,
        docs: [],
      });
      for (const record of created) expect(await getRecord(tableId, record.id)).toEqual(record);
      const single = (await post(`/api/table/${tableId}/records/create`, { data: data[0] })).body;
      expect({ ...single, id: 0, created_at: '', updated_at: '' }).toEqual({ ...created[0], id: 0, created_at: '', updated_at: '' });
      expect(await ids(tableId)).toEqual([...created.map((r) => r.id), single.id]);
    });

    it('keeps the counters, the count cache and the search text as single creates do', async () => {
      const tableId = await newTable('Create effects');
      await post(`/api/table/${tableId}/records/create`, { data: { name: 'alone', stage: 'won' } });
      expect(await count(tableId, { where: { stage: 'won' } })).toMatchObject({ count: 1, total: 1 });
      const response = await batch(tableId, 'create', { records: Array.from({ length: 30 }, (_, n) => ({ data: { name: `Bulk Zebra ${n}`, stage: n % 3 === 0 ? 'won' : 'lead' } })) });
      expect(response.status).toBe(200);
      expect(await count(tableId, { where: { stage: 'won' } })).toMatchObject({ count: 11, total: 31 });
      expect(await count(tableId)).toMatchObject({ count: 31, total: 31 });
      expect(await search(tableId, 'zebra 2')).toEqual(response.body.filter((r: { title: string }) => r.title.includes('2')).map((r: { id: number }) => r.id));
      expect(await search(tableId, 'WON')).toHaveLength(11);
    });

    it('creates 1,000 records in one call, and refuses 1,001 writing nothing', async () => {
      const tableId = await newTable('Create thousand');
      const records = (n: number) => Array.from({ length: n }, (_, i) => ({ data: { name: `r${i}`, amount: i, company: targetIds[i % 3] } }));
      const created = await batch(tableId, 'create', { records: records(1000) });
      expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(200);
      expect(created.body).toHaveLength(1000);
      expect(created.body[999].data).toMatchObject({ name: 'r999', amount: 999, company: { id: targetIds[0], title: 'Acme' } });
      expect(await count(tableId)).toMatchObject({ count: 1000 });
      expectError(await batch(tableId, 'create', { records: records(1001) }), 400, 'invalid_parameters', 'Invalid parameters: records takes at most 1000 records, got 1001');
      expect(await count(tableId)).toMatchObject({ count: 1000 });
    });

    it('one bad record among 1,000 writes nothing and is named by its index', async () => {
      const tableId = await newTable('Create one bad');
      const records = Array.from({ length: 1000 }, (_, i) => ({ data: { name: `r${i}` } as Record<string, unknown> }));
      records[617].data.foo = 'x';
      expectError(await batch(tableId, 'create', { records }), 400, 'invalid_field', 'records[617]: Invalid field: foo');
      delete records[617].data.foo;
      records[998].data.amount = 'lots';
      expectError(await batch(tableId, 'create', { records }), 400, 'invalid_field_value', 'records[998]: Invalid value for field amount: expected a number, got "lots"');
      records[998].data.amount = 1;
      records[3].data.company = 999_999;
      expectError(await batch(tableId, 'create', { records }), 400, 'invalid_field_value', `records[3]: Invalid value for field company: record 999999 does not exist in table ${targetId}`);
      expect(await count(tableId)).toMatchObject({ count: 0, total: 0 });
      expect(await ids(tableId)).toEqual([]);
    });

    it('checks required fields and who may edit a field as records/create does', async () => {
      const tableId = await newTable('Create rules', [
        { id: 'code', name: 'Code', type: 'text', required: true },
        { id: 'locked', name: 'Locked', type: 'text', editable_by: 'admins' },
      ]);
      const editor = await createUser(ctx, world, 'Ed');
      await addMember(ctx, world, spaceId, editor.id, 'editor');
      const editorKey = (await createKey(ctx, { userId: editor.id })).key;
      expectError(await batch(tableId, 'create', { records: [{ data: { code: 'a' } }, { data: { name: 'no code' } }] }), 400, 'required_field', 'records[1]: Missing value for required field: code');
      expectError(await batch(tableId, 'create', { records: [{ data: { code: 'a' } }, { data: { code: 'b', locked: 'x' } }] }, editorKey), 403, 'field_not_editable', 'records[1]: No edit permission for field: locked');
      expect(await ids(tableId)).toEqual([]);
      const created = await batch(tableId, 'create', { records: [{ data: { code: 'a' } }, { data: { code: 'b' } }] }, editorKey);
      expect(created.body.map((r: { data: { code: string } }) => r.data.code)).toEqual(['a', 'b']);
    });
  });

    it('keeps every value exactly, however its text is written, through the create, search, a delete and the restore', async () => {
      // PostgreSQL sends a batch's columns as array literals (postgres-arrays.ts): quotes,
      // backslashes, braces, commas, the word NULL and empty strings are the literal's own syntax.
      const hostile = ['NULL', 'null', '"quoted"', 'back\\slash', '\\"', '{a,b}', 'a,b', '', '  ', "it's", 'line\nbreak\ttab', 'ünïcödé 🎉', 'NaN', '()', '[1,2]', '{"json": true}'];
      const tableId = await newTable('Hostile text', [{ id: 'marks', name: 'Marks', type: 'select', multiple: true, options: [{ value: 'say "hi"' }, { value: 'a\\b' }, { value: '{x}' }, { value: 'NULL' }] }]);
      const data = hostile.map((name, n) => ({
        name,
        amount: [-0.5, 1e-7, 123456789.125, 0][n % 4],
        done: [true, false, null][n % 3],
        tags: n % 2 === 0 ? ['red'] : [],
        marks: [['say "hi"', 'a\\b'], ['{x}'], ['NULL'], []][n % 4],
        company: n % 5 === 0 ? targetIds[2] : null,
      }));
      const response = await batch(tableId, 'create', { records: data.map((d) => ({ data: d })) });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const created = response.body as Array<{ id: number; data: Record<string, unknown> }>;
      for (const [n, record] of created.entries()) {
        expect(record.data).toMatchObject({ ...data[n], name: data[n].name === '' ? null : data[n].name, done: data[n].done === true, company: data[n].company ? { id: targetIds[2], title: 'Initech' } : null });
        expect(await getRecord(tableId, record.id)).toEqual(record);
      }
      expect(await search(tableId, '"quoted"')).toEqual([created[2].id]);
      expect(await search(tableId, 'back\\slash')).toEqual([created[3].id]);
      expect(await search(tableId, '{a,b}')).toEqual([created[5].id]);
      const all = created.map((record) => record.id);
      expect((await post(`/api/table/${tableId}/records/delete_batch`, { record_ids: all })).status).toBe(200);
      expect((await post(`/api/table/${tableId}/records/restore`, { ids: all })).body).toEqual({ restored: all, not_found: [] });
      for (const record of created) expect(await getRecord(tableId, record.id)).toEqual(record);
      expect(await search(tableId, 'ünïcödé')).toEqual([created[11].id]);
    });

  describe('the body of every batch call', () => {
    let tableId: number;
    let existing: number;
    beforeAll(async () => {
      tableId = await newTable('Bodies');
      existing = (await post(`/api/table/${tableId}/records/create`, { data: { name: 'existing', email: 'e@example.com' } })).body.id;
    });
    const kinds = ['create', 'update', 'upsert'] as const;
    const base = (kind: (typeof kinds)[number]) => (kind === 'upsert' ? { match_on: ['email'] } : {});

    for (const kind of kinds) {
      it(`${kind}_batch: an empty list answers [] and writes nothing`, async () => {
        const before = await ids(tableId);
        const response = await batch(tableId, kind, { ...base(kind), records: [] });
        expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: [] });
        expect(await ids(tableId)).toEqual(before);
      });

      it(`${kind}_batch: refuses a missing or malformed records list and unknown members`, async () => {
        expectError(await batch(tableId, kind, { ...base(kind) }), 400, 'invalid_parameters', 'Invalid parameters: records is required');
        expectError(await batch(tableId, kind, { ...base(kind), records: { data: {} } }), 400, 'invalid_parameters', 'Invalid parameters: records must be array');
        expectError(await batch(tableId, kind, { ...base(kind), records: [], extra: 1 }), 400, 'invalid_parameters', 'Invalid parameters: unknown property "extra"');
        expectError(await batch(tableId, kind, [{ data: {} }]), 400, 'invalid_parameters', 'Invalid parameters: body must be object');
      });

      it(`${kind}_batch: refuses items that are not objects, or carry unknown members, naming them`, async () => {
        const item = kind === 'update' ? { id: existing, data: { name: 'x' } } : { data: { name: 'x', email: 'x@example.com' } };
        const before = await getRecord(tableId, existing);
        for (const bad of [null, 7, 'text', [item]]) {
          expectError(await batch(tableId, kind, { ...base(kind), records: [item, bad] }), 400, 'invalid_parameters', 'records[1]: Invalid parameters: record must be a JSON object');
        }
        expectError(await batch(tableId, kind, { ...base(kind), records: [{ ...item, note: 1 }] }), 400, 'invalid_parameters', 'records[0]: Invalid parameters: unknown property "note"');
        expectError(await batch(tableId, kind, { ...base(kind), records: [{ ...item, data: [] }] }), 400, 'invalid_parameters', 'records[0]: Invalid parameters: data must be an object');
        expect(await getRecord(tableId, existing)).toEqual(before);
        expect(await ids(tableId)).toEqual([existing]);
      });
    }

    it('create_batch and upsert_batch take no record id', async () => {
      expectError(await batch(tableId, 'create', { records: [{ id: existing, data: {} }] }), 400, 'invalid_parameters', 'records[0]: Invalid parameters: unknown property "id"');
    });
  });

  describe('update_batch', () => {
    it('changes only the given fields of each record, rebuilds their search text, answers the records in order', async () => {
      const tableId = await newTable('Update');
      const [a, b, c] = (await batch(tableId, 'create', { records: ['alpha', 'beta', 'gamma'].map((name) => ({ data: { name, stage: 'lead', amount: 1 } })) })).body.map((r: { id: number }) => r.id);
      expect(await count(tableId, { where: { stage: 'won' } })).toMatchObject({ count: 0 });
      const response = await batch(tableId, 'update', {
        records: [
          { id: c, data: { name: 'gamma ray' } },
          { id: a, data: { stage: 'won', company: targetIds[2] } },
        ],
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.map((r: { id: number }) => r.id)).toEqual([c, a]);
      expect(response.body[0].data).toMatchObject({ name: 'gamma ray', stage: 'lead', amount: 1 });
      expect(response.body[1].data).toMatchObject({ name: 'alpha', stage: 'won', amount: 1, company: { id: targetIds[2], title: 'Initech' } });
      expect(response.body[1].updated_at >= response.body[1].created_at).toBe(true);
      for (const record of response.body) expect(await getRecord(tableId, record.id)).toEqual(record);
      expect((await getRecord(tableId, b)).data.name).toBe('beta');
      expect(await search(tableId, 'ray')).toEqual([c]);
      expect(await search(tableId, 'won')).toEqual([a]);
      expect(await search(tableId, 'alpha won')).toEqual([a]);
      expect(await count(tableId, { where: { stage: 'won' } })).toMatchObject({ count: 1, total: 3 });
    });

    it('refuses ids that do not exist, repeated ids, and items without id or data, changing nothing', async () => {
      const tableId = await newTable('Update refusals');
      const [a, b] = (await batch(tableId, 'create', { records: [{ data: { name: 'a' } }, { data: { name: 'b' } }] })).body.map((r: { id: number }) => r.id);
      const before = [await getRecord(tableId, a), await getRecord(tableId, b)];
      const change = (id: unknown) => ({ id, data: { name: 'changed' } });
      expectError(await batch(tableId, 'update', { records: [change(a), change(999_999), change(b)] }), 400, 'record_not_found', 'records[1]: Record not found');
      expectError(await batch(tableId, 'update', { records: [change(a), change(b), change(a)] }), 400, 'invalid_parameters', `Invalid parameters: records[0] and records[2] both update record ${a}; send one update per record`);
      expectError(await batch(tableId, 'update', { records: [change(a), { data: { name: 'x' } }] }), 400, 'invalid_parameters', 'records[1]: Invalid parameters: id is required');
      expectError(await batch(tableId, 'update', { records: [{ id: a }] }), 400, 'invalid_parameters', 'records[0]: Invalid parameters: data is required');
      for (const id of ['1', 1.5]) {
        expectError(await batch(tableId, 'update', { records: [change(id)] }), 400, 'invalid_parameters', 'records[0]: Invalid parameters: id must be a record id');
      }
      // An integer no record can have is a record that does not exist (shared/ids.ts).
      for (const id of [0, -1, 2_147_483_648]) expectError(await batch(tableId, 'update', { records: [change(id)] }), 400, 'record_not_found', 'records[0]: Record not found');
      expectError(await batch(tableId, 'update', { records: [change(a), { id: b, data: { amount: 'x' } }] }), 400, 'invalid_field_value', 'records[1]: Invalid value for field amount: expected a number, got "x"');
      expect([await getRecord(tableId, a), await getRecord(tableId, b)]).toEqual(before);
    });

    it('refuses a record of another table as not found', async () => {
      const tableId = await newTable('Update other table');
      expectError(await batch(tableId, 'update', { records: [{ id: targetIds[0], data: { name: 'x' } }] }), 400, 'record_not_found', 'records[0]: Record not found');
      expect((await getRecord(targetId, targetIds[0])).data.name).toBe('Acme');
    });
  });

  describe('upsert_batch', () => {
    it('updates the record whose match_on values equal the given ones and creates the others, answering them in order', async () => {
      const tableId = await newTable('Upsert');
      const [ada] = (await batch(tableId, 'create', { records: [{ data: { name: 'Ada', email: 'ada@example.com', stage: 'lead', amount: 1 } }] })).body.map((r: { id: number }) => r.id);
      const response = await batch(tableId, 'upsert', {
        match_on: ['email'],
        records: [
          { data: { name: 'Grace', email: 'grace@example.com', stage: 'lead' } },
          { data: { email: 'ada@example.com', stage: 'won' } },
        ],
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const [grace, updated] = response.body;
      expect(updated).toMatchObject({ id: ada, title: 'Ada', data: { name: 'Ada', email: 'ada@example.com', stage: 'won', amount: 1 } });
      expect(grace).toMatchObject({ title: 'Grace', data: { name: 'Grace', email: 'grace@example.com', stage: 'lead', amount: null } });
      expect(grace.id).toBeGreaterThan(ada);
      for (const record of response.body) expect(await getRecord(tableId, record.id)).toEqual(record);
      expect(await count(tableId)).toMatchObject({ count: 2, total: 2 });
      expect(await search(tableId, 'won')).toEqual([ada]);
      // Again: both match now, nothing is created.
      const again = await batch(tableId, 'upsert', { match_on: ['email'], records: [{ data: { email: 'grace@example.com', amount: 7 } }, { data: { email: 'ada@example.com' } }] });
      expect(again.body.map((r: { id: number }) => r.id)).toEqual([grace.id, ada]);
      expect(again.body[0].data.amount).toBe(7);
      expect(await count(tableId)).toMatchObject({ count: 2 });
    });

    it('matches on several fields together, and on numbers, dates, selects, users and lookups', async () => {
      const tableId = await newTable('Upsert kinds');
      const seed = { name: 'seed', amount: 2.5, due: '2024-01-31', stage: 'won', owner: memberId, company: targetIds[0] };
      const [seedId] = (await batch(tableId, 'create', { records: [{ data: seed }] })).body.map((r: { id: number }) => r.id);
      const matchOn = ['amount', 'due', 'stage', 'owner', 'company'];
      const same = await batch(tableId, 'upsert', { match_on: matchOn, records: [{ data: { ...seed, name: 'matched', company: { id: targetIds[0] } } }] });
      expect(same.status, JSON.stringify(same.body)).toBe(200);
      expect(same.body[0]).toMatchObject({ id: seedId, title: 'matched' });
      const other = await batch(tableId, 'upsert', { match_on: matchOn, records: [{ data: { ...seed, name: 'new', due: '2024-02-01' } }] });
      expect(other.body[0].id).not.toBe(seedId);
      expect(await count(tableId)).toMatchObject({ count: 2 });
      // Text matches exactly: another case is another value.
      const text = await batch(tableId, 'upsert', { match_on: ['name'], records: [{ data: { name: 'MATCHED' } }, { data: { name: 'matched', amount: 9 } }] });
      expect(text.body.map((r: { id: number }) => r.id).slice(1)).toEqual([seedId]);
      expect(await count(tableId)).toMatchObject({ count: 3 });
    });

    it('refuses two records with the same match_on values, naming both', async () => {
      const tableId = await newTable('Upsert duplicates');
      expectError(
        await batch(tableId, 'upsert', { match_on: ['email', 'stage'], records: [{ data: { email: 'a@example.com', stage: 'won' } }, { data: { email: 'b@example.com', stage: 'won' } }, { data: { email: ' a@example.com', stage: 'won', name: 'x' } }] }),
        400,
        'invalid_parameters',
        'Invalid parameters: records[0] and records[2] have the same match_on values {"email":"a@example.com","stage":"won"}',
      );
      expect(await ids(tableId)).toEqual([]);
    });

    it('refuses values that match more than one record, naming the values and the records, writing nothing', async () => {
      const tableId = await newTable('Upsert ambiguous');
      const twins = (await batch(tableId, 'create', { records: [{ data: { name: 'twin', email: 't@example.com' } }, { data: { name: 'twin', email: 't@example.com' } }] })).body.map((r: { id: number }) => r.id);
      const before = await ids(tableId);
      expectError(
        await batch(tableId, 'upsert', { match_on: ['email'], records: [{ data: { email: 'new@example.com' } }, { data: { email: 't@example.com', name: 'which?' } }] }),
        400,
        'ambiguous_match',
        `records[1]: match_on values {"email":"t@example.com"} match 2 records (${twins.join(', ')})`,
      );
      expect(await ids(tableId)).toEqual(before);
      expect((await getRecord(tableId, twins[0])).data.name).toBe('twin');
    });

    it('needs every match_on field, with a value, in every record', async () => {
      const tableId = await newTable('Upsert missing');
      expectError(await batch(tableId, 'upsert', { match_on: ['email'], records: [{ data: { email: 'a@example.com' } }, { data: { name: 'no email' } }] }), 400, 'invalid_parameters', 'records[1]: Invalid parameters: match_on field email is missing from data');
      expectError(await batch(tableId, 'upsert', { match_on: ['email'], records: [{ data: { email: '' } }] }), 400, 'invalid_parameters', 'records[0]: Invalid parameters: match_on field email is empty');
      expectError(await batch(tableId, 'upsert', { match_on: ['email'], records: [{ data: { email: null } }] }), 400, 'invalid_parameters', 'records[0]: Invalid parameters: match_on field email is empty');
      expect(await ids(tableId)).toEqual([]);
    });

    it('matches on single-valued fields of a matchable type only', async () => {
      const tableId = await newTable('Upsert match_on');
      const records = [{ data: { name: 'x' } }];
      const refusals: Array<[unknown, string, string]> = [
        [['tags'], 'invalid_parameters', 'Invalid parameters: match_on: tags holds several values; records are matched on single-valued fields only'],
        [['docs'], 'invalid_parameters', 'Invalid parameters: match_on: docs holds several values; records are matched on single-valued fields only'],
        [['done'], 'invalid_parameters', 'Invalid parameters: match_on: done is a checkbox field; records are matched on fields of type text, longtext, number, email, url, select, user, lookup, date, datetime, time'],
        [['nope'], 'invalid_field', 'Invalid field: nope'],
        [['id'], 'invalid_field', 'Invalid field: id'],
        [[], 'invalid_parameters', 'Invalid parameters: match_on must be a non-empty array of field ids'],
        [['name', 'name'], 'invalid_parameters', 'Invalid parameters: match_on names a field twice'],
        [[1], 'invalid_parameters', 'Invalid parameters: match_on.0 must be string'],
        ['name', 'invalid_parameters', 'Invalid parameters: match_on must be array'],
      ];
      for (const [matchOn, code, message] of refusals) expectError(await batch(tableId, 'upsert', { match_on: matchOn, records }), 400, code, message);
      expectError(await batch(tableId, 'upsert', { records }), 400, 'invalid_parameters', 'Invalid parameters: match_on is required');
      expect(await ids(tableId)).toEqual([]);
    });

    it('enforces required fields on the records it creates only', async () => {
      const tableId = await newTable('Upsert required', [{ id: 'code', name: 'Code', type: 'text', required: true }]);
      const [existing] = (await batch(tableId, 'create', { records: [{ data: { email: 'old@example.com', code: 'c1' } }] })).body.map((r: { id: number }) => r.id);
      const updateOnly = await batch(tableId, 'upsert', { match_on: ['email'], records: [{ data: { email: 'old@example.com', name: 'no code needed' } }] });
      expect(updateOnly.body[0]).toMatchObject({ id: existing, data: { code: 'c1', name: 'no code needed' } });
      expectError(
        await batch(tableId, 'upsert', { match_on: ['email'], records: [{ data: { email: 'old@example.com', name: 'fine' } }, { data: { email: 'new@example.com' } }] }),
        400,
        'required_field',
        'records[1]: Missing value for required field: code',
      );
      expect((await getRecord(tableId, existing)).data.name).toBe('no code needed');
      expect(await ids(tableId)).toEqual([existing]);
    });
  });

  describe('file fields', () => {
    let tableId: number;
    beforeAll(async () => {
      tableId = await newTable('Files');
    });
    const attachment = (name: string, content: string) => ({ data: text(content), name, type: 'text/plain' });

    it('create_batch stores each record\'s attachments and makes them live, as records/create does', async () => {
      const response = await batch(tableId, 'create', { records: [{ data: { name: 'a', docs: [attachment('a.txt', 'alpha')] } }, { data: { name: 'b' } }, { data: { name: 'c', docs: [attachment('c.txt', 'gamma'), attachment('d.txt', 'delta')] } }] });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const [a, b, c] = response.body;
      expect(a.data.docs).toEqual([{ name: 'a.txt', path: expect.any(String), type: 'text/plain', size: 5, host: 'localhost' }]);
      expect(b.data.docs).toEqual([]);
      expect(c.data.docs.map((d: { name: string }) => d.name)).toEqual(['c.txt', 'd.txt']);
      for (const doc of [...a.data.docs, ...c.data.docs]) expect(await fileState(ctx, doc.path)).toBe('live');
      const got = await post(`/api/table/${tableId}/record/${c.id}/files/get`, { field_id: 'docs', path: c.data.docs[1].path });
      expect(got.body).toMatchObject({ name: 'd.txt', data: text('delta') });
    });

    it('a record whose attachment cannot be stored fails the batch and leaves no blob of the others behind', async () => {
      const blobs = blobCount(ctx.database.dataDir);
      const before = await ids(tableId);
      expectError(
        await batch(tableId, 'create', { records: [{ data: { name: 'ok', docs: [attachment('ok.txt', 'fine')] } }, { data: { name: 'bad', docs: [{ data: 'not base64!' }] } }] }),
        400,
        'invalid_field_value',
        'records[1]: Invalid value for field docs: item 0: data is not valid base64',
      );
      expect(blobCount(ctx.database.dataDir)).toBe(blobs);
      expect(await ids(tableId)).toEqual(before);
    });

    it('update_batch keeps a record\'s own attachments, settles the new ones and releases the replaced ones', async () => {
      const [first, second] = (await batch(tableId, 'create', { records: [{ data: { name: 'one', docs: [attachment('1.txt', 'one'), attachment('2.txt', 'two')] } }, { data: { name: 'two', docs: [attachment('3.txt', 'three')] } }] })).body;
      const [kept, dropped] = first.data.docs;
      const replaced = second.data.docs[0];
      const blobs = blobCount(ctx.database.dataDir);
      const response = await batch(tableId, 'update', {
        records: [
          { id: first.id, data: { docs: [{ path: kept.path }] } },
          { id: second.id, data: { docs: [attachment('4.txt', 'four')] } },
        ],
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body[0].data.docs).toEqual([kept]);
      expect(response.body[1].data.docs).toEqual([{ name: '4.txt', path: expect.any(String), type: 'text/plain', size: 4, host: 'localhost' }]);
      expect(blobCount(ctx.database.dataDir)).toBe(blobs + 1);
      expect(await fileState(ctx, kept.path)).toBe('live');
      expect(await fileState(ctx, response.body[1].data.docs[0].path)).toBe('live');
      expect(await fileState(ctx, dropped.path)).toBe('queued');
      expect(await fileState(ctx, replaced.path)).toBe('queued');
    });

    it('upsert_batch treats a matched record\'s attachments as its own and stores a new record\'s', async () => {
      const [owner] = (await batch(tableId, 'create', { records: [{ data: { name: 'upserted', email: 'files@example.com', docs: [attachment('own.txt', 'own')] } }] })).body;
      const blobs = blobCount(ctx.database.dataDir);
      const response = await batch(tableId, 'upsert', {
        match_on: ['email'],
        records: [
          { data: { email: 'files@example.com', docs: [{ path: owner.data.docs[0].path }, attachment('more.txt', 'more')] } },
          { data: { email: 'fresh@example.com', docs: [attachment('fresh.txt', 'fresh')] } },
        ],
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body[0].id).toBe(owner.id);
      expect(response.body[0].data.docs[0]).toEqual(owner.data.docs[0]);
      expect(response.body[0].data.docs.map((d: { name: string }) => d.name)).toEqual(['own.txt', 'more.txt']);
      expect(blobCount(ctx.database.dataDir)).toBe(blobs + 2);
      for (const record of response.body) for (const doc of record.data.docs) expect(await fileState(ctx, doc.path)).toBe('live');
    });
  });

  describe('concurrency', () => {
    it('concurrent upserts of the same new values create one record: the others update it or answer 409 having written nothing', async () => {
      const tableId = await newTable('Upsert race');
      for (let round = 0; round < 4; round += 1) {
        const email = `race${round}@example.com`;
        const responses = await Promise.all(
          [1, 2, 3].map((n) => batch(tableId, 'upsert', { match_on: ['email'], records: [{ data: { email, amount: n } }, { data: { email: `solo${round}-${n}@example.com` } }] })),
        );
        for (const response of responses) {
          if (response.status === 409) expect(response.body).toEqual({ error: { code: 'conflict', message: 'Records matching match_on changed while upsert_batch ran: nothing was written, send it again' } });
          else expect(response.status, JSON.stringify(response.body)).toBe(200);
        }
        expect(responses.some((response) => response.status === 200)).toBe(true);
        expect(await ids(tableId, { where: { email } })).toHaveLength(1);
        // A refused batch wrote nothing, not even its other record.
        const written = responses.flatMap((response, n) => (response.status === 200 ? [`solo${round}-${n + 1}@example.com`] : []));
        const solos = (await post(`/api/table/${tableId}/records/query`, { where: { email: ['starts_with', `solo${round}-`] }, limit: 10 })).body.map((r: { data: { email: string } }) => r.data.email);
        expect(solos.sort()).toEqual(written.sort());
      }
    });
  });
});

describe('bulk writes and the rate limit', () => {
  const ctx = useTestApp({ env: { TABULA_RATE_LIMIT_PER_MINUTE: String(accountLimit) } });

  it('counts each batch call as one request, whatever its number of records', async () => {
    const world = await createAccount(ctx);
    const spaceId = (await createSpace(ctx, world, 'Limited')).id;
    const tableId = (await createTable(ctx, world, spaceId, { name: 'Limited', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
    const send = (kind: string, body: unknown) => call(ctx, 'POST', `/api/table/${tableId}/records/${kind}_batch`, { key: world.accountKey, body });
    // createSpace and createTable used two requests of the minute.
    const created = await send('create', { records: Array.from({ length: 1000 }, (_, n) => ({ data: { name: `n${n}` } })) });
    expectRateLimitHeaders(created, accountLimit, accountLimit - 3);
    const updated = await send('update', { records: created.body.slice(0, 500).map((r: { id: number }) => ({ id: r.id, data: { name: 'x' } })) });
    expectRateLimitHeaders(updated, accountLimit, accountLimit - 4);
    const upserted = await send('upsert', { match_on: ['name'], records: [{ data: { name: 'n999' } }, { data: { name: 'new' } }] });
    expectRateLimitHeaders(upserted, accountLimit, accountLimit - 5);
    expect([created.status, updated.status, upserted.status]).toEqual([200, 200, 200]);
  });
});
