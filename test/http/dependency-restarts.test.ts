import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSecondApp, type TestContext } from '../build-test-app.js';
import { startS3Peer, type S3Peer } from '../blob-stores/peers.js';
import { call, createAccount, createSpace, createTable, type Response, type World } from '../factories.js';
import { startTcpProxy, type TcpProxy } from '../tcp-proxy.js';
import { createTestDatabase, testEngine, type TestDatabase } from '../test-database.js';

/**
 * Issue 31, item 4: PostgreSQL, Redis and a space's S3 storage each stopped for a while (10 s by
 * default, TABULA_TEST_OUTAGE_MS) and started again while a mixed load runs (writes, reads,
 * queries, uploads). Each sits behind a TCP proxy (test/tcp-proxy.ts) whose stop resets every
 * connection and refuses new ones, as a stopped server does. While one is down, what needs it
 * answers 503 with Retry-After (never a 500, never a hang), what does not goes on being served
 * (records while S3 is down; everything while Redis is down, rate limits counted in each
 * process); afterwards every call succeeds again without a restart, and every acknowledged
 * write is there.
 */

const outageMs = Number(process.env.TABULA_TEST_OUTAGE_MS ?? 10_000);
/** Longest any call may take while a dependency is down: a refused connection answers at once, so this only catches a hang. */
const hangMs = 5_000;

type Op = 'create' | 'get' | 'query' | 'upload' | 'record on S3 space';
interface Outcome {
  op: Op;
  status: number;
  code?: string;
  message?: string;
  retryAfter?: string;
  ms: number;
}

describe(`dependencies stopped and started again under load (${testEngine})`, () => {
  let database: TestDatabase;
  let ctx: TestContext;
  let postgres: TcpProxy | null = null;
  let redis: TcpProxy;
  let s3: TcpProxy;
  let s3Peer: S3Peer;
  let world: World;
  let tableId: number;
  let s3TableId: number;
  let s3RecordId: number;
  /** Every create acknowledged with 200: id → name. */
  const acknowledged = new Map<number, string>();
  let serial = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    s3Peer = await startS3Peer();
    redis = await startTcpProxy({ host: '127.0.0.1', port: 6379 });
    s3 = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(s3Peer.endpoint).port) });
    let databaseUrl = database.databaseUrl;
    if (databaseUrl) {
      const url = new URL(databaseUrl);
      postgres = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
      url.port = String(postgres.port);
      databaseUrl = url.toString();
    }
    ctx = await buildSecondApp(
      { ...database, databaseUrl },
      { env: { REDIS_URL: `redis://127.0.0.1:${redis.port}`, TABULA_RATE_LIMIT_PER_MINUTE: '1000000', TABULA_FETCH_ALLOW_HOSTS: `127.0.0.1:${s3.port}` } },
    );
    world = await createAccount(ctx);
    const spaceId = (await createSpace(ctx, world, 'Managed')).id;
    tableId = (await createTable(ctx, world, spaceId, { name: 'Orders', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
    const storage = { kind: 's3', endpoint: `http://127.0.0.1:${s3.port}`, region: 'us-east-1', bucket: s3Peer.bucket, prefix: 'tabula', access_key_id: s3Peer.credentials.accessKeyId, secret_access_key: s3Peer.credentials.secretAccessKey };
    const s3Space = await call(ctx, 'POST', '/api/spaces/create', { key: world.accountKey, body: { name: 'On S3', storage } });
    expect(s3Space.status, JSON.stringify(s3Space.body)).toBe(200);
    s3TableId = (await createTable(ctx, world, s3Space.body.id, { name: 'Docs', fields: [{ id: 'name', name: 'Name', type: 'text' }, { id: 'docs', name: 'Docs', type: 'file' }] })).id;
    const first = await call(ctx, 'POST', `/api/table/${tableId}/records/create`, { key: world.accountKey, body: { data: { name: 'order 0' } } });
    acknowledged.set(first.body.id, 'order 0');
    s3RecordId = (await call(ctx, 'POST', `/api/table/${s3TableId}/records/create`, { key: world.accountKey, body: { data: { name: 'holder' } } })).body.id;
  }, 60_000);

  afterAll(async () => {
    await ctx?.close();
    await Promise.all([postgres?.close(), redis?.close(), s3?.close()]);
    await s3Peer?.close();
    await database?.drop();
  });

  const post = (url: string, body: unknown) => call(ctx, 'POST', url, { key: world.accountKey, body });
  const ids = () => [...acknowledged.keys()];

  /** One call of the mixed load. */
  async function once(op: Op): Promise<Outcome> {
    const started = performance.now();
    let response: Response;
    switch (op) {
      case 'create': {
        const name = `order ${(serial += 1)}`;
        response = await post(`/api/table/${tableId}/records/create`, { data: { name } });
        if (response.status === 200) acknowledged.set(response.body.id, name);
        break;
      }
      case 'get': {
        const known = ids();
        response = await call(ctx, 'GET', `/api/table/${tableId}/record/${known[Math.floor(Math.random() * known.length)] ?? 1}/get`, { key: world.accountKey });
        break;
      }
      case 'query':
        response = await post(`/api/table/${tableId}/records/query`, { limit: 20, order_by: 'id', order_dir: 'D' });
        break;
      case 'upload':
        // A new record with its file each time (a record holds at most 100 attachments).
        response = await post(`/api/table/${s3TableId}/records/create`, { data: { name: 'upload', docs: [{ name: `n${(serial += 1)}.txt`, data: Buffer.from('a few bytes').toString('base64') }] } });
        break;
      case 'record on S3 space':
        response = await call(ctx, 'GET', `/api/table/${s3TableId}/record/${s3RecordId}/get`, { key: world.accountKey });
        break;
    }
    const retryAfter = response.headers['retry-after'];
    return { op, status: response.status, code: response.body?.error?.code, message: response.body?.error?.message, retryAfter: retryAfter === undefined ? undefined : String(retryAfter), ms: performance.now() - started };
  }

  const ops: Op[] = ['create', 'get', 'query', 'upload', 'record on S3 space'];

  /** Four clients running every kind of call in turn for `ms`. */
  async function load(ms: number): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    const end = performance.now() + ms;
    await Promise.all(
      Array.from({ length: 4 }, async (_, client) => {
        for (let n = client; performance.now() < end; n += 1) {
          outcomes.push(await once(ops[n % ops.length]));
          // A client that only meets refusals does not spin.
          if (outcomes.at(-1)!.status !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }),
    );
    return outcomes;
  }

  /** Every kind of call succeeds again, within `withinMs` of the dependency's start (no restart of Tabula). */
  async function recovered(withinMs = 15_000): Promise<void> {
    const deadline = performance.now() + withinMs;
    const pending = new Set(ops);
    while (pending.size > 0) {
      for (const op of [...pending]) if ((await once(op)).status === 200) pending.delete(op);
      if (performance.now() > deadline) throw new Error(`not recovered ${withinMs} ms after the start: ${[...pending].join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const after = await load(1_000);
    expect(after.filter((outcome) => outcome.status !== 200)).toEqual([]);
  }

  /** Outcomes other than 200, as `op status code retry-after`, counted. */
  function refusals(outcomes: readonly Outcome[]): Record<string, number> {
    const counted: Record<string, number> = {};
    for (const { op, status, code, message, retryAfter } of outcomes) {
      if (status === 200) continue;
      const key = `${op} ${status} ${code} retry-after=${retryAfter ?? 'none'}${status < 500 ? ` (${message})` : ''}`;
      counted[key] = (counted[key] ?? 0) + 1;
    }
    return counted;
  }

  it('serves a mixed load before any outage', async () => {
    const outcomes = await load(1_000);
    expect(refusals(outcomes)).toEqual({});
    expect(acknowledged.size).toBeGreaterThan(0);
  });

  it.runIf(testEngine === 'postgres')('PostgreSQL stopped: 503 database_unavailable with Retry-After, at once; back by itself', async () => {
    await postgres!.stop();
    const during = await load(outageMs);
    await postgres!.start();
    expect(during.length).toBeGreaterThan(20);
    for (const outcome of during) {
      expect(outcome.ms, `${outcome.op} took ${outcome.ms} ms`).toBeLessThan(hangMs);
      if (outcome.status !== 200) expect(outcome, JSON.stringify(refusals(during))).toMatchObject({ status: 503, code: 'database_unavailable', retryAfter: '2' });
    }
    // Nothing that needs the database answered while it was down (after the connections broke).
    expect(during.filter((outcome) => outcome.status === 503).length).toBeGreaterThan(during.length / 2);
    await recovered();
  }, outageMs + 60_000);

  it('Redis stopped: every call is served (rate limits counted in this process meanwhile); back by itself', async () => {
    await redis.stop();
    const during = await load(outageMs);
    await redis.start();
    expect(refusals(during)).toEqual({});
    for (const outcome of during) expect(outcome.ms).toBeLessThan(hangMs);
    await recovered();
  }, outageMs + 60_000);

  it("S3 stopped: uploads to its space answer 503 storage_unavailable with Retry-After; records, even that space's, are served", async () => {
    await s3.stop();
    const during = await load(outageMs);
    await s3.start();
    const refused = during.filter((outcome) => outcome.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    for (const outcome of refused) expect(outcome, JSON.stringify(refusals(during))).toMatchObject({ op: 'upload', status: 503, code: 'storage_unavailable', retryAfter: '2' });
    for (const outcome of during) expect(outcome.ms).toBeLessThan(hangMs);
    await recovered();
  }, outageMs + 60_000);

  it('lost no acknowledged write', async () => {
    const answered = await post(`/api/table/${tableId}/records/ids`, {});
    expect(answered.status).toBe(200);
    const stored = new Set<number>(answered.body.ids ?? answered.body);
    const missing = ids().filter((id) => !stored.has(id));
    expect(missing).toEqual([]);
    for (const id of ids().slice(-50)) {
      const record = await call(ctx, 'GET', `/api/table/${tableId}/record/${id}/get`, { key: world.accountKey });
      expect(record.body.data.name).toBe(acknowledged.get(id));
    }
  });
});
