import { describe, expect, it } from 'vitest';
import { buildSecondApp, useTestApp } from '../build-test-app.js';
import { call } from '../factories.js';

describe('GET /readyz', () => {
  const lifecycle = { draining: false };
  const ctx = useTestApp({ lifecycle });

  it('answers 200 {"ready":true} without authentication when the database answers and every migration is applied', async () => {
    const response = await call(ctx, 'GET', '/readyz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ready: true });
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('answers 503 "draining" once the process is stopping, with Retry-After', async () => {
    lifecycle.draining = true;
    try {
      const response = await call(ctx, 'GET', '/readyz');
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.body).toEqual({ ready: false, reason: 'draining', message: expect.stringContaining('stopping') });
      expect((await call(ctx, 'GET', '/healthz')).status).toBe(200);
    } finally {
      lifecycle.draining = false;
    }
  });

  it('answers 503 "migrations_pending" naming a migration the database has not run', async () => {
    const db = ctx.container.database.db as any;
    const row = await db.selectFrom('kysely_migration').selectAll().where('name', '=', '0016-job-leases').executeTakeFirstOrThrow();
    await db.deleteFrom('kysely_migration').where('name', '=', '0016-job-leases').execute();
    try {
      const response = await call(ctx, 'GET', '/readyz');
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ ready: false, reason: 'migrations_pending', message: expect.stringContaining('0016-job-leases') });
    } finally {
      await db.insertInto('kysely_migration').values(row).execute();
    }
    expect((await call(ctx, 'GET', '/readyz')).status).toBe(200);
  });

  it('answers 503 "database_unavailable" when the database does not answer', async () => {
    const second = await buildSecondApp(ctx.database);
    try {
      await second.container.database.destroy();
      const response = await second.app.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ ready: false, reason: 'database_unavailable', message: expect.stringContaining('The database does not answer') });
    } finally {
      await second.app.close();
    }
  });
});
