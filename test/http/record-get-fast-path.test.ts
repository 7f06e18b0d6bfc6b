import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildSecondApp, buildTestApp, type TestContext } from '../build-test-app.js';
import { addMember, createAccount, createKey, createSpace, createTable, createUser, login, type World } from '../factories.js';

interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** Per account key and minute; personal keys get a quarter. */
const limit = 60;

/**
 * `GET /api/table/:tid/record/:rid/get` over real HTTP (app.inject never reaches the server's
 * fast path). Every situation is asked twice: as is, which the fast path may take, and with a
 * query string added, which it never takes and Fastify's route answers. Both answers must be the same,
 * and each request must be counted once against the rate limit, handed over or not.
 */
describe('record get: the fast path answers exactly as the route', () => {
  let ctx: TestContext;
  let base: string;
  let world: World;
  let tableId: number;
  let recordId: number;
  /** Stacks of the service calls, to tell which path served a request. */
  const calls: string[] = [];

  beforeAll(async () => {
    ctx = await buildTestApp({ env: { TABULA_RATE_LIMIT_PER_MINUTE: String(limit) } });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(ctx.app.server.address() as { port: number }).port}`;
    world = await createAccount(ctx);
    const space = await createSpace(ctx, world, 'Fast');
    const table = await createTable(ctx, world, space.id, { name: 'Notes', fields: [{ id: 'heading', name: 'Heading', type: 'text' }, { id: 'owner', name: 'Owner', type: 'user' }] });
    tableId = table.id;
    const created = await ctx.app.inject({ method: 'POST', url: `/api/table/${tableId}/records/create`, headers: { authorization: `Bearer ${world.accountKey}` }, payload: { data: { heading: 'Hello', owner: world.ownerId } } });
    recordId = created.json().id;
    const service = ctx.container.services.records;
    const getRecord = service.getRecord.bind(service);
    vi.spyOn(service, 'getRecord').mockImplementation((...args) => {
      calls.push(new Error().stack ?? '');
      return getRecord(...args);
    });
  });
  afterAll(() => ctx?.close());

  async function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
    const response = await fetch(`${base}${path}`, { method, headers });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: response.status, body, headers: Object.fromEntries(response.headers) };
  }

  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
  const recordPath = (table = tableId, record = recordId) => `/api/table/${table}/record/${record}/get`;
  const servedByFastPath = () => calls.filter((stack) => /record-get-fast-path\.[jt]s:\d/.test(stack)).length;

  /**
   * The same request through the fast path and through the route: identical but for Date and
   * the count. A first request through the route caches the key (any metadata change since,
   * such as a new account, made the process read it afresh).
   */
  async function expectSameAnswers(path: string, headers: Record<string, string>, options: { fast: boolean }) {
    await get(`${path}?via=warm-up`, headers);
    const before = { all: calls.length, fast: servedByFastPath() };
    const fast = await get(path, headers);
    const afterFast = { all: calls.length, fast: servedByFastPath() };
    const routed = await get(`${path}?via=route`, headers);
    expect(servedByFastPath(), 'the route never goes through the fast path').toBe(afterFast.fast);
    expect(afterFast.fast - before.fast, `fast path taken for ${path}`).toBe(options.fast ? 1 : 0);
    expect(fast.status).toBe(routed.status);
    expect(fast.body).toEqual(routed.body);
    const comparable = (answer: Answer) => {
      const { date: _date, 'x-ratelimit-remaining': _remaining, ...rest } = answer.headers;
      return rest;
    };
    expect(comparable(fast)).toEqual(comparable(routed));
    if (fast.headers['x-ratelimit-remaining'] !== undefined && Number(routed.headers['x-ratelimit-remaining']) > 0) {
      // Counted once each, even when the fast path handed the request over.
      expect(Number(fast.headers['x-ratelimit-remaining']) - Number(routed.headers['x-ratelimit-remaining'])).toBe(1);
    }
    return { fast, routed, serviceCalls: afterFast.all - before.all };
  }

  it('serves a readable record with the route’s body and headers', async () => {
    const { fast } = await expectSameAnswers(recordPath(), bearer(world.accountKey), { fast: true });
    expect(fast.status).toBe(200);
    expect(fast.body).toMatchObject({ id: recordId, title: 'Hello', data: { heading: 'Hello', owner: { id: world.ownerId } } });
    expect(fast.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(fast.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(fast.body)));
    expect(fast.headers['x-ratelimit-limit']).toBe(String(limit));
  });

  it('hands a missing record, a missing table and a table elsewhere over to the route, counted once', async () => {
    const other = await createAccount(ctx);
    for (const [path, key] of [
      [recordPath(tableId, 999_999), world.accountKey],
      [recordPath(999_999, 1), world.accountKey],
      [recordPath(), other.accountKey],
    ]) {
      const { fast, serviceCalls } = await expectSameAnswers(path, bearer(key), { fast: true });
      expect(fast.status, path).toBeGreaterThanOrEqual(400);
      expect(serviceCalls, 'the fast path tried, then the route answered').toBe(2);
    }
  });

  it('serves readers and read-only keys like the route', async () => {
    const reader = await createUser(ctx, world, 'Reader');
    await addMember(ctx, world, (await ctx.app.inject({ method: 'GET', url: '/api/spaces/list', headers: bearer(world.accountKey) })).json()[0].id, reader.id, 'reader');
    const readerKey = (await createKey(ctx, { userId: reader.id })).key;
    const readOnly = (await createKey(ctx, { accountId: world.accountId, readOnly: true })).key;
    for (const key of [readerKey, readOnly]) {
      const { fast } = await expectSameAnswers(recordPath(), bearer(key), { fast: true });
      expect(fast.status).toBe(200);
    }
  });

  it('answers 401 like the route once another process revoked the key', async () => {
    const key = await createKey(ctx, { accountId: world.accountId });
    await get(recordPath(), bearer(key.key));
    expect((await get(recordPath(), bearer(key.key))).status).toBe(200);
    const second = await buildSecondApp(ctx.database);
    try {
      await second.container.services.keys.revokeKey(key.id);
    } finally {
      await second.close();
    }
    const fast = await get(recordPath(), bearer(key.key));
    const routed = await get(`${recordPath()}?via=route`, bearer(key.key));
    expect(fast.status).toBe(401);
    expect(fast.body).toEqual(routed.body);
  });

  it('answers a cached key used from an address its allow-list refuses with the route’s 401', async () => {
    const fenced = (await createKey(ctx, { accountId: world.accountId, ipAllow: ['10.0.0.0/8'] })).key;
    const { fast } = await expectSameAnswers(recordPath(), bearer(fenced), { fast: false });
    expect(fast.status).toBe(401);
    expect((await get(recordPath(), bearer(world.accountKey))).status, 'the server still answers').toBe(200);
  });

  it('leaves requests without a cached bearer key to the route: no key, a bad key, a session', async () => {
    const session = await login(ctx, world.ownerEmail, world.ownerPassword);
    const cases: Record<string, string>[] = [{}, bearer('tbk_not-a-key'), { authorization: 'Basic abc' }, { cookie: session }];
    for (const headers of cases) {
      const { fast } = await expectSameAnswers(recordPath(), headers, { fast: false });
      expect(fast.status).toBe('cookie' in headers ? 200 : 401);
    }
  });

  it('leaves every other form of the path and method to the route', async () => {
    const before = servedByFastPath();
    for (const path of [`${recordPath()}/`, `/api/table/${tableId}/record/0${recordId}/get`, `/api/table/${tableId}/record/1234567890/get`, `/api/table/0/record/${recordId}/get`]) {
      expect((await get(path, bearer(world.accountKey))).status, path).toBeGreaterThanOrEqual(400);
    }
    const head = await get(recordPath(), bearer(world.accountKey), 'HEAD');
    expect(head.status).toBe(200);
    // fetch sends no body with a GET: node:http is asked to.
    const withBody = await new Promise<number>((resolve, reject) => {
      const request = http.request(`${base}${recordPath()}`, { method: 'GET', headers: { ...bearer(world.accountKey), 'content-type': 'application/json', 'content-length': '2' } }, (response) => {
        response.resume();
        resolve(response.statusCode!);
      });
      request.on('error', reject);
      request.end('{}');
    });
    expect(withBody).toBe(200);
    expect(servedByFastPath()).toBe(before);
  });

  it('over the limit answers 429 like the route, with Retry-After', async () => {
    const busy = await createAccount(ctx);
    let last: Answer | undefined;
    for (let n = 0; n < limit; n += 1) last = await get(recordPath(), bearer(busy.accountKey));
    expect(last!.status).toBe(400); // no such table in busy's account: handed over, and counted once
    expect(last!.headers['x-ratelimit-remaining']).toBe('0');
    // Over the limit the fast path hands over before any service call; the route answers 429.
    const fast = await get(recordPath(), bearer(busy.accountKey));
    const routed = await get(`${recordPath()}?via=route`, bearer(busy.accountKey));
    expect(fast.status).toBe(429);
    expect(fast.body).toEqual(routed.body);
    expect(fast.headers['retry-after']).toBeDefined();
    expect(fast.headers['x-ratelimit-remaining']).toBe('0');
  });
});
