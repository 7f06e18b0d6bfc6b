import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createKey, createSpace, createTable, createUser, addMember, everyFieldType, type World } from '../factories.js';

describe('records/export', () => {
  const ctx = useTestApp();
  let world: World;
  let spaceId: number;
  let tableId: number;
  let targetId: number;
  let ownerEmail: string;

  const post = (path: string, body: unknown, key: string | null = world.accountKey) => call(ctx, 'POST', path, { key, body });
  const exportOf = (body: unknown, key?: string | null) => post(`/api/table/${tableId}/records/export`, body, key);
  const rowsOf = (text: string): string[][] => parse(text);

  beforeAll(async () => {
    world = await createAccount(ctx);
    ownerEmail = world.ownerEmail;
    spaceId = (await createSpace(ctx, world, 'Exports')).id;
    targetId = (await createTable(ctx, world, spaceId, { name: 'Targets', fields: [{ id: 'label', name: 'Label', type: 'text' }], title_field: 'label' })).id;
    const target = (await post(`/api/table/${targetId}/records/create`, { data: { label: 'Acme, Inc.' } })).body;
    tableId = (await createTable(ctx, world, spaceId, { name: 'Everything', fields: everyFieldType(targetId) })).id;
    const full = {
      name: 'Alpha "quoted"',
      notes: 'line one\nline two',
      mail: 'a@example.com',
      site: 'https://example.com',
      amount: 12.5,
      done: true,
      status: 'Open',
      tags: ['red', 'blue'],
      owner: ownerEmail,
      team: [ownerEmail],
      ref: target.id,
      refs: [target.id],
      day: '2026-01-02',
      moment: '2026-01-02 03:04:05',
      clock: '10:30:00',
      doc: [{ data: 'aGVsbG8=', name: 'hello.txt', type: 'text/plain' }],
    };
    const created = await post(`/api/table/${tableId}/records/create`, { data: full });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect((await post(`/api/table/${tableId}/records/create`, { data: { name: 'Beta', amount: 3, done: false } })).status).toBe(200);
    expect((await post(`/api/table/${tableId}/records/create`, { data: { name: 'Gamma', amount: 7 } })).status).toBe(200);
  });

  it('csv: a header of system columns and slugs, every field type flattened', async () => {
    const response = await exportOf({ order_by: 'id' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="table-${tableId}.csv"`);
    const [header, alpha, beta] = rowsOf(response.body);
    expect(header).toEqual(['id', 'created_at', 'updated_at', ...everyFieldType(targetId).map((field) => field.id)]);
    const cells = Object.fromEntries(header.map((name, index) => [name, alpha[index]]));
    const records = (await post(`/api/table/${tableId}/records/query`, { order_by: 'id' })).body;
    expect(cells).toEqual({
      id: String(records[0].id),
      created_at: records[0].created_at,
      updated_at: records[0].updated_at,
      name: 'Alpha "quoted"',
      notes: 'line one\nline two',
      mail: 'a@example.com',
      site: 'https://example.com',
      amount: '12.5',
      done: 'true',
      status: 'Open',
      tags: 'red, blue',
      owner: ownerEmail,
      team: ownerEmail,
      ref: 'Acme, Inc.',
      refs: 'Acme, Inc.',
      day: records[0].data.day,
      moment: records[0].data.moment,
      clock: records[0].data.clock,
      doc: 'hello.txt',
    });
    expect(beta[header.indexOf('done')]).toBe('false');
    expect(beta[header.indexOf('status')]).toBe('');
  });

  it('csv: text a spreadsheet would run gets a quote before it (numbers stay numbers); formulas "raw" writes it as stored; json is never changed', async () => {
    const fields = [
      { id: 'name', name: 'Name', type: 'text' },
      { id: 'amount', name: 'Amount', type: 'number' },
      { id: 'day', name: 'Day', type: 'date' },
      { id: 'tags', name: 'Tags', type: 'select', multiple: true, options: [{ value: '@here' }, { value: 'ok' }] },
    ];
    const formulaTable = (await createTable(ctx, world, spaceId, { name: 'Formulas', fields })).id;
    const names = ['=HYPERLINK("https://example.com","x")', '+1', '-x', '@SUM(A1)', '\tx', '\rx', "'=x", "'x", 'x=1'];
    const records = names.map((name, n) => ({ data: { name, amount: -5 - n, day: '2026-01-02', tags: n === 0 ? ['@here', 'ok'] : ['ok'] } }));
    expect((await post(`/api/table/${formulaTable}/records/create_batch`, { records })).status).toBe(200);
    const exported = async (body: Record<string, unknown>) => {
      const response = await post(`/api/table/${formulaTable}/records/export`, { order_by: 'id', ...body });
      expect(response.status).toBe(200);
      return rowsOf(response.body).slice(1).map((row) => row.slice(3));
    };
    const escaped = await exported({});
    expect(escaped.map((row) => row[0])).toEqual(["'=HYPERLINK(\"https://example.com\",\"x\")", "'+1", "'-x", "'@SUM(A1)", "'\tx", "'\rx", "''=x", "'x", 'x=1']);
    expect(escaped[0].slice(1)).toEqual(['-5', '2026-01-02', "'@here, ok"]);
    expect(await exported({ formulas: 'escape' })).toEqual(escaped);
    const raw = await exported({ formulas: 'raw' });
    expect(raw.map((row) => row[0])).toEqual(names);
    expect(raw[0].slice(1)).toEqual(['-5', '2026-01-02', '@here, ok']);
    const json = await post(`/api/table/${formulaTable}/records/export`, { order_by: 'id', format: 'json' });
    expect((json.body as Array<{ data: { name: string } }>).map((record) => record.data.name)).toEqual(names);
    const refused = await post(`/api/table/${formulaTable}/records/export`, { formulas: 'off' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_parameters', message: 'Invalid parameters: formulas must be "escape" or "raw"' });
  });

  it('json: the record objects exactly as records/query answers them', async () => {
    const response = await exportOf({ format: 'json', fields: ['amount', 'name'] });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toEqual((await post(`/api/table/${tableId}/records/query`, { fields: ['amount', 'name'] })).body);
  });

  it('filters, order and fields are respected', async () => {
    const response = await exportOf({ filters: [{ column: 'amount', compare: '>', value: 1 }], order_by: 'amount', order_dir: 'D', fields: ['name', 'amount'] });
    expect(response.status).toBe(200);
    expect(rowsOf(response.body).map((row) => row.slice(3))).toEqual([['name', 'amount'], ['Alpha "quoted"', '12.5'], ['Gamma', '7'], ['Beta', '3']]);
    const empty = await exportOf({ format: 'json', where: { name: 'nobody' } });
    expect(empty.body).toEqual([]);
  });

  it('a table of 2,500 records exports completely, in the order of records/ids', async () => {
    const bigId = (await createTable(ctx, world, spaceId, { name: 'Big', fields: [{ id: 'n', name: 'N', type: 'number' }] })).id;
    for (let start = 0; start < 2500; start += 1000) {
      const records = Array.from({ length: Math.min(1000, 2500 - start) }, (_, i) => ({ data: { n: (start + i) % 97 } }));
      expect((await post(`/api/table/${bigId}/records/create_batch`, { records })).status).toBe(200);
    }
    const body = { order_by: 'n', order_dir: 'D' };
    const ids = (await post(`/api/table/${bigId}/records/ids`, body)).body as number[];
    expect(ids).toHaveLength(2500);
    const csv = await post(`/api/table/${bigId}/records/export`, body);
    expect(csv.headers['x-total-count']).toBe('2500');
    expect(rowsOf(csv.body).slice(1).map((row) => Number(row[0]))).toEqual(ids);
    const json = await post(`/api/table/${bigId}/records/export`, { ...body, format: 'json' });
    expect((json.body as Array<{ id: number }>).map((record) => record.id)).toEqual(ids);
  });

  it('access: no key 401, a reader and a read-only key may export, another account 400 Invalid Table', async () => {
    expect((await exportOf({}, null)).status).toBe(401);
    const reader = await createUser(ctx, world, 'Reader');
    await addMember(ctx, world, spaceId, reader.id, 'reader');
    const readerKey = (await createKey(ctx, { userId: reader.id })).key;
    const readOnly = (await createKey(ctx, { accountId: world.accountId, readOnly: true })).key;
    for (const key of [readerKey, readOnly]) {
      // Neither may write, both may export.
      expect((await post(`/api/table/${tableId}/records/create`, { data: {} }, key)).status).toBe(403);
      const response = await exportOf({}, key);
      expect(response.status).toBe(200);
      expect(rowsOf(response.body)).toHaveLength(4);
    }
    const other = await createAccount(ctx);
    const refused = await exportOf({}, other.accountKey);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('Invalid Table');
  });

  it('a bad format or query answers 400 before anything is sent', async () => {
    const badFormat = await exportOf({ format: 'xlsx' });
    expect(badFormat.status).toBe(400);
    expect(badFormat.body.error.message).toMatch(/format/);
    expect((await exportOf({ fields: ['nope'] })).status).toBe(400);
    expect((await exportOf({ bogus: 1 })).status).toBe(400);
  });
});
