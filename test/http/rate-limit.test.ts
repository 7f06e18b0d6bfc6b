import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { createAccount } from '../factories.js';
import { accountLimit, defineRateLimitScenarios, expectRateLimited, expectRateLimitHeaders, listSpaces } from '../rate-limit/scenarios.js';

describe('rate limits with in-process counters', () => {
  const ctx = useTestApp({ env: { TABULA_RATE_LIMIT_PER_MINUTE: String(accountLimit) } });
  afterEach(() => {
    vi.useRealTimers();
  });

  defineRateLimitScenarios(() => ctx);

  it('reports whole seconds until the window resets, and starts a fresh window after a minute', async () => {
    const start = new Date('2030-01-01T00:00:00.000Z');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    const world = await createAccount(ctx);
    const at = (ms: number) => vi.setSystemTime(start.getTime() + ms);

    expect(expectRateLimitHeaders(await listSpaces(ctx, { key: world.accountKey }), accountLimit, 7)).toBe(60);
    at(500);
    expect(expectRateLimitHeaders(await listSpaces(ctx, { key: world.accountKey }), accountLimit, 6)).toBe(60); // 59.5 s, rounded up
    at(25_000);
    expect(expectRateLimitHeaders(await listSpaces(ctx, { key: world.accountKey }), accountLimit, 5)).toBe(35);
    for (let remaining = 4; remaining >= 0; remaining -= 1) expectRateLimitHeaders(await listSpaces(ctx, { key: world.accountKey }), accountLimit, remaining);
    at(40_200);
    expect(expectRateLimited(await listSpaces(ctx, { key: world.accountKey }), accountLimit)).toBe(20);
    at(59_999);
    expect(expectRateLimited(await listSpaces(ctx, { key: world.accountKey }), accountLimit)).toBe(1);

    at(60_000);
    const fresh = await listSpaces(ctx, { key: world.accountKey });
    expect(fresh.status).toBe(200);
    expect(expectRateLimitHeaders(fresh, accountLimit, accountLimit - 1)).toBe(60);
  });
});
