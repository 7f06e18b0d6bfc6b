import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSecondApp, buildTestApp, type TestContext } from '../build-test-app.js';
import { createAccount, createSpace, createTable, type World } from '../factories.js';
import { answersAtAll } from '../hang.js';
import { fillTable } from '../fill-table.js';

/** Sends a request on a raw socket and never reads the answer: the kernel buffers fill, then the server's writes wait. */
function stalledRequest(port: number, path: string, key: string, body: unknown | null): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      const payload = body === null ? '' : JSON.stringify(body);
      const method = body === null ? 'GET' : 'POST';
      socket.write(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`);
      socket.pause();
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

async function post(base: string, path: string, key: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

const recordCount = 600_000;

describe('no single request stalls the others', () => {
  let ctx: TestContext;
  let base: string;
  let port: number;
  let big: World;
  let other: World;
  let bigTableId: number;
  let otherTableId: number;

  /** A second process on the same database, whose record queries have a three-second budget. */
  let hurried: TestContext;
  let hurriedBase: string;

  beforeAll(async () => {
    // A budget no query of this file comes near on a loaded machine: only `hurried` has a short one.
    ctx = await buildTestApp({ env: { TABULA_QUERY_TIMEOUT: '60s', TABULA_SEND_TIMEOUT: '2s' } });
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as { port: number }).port;
    base = `http://127.0.0.1:${port}`;
    big = await createAccount(ctx);
    other = await createAccount(ctx);
    const bigTable = await createTable(ctx, big, (await createSpace(ctx, big)).id, { name: 'Big', fields: [{ id: 'label', name: 'Label', type: 'text' }] });
    bigTableId = bigTable.id;
    await fillTable(ctx, bigTableId, 'label', recordCount);
    otherTableId = (await createTable(ctx, other, (await createSpace(ctx, other)).id, { name: 'Small', fields: [{ id: 'label', name: 'Label', type: 'text' }] })).id;
    hurried = await buildSecondApp(ctx.database, { env: { TABULA_QUERY_TIMEOUT: '3s' } });
    await hurried.app.listen({ host: '127.0.0.1', port: 0 });
    hurriedBase = `http://127.0.0.1:${(hurried.app.server.address() as { port: number }).port}`;
  }, 120_000);
  afterAll(async () => {
    await hurried?.close();
    await ctx?.close();
  });

  it('stalled readers of records/ids hold nothing: another account creates and reads meanwhile', async () => {
    // Ten, to exhaust a PostgreSQL pool of ten connections if each held one.
    const readers = await Promise.all(Array.from({ length: 10 }, () => stalledRequest(port, `/api/table/${bigTableId}/records/ids`, big.accountKey, {})));
    try {
      // Let the server fill the sockets' buffers and reach the point where its writes wait.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const created = await answersAtAll(post(base, `/api/table/${otherTableId}/records/create`, other.accountKey, { data: { label: 'meanwhile' } }), 'a create by another account');
      expect(created.status).toBe(200);
      const listed = await answersAtAll(post(base, `/api/table/${otherTableId}/records/query`, other.accountKey, {}), 'a query by another account');
      expect(listed.body).toHaveLength(1);
    } finally {
      for (const reader of readers) reader.destroy();
    }
  }, 60_000);

  it('a client that stops reading is given up after the send timeout', async () => {
    // An answer larger than the kernel's buffers on any machine (loopback autotuning may take
    // tens of megabytes, more than the ids of this table): a 48 MB file, downloaded.
    const files = await createTable(ctx, big, (await createSpace(ctx, big)).id, { name: 'Files', fields: [{ id: 'docs', name: 'Docs', type: 'file' }] });
    const recordId = (await post(base, `/api/table/${files.id}/records/create`, big.accountKey, { data: {} })).body.id;
    const uploaded = await ctx.app.inject({ method: 'POST', url: `/api/table/${files.id}/record/${recordId}/files/upload?field_id=docs&name=big.bin`, headers: { authorization: `Bearer ${big.accountKey}`, 'content-type': 'application/octet-stream' }, payload: Buffer.alloc(48 * 1024 * 1024, 7) });
    const path = (uploaded.json() as { files: Array<{ path: string }> }).files[0].path;
    // The paused client would not notice the close itself: watch the server's end of the connection.
    const serverSide = new Promise<net.Socket>((resolve) => ctx.app.server.once('connection', resolve));
    const reader = await stalledRequest(port, `/api/table/${files.id}/record/${recordId}/files/download?field_id=docs&path=${encodeURIComponent(path)}`, big.accountKey, null);
    try {
      const socket = await serverSide;
      // The answer is larger than the kernel's buffers: once it starts, the server holds the rest, waiting.
      await answersAtAll(
        (async () => {
          while (socket.writableLength === 0 && !socket.destroyed) await new Promise((resolve) => setTimeout(resolve, 50));
        })(),
        'the answer starting',
      );
      expect(socket.writableLength + (socket.destroyed ? 1 : 0)).toBeGreaterThan(0);
      expect(socket.remotePort).toBe(reader.localPort);
      await answersAtAll(new Promise((resolve) => socket.once('close', resolve)), 'the server closing a stalled connection');
    } finally {
      reader.destroy();
    }
  }, 60_000);

  it('a reader still receives every id, in order', async () => {
    const response = await fetch(`${base}/api/table/${bigTableId}/records/ids`, { method: 'POST', headers: { authorization: `Bearer ${big.accountKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ order_by: 'id', order_dir: 'D' }) });
    const ids = (await response.json()) as number[];
    expect(ids).toHaveLength(recordCount);
    expect(ids.every((id, index) => id === recordCount - index)).toBe(true);
  }, 60_000);

  it('a query over the time budget answers 503 query_timeout, and cheap calls answer while it runs', async () => {
    // Several hundred substring conditions over every record: far past a three-second budget.
    const filters = Array.from({ length: 400 }, (_, i) => ({ column: 'label', compare: 'C', value: `absent ${i}`, connector: 'OR' }));
    const heavy = post(hurriedBase, `/api/table/${bigTableId}/records/count`, big.accountKey, { filters });
    let heavyDone = false;
    void heavy.then(() => (heavyDone = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const health = await answersAtAll(fetch(`${hurriedBase}/healthz`).then((r) => r.status), 'healthz');
    expect(health).toBe(200);
    const created = await answersAtAll(post(hurriedBase, `/api/table/${otherTableId}/records/create`, other.accountKey, { data: { label: 'during' } }), 'a create by another account');
    expect(created.status).toBe(200);
    expect(heavyDone).toBe(false);
    const answer = await heavy;
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('query_timeout');
    expect(answer.body.error.message).toMatch(/3 s.*TABULA_QUERY_TIMEOUT/);
  }, 60_000);
});
