import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../build-test-app.js';
import { call, createAccount, type World } from '../factories.js';

describe('login throttling', () => {
  let ctx: TestContext;
  let world: World;
  beforeAll(async () => {
    ctx = await buildTestApp();
    world = await createAccount(ctx);
  });
  afterAll(() => ctx.close());

  it('allows ten attempts per email a minute, then answers 429 with Retry-After even for the right password', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const response = await call(ctx, 'POST', '/api/auth/login', { body: { email: world.ownerEmail, password: 'wrong-password' }, remoteAddress: `127.0.0.${attempt + 1}` });
      expect(response.status).toBe(401);
    }
    const blocked = await call(ctx, 'POST', '/api/auth/login', { body: { email: world.ownerEmail.toUpperCase(), password: world.ownerPassword }, remoteAddress: '127.0.0.99' });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ error: { code: 'rate_limited', message: 'Rate limit exceeded' } });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('allows thirty attempts per address a minute across emails', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 31; attempt += 1) {
      const response = await call(ctx, 'POST', '/api/auth/login', { body: { email: `nobody${attempt}@example.com`, password: 'x' }, remoteAddress: '10.1.2.3' });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
