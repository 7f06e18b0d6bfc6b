import { describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call } from '../factories.js';

describe('health and discovery', () => {
  const ctx = useTestApp();

  it('answers /healthz without authentication', async () => {
    const response = await call(ctx, 'GET', '/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true });
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('serves the OpenAPI document generated from the route schemas', async () => {
    const response = await call(ctx, 'GET', '/api/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toMatch(/^3\./);
    expect(Object.keys(response.body.paths)).toContain('/api/spaces/list');
  });

  it('answers unknown routes with a JSON 404', async () => {
    const response = await call(ctx, 'GET', '/api/nothing/here');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: { code: 'not_found', message: 'Not found' } });
  });
});
