import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';
import { testEngine } from '../test-database.js';

/**
 * A real database failure under a running app, no mocks: the client gets the translated
 * error of db-errors.ts in the one error shape (a retryable 503), never a bare 500.
 */
describe(`database failures over HTTP (${testEngine})`, () => {
  let ctx: TestContext;
  let world: World;
  let tableId: number;

  beforeAll(async () => {
    ctx = await buildTestApp();
    world = await createAccount(ctx);
    const space = await createSpace(ctx, world, 'Failures');
    tableId = (await createTable(ctx, world, space.id, { name: 'Notes', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
  });

  afterAll(() => ctx?.close(), 60_000);

  const createRecord = () => call(ctx, 'POST', `/api/table/${tableId}/records/create`, { key: world.accountKey, body: { data: { name: 'x' } } });

  // SQLite waits 10 s (busy_timeout) for the lock before it gives up.
  it.runIf(testEngine === 'sqlite')('answers a write 503 database_busy with Retry-After while another process holds the write lock', { timeout: 60_000 }, async () => {
    expect((await createRecord()).status).toBe(200);
    const other = new SqliteDatabase(path.join(ctx.database.dataDir, 'tabula.db'));
    try {
      other.exec('begin immediate');
      const response = await createRecord();
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ error: { code: 'database_busy', message: 'Database busy: the request met a concurrent change and was not applied; try again' } });
      expect(response.headers['retry-after']).toBe('1');
    } finally {
      if (other.inTransaction) other.exec('rollback');
      other.close();
    }
    expect((await createRecord()).status).toBe(200);
    const count = await call(ctx, 'POST', `/api/table/${tableId}/records/count`, { key: world.accountKey, body: {} });
    expect(count.body).toMatchObject({ count: 2 });
  });

  it.runIf(testEngine === 'postgres')('answers 503 database_unavailable once the database is gone', async () => {
    expect((await createRecord()).status).toBe(200);
    // Drops the database under the app (its connections are terminated); close() tolerates it.
    await ctx.database.drop();
    for (const response of [await createRecord(), await call(ctx, 'GET', `/api/table/${tableId}/get`, { key: world.accountKey })]) {
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ error: { code: 'database_unavailable', message: 'Database unavailable; try again later' } });
    }
  });
});
