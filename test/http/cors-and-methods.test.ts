import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { createAccount, type World } from '../factories.js';
import { loadConfig } from '../../src/config.js';

const allowedOrigin = 'https://app.example.com';

describe('a known path asked with the wrong method', () => {
  const ctx = useTestApp();

  it.each([
    ['DELETE', '/api/spaces/list', 'GET, HEAD'],
    ['POST', '/api/spaces/list', 'GET, HEAD'],
    ['GET', '/api/spaces/create', 'POST'],
    ['PUT', '/api/table/7/record/3/update', 'POST'],
    ['OPTIONS', '/api/auth/login', 'POST'],
    ['POST', '/healthz?x=1', 'GET, HEAD'],
  ] as const)('%s %s answers 405 with Allow: %s, before any authentication', async (method, url, allow) => {
    const response = await ctx.app.inject({ method, url });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe(allow);
    expect(response.json()).toEqual({ error: { code: 'method_not_allowed', message: `Method ${method} not allowed; this path takes ${allow}` } });
  });

  it('an unknown path stays 404 Not found, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE', 'OPTIONS'] as const) {
      const response = await ctx.app.inject({ method, url: '/api/nothing/here' });
      expect(response.statusCode, method).toBe(404);
      expect(response.headers.allow).toBeUndefined();
      expect(response.json()).toEqual({ error: { code: 'not_found', message: 'Not found' } });
    }
  });

  it('without TABULA_CORS_ORIGINS no response carries a CORS header', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/healthz', headers: { origin: allowedOrigin } });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await ctx.app.inject({ method: 'OPTIONS', url: '/api/spaces/list', headers: { origin: allowedOrigin, 'access-control-request-method': 'GET' } });
    expect(preflight.statusCode).toBe(405);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS with TABULA_CORS_ORIGINS', () => {
  const ctx = useTestApp({ env: { TABULA_CORS_ORIGINS: `${allowedOrigin}, http://localhost:5173` } });
  let world: World;
  beforeAll(async () => {
    world = await createAccount(ctx);
  });

  const preflight = (origin: string | undefined, url = '/api/spaces/create') =>
    ctx.app.inject({
      method: 'OPTIONS',
      url,
      headers: { ...(origin ? { origin } : {}), 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });

  it('answers the preflight of a listed origin with 204, without a key, naming methods, headers and credentials', async () => {
    for (const origin of [allowedOrigin, 'http://localhost:5173']) {
      const response = await preflight(origin);
      expect(response.statusCode, origin).toBe(204);
      expect(response.headers).toMatchObject({
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': 'GET, HEAD, POST',
        'access-control-allow-headers': 'Authorization, Content-Type, X-Tabula-Request',
        'access-control-max-age': '600',
      });
      expect(response.headers.vary).toMatch(/Origin/);
      expect(response.body).toBe('');
    }
  });

  it('gives an unlisted origin, or a request without one, no CORS header: its preflight is an ordinary OPTIONS (405)', async () => {
    for (const origin of ['https://evil.example.com', 'https://app.example.com.evil.test', 'http://app.example.com', undefined]) {
      const response = await preflight(origin);
      expect(response.statusCode, String(origin)).toBe(405);
      expect(response.headers['access-control-allow-origin'], String(origin)).toBeUndefined();
      expect(response.headers['access-control-allow-credentials'], String(origin)).toBeUndefined();
    }
    expect((await preflight('https://evil.example.com', '/api/nothing')).statusCode).toBe(404);
  });

  it('adds the CORS headers to real answers of a listed origin, errors included, and exposes the rate-limit headers', async () => {
    const ok = await ctx.app.inject({ method: 'GET', url: '/api/spaces/list', headers: { origin: allowedOrigin, authorization: `Bearer ${world.accountKey}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers).toMatchObject({ 'access-control-allow-origin': allowedOrigin, 'access-control-allow-credentials': 'true' });
    expect(ok.headers['access-control-expose-headers']).toContain('X-RateLimit-Remaining');
    expect(ok.headers['access-control-expose-headers']).toContain('Retry-After');

    const unauthorized = await ctx.app.inject({ method: 'GET', url: '/api/spaces/list', headers: { origin: allowedOrigin } });
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.headers['access-control-allow-origin']).toBe(allowedOrigin);

    const elsewhere = await ctx.app.inject({ method: 'GET', url: '/api/spaces/list', headers: { origin: 'https://evil.example.com', authorization: `Bearer ${world.accountKey}` } });
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a wrong method from a listed origin is still 405 with Allow', async () => {
    const response = await ctx.app.inject({ method: 'DELETE', url: '/api/spaces/list', headers: { origin: allowedOrigin } });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(response.headers['access-control-allow-origin']).toBe(allowedOrigin);
  });
});

describe('TABULA_CORS_ORIGINS', () => {
  it('is empty (CORS off) by default and keeps the listed origins', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ TABULA_CORS_ORIGINS: 'https://a.example.com, http://localhost:3000' }).corsOrigins).toEqual(['https://a.example.com', 'http://localhost:3000']);
  });

  it.each(['*', 'https://a.example.com/', 'https://a.example.com/app', 'a.example.com', 'https://A.example.com', 'https://a.example.com:443', 'ftp://a.example.com', 'null'])('refuses %j, naming it', (entry) => {
    expect(() => loadConfig({ TABULA_CORS_ORIGINS: `https://ok.example.com,${entry}` })).toThrow(
      `TABULA_CORS_ORIGINS must list exact origins such as https://app.example.com (scheme, host and port only; no *, path or trailing slash), got "${entry}"`,
    );
  });
});
