import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createTable, createUser, type Response, type World } from '../factories.js';

/** `name` with `suffix` appended, dropping its last character when it would pass the 200-character limit. */
function variant(name: string, suffix: string): string {
  return [...name].slice(0, 199).join('') + suffix;
}

/**
 * Hostile input on the management endpoints: every request is either answered as asked or
 * rejected with a clear 4xx, never a 500, and a rejected request changes nothing.
 */
describe('bad input on management endpoints', () => {
  const ctx = useTestApp();
  let world: World;
  let spaceId: number;
  let tableId: number;
  let userId: number;

  beforeAll(async () => {
    world = await createAccount(ctx);
    const space = await call(ctx, 'POST', '/api/spaces/create', { key: world.accountKey, body: { name: 'Target' } });
    spaceId = space.body.id;
    tableId = (
      await createTable(ctx, world, spaceId, {
        name: 'Records',
        fields: [
          { name: 'Headline', type: 'text' },
          { name: 'Stage', type: 'select', options: [{ value: 'a' }] },
        ],
      })
    ).id;
    userId = (await createUser(ctx, world, 'Member')).id;
  });

  const send = (method: 'GET' | 'POST', url: string, options: Parameters<typeof call>[3] = {}) => call(ctx, method, url, { key: world.accountKey, ...options });
  const sendJson = (url: string, body: unknown) => send('POST', url, { body });
  const sendRaw = (url: string, payload: string | Buffer, contentType = 'application/json') => send('POST', url, { payload, headers: { 'content-type': contentType } });

  /** Everything the account's management API shows: compared before and after each rejected request. */
  async function snapshot() {
    const spaces = (await send('GET', '/api/spaces/list')).body as Array<{ id: number }>;
    const details = [];
    for (const space of spaces) {
      const tables = (await send('GET', `/api/space/${space.id}/tables/list`)).body as Array<{ id: number }>;
      details.push({
        space: (await send('GET', `/api/space/${space.id}/get`)).body,
        members: (await send('GET', `/api/space/${space.id}/members/list`)).body,
        tables: await Promise.all(tables.map(async (table) => (await send('GET', `/api/table/${table.id}/get`)).body)),
      });
    }
    return { spaces, details };
  }

  /** A refusal: `status`, JSON, exactly `{error:{code, message}}`. */
  function expectErrorShape(status: number, response: Response): Response {
    expect(response.status, JSON.stringify(response.body)).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(response.body)).toEqual(['error']);
    expect(response.body.error).toEqual({ code: expect.stringMatching(/^[a-z_]+$/), message: expect.any(String) });
    return response;
  }

  /** Sends a request that must be refused with `status`; the stored data must be exactly as before. */
  async function expectRefused(status: number, request: () => Promise<Response>): Promise<Response> {
    const before = await snapshot();
    const response = expectErrorShape(status, await request());
    expect(await snapshot()).toEqual(before);
    return response;
  }

  /** Many refusals in a row with one snapshot around them all: a change made by any of them shows. */
  async function expectAllRefused(status: number, requests: ReadonlyArray<readonly [string, () => Promise<Response>]>, check: (label: string, response: Response) => void) {
    const before = await snapshot();
    for (const [label, request] of requests) check(label, expectErrorShape(status, await request()));
    expect(await snapshot()).toEqual(before);
  }

  /** POST endpoints that take a JSON body, with a body each would accept. */
  const bodyEndpoints = () =>
    [
      ['spaces/create', '/api/spaces/create', { name: 'x' }],
      ['space update', `/api/space/${spaceId}/update`, { name: 'x' }],
      ['members/add', `/api/space/${spaceId}/members/add`, { user_id: userId, role: 'reader' }],
      ['tables/create', `/api/space/${spaceId}/tables/create`, { name: 'x' }],
      ['table update', `/api/table/${tableId}/update`, { name: 'x' }],
      ['fields/create', `/api/table/${tableId}/fields/create`, { name: 'x', type: 'text' }],
      ['field update', `/api/table/${tableId}/field/headline/update`, { name: 'x' }],
    ] as const;

  /** Every POST endpoint, deletes included: a body they ignore must still be well-formed. */
  const postEndpoints = () =>
    [
      ...bodyEndpoints().map(([label, url]) => [label, url] as const),
      ['members/remove', `/api/space/${spaceId}/members/remove`],
      ['field delete', `/api/table/${tableId}/field/headline/delete`],
      ['table delete', `/api/table/${tableId}/delete`],
      ['space delete', `/api/space/${spaceId}/delete`],
    ] as const;

  describe('malformed JSON', () => {
    const malformed = ['{"name":', '{name: "x"}', "{'name':'x'}", '{"name":"x",}', '{"name":"x"} trailing', '[1, 2', 'nul', '"unterminated', '{"name":"\\x"}'];

    it.each(malformed)('answers 400 invalid_json naming the problem for %j on every POST endpoint', async (payload) => {
      for (const [label, url] of postEndpoints()) {
        const response = await expectRefused(400, () => sendRaw(url, payload));
        expect(response.body.error.code, label).toBe('invalid_json');
        expect(response.body.error.message, label).toMatch(/^Invalid JSON body: \S/);
      }
    });

    it('answers 400 invalid_json for bytes that are not UTF-8, rather than storing U+FFFD', async () => {
      const payload = Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('b"}')]);
      for (const [, url] of bodyEndpoints()) {
        const response = await expectRefused(400, () => sendRaw(url, payload));
        expect(response.body.error).toEqual({ code: 'invalid_json', message: 'Invalid JSON body: not valid UTF-8' });
      }
    });

    it('answers 400 for deeply nested JSON without falling over', async () => {
      const deep = `{"name":"x","fields":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
      await expectRefused(400, () => sendRaw(`/api/space/${spaceId}/tables/create`, deep));
      await expectRefused(400, () => sendRaw(`/api/table/${tableId}/fields/create`, `{"name":"x","type":"select","options":${'['.repeat(200_000)}${']'.repeat(200_000)}}`));
    });
  });

  describe('bodies of the wrong shape', () => {
    it.each([5, null, true, ['x'], { first: 'x' }, ''])('answers 400 naming "name" when name is %j', async (name) => {
      for (const [label, url, valid] of bodyEndpoints()) {
        if (!('name' in valid)) continue;
        const response = await expectRefused(400, () => sendJson(url, { ...valid, name }));
        expect(response.body.error.message, label).toMatch(/\bname\b/);
      }
    });

    it.each([
      ['fields', 'tables/create', () => `/api/space/${spaceId}/tables/create`, { name: 'x', fields: 'headline' }],
      ['fields', 'tables/create', () => `/api/space/${spaceId}/tables/create`, { name: 'x', fields: [5] }],
      ['title_field', 'tables/create', () => `/api/space/${spaceId}/tables/create`, { name: 'x', title_field: 5 }],
      ['title_field', 'table update', () => `/api/table/${tableId}/update`, { title_field: ['headline'] }],
      ['type', 'fields/create', () => `/api/table/${tableId}/fields/create`, { name: 'x', type: 5 }],
      ['role', 'members/add', () => `/api/space/${spaceId}/members/add`, { user_id: userId, role: 'owner' }],
      ['user_id', 'members/add', () => `/api/space/${spaceId}/members/add`, { user_id: 'one', role: 'reader' }],
    ])('answers 400 naming %s for a wrong type on %s', async (key, _label, url, body) => {
      const response = await expectRefused(400, () => sendJson(url(), body));
      expect(response.body.error.message).toContain(key);
    });

    it('answers 400 when the body is not an object', async () => {
      for (const body of [[], 'x', 5, null]) {
        for (const [label, url] of bodyEndpoints()) {
          const response = await expectRefused(400, () => sendJson(url, body));
          expect(response.body.error.message, label).toMatch(/must be object|must be an object/);
        }
      }
    });

    it('answers 400 naming an unknown property', async () => {
      for (const [label, url, valid] of bodyEndpoints()) {
        const response = await expectRefused(400, () => sendJson(url, { ...valid, colour: 'red' }));
        expect(response.body.error.message, label).toContain('unknown property "colour"');
      }
      const nested = await expectRefused(400, () => sendJson(`/api/space/${spaceId}/tables/create`, { name: 'x', fields: [{ name: 'a', type: 'text', colour: 'red' }] }));
      expect(nested.body.error.message).toContain('unknown property "colour"');
      const option = await expectRefused(400, () => sendJson(`/api/table/${tableId}/fields/create`, { name: 'a', type: 'select', options: [{ value: 'v', colour: 'red' }] }));
      expect(option.body.error.message).toContain('unknown property "colour"');
    });

    it('answers 400 for keys named like Object.prototype members', async () => {
      for (const key of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
        const table = await expectRefused(400, () => sendJson(`/api/space/${spaceId}/tables/create`, { name: 'x', [key]: 1 }));
        expect(table.body.error.message).toContain(`unknown property "${key}"`);
        const field = await expectRefused(400, () => sendJson(`/api/table/${tableId}/fields/create`, { name: 'x', type: 'text', [key]: 1 }));
        expect(field.body.error.message).toContain(`unknown property "${key}"`);
      }
    });

    it('answers a body in another content type with 400 or 415, never as if it were JSON', async () => {
      const asText = await expectRefused(400, () => sendRaw(`/api/space/${spaceId}/tables/create`, '{"name":"x"}', 'text/plain'));
      expect(asText.body.error.message).toContain('body must be object');
      const asXml = await expectRefused(415, () => sendRaw(`/api/space/${spaceId}/tables/create`, '<name>x</name>', 'application/xml'));
      expect(asXml.body.error.code).toBe('unsupported_media_type');
      const asForm = await expectRefused(415, () => sendRaw(`/api/table/${tableId}/update`, 'name=x', 'application/x-www-form-urlencoded'));
      expect(asForm.body.error.code).toBe('unsupported_media_type');
    });
  });

  describe('prototype poisoning', () => {
    const payloads = [
      '{"name":"x","__proto__":{"admin":true}}',
      '{"__proto__":{"name":"x"}}',
      '{"name":"x","constructor":{"prototype":{"admin":true}}}',
      '{"name":"x","fields":[{"name":"a","type":"text","__proto__":{"required":true}}]}',
      '{"name":"x","type":"select","options":[{"value":"a","__proto__":{"color":"red"}}]}',
    ];

    it.each(payloads)('answers 400 for %s on every POST endpoint', async (payload) => {
      for (const [label, url] of postEndpoints()) {
        const response = await expectRefused(400, () => sendRaw(url, payload));
        expect(response.body.error, label).toEqual({ code: 'invalid_json', message: 'Invalid JSON body: Object contains forbidden prototype property' });
      }
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    });
  });

  describe('oversized bodies', () => {
    it('answers a 10 MB junk body with 413 Payload Too Large on every POST endpoint', async () => {
      const junk = crypto.randomBytes(10 * 1024 * 1024);
      for (const [label, url] of postEndpoints()) {
        const response = await expectRefused(413, () => sendRaw(url, junk));
        expect(response.body, label).toEqual({ error: { code: 'payload_too_large', message: 'Payload Too Large' } });
      }
    });

    it('answers 413 to a well-formed JSON body over the limit too', async () => {
      const response = await expectRefused(413, () => sendJson(`/api/space/${spaceId}/tables/create`, { name: 'x', fields: [{ name: 'y'.repeat(2 * 1024 * 1024), type: 'text' }] }));
      expect(response.body).toEqual({ error: { code: 'payload_too_large', message: 'Payload Too Large' } });
    });
  });

  describe('hostile strings', () => {
    /** Another account stores the hostile names, so that snapshots of the target account stay small. */
    let store: World;
    let storeSpaceId: number;
    let storeTableId: number;
    beforeAll(async () => {
      store = await createAccount(ctx);
      storeSpaceId = (await call(ctx, 'POST', '/api/spaces/create', { key: store.accountKey, body: { name: 'Store' } })).body.id;
      storeTableId = (await createTable(ctx, store, storeSpaceId, { name: 'Store', fields: [{ name: 'Headline', type: 'text' }] })).id;
    });
    const storeGet = (url: string) => call(ctx, 'GET', url, { key: store.accountKey });
    const storeJson = (url: string, body: unknown) => call(ctx, 'POST', url, { key: store.accountKey, body });

    const hostile: Array<[string, string]> = [
      ['quotes', `It's "quoted" and \`ticked\``],
      ['SQL injection', "'; DROP TABLE spaces; --"],
      ['SQL injection with a closing paren', 'x"); DROP TABLE tables; --'],
      ['LIKE wildcards and backslashes', '100% _sure_ \\ back\\slash'],
      ['markup', '<script>alert("x")</script>'],
      ['emoji', 'Rocket 🚀 family 👩‍👩‍👧‍👦 flag 🇳🇱'],
      ['right-to-left marks', '\u200Fשלום\u200E and \u202Eoverride\u202C'],
      ['combining characters', 'Z̷̢͎a̶l̸g̴o̵ and e\u0301'],
      ['inner control characters', 'tab\there; new\nline; bell\u0007'],
      ['200 emoji', '😀'.repeat(200)],
      ['a zero-width joiner only between letters', 'a\u200Db'],
    ];

    // The 200-emoji name is 400 UTF-16 units: spaces.service.ts counts those, not characters (reported).
    it.each(hostile.filter(([label]) => label !== '200 emoji'))('stores a space name with %s and reads it back byte for byte', async (_label, name) => {
      const created = await storeJson('/api/spaces/create', { name });
      expect(created.status).toBe(200);
      expect(created.body.name).toBe(name);
      expect((await storeGet(`/api/space/${created.body.id}/get`)).body.name).toBe(name);
      const updated = await storeJson(`/api/space/${created.body.id}/update`, { name: variant(name, '!') });
      expect(updated.body.name).toBe(variant(name, '!'));
    });

    it.each(hostile)('stores table and field names with %s and reads them back byte for byte', async (_label, name) => {
      const created = await storeJson(`/api/space/${storeSpaceId}/tables/create`, { name, fields: [{ name, type: 'text' }] });
      expect(created.status).toBe(200);
      expect(created.body.name).toBe(name);
      expect(created.body.fields[0].name).toBe(name);
      expect(created.body.fields[0].id).toMatch(/^[a-z][a-z0-9_]{0,62}$/);
      const id = created.body.id;
      const slug = created.body.fields[0].id;
      expect((await storeGet(`/api/table/${id}/get`)).body).toMatchObject({ name, fields: [{ name }] });
      expect((await storeGet(`/api/space/${storeSpaceId}/tables/list`)).body).toContainEqual({ id, name, space_id: storeSpaceId });

      const renamed = variant(name, '?');
      const second = variant(name, '2');
      expect((await storeJson(`/api/table/${id}/update`, { name: renamed })).body.name).toBe(renamed);
      expect((await storeJson(`/api/table/${id}/field/${slug}/update`, { name: renamed })).body.fields[0].name).toBe(renamed);
      const added = await storeJson(`/api/table/${id}/fields/create`, { name: second, type: 'text' });
      expect(added.body.fields[1].name).toBe(second);
      expect((await storeGet(`/api/table/${id}/get`)).body).toMatchObject({ name: renamed, fields: [{ name: renamed }, { name: second }] });
    });

    it.each(hostile.filter(([label]) => label !== '200 emoji'))('stores a select option with %s and reads it back byte for byte', async (_label, value) => {
      const response = await storeJson(`/api/table/${storeTableId}/fields/create`, { name: 'Hostile option', type: 'select', options: [{ value }] });
      expect(response.status).toBe(200);
      expect(response.body.fields.at(-1).options).toEqual([{ value }]);
      const field = (await storeGet(`/api/table/${storeTableId}/get`)).body.fields.at(-1);
      expect(field.options).toEqual([{ value }]);
      expect((await storeJson(`/api/table/${storeTableId}/field/${field.id}/delete`, {})).status).toBe(200);
    });

    it('answers 400 naming "name" for a 10,000-character name everywhere', async () => {
      const name = 'n'.repeat(10_000);
      for (const [label, url, valid] of bodyEndpoints()) {
        if (!('name' in valid)) continue;
        const response = await expectRefused(400, () => sendJson(url, { ...valid, name }));
        expect(response.body.error.message, label).toMatch(/\bname\b/);
        expect(response.body.error.message.length, label).toBeLessThan(300);
      }
      const nested = await expectRefused(400, () => sendJson(`/api/space/${spaceId}/tables/create`, { name: 'x', fields: [{ name, type: 'text' }] }));
      expect(nested.body.error.message).toContain('name must be 1 to 200 characters');
    });

    it('answers 400 naming "name" for NUL bytes in table and field names, on both engines alike', async () => {
      for (const name of ['a\u0000b', '\u0000', 'trailing\u0000']) {
        const cases: Array<[string, unknown]> = [
          [`/api/space/${spaceId}/tables/create`, { name }],
          [`/api/table/${tableId}/update`, { name }],
          [`/api/table/${tableId}/fields/create`, { name, type: 'text' }],
          [`/api/table/${tableId}/field/headline/update`, { name }],
          [`/api/space/${spaceId}/tables/create`, { name: 'ok', fields: [{ name, type: 'text' }] }],
        ];
        for (const [url, body] of cases) {
          const response = await expectRefused(400, () => sendJson(url, body));
          expect(response.body.error.message, url).toMatch(/\bname:? must not contain NUL characters/);
        }
      }
    });

    it('answers 400 naming the option for NUL bytes in a select option', async () => {
      const response = await expectRefused(400, () => sendJson(`/api/table/${tableId}/fields/create`, { name: 'x', type: 'select', options: [{ value: 'a\u0000' }] }));
      expect(response.body.error.message).toContain('options[0].value must not contain NUL characters');
    });

    it('answers 400 for unpaired surrogates in table and field names, which could not be read back', async () => {
      for (const name of ['a\ud800b', 'end\udc00']) {
        for (const [url, body] of [
          [`/api/space/${spaceId}/tables/create`, { name }],
          [`/api/table/${tableId}/update`, { name }],
          [`/api/table/${tableId}/fields/create`, { name, type: 'text' }],
          [`/api/table/${tableId}/field/headline/update`, { name }],
        ] as const) {
          const response = await expectRefused(400, () => sendJson(url, body));
          expect(response.body.error.message).toMatch(/\bname:? must not contain unpaired surrogate/);
        }
      }
    });

    it('answers 400 naming "name" for NUL bytes and unpaired surrogates in a space name, on both engines alike', async () => {
      for (const name of ['a\u0000b', 'a\ud800b']) {
        for (const url of ['/api/spaces/create', `/api/space/${spaceId}/update`]) {
          const response = await expectRefused(400, () => sendJson(url, { name }));
          expect(response.body.error.message, url).toMatch(/^Invalid parameters: name must not contain (NUL|unpaired surrogate) characters$/);
        }
      }
    });

    it('accepts a space name of 200 emoji, as the request schema does (200 characters, 400 UTF-16 units)', async () => {
      const name = '😀'.repeat(200);
      const response = await storeJson('/api/spaces/create', { name });
      expect(response.body.name).toBe(name);
    });

    it('stores leading and trailing whitespace trimmed, as the documented normalisation', async () => {
      const response = await storeJson(`/api/space/${storeSpaceId}/tables/create`, { name: '  padded  ', fields: [{ name: '\tpadded\n', type: 'text' }] });
      expect(response.body).toMatchObject({ name: 'padded', fields: [{ id: 'padded', name: 'padded' }] });
    });
  });

  describe('ids in paths', () => {
    const badIds = ['abc', '1.5', '0x10', '1e3', '007', '+1', '%201', '1%20', '%00', 'NaN', 'Infinity', '1;DROP TABLE tables'];
    /** Integers no row can have (ids run from 1 to 2^31 − 1): ids of nothing, not malformed ones (http/path-ids.ts). */
    const impossibleIds = ['0', '-1', '-0', '2147483648', '99999999999999999999', '9'.repeat(100)];
    const routes = (id: string) =>
      [
        ['GET', `/api/space/${id}/get`, 'sid'],
        ['GET', `/api/space/${id}/tables/list`, 'sid'],
        ['GET', `/api/space/${id}/members/list`, 'sid'],
        ['POST', `/api/space/${id}/update`, 'sid'],
        ['POST', `/api/space/${id}/delete`, 'sid'],
        ['POST', `/api/space/${id}/tables/create`, 'sid'],
        ['GET', `/api/table/${id}/get`, 'tid'],
        ['POST', `/api/table/${id}/update`, 'tid'],
        ['POST', `/api/table/${id}/delete`, 'tid'],
        ['POST', `/api/table/${id}/fields/create`, 'tid'],
        ['POST', `/api/table/${id}/field/headline/update`, 'tid'],
        ['POST', `/api/table/${id}/field/headline/delete`, 'tid'],
      ] as const;

    const request = (method: 'GET' | 'POST', url: string) => [url, () => send(method, url, method === 'POST' ? { body: { name: 'x' } } : {})] as const;

    it.each(badIds)('answers 400 naming the parameter for the id %j, on every route', async (id) => {
      const params = new Map<string, string>(routes(id).map(([, url, param]) => [url, param]));
      await expectAllRefused(400, routes(id).map(([method, url]) => request(method, url)), (url, response) => {
        expect(response.body.error.code, url).toBe('invalid_parameters');
        expect(response.body.error.message, url).toMatch(new RegExp(`^Invalid parameters: ${params.get(url)} must be`));
      });
    });

    // Past the router's 100-character parameter limit, and for malformed percent-encoding, the router answers
    // before any hook; app.ts passes error-handler.ts's frameworkErrorHandler as `frameworkErrors`, so these
    // answer 400 in the error shape rather than Fastify's own (414 FST_ERR_MAX_PARAM_LENGTH, 400 FST_ERR_BAD_URL).
    it('answers 400 invalid_parameters in the error shape for an id longer than 100 characters', async () => {
      const response = await send('GET', `/api/table/${'1'.repeat(150)}/get`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: { code: 'invalid_parameters', message: 'Invalid parameters: a path parameter is too long' } });
    });

    it('answers 400 in the error shape, without echoing the path, for malformed percent-encoding such as %E0%A4%A', async () => {
      const response = await send('GET', '/api/table/%E0%A4%A/get');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: { code: 'invalid_url', message: 'Invalid URL: malformed percent-encoding' } });
    });

    it.each(['2147483647', ...impossibleIds])('answers 404 for the well-formed id of nothing %j, on every route', async (id) => {
      await expectAllRefused(404, routes(id).map(([method, url]) => request(method, url)), (url, response) => {
        expect(response.body.error.code, url).toMatch(/_not_found$/);
      });
    });

    it('answers 400 for an over-long field slug and 404 for an unknown one', async () => {
      const long = await expectRefused(400, () => sendJson(`/api/table/${tableId}/field/${'x'.repeat(64)}/update`, { name: 'x' }));
      expect(long.body.error.message).toContain('slug');
      for (const slug of ['nope', 'HEADLINE', '%00', "headline'--", '%F0%9F%98%80']) {
        const response = await expectRefused(404, () => sendJson(`/api/table/${tableId}/field/${slug}/update`, { name: 'x' }));
        expect(response.body.error.code).toBe('field_not_found');
      }
    });
  });
});
