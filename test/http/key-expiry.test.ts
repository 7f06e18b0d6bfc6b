import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createKey, createSpace, createTable, type World } from '../factories.js';

const invalidApiKey = { status: 401, body: { error: { code: 'invalid_api_key', message: 'Invalid API key' } } };

/** Keys with an expiry, and the last use recorded at most once a minute per key. */
describe('API key expiry and last use', () => {
  let nowMs = Date.parse('2024-05-01T10:00:00Z');
  const ctx = useTestApp({ clock: { now: () => new Date(nowMs) } });
  let world: World;
  let tableId: number;

  beforeAll(async () => {
    world = await createAccount(ctx);
    const space = await createSpace(ctx, world, 'Expiry');
    tableId = (await createTable(ctx, world, space.id, { name: 'T', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
  });

  const listed = async (id: number) => (await ctx.container.services.keys.listKeys()).find((key) => key.id === id)!;

  it('a key works until its expiry, then answers 401 Invalid API key like a revoked one, on cached record routes too', async () => {
    const key = await createKey(ctx, { accountId: world.accountId, expiresAt: new Date('2024-05-01T11:00:00Z') });
    expect((await listed(key.id)).expires_at).toBe('2024-05-01 11:00:00');
    expect((await call(ctx, 'GET', '/api/spaces/list', { key: key.key })).status).toBe(200);
    // Records calls take the key from the per-process cache: the expiry is checked there too.
    expect((await call(ctx, 'POST', `/api/table/${tableId}/records/query`, { key: key.key, body: {} })).status).toBe(200);
    expect((await call(ctx, 'POST', `/api/table/${tableId}/records/query`, { key: key.key, body: {} })).status).toBe(200);

    nowMs = Date.parse('2024-05-01T10:59:59Z');
    expect((await call(ctx, 'POST', `/api/table/${tableId}/records/query`, { key: key.key, body: {} })).status).toBe(200);
    nowMs = Date.parse('2024-05-01T11:00:00Z');
    expect(await call(ctx, 'POST', `/api/table/${tableId}/records/query`, { key: key.key, body: {} })).toMatchObject(invalidApiKey);
    expect(await call(ctx, 'GET', '/api/spaces/list', { key: key.key })).toMatchObject(invalidApiKey);
    expect(await call(ctx, 'GET', '/api/auth/me', { key: key.key })).toMatchObject(invalidApiKey);
    // A key without an expiry goes on working.
    expect((await call(ctx, 'GET', '/api/spaces/list', { key: world.accountKey })).status).toBe(200);
  });

  it('refuses an expiry that is not in the future and creates nothing', async () => {
    const before = (await ctx.container.services.keys.listKeys()).length;
    await expect(createKey(ctx, { accountId: world.accountId, expiresAt: new Date(nowMs) })).rejects.toThrow(/^Invalid expiry: 2024-05-01 11:00:00 is not in the future$/);
    expect(await ctx.container.services.keys.listKeys()).toHaveLength(before);
  });

  it('records the last use at most once a minute per key', async () => {
    nowMs = Date.parse('2024-06-01T08:00:00Z');
    const key = await createKey(ctx, { accountId: world.accountId });
    expect((await listed(key.id)).last_used_at).toBeNull();

    expect((await call(ctx, 'GET', '/api/spaces/list', { key: key.key })).status).toBe(200);
    await vi.waitFor(async () => expect((await listed(key.id)).last_used_at).toBe('2024-06-01 08:00:00'));

    nowMs += 59_000;
    expect((await call(ctx, 'POST', `/api/table/${tableId}/records/query`, { key: key.key, body: {} })).status).toBe(200);
    expect((await call(ctx, 'GET', '/api/spaces/list', { key: key.key })).status).toBe(200);
    // Give a write that should not happen the time to land, then check it did not.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await listed(key.id)).last_used_at).toBe('2024-06-01 08:00:00');

    nowMs += 1_000;
    expect((await call(ctx, 'POST', `/api/table/${tableId}/records/query`, { key: key.key, body: {} })).status).toBe(200);
    await vi.waitFor(async () => expect((await listed(key.id)).last_used_at).toBe('2024-06-01 08:01:00'));
  });

  it('recording a use does not touch the metadata version (no cache is emptied by it)', async () => {
    nowMs += 3_600_000;
    const versionOf = async () => Number((await ctx.container.database.db.selectFrom('metadata_version').select('version').executeTakeFirstOrThrow()).version);
    const before = await versionOf();
    const key = await createKey(ctx, { accountId: world.accountId });
    const afterCreate = await versionOf();
    expect(afterCreate).toBeGreaterThan(before);
    expect((await call(ctx, 'GET', '/api/spaces/list', { key: key.key })).status).toBe(200);
    await vi.waitFor(async () => expect((await listed(key.id)).last_used_at).not.toBeNull());
    expect(await versionOf()).toBe(afterCreate);
  });
});
