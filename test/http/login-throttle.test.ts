import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, useSecondApp, useTestApp } from '../build-test-app.js';
import { call, createAccount, type Response, type World } from '../factories.js';
import { closedPort, deleteRedisKeys, openRedis, redisUrl, uniqueRedisPrefix } from '../rate-limit/redis.js';

const rateLimited = { error: { code: 'rate_limited', message: 'Rate limit exceeded' } };

function attempt(ctx: TestContext, email: string, password: string, remoteAddress: string, headers: Record<string, string> = {}): Promise<Response> {
  return call(ctx, 'POST', '/api/auth/login', { body: { email, password }, remoteAddress, headers });
}

/** `count` wrong passwords for `email` from `remoteAddress`; their statuses. */
async function guess(ctx: TestContext, email: string, remoteAddress: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let n = 0; n < count; n += 1) statuses.push((await attempt(ctx, email, 'wrong-password', remoteAddress)).status);
  return statuses;
}

const repeat = (status: number, times: number) => Array<number>(times).fill(status);

function expectRefused(response: Response, maxRetryAfter: number): void {
  expect(response.status).toBe(429);
  expect(response.body).toEqual(rateLimited);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxRetryAfter);
}

describe('login throttling', () => {
  const ctx = useTestApp();

  it('allows ten attempts per email and address a minute, then answers 429 with Retry-After even for the right password', async () => {
    const world = await createAccount(ctx);
    expect(await guess(ctx, world.ownerEmail, '203.0.113.9', 10)).toEqual(repeat(401, 10));
    expectRefused(await attempt(ctx, world.ownerEmail.toUpperCase(), world.ownerPassword, '203.0.113.9'), 60);
  });

  it('does not let an attacker hammering someone’s email from another address lock them out', async () => {
    const world = await createAccount(ctx);
    const statuses = await guess(ctx, world.ownerEmail, '198.51.100.66', 40);
    expect(statuses).toEqual([...repeat(401, 10), ...repeat(429, 30)]);
    expect((await attempt(ctx, world.ownerEmail, 'a-typo', '192.0.2.10')).status, 'the user’s own typo').toBe(401);
    const login = await attempt(ctx, world.ownerEmail, world.ownerPassword, '192.0.2.10');
    expect(login.status).toBe(200);
    expect(login.body.user.email).toBe(world.ownerEmail);
  });

  it('allows thirty attempts per address a minute across emails', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 31; n += 1) statuses.push((await attempt(ctx, `nobody${n}@example.com`, 'x', '10.1.2.3')).status);
    expect(statuses).toEqual([...repeat(401, 30), 429]);
  });

  it('past 120 attempts from many addresses in ten minutes, refuses new addresses for that email but not one the user logged in from', async () => {
    const world = await createAccount(ctx);
    const usual = '192.0.2.20';
    expect((await attempt(ctx, world.ownerEmail, world.ownerPassword, usual)).status).toBe(200); // counted: 1
    const statuses: number[] = [];
    for (let n = 1; n <= 12; n += 1) statuses.push(...(await guess(ctx, world.ownerEmail, `198.51.100.${n}`, 10)));
    expect(statuses).toEqual([...repeat(401, 119), 429]);
    expectRefused(await attempt(ctx, world.ownerEmail, world.ownerPassword, '192.0.2.30'), 600);
    expect((await attempt(ctx, world.ownerEmail, world.ownerPassword, usual)).status, 'the user’s usual address').toBe(200);
    const other = await createAccount(ctx);
    expect((await attempt(ctx, other.ownerEmail, other.ownerPassword, '192.0.2.30')).status, 'another email from the new address').toBe(200);
  });

  it('counts IPv6 clients by their /64, and IPv4 clients the same whether or not mapped into IPv6', async () => {
    const world = await createAccount(ctx);
    for (let n = 1; n <= 10; n += 1) expect((await attempt(ctx, world.ownerEmail, 'wrong', `2001:db8:1:2::${n.toString(16)}`)).status).toBe(401);
    expectRefused(await attempt(ctx, world.ownerEmail, world.ownerPassword, '2001:db8:1:2:ffff:ffff:ffff:ffff'), 60);
    expect((await attempt(ctx, world.ownerEmail, world.ownerPassword, '2001:db8:1:3::1')).status, 'the next /64').toBe(200);

    const mapped = await createAccount(ctx);
    expect(await guess(ctx, mapped.ownerEmail, '::ffff:203.0.113.50', 10)).toEqual(repeat(401, 10));
    expectRefused(await attempt(ctx, mapped.ownerEmail, mapped.ownerPassword, '203.0.113.50'), 60);
  });
});

describe('login throttling behind a trusted proxy', () => {
  const proxy = '10.0.0.1';
  const ctx = useTestApp({ env: { TABULA_TRUST_PROXY: proxy } });
  let world: World;
  beforeAll(async () => {
    world = await createAccount(ctx);
  });

  it('counts the client named by the proxy, and ignores X-Forwarded-For from anyone else', async () => {
    const viaProxy = (client: string, password: string) => attempt(ctx, world.ownerEmail, password, proxy, { 'x-forwarded-for': client });
    for (let n = 0; n < 10; n += 1) expect((await viaProxy('198.51.100.7', 'wrong')).status).toBe(401);
    expectRefused(await viaProxy('198.51.100.7', world.ownerPassword), 60);
    expect((await viaProxy('192.0.2.44', world.ownerPassword)).status, 'the user, through the same proxy').toBe(200);

    // A client talking to the server directly cannot pose as a new address each time.
    const direct = (n: number) => attempt(ctx, world.ownerEmail, 'wrong', '198.51.100.8', { 'x-forwarded-for': `192.0.2.${100 + n}` });
    const statuses: number[] = [];
    for (let n = 0; n < 11; n += 1) statuses.push((await direct(n)).status);
    expect(statuses).toEqual([...repeat(401, 10), 429]);
  });
});

describe('login throttling with Redis: counters and known addresses shared by every process', () => {
  let redis: Redis;
  const prefix = uniqueRedisPrefix();
  beforeAll(() => {
    redis = openRedis();
  });
  afterAll(async () => {
    await deleteRedisKeys(redis, prefix);
    redis.disconnect();
  });
  // Closed in reverse order (second, then first) before the keys above are deleted.
  const first = useTestApp({ env: { REDIS_URL: redisUrl }, redisPrefix: prefix });
  const second = useSecondApp(first, { env: { REDIS_URL: redisUrl }, redisPrefix: prefix });

  it('limits an email and address across processes', async () => {
    const world = await createAccount(first);
    expect(await guess(first, world.ownerEmail, '203.0.113.70', 10)).toEqual(repeat(401, 10));
    expectRefused(await attempt(second, world.ownerEmail, world.ownerPassword, '203.0.113.70'), 60);
    expect((await attempt(second, world.ownerEmail, world.ownerPassword, '203.0.113.71')).status).toBe(200);
  });

  it('remembers for 30 days, in Redis, the addresses a user logged in from', async () => {
    const world = await createAccount(first);
    const usual = '192.0.2.60';
    expect((await attempt(first, world.ownerEmail, world.ownerPassword, usual)).status).toBe(200);
    const ttl = await redis.pttl(`${prefix}remember:login-known:${usual}|${world.ownerEmail}`);
    expect(ttl).toBeGreaterThan(29 * 24 * 3600 * 1000);
    expect(ttl).toBeLessThanOrEqual(30 * 24 * 3600 * 1000);

    for (let n = 1; n <= 12; n += 1) await guess(n % 2 ? first : second, world.ownerEmail, `198.51.100.${100 + n}`, 10);
    expectRefused(await attempt(first, world.ownerEmail, world.ownerPassword, '192.0.2.61'), 600);
    expect((await attempt(second, world.ownerEmail, world.ownerPassword, usual)).status).toBe(200);
  });
});

describe('login throttling while Redis is unreachable', () => {
  const ctx = useTestApp(async () => ({ env: { REDIS_URL: `redis://127.0.0.1:${await closedPort()}` } }));

  it('keeps answering and counting in this process, successful logins included', async () => {
    const world = await createAccount(ctx);
    expect((await attempt(ctx, world.ownerEmail, world.ownerPassword, '192.0.2.80')).status).toBe(200);
    expect(await guess(ctx, world.ownerEmail, '203.0.113.80', 10)).toEqual(repeat(401, 10));
    expectRefused(await attempt(ctx, world.ownerEmail, world.ownerPassword, '203.0.113.80'), 60);
    expect((await attempt(ctx, world.ownerEmail, world.ownerPassword, '192.0.2.80')).status).toBe(200);
  });
});
