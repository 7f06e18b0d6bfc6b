import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../build-test-app.js';
import { createAccount } from '../factories.js';
import { answersAtAll } from '../hang.js';
import { closedPort, deleteRedisKeys, openRedis, RedisProxy, redisKeys, redisUrl, uniqueRedisPrefix, waitFor } from '../rate-limit/redis.js';
import { accountLimit, defineRateLimitScenarios, expectRateLimited, expectRateLimitHeaders, listSpaces } from '../rate-limit/scenarios.js';
import { buildServer, runCli, serverEnv, startServer, type ServerProcess } from '../rate-limit/server-process.js';
import { createTestDatabase, type TestDatabase } from '../test-database.js';

let redis: Redis;
const prefixes: string[] = [];
function newPrefix(): string {
  const prefix = uniqueRedisPrefix();
  prefixes.push(prefix);
  return prefix;
}

beforeAll(() => {
  redis = openRedis();
});
afterAll(async () => {
  for (const prefix of prefixes) await deleteRedisKeys(redis, prefix);
  redis.disconnect();
});

describe('rate limits with Redis counters (in-process app)', () => {
  const prefix = newPrefix();
  const ctx = useTestApp({ env: { TABULA_RATE_LIMIT_PER_MINUTE: String(accountLimit), REDIS_URL: redisUrl }, redisPrefix: prefix });

  it('keeps the counters in Redis under the configured prefix, with the window as expiry', async () => {
    const world = await createAccount(ctx);
    expectRateLimitHeaders(await listSpaces(ctx, { key: world.accountKey }), accountLimit, accountLimit - 1);
    expectRateLimitHeaders(await listSpaces(ctx, { key: world.accountKey }), accountLimit, accountLimit - 2);
    const key = `${prefix}account:${world.accountId}`;
    expect(await redis.get(key)).toBe('2');
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('repairs a counter that lost its expiry instead of locking the bucket for good', async () => {
    const world = await createAccount(ctx);
    const key = `${prefix}account:${world.accountId}`;
    await redis.set(key, '1000');
    const response = await listSpaces(ctx, { key: world.accountKey });
    expect(response.status).toBe(200);
    expectRateLimitHeaders(response, accountLimit, accountLimit - 1);
    expect(await redis.pttl(key)).toBeGreaterThan(50_000);
  });

  defineRateLimitScenarios(() => ctx);
});

describe('rate limits when Redis is unavailable (decision: count in each process, keep serving)', () => {
  it('starts and serves with REDIS_URL on a closed port, still enforcing the limit per process, without waiting on Redis', async () => {
    const port = await closedPort();
    const ctx = await answersAtAll(
      buildTestApp({ env: { TABULA_RATE_LIMIT_PER_MINUTE: String(accountLimit), REDIS_URL: `redis://127.0.0.1:${port}` }, redisPrefix: newPrefix() }),
      'startup with Redis unreachable',
    );
    try {
      const world = await createAccount(ctx);
      for (let n = 1; n <= accountLimit; n += 1) {
        // Requests are never queued for Redis: each answers, counted in the process.
        const response = await answersAtAll(listSpaces(ctx, { key: world.accountKey }), `request ${n} with Redis unreachable`);
        expect(response.status).toBe(200);
        expectRateLimitHeaders(response, accountLimit, accountLimit - n);
      }
      expectRateLimited(await listSpaces(ctx, { key: world.accountKey }), accountLimit);
    } finally {
      await ctx.close();
    }
  });

  it('falls back to local counters during an outage and shares counters again once Redis is back', async () => {
    const proxy = new RedisProxy();
    await proxy.start();
    const prefix = newPrefix();
    const ctx = await buildTestApp({ env: { TABULA_RATE_LIMIT_PER_MINUTE: String(accountLimit), REDIS_URL: proxy.url }, redisPrefix: prefix });
    try {
      const world = await createAccount(ctx);
      const key = `${prefix}account:${world.accountId}`;
      expectRateLimitHeaders(await listSpaces(ctx, { key: world.accountKey }), accountLimit, 7);
      expectRateLimitHeaders(await listSpaces(ctx, { key: world.accountKey }), accountLimit, 6);
      expect(await redis.get(key)).toBe('2');

      await proxy.stop();
      // Wait until the app's connection has noticed: a request then goes to the local counters.
      await waitFor('the outage to be noticed', async () => (await listSpaces(ctx, { key: world.accountKey })).headers['x-ratelimit-remaining'] === String(accountLimit - 1), 5000);
      for (let n = 2; n <= accountLimit; n += 1) {
        const response = await listSpaces(ctx, { key: world.accountKey });
        expect(response.status).toBe(200);
        expectRateLimitHeaders(response, accountLimit, accountLimit - n);
      }
      expectRateLimited(await listSpaces(ctx, { key: world.accountKey }), accountLimit);
      expect(await redis.get(key)).toBe('2');

      await proxy.start();
      await waitFor('Redis counting again', async () => (await listSpaces(ctx, { key: world.accountKey })).status === 200, 10_000);
      // The shared counter picked up where it was: 2 before the outage, +1 for the request that found Redis back.
      expect(await redis.get(key)).toBe('3');
      expectRateLimitHeaders(await listSpaces(ctx, { key: world.accountKey }), accountLimit, accountLimit - 4);
      expect(await redis.get(key)).toBe('4');
    } finally {
      await proxy.stop(); // first: a quit sent through a hung proxy would never be answered
      await ctx.close();
    }
  });

  it('waits at most one command timeout on a Redis that stopped answering, then counts locally', async () => {
    const proxy = new RedisProxy();
    await proxy.start();
    const prefix = newPrefix();
    const ctx = await buildTestApp({ env: { TABULA_RATE_LIMIT_PER_MINUTE: String(accountLimit), REDIS_URL: proxy.url }, redisPrefix: prefix });
    try {
      const world = await createAccount(ctx);
      const key = `${prefix}account:${world.accountId}`;
      expectRateLimitHeaders(await listSpaces(ctx, { key: world.accountKey }), accountLimit, 7);

      proxy.hang();
      // The command timeout gives up on the held command: the request answers, counted in the process.
      const stalled = await answersAtAll(listSpaces(ctx, { key: world.accountKey }), 'a request while Redis holds its commands');
      expect(stalled.status).toBe(200);
      expectRateLimitHeaders(stalled, accountLimit, 7); // counted in the process
      expect(proxy.heldCommands(), 'the one command sent to the stalled Redis').toEqual([expect.stringMatching(/^eval/)]);
      expectRateLimitHeaders(await listSpaces(ctx, { key: world.accountKey }), accountLimit, 6);
      // No second wait: Redis is skipped for a moment, so the next request sent it nothing.
      expect(proxy.heldCommands(), 'commands sent to the stalled Redis').toHaveLength(1);

      proxy.resume();
      await waitFor('the held command to reach Redis', async () => (await redis.get(key)) === '2', 5000);
    } finally {
      await proxy.stop(); // first: a quit sent through a hung proxy would never be answered
      await ctx.close();
    }
  });
});

describe('rate limits shared by two server processes through Redis', () => {
  let build: Awaited<ReturnType<typeof buildServer>> | undefined;
  let database: TestDatabase | undefined;
  const servers: ServerProcess[] = [];
  let apiKey: string;
  let accountId: number;
  const baseEnv = () => serverEnv({ DATABASE_URL: database?.databaseUrl ?? undefined, TABULA_SECRET: 'rate-limit-test-secret', LOG_LEVEL: 'warn' });

  beforeAll(async () => {
    build = await buildServer();
    database = await createTestDatabase();
    const init = await runCli(build.main, ['init', '--email', 'rate-limit@example.com', '--password', 'pw-123456789', '--json', '--data', database.dataDir], baseEnv());
    const created = JSON.parse(init) as { api_key: string; account_id: number };
    apiKey = created.api_key;
    accountId = created.account_id;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
    build?.remove();
  });

  async function serve(env: Record<string, string>): Promise<ServerProcess> {
    const server = await startServer(build!.main, ['--data', database!.dataDir], { ...baseEnv(), ...env });
    servers.push(server);
    return server;
  }

  async function get(server: ServerProcess) {
    const response = await fetch(`${server.url}/api/spaces/list`, { headers: { authorization: `Bearer ${apiKey}` } });
    const headers = Object.fromEntries(response.headers.entries());
    return { status: response.status, body: (await response.json()) as unknown, headers };
  }

  it('allows exactly the limit across both processes together, then both answer 429', async () => {
    const prefix = newPrefix();
    const env = { REDIS_URL: redisUrl, TABULA_RATE_LIMIT_PER_MINUTE: '10', TABULA_REDIS_PREFIX: prefix };
    const [first, second] = await Promise.all([serve(env), serve(env)]);
    expect(first.url).not.toBe(second.url);

    for (let n = 1; n <= 10; n += 1) {
      const response = await get(n % 2 === 1 ? first : second);
      expect(response.status, `request ${n}`).toBe(200);
      expectRateLimitHeaders(response, 10, 10 - n);
    }
    for (const server of [first, second, first, second]) expectRateLimited(await get(server), 10);

    // The counter lives under the prefix taken from TABULA_REDIS_PREFIX: one key, 14 requests seen.
    expect(await redisKeys(redis, prefix)).toEqual([`${prefix}account:${accountId}`]);
    expect(await redis.get(`${prefix}account:${accountId}`)).toBe('14');
    await Promise.all([first.stop(), second.stop()]);
  });

  it('serves with REDIS_URL on a closed port, limiting in the process itself, and logs the outage once', async () => {
    const port = await closedPort();
    const server = await serve({ REDIS_URL: `redis://127.0.0.1:${port}`, TABULA_RATE_LIMIT_PER_MINUTE: '3', TABULA_REDIS_PREFIX: newPrefix() });
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    for (let n = 1; n <= 3; n += 1) {
      const response = await get(server);
      expect(response.status).toBe(200);
      expectRateLimitHeaders(response, 3, 3 - n);
    }
    expectRateLimited(await get(server), 3);
    expectRateLimited(await get(server), 3);
    expect(server.output().match(/Redis unavailable/g)).toHaveLength(1);
    await server.stop();
  });
});
