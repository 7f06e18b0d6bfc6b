import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, createUser, type Response, type World } from '../factories.js';

/** `{"data":` … 4,000 levels of arrays around `"x"` … `}`: what once overflowed the stack. */
const deep = (levels: number) => `${'['.repeat(levels)}"x"${']'.repeat(levels)}`;

/**
 * Values that answered 500 (the process survived) and must answer a clear 400 with nothing
 * stored or changed: JSON nested thousands of levels deep, LIKE patterns SQLite finds too
 * complex, NUL and unpaired surrogates (which PostgreSQL cannot take, or stores altered).
 */
describe('hostile values in record, query, member and login bodies', () => {
  const ctx = useTestApp();
  let world: World;
  let spaceId: number;
  let tableId: number;
  let recordId: number;
  let memberEmail: string;

  beforeAll(async () => {
    world = await createAccount(ctx);
    spaceId = (await createSpace(ctx, world, 'Hostile')).id;
    const table = await createTable(ctx, world, spaceId, {
      name: 'Items',
      fields: [
        { id: 'name', name: 'Name', type: 'text' },
        { id: 'notes', name: 'Notes', type: 'longtext' },
        { id: 'mail', name: 'Mail', type: 'email' },
        { id: 'status', name: 'Status', type: 'select', options: [{ value: 'Open' }, { value: 'Closed' }] },
        { id: 'tags', name: 'Tags', type: 'select', multiple: true, options: [{ value: 'red' }, { value: 'blue' }] },
        { id: 'owner', name: 'Owner', type: 'user' },
      ],
    });
    tableId = table.id;
    recordId = (await post(`/api/table/${tableId}/records/create`, { data: { name: 'First', status: 'Open', tags: ['red'], owner: world.ownerId } })).body.id;
    await post(`/api/table/${tableId}/records/create`, { data: { name: 'Second', notes: 'more', tags: ['blue'] } });
    memberEmail = (await createUser(ctx, world, 'Member')).email;
  });

  const post = (url: string, body: unknown) => call(ctx, 'POST', url, { key: world.accountKey, body });
  const postRaw = (url: string, payload: string) => call(ctx, 'POST', url, { key: world.accountKey, payload, headers: { 'content-type': 'application/json' } });
  const login = (payload: string) => call(ctx, 'POST', '/api/auth/login', { payload, headers: { 'content-type': 'application/json' } });
  const records = (suffix: string) => `/api/table/${tableId}/${suffix}`;

  /** Everything a refused request could have changed: the records, the table, the members. */
  async function snapshot() {
    return {
      records: (await post(records('records/query'), { limit: 1000 })).body,
      table: (await call(ctx, 'GET', `/api/table/${tableId}/get`, { key: world.accountKey })).body,
      members: (await call(ctx, 'GET', `/api/space/${spaceId}/members/list`, { key: world.accountKey })).body,
    };
  }

  /** Each request must answer 400 with `{error:{code,message}}`; the snapshot must not move. */
  async function expectAllRefused(requests: ReadonlyArray<readonly [string, () => Promise<Response>]>, check: (label: string, response: Response) => void) {
    const before = await snapshot();
    for (const [label, request] of requests) {
      const response = await request();
      expect(response.status, `${label}: ${JSON.stringify(response.body)}`).toBe(400);
      expect(Object.keys(response.body), label).toEqual(['error']);
      check(label, response);
    }
    expect(await snapshot()).toEqual(before);
  }

  describe('nesting', () => {
    it('answers 400 invalid_json for 4,000 levels of nesting in a filter value, on query, count and ids', async () => {
      const bodies = [
        `{"where":{"name":["=",${deep(4000)}]}}`,
        `{"filters":[{"column":"owner","compare":"=","value":${'{"a":'.repeat(4000)}1${'}'.repeat(4000)}}]}`,
        `{"where":{"tags":${deep(4000)}}}`,
      ];
      const requests = ['records/query', 'records/count', 'records/ids'].flatMap((endpoint) => bodies.map((body) => [`${endpoint} ${body.slice(0, 30)}`, () => postRaw(records(endpoint), body)] as const));
      await expectAllRefused(requests, (label, response) => {
        expect(response.body.error, label).toEqual({ code: 'invalid_json', message: 'Invalid JSON body: nested deeper than 64 levels' });
      });
    });

    it('answers 400 invalid_json for 4,000 levels of nesting in a record value, on create and update', async () => {
      const requests = [
        ['create', () => postRaw(records('records/create'), `{"data":{"name":${deep(4000)}}}`)],
        ['create multi', () => postRaw(records('records/create'), `{"data":{"tags":${deep(4000)}}}`)],
        ['update', () => postRaw(records(`record/${recordId}/update`), `{"data":{"owner":${deep(4000)}}}`)],
        ['objects', () => postRaw(records(`record/${recordId}/update`), `{"data":{"name":${'{"a":'.repeat(4000)}1${'}'.repeat(4000)}}}`)],
        ['delete_batch', () => postRaw(records('records/delete_batch'), `{"record_ids":${deep(4000)}}`)],
        ['members/add', () => postRaw(`/api/space/${spaceId}/members/add`, `{"email":${deep(4000)},"role":"reader"}`)],
      ] as const;
      await expectAllRefused(requests, (label, response) => {
        expect(response.body.error, label).toEqual({ code: 'invalid_json', message: 'Invalid JSON body: nested deeper than 64 levels' });
      });
      const signIn = await login(`{"email":${deep(4000)},"password":"x"}`);
      expect(signIn.status).toBe(400);
      expect(signIn.body.error.code).toBe('invalid_json');
    });

    it('lets 64 levels through to the usual checks and refuses 65 while parsing', async () => {
      // `{"where":{` is two levels; the value adds the rest.
      const atLimit = await postRaw(records('records/query'), `{"where":{"name":${deep(62)}}}`);
      expect(atLimit.status).toBe(400);
      expect(atLimit.body.error.code).toBe('invalid_filter');
      const overLimit = await postRaw(records('records/query'), `{"where":{"name":${deep(63)}}}`);
      expect(overLimit.body.error).toEqual({ code: 'invalid_json', message: 'Invalid JSON body: nested deeper than 64 levels' });
    });

    it('does not count brackets inside strings, escaped quotes and backslashes included', async () => {
      const name = `${'['.repeat(3000)}"\\${'{'.repeat(3000)}\\"[`;
      const created = await post(records('records/create'), { data: { name } });
      expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(200);
      expect((await call(ctx, 'GET', records(`record/${created.body.id}/get`), { key: world.accountKey })).body.data.name).toBe(name);
      const found = await post(records('records/query'), { where: { name: ['starts_with', '[[[['] }, fields: ['name'] });
      expect(found.body.map((record: { id: number }) => record.id)).toEqual([created.body.id]);
      expect((await post(records('record/' + created.body.id + '/delete'), {})).status).toBe(200);
    });
  });

  describe('long pattern values', () => {
    it.each(['contains', 'starts_with', 'ends_with'])('answers 400 naming the field and operator for a %s value of 50,000 characters', async (operator) => {
      const value = 'x'.repeat(50_000);
      const requests = ['name', 'status', 'tags'].flatMap((slug) => [
        [`${slug} where`, () => post(records('records/query'), { where: { [slug]: [operator, value] } })],
        [`${slug} filters`, () => post(records('records/count'), { filters: [{ column: slug, compare: operator, value }] })],
        [`${slug} ids`, () => post(records('records/ids'), { filters: [{ field: slug, compare: operator.toUpperCase(), value: `%_\\${value}` }] })],
      ] as const);
      await expectAllRefused(requests, (label, response) => {
        const slug = label.split(' ')[0];
        expect(response.body.error, label).toEqual({ code: 'invalid_filter', message: `Invalid filter: ${slug}: a ${operator.replace('_', ' ')} value must be at most 1000 characters` });
      });
    });

    it('accepts a pattern of 1,000 characters, counted as characters (1,000 emoji are 2,000 UTF-16 units)', async () => {
      for (const value of ['%'.repeat(1000), '😀'.repeat(1000), '\\'.repeat(1000)]) {
        for (const slug of ['name', 'tags']) {
          const response = await post(records('records/query'), { where: { [slug]: ['contains', value] } });
          expect(response.status, JSON.stringify(response.body)).toBe(200);
          expect(response.body).toEqual([]);
        }
      }
      const over = await post(records('records/query'), { where: { name: ['contains', '😀'.repeat(1001)] } });
      expect(over.body.error.code).toBe('invalid_filter');
    });

    it('compares long values with = and search them, without a pattern limit', async () => {
      expect((await post(records('records/query'), { where: { name: 'x'.repeat(50_000) } })).body).toEqual([]);
      expect((await post(records('records/query'), { where: { tags: 'x'.repeat(50_000) } })).body).toEqual([]);
      expect((await post(records('records/count'), { search: 'x'.repeat(50_000) })).body.count).toBe(0);
    });
  });

  describe.each([
    ['a NUL character', '\u0000', 'must not contain NUL characters'],
    ['an unpaired high surrogate', '\ud800', 'must not contain unpaired surrogate characters'],
    ['an unpaired low surrogate', 'a\udc00b', 'must not contain unpaired surrogate characters'],
  ])('strings holding %s', (_label, text, problem) => {
    it('answers 400 naming the filter value, on every operator spelling and multi-select fields too', async () => {
      const requests = [
        ['where.tags', () => post(records('records/query'), { where: { tags: text } })],
        ['where.tags[1]', () => post(records('records/query'), { where: { tags: ['!=', text] } })],
        ['where.status[1]', () => post(records('records/count'), { where: { status: ['contains', `Op${text}`] } })],
        ['where.owner', () => post(records('records/ids'), { where: { owner: text } })],
        ['filters[1].value', () => post(records('records/query'), { filters: [{ column: 'name', compare: '=', value: 'x' }, { column: 'tags', compare: '=', value: text }] })],
        ['filters[0].value[1]', () => post(records('records/query'), { filters: [{ column: 'tags', compare: '=', value: ['red', text] }] })],
        ['search', () => post(records('records/query'), { search: `red ${text}` })],
        ['a property name in where', () => post(records('records/query'), { where: { [`tags${text}`]: 'red' } })],
      ] as const;
      await expectAllRefused(requests, (label, response) => {
        expect(response.body.error, label).toEqual({ code: 'invalid_parameters', message: `Invalid parameters: ${label} ${problem}` });
      });
    });

    it('answers 400 naming the field for record values, on create and update, multi-select included', async () => {
      const requests = [
        ['data.tags[1]', () => post(records('records/create'), { data: { tags: ['red', text] } })],
        ['data.tags', () => post(records(`record/${recordId}/update`), { data: { tags: text } })],
        ['data.status', () => post(records(`record/${recordId}/update`), { data: { status: text } })],
        ['data.mail', () => post(records('records/create'), { data: { mail: `a${text}@example.com` } })],
        ['data.owner.email', () => post(records(`record/${recordId}/update`), { data: { owner: { email: `${text}@example.com` } } })],
        ['data.name', () => post(records('records/create'), { data: { name: text } })],
        ['a property name in data', () => post(records('records/create'), { data: { [text]: 'x' } })],
      ] as const;
      await expectAllRefused(requests, (label, response) => {
        expect(response.body.error, label).toEqual({ code: 'invalid_parameters', message: `Invalid parameters: ${label} ${problem}` });
      });
    });

    it('answers 400 for select options, e-mails of members and names, never storing an altered value', async () => {
      const requests = [
        ['options[0].value', () => post(`/api/table/${tableId}/fields/create`, { name: 'Odd', type: 'select', options: [{ value: `a${text}` }] })],
        ['options[1].value', () => post(`/api/table/${tableId}/field/status/update`, { options: [{ value: 'Open' }, { value: text }] })],
        ['fields[0].options[0].value', () => post(`/api/space/${spaceId}/tables/create`, { name: 'T', fields: [{ name: 'S', type: 'select', options: [{ value: text }] }] })],
        ['email', () => post(`/api/space/${spaceId}/members/add`, { email: `${memberEmail}${text}`, role: 'reader' })],
        ['email', () => post(`/api/space/${spaceId}/members/add`, { email: `${text}${memberEmail}`, role: 'editor' })],
        ['name', () => post(`/api/space/${spaceId}/update`, { name: `x${text}` })],
      ] as const;
      await expectAllRefused(requests, (label, response) => {
        expect(response.body.error, label).toEqual({ code: 'invalid_parameters', message: `Invalid parameters: ${label} ${problem}` });
      });
    });

    it('answers 400 to a login with such an e-mail or password, before looking anybody up', async () => {
      for (const body of [{ email: `${world.ownerEmail}${text}`, password: world.ownerPassword }, { email: world.ownerEmail, password: `${world.ownerPassword}${text}` }]) {
        const response = await login(JSON.stringify(body));
        expect(response.status, JSON.stringify(response.body)).toBe(400);
        expect(response.body.error).toEqual({ code: 'invalid_parameters', message: `Invalid parameters: ${body.email === world.ownerEmail ? 'password' : 'email'} ${problem}` });
      }
    });
  });

  it('keeps accepting escaped surrogate pairs and escaped control characters other than NUL', async () => {
    const payload = `{"data":{"name":"\\ud83d\\ude00 \\u0001 \\t \\u00e9","tags":"red"}}`;
    const created = await postRaw(records('records/create'), payload);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.data.name).toBe('😀 \u0001 \t é');
    const option = await post(`/api/table/${tableId}/fields/create`, { id: 'mood', name: 'Mood', type: 'select', options: [{ value: '😀' }] });
    expect(option.body.fields.at(-1).options).toEqual([{ value: '😀' }]);
    expect((await post(`/api/table/${tableId}/field/mood/delete`, {})).status).toBe(200);
    expect((await post(records(`record/${created.body.id}/delete`), {})).status).toBe(200);
  });
});

describe('records responses over the response size limit', () => {
  const ctx = useTestApp({ env: { TABULA_MAX_RESPONSE_MB: '1' } });
  let world: World;
  let tableId: number;
  let base: string;
  const big = 'x'.repeat(400_000);
  const ids: number[] = [];
  let hugeId: number;

  beforeAll(async () => {
    // 1 MB instead of 80: three records of 400,000 characters go over it.
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(ctx.app.server.address() as { port: number }).port}`;
    world = await createAccount(ctx);
    const space = await createSpace(ctx, world, 'Large');
    tableId = (
      await createTable(ctx, world, space.id, {
        name: 'Documents',
        fields: [
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'body', name: 'Body', type: 'longtext' },
          { id: 'appendix', name: 'Appendix', type: 'longtext' },
          { id: 'notes', name: 'Notes', type: 'longtext' },
        ],
      })
    ).id;
    for (const name of ['one', 'two', 'three']) ids.push((await post(`/api/table/${tableId}/records/create`, { data: { name, body: big } })).body.id);
    // One record over the limit on its own; created and updated, since write answers are not limited.
    hugeId = (await post(`/api/table/${tableId}/records/create`, { data: { name: 'huge', body: big, appendix: big } })).body.id;
    const updated = await post(`/api/table/${tableId}/record/${hugeId}/update`, { data: { notes: big } });
    expect(updated.status).toBe(200);
    expect(updated.body.data.notes).toHaveLength(400_000);
  });

  const post = (url: string, body: unknown) => call(ctx, 'POST', url, { key: world.accountKey, body });

  it('answers 400 response_too_large for a page over the limit, naming limit and fields', async () => {
    const response = await post(`/api/table/${tableId}/records/query`, {});
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: { code: 'response_too_large', message: expect.stringMatching(/^Response too large: these 4 records hold more than 1 MB of data; .*\(limit\).*\(fields\)$/) },
    });
  });

  it('answers the same query with a smaller limit or fewer fields', async () => {
    const page = await post(`/api/table/${tableId}/records/query`, { limit: 2 });
    expect(page.status).toBe(200);
    expect(page.body.map((record: { id: number }) => record.id)).toEqual(ids.slice(0, 2));
    expect(page.body[0].data.body).toBe(big);
    const narrow = await post(`/api/table/${tableId}/records/query`, { fields: ['name'] });
    expect(narrow.body.map((record: { data: unknown }) => record.data)).toEqual([{ name: 'one' }, { name: 'two' }, { name: 'three' }, { name: 'huge' }]);
    expect((await post(`/api/table/${tableId}/records/count`, {})).body.count).toBe(4);
    expect((await post(`/api/table/${tableId}/records/ids`, {})).body).toEqual([...ids, hugeId]);
  });

  it('answers 400 for a record get over the limit, pointing to records/query with fields, also over real HTTP', async () => {
    expect((await call(ctx, 'GET', `/api/table/${tableId}/record/${ids[0]}/get`, { key: world.accountKey })).status).toBe(200);
    const response = await call(ctx, 'GET', `/api/table/${tableId}/record/${hugeId}/get`, { key: world.accountKey });
    expect(response.body.error).toEqual({ code: 'response_too_large', message: expect.stringMatching(/^Response too large: this record holds more than 1 MB of data; .*records\/query and fields$/) });
    expect(response.status).toBe(400);
    // Over a socket the record get may be answered in front of Fastify: it must hand the refusal over.
    const overHttp = await fetch(`${base}/api/table/${tableId}/record/${hugeId}/get`, { headers: { authorization: `Bearer ${world.accountKey}` } });
    expect(overHttp.status).toBe(400);
    expect((await overHttp.json()).error.code).toBe('response_too_large');
    const parts = await post(`/api/table/${tableId}/records/query`, { where: { id: hugeId }, fields: ['notes'] });
    expect(parts.body[0].data.notes).toBe(big);
  });

  it('takes the limit from TABULA_MAX_RESPONSE_MB, 1 to 80 (default 80)', () => {
    expect(loadConfig({}).maxResponseSize).toBe(80 * 1024 * 1024);
    expect(loadConfig({ TABULA_MAX_RESPONSE_MB: '5' }).maxResponseSize).toBe(5 * 1024 * 1024);
    for (const raw of ['0', '81', 'abc', '1.5']) expect(() => loadConfig({ TABULA_MAX_RESPONSE_MB: raw }), raw).toThrow(/TABULA_MAX_RESPONSE_MB/);
  });
});
