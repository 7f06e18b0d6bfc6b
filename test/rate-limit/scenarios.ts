import { expect, it } from 'vitest';
import type { TestContext } from '../build-test-app.js';
import { call, createAccount, createKey, createUser, login, type Response } from '../factories.js';

/** The apps these scenarios run against are built with TABULA_RATE_LIMIT_PER_MINUTE=8. */
export const accountLimit = 8;
/** Personal keys and sessions: a quarter of the account's budget, per user. */
export const userLimit = 2;

export const rateLimitedBody = { error: { code: 'rate_limited', message: 'Rate limit exceeded' } };

function header(response: Response, name: string): string | undefined {
  const value = response.headers[name];
  return value === undefined ? undefined : String(value);
}

/** A whole number of seconds in 1..60, as a string of digits. */
function expectWholeSeconds(value: string | undefined): number {
  expect(value).toMatch(/^\d+$/);
  const seconds = Number(value);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(60);
  return seconds;
}

/** Checks Limit and Remaining exactly and Reset as whole seconds; returns Reset. */
export function expectRateLimitHeaders(response: Response, limit: number, remaining: number): number {
  expect({ status: response.status, limit: header(response, 'x-ratelimit-limit'), remaining: header(response, 'x-ratelimit-remaining') }).toEqual({
    status: response.status,
    limit: String(limit),
    remaining: String(remaining),
  });
  return expectWholeSeconds(header(response, 'x-ratelimit-reset'));
}

export function expectNoRateLimitHeaders(response: Response): void {
  expect(response.headers['x-ratelimit-limit']).toBeUndefined();
  expect(response.headers['x-ratelimit-remaining']).toBeUndefined();
  expect(response.headers['x-ratelimit-reset']).toBeUndefined();
  expect(response.headers['retry-after']).toBeUndefined();
}

/** A refused request: 429, the contract's body, Retry-After equal to Reset, Remaining 0. */
export function expectRateLimited(response: Response, limit: number): number {
  expect(response.status).toBe(429);
  expect(response.body).toEqual(rateLimitedBody);
  const retryAfter = expectWholeSeconds(header(response, 'retry-after'));
  const reset = expectRateLimitHeaders(response, limit, 0);
  expect(retryAfter).toBe(reset);
  return retryAfter;
}

export const listSpaces = (ctx: TestContext, options: { key?: string; cookie?: string }) => call(ctx, 'GET', '/api/spaces/list', options);

/**
 * The contract's rate-limit rules (§1, §5), whatever the store: every test works on its own
 * fresh account, so the buckets of one test never touch another's.
 */
export function defineRateLimitScenarios(context: () => TestContext): void {
  it('gives an account key exactly the limit, counting the current request in Remaining, then 429 with Retry-After', async () => {
    const ctx = context();
    const world = await createAccount(ctx);
    let previousReset = 60;
    for (let n = 1; n <= accountLimit; n += 1) {
      const response = await listSpaces(ctx, { key: world.accountKey });
      expect(response.status).toBe(200);
      const reset = expectRateLimitHeaders(response, accountLimit, accountLimit - n);
      expect(reset).toBeLessThanOrEqual(previousReset);
      previousReset = reset;
    }
    const refused = await listSpaces(ctx, { key: world.accountKey });
    expect(expectRateLimited(refused, accountLimit)).toBeLessThanOrEqual(previousReset);
    expectRateLimited(await listSpaces(ctx, { key: world.accountKey }), accountLimit);
  });

  it('counts every account key of one account in the account bucket and leaves other accounts alone', async () => {
    const ctx = context();
    const world = await createAccount(ctx);
    const second = await createKey(ctx, { accountId: world.accountId });
    const readOnly = await createKey(ctx, { accountId: world.accountId, readOnly: true });
    const keys = [world.accountKey, second.key, readOnly.key];
    for (let n = 1; n <= accountLimit; n += 1) {
      const response = await listSpaces(ctx, { key: keys[n % keys.length] });
      expect(response.status).toBe(200);
      expectRateLimitHeaders(response, accountLimit, accountLimit - n);
    }
    for (const key of keys) expectRateLimited(await listSpaces(ctx, { key }), accountLimit);

    const other = await createAccount(ctx);
    const response = await listSpaces(ctx, { key: other.accountKey });
    expect(response.status).toBe(200);
    expectRateLimitHeaders(response, accountLimit, accountLimit - 1);
  });

  it('gives personal keys a quarter of the limit per user, shared by all of that user\'s keys and sessions', async () => {
    const ctx = context();
    const world = await createAccount(ctx);
    const user = await createUser(ctx, world);
    const first = await createKey(ctx, { userId: user.id });
    const second = await createKey(ctx, { userId: user.id });
    const cookie = await login(ctx, user.email, 'user-password');

    const one = await listSpaces(ctx, { key: first.key });
    expect(one.status).toBe(200);
    expectRateLimitHeaders(one, userLimit, 1);
    const two = await listSpaces(ctx, { key: second.key });
    expect(two.status).toBe(200);
    expectRateLimitHeaders(two, userLimit, 0);
    expectRateLimited(await call(ctx, 'GET', '/api/auth/me', { cookie }), userLimit);
    expectRateLimited(await listSpaces(ctx, { key: first.key }), userLimit);
    expectRateLimited(await listSpaces(ctx, { key: second.key }), userLimit);

    // Another user of the same account has a bucket of their own; so does the account.
    const colleague = await createUser(ctx, world);
    const colleagueKey = await createKey(ctx, { userId: colleague.id });
    const colleagueResponse = await listSpaces(ctx, { key: colleagueKey.key });
    expect(colleagueResponse.status).toBe(200);
    expectRateLimitHeaders(colleagueResponse, userLimit, 1);
    const accountResponse = await listSpaces(ctx, { key: world.accountKey });
    expect(accountResponse.status).toBe(200);
    expectRateLimitHeaders(accountResponse, accountLimit, accountLimit - 1);
  });

  it('counts a session in its user\'s bucket, shared with that user\'s personal keys', async () => {
    const ctx = context();
    const world = await createAccount(ctx);
    const user = await createUser(ctx, world);
    const key = await createKey(ctx, { userId: user.id });
    const cookie = await login(ctx, user.email, 'user-password');

    const me = await call(ctx, 'GET', '/api/auth/me', { cookie });
    expect(me.status).toBe(200);
    expectRateLimitHeaders(me, userLimit, 1);
    const viaKey = await listSpaces(ctx, { key: key.key });
    expect(viaKey.status).toBe(200);
    expectRateLimitHeaders(viaKey, userLimit, 0);
    expectRateLimited(await listSpaces(ctx, { cookie }), userLimit);
  });

  it('does not count login and logout (public routes) and puts no rate-limit headers on them', async () => {
    const ctx = context();
    const world = await createAccount(ctx);
    const user = await createUser(ctx, world);
    for (let n = 0; n < 2 * userLimit + 1; n += 1) {
      const response = await ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: 'user-password' } });
      expect(response.statusCode).toBe(200);
      expectNoRateLimitHeaders({ status: response.statusCode, body: null, headers: response.headers });
    }
    const cookie = await login(ctx, user.email, 'user-password');
    const me = await call(ctx, 'GET', '/api/auth/me', { cookie });
    expect(me.status).toBe(200);
    expectRateLimitHeaders(me, userLimit, userLimit - 1);
    const logout = await call(ctx, 'POST', '/api/auth/logout', { cookie, body: {} });
    expect(logout.status).toBe(200);
    expectNoRateLimitHeaders(logout);
  });

  it('never limits /healthz and /api/openapi.json, and puts no rate-limit headers on them', async () => {
    const ctx = context();
    const world = await createAccount(ctx);
    for (let n = 0; n < accountLimit; n += 1) expect((await listSpaces(ctx, { key: world.accountKey })).status).toBe(200);
    expectRateLimited(await listSpaces(ctx, { key: world.accountKey }), accountLimit);

    for (let n = 0; n < 3 * accountLimit; n += 1) {
      const health = await call(ctx, 'GET', '/healthz', { key: n % 2 === 0 ? world.accountKey : undefined });
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ ok: true });
      expectNoRateLimitHeaders(health);
    }
    for (let n = 0; n < 3; n += 1) {
      const openapi = await call(ctx, 'GET', '/api/openapi.json', { key: world.accountKey });
      expect(openapi.status).toBe(200);
      expectNoRateLimitHeaders(openapi);
    }
  });

  it('does not count unauthenticated requests (401), which carry no rate-limit headers', async () => {
    const ctx = context();
    const world = await createAccount(ctx);
    const user = await createUser(ctx, world);
    const revokedAccountKey = await createKey(ctx, { accountId: world.accountId });
    const revokedPersonalKey = await createKey(ctx, { userId: user.id });
    await ctx.container.services.keys.revokeKey(revokedAccountKey.id);
    await ctx.container.services.keys.revokeKey(revokedPersonalKey.id);

    const refusals = [
      () => listSpaces(ctx, { key: revokedAccountKey.key }),
      () => listSpaces(ctx, { key: revokedPersonalKey.key }),
      () => listSpaces(ctx, {}),
      () => listSpaces(ctx, { key: 'tbl_not_a_real_key' }),
      () => listSpaces(ctx, { cookie: 'tabula_session=forged' }),
    ];
    for (let round = 0; round < 3 * accountLimit; round += 1) {
      const response = await refusals[round % refusals.length]();
      expect(response.status).toBe(401);
      expectNoRateLimitHeaders(response);
    }

    const accountResponse = await listSpaces(ctx, { key: world.accountKey });
    expect(accountResponse.status).toBe(200);
    expectRateLimitHeaders(accountResponse, accountLimit, accountLimit - 1);
    const personal = await createKey(ctx, { userId: user.id });
    const userResponse = await listSpaces(ctx, { key: personal.key });
    expect(userResponse.status).toBe(200);
    expectRateLimitHeaders(userResponse, userLimit, userLimit - 1);
  });

  it('counts authenticated requests that fail afterwards, and refuses a limited request before reading its body', async () => {
    const ctx = context();
    const world = await createAccount(ctx);
    const invalid = await call(ctx, 'POST', '/api/spaces/create', { key: world.accountKey, body: { nope: true } });
    expect(invalid.status).toBe(400);
    expectRateLimitHeaders(invalid, accountLimit, accountLimit - 1);
    const missing = await call(ctx, 'GET', '/api/space/999999/get', { key: world.accountKey });
    expect(missing.status).toBeGreaterThanOrEqual(400);
    expectRateLimitHeaders(missing, accountLimit, accountLimit - 2);
    for (let n = 3; n <= accountLimit; n += 1) expectRateLimitHeaders(await listSpaces(ctx, { key: world.accountKey }), accountLimit, accountLimit - n);

    // Over the limit a write is refused and not performed, even with a body that would fail.
    expectRateLimited(await call(ctx, 'POST', '/api/spaces/create', { key: world.accountKey, body: { name: 'Refused' } }), accountLimit);
    expectRateLimited(await call(ctx, 'POST', '/api/spaces/create', { key: world.accountKey, payload: '{not json', headers: { 'content-type': 'application/json' } }), accountLimit);
    const actor = await ctx.container.services.keys.authenticateKey(world.accountKey, '127.0.0.1');
    expect(await ctx.container.services.spaces.listSpaces(actor)).toEqual([]);
  });
}
