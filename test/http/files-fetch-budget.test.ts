import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';

/**
 * A URL source descriptor is fetched within one time budget (TABULA_FETCH_TIMEOUT, 15 s by
 * default; 1 s here): a server sending one byte a second is cut once, and the write is not run
 * again with a fresh budget (records.service runs a call again only on stale metadata).
 */
describe('the URL fetch budget', () => {
  let port = 0;
  let connections = 0;
  const sockets = new Set<net.Socket>();
  // Headers at once, then one byte a second for ever.
  const server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n');
    const timer = setInterval(() => socket.write('x'), 1000);
    socket.on('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
    });
  });
  const ctx = useTestApp(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
    return { env: { TABULA_FETCH_ALLOW_HOSTS: `127.0.0.1:${port}`, TABULA_FETCH_TIMEOUT: '1s' } };
  });
  let world: World;
  let tableId: number;

  beforeAll(async () => {
    world = await createAccount(ctx);
    const spaceId = (await createSpace(ctx, world, 'Slow')).id;
    tableId = (await createTable(ctx, world, spaceId, { name: 'T', fields: [{ id: 'docs', name: 'Docs', type: 'file' }] })).id;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('cuts a 1-byte/s server at the configured budget, fetching it once for the whole write', async () => {
    connections = 0;
    const url = `http://127.0.0.1:${port}/slow.txt`;
    const response = await call(ctx, 'POST', `/api/table/${tableId}/records/create`, { key: world.accountKey, body: { data: { docs: [{ url }] } } });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 400,
      body: { error: { code: 'invalid_field_value', message: `Invalid value for field docs: item 0: Invalid file source: ${url} timed out after 1 s` } },
    });
    expect(connections).toBe(1);
    expect((await call(ctx, 'POST', `/api/table/${tableId}/records/count`, { key: world.accountKey, body: {} })).body.count).toBe(0);
  });

  it('the same through a record update and update_batch: one fetch each', async () => {
    const record = (await call(ctx, 'POST', `/api/table/${tableId}/records/create`, { key: world.accountKey, body: { data: {} } })).body;
    const url = `http://127.0.0.1:${port}/slow-again.txt`;
    connections = 0;
    const updated = await call(ctx, 'POST', `/api/table/${tableId}/record/${record.id}/update`, { key: world.accountKey, body: { data: { docs: [{ url }] } } });
    expect(updated.status).toBe(400);
    expect(connections).toBe(1);
    connections = 0;
    const batch = await call(ctx, 'POST', `/api/table/${tableId}/records/update_batch`, { key: world.accountKey, body: { records: [{ id: record.id, data: { docs: [{ url }] } }] } });
    expect(batch.status).toBe(400);
    expect(batch.body.error.message).toContain('timed out after 1 s');
    expect(connections).toBe(1);
  });
});
