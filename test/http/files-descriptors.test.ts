import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { blobsOn } from '../blob-files.js';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';

/**
 * URL source descriptors end to end (seed "Files" rules 5 and 6; CONTRACT §1 TABULA_FETCH_ALLOW_HOSTS):
 * a record's file field written with `{url}` items, fetched from a local server that the
 * allow-list lets through. Every other address is private and stays blocked: a second local
 * server on another port stands for the internal network and must never see a connection.
 * A refused write leaves the record, the ledger (`stored_files`) and `<dataDir>/files` as they were.
 */

/** A 1×1 PNG: file-type recognises it by its magic number. */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const text = (content: string) => Buffer.from(content).toString('base64');
const pathPattern = /^\/s\d+\/[0-9a-f]{32}-[A-Za-z0-9._-]+$/;
const bigBytes = 51 * 1024 * 1024;

interface LocalServer {
  port: number;
  /** TCP connections accepted. */
  connections: number;
  close(): Promise<void>;
}

async function startServer(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<LocalServer> {
  const server = http.createServer(handler);
  const sockets = new Set<net.Socket>();
  const state: LocalServer = { port: 0, connections: 0, close: async () => {} };
  server.on('connection', (socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as net.AddressInfo).port;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return state;
}

/** Bytes of the last 51 MB answer handed to the socket. */
let bigSent = 0;

/** 51 MB of `a`, made as it is sent, waiting for the reader: never held whole. */
function streamBig(response: ServerResponse, withLength: boolean): void {
  bigSent = 0;
  response.writeHead(200, { 'content-type': 'application/octet-stream', ...(withLength ? { 'content-length': String(bigBytes) } : {}) });
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  const pump = () => {
    while (sent < bigBytes) {
      sent += chunk.length;
      bigSent = sent;
      if (!response.write(chunk)) {
        response.once('drain', pump);
        return;
      }
    }
    response.end();
  };
  pump();
}

let allowed: LocalServer;
let blocked: LocalServer;

// Registered before the app's beforeAll: the allowed server's port goes into its allow-list.
beforeAll(async () => {
  blocked = await startServer((_request, response) => response.end('internal secret'));
  allowed = await startServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    switch (url.pathname) {
      case '/files/doc.txt':
        return response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('hello from the url');
      case '/files/quarterly%20report.csv':
        return response.writeHead(200, { 'content-type': 'text/csv' }).end('q,1\n');
      case '/download':
        return response.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="fallback.pdf"; filename*=UTF-8\'\'na%C3%AFve%20report.pdf' }).end('%PDF-1.4 not really');
      case '/plain-disposition':
        return response.writeHead(200, { 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="from-header.txt"' }).end('named by the header');
      case '/image':
        // No useful type: the bytes say what they are.
        return response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(png);
      case '/untyped':
        return response.writeHead(200).end(png);
      case '/missing':
        return response.writeHead(404).end('not here');
      case '/to-doc':
        return response.writeHead(302, { location: '/files/doc.txt' }).end();
      case '/to-internal':
        return response.writeHead(302, { location: `http://127.0.0.1:${blocked.port}/secret` }).end();
      case '/big':
        return streamBig(response, false);
      case '/big-declared':
        return streamBig(response, true);
      default:
        return response.writeHead(404).end();
    }
  });
});

afterAll(async () => {
  await Promise.all([allowed?.close(), blocked?.close()]);
});

describe('URL source descriptors end to end', () => {
  const ctx = useTestApp(() => ({ env: { TABULA_FETCH_ALLOW_HOSTS: `127.0.0.1:${allowed.port}` } }));
  let world: World;
  let tableId: number;

  const at = (route: string) => `http://127.0.0.1:${allowed.port}${route}`;
  const post = (url: string, body: unknown) => call(ctx, 'POST', url, { key: world.accountKey, body });
  const createRecord = (data: unknown) => post(`/api/table/${tableId}/records/create`, { data });
  const updateRecord = (id: number, data: unknown) => post(`/api/table/${tableId}/record/${id}/update`, { data });
  const getRecord = async (id: number) => (await call(ctx, 'GET', `/api/table/${tableId}/record/${id}/get`, { key: world.accountKey })).body;
  const bytesOf = async (id: number, attachment: { path: string }, field = 'docs') => {
    const got = await post(`/api/table/${tableId}/record/${id}/files/get`, { field_id: field, path: attachment.path });
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    return Buffer.from(got.body.data, 'base64');
  };

  /** What a refused write leaves as it was: the record(s), the ledger, the blobs. */
  async function snapshot(recordIds: number[]) {
    const rows = await ctx.container.database.db.selectFrom('stored_files').select(['path', 'state']).orderBy('path').execute();
    const ids = (await post(`/api/table/${tableId}/records/ids`, {})).body;
    return { records: await Promise.all(recordIds.map(getRecord)), ids, rows, blobs: blobsOn(ctx.database.dataDir) };
  }

  beforeAll(async () => {
    world = await createAccount(ctx);
    const space = await createSpace(ctx, world, 'Fetched');
    tableId = (
      await createTable(ctx, world, space.id, {
        name: 'Docs',
        fields: [
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'docs', name: 'Docs', type: 'file' },
          { id: 'photos', name: 'Photos', type: 'file', image_only: true },
        ],
      })
    ).id;
  });

  describe('fetched and stored', () => {
    it('records/create with {url}: the name from the URL path, the type from Content-Type (without parameters)', async () => {
      const created = await createRecord({ docs: [{ url: at('/files/doc.txt') }] });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(created.body.data.docs).toEqual([{ name: 'doc.txt', path: expect.stringMatching(pathPattern), type: 'text/plain', size: 18, host: 'localhost' }]);
      expect((await bytesOf(created.body.id, created.body.data.docs[0])).toString()).toBe('hello from the url');
      expect((await getRecord(created.body.id)).data.docs).toEqual(created.body.data.docs);
    });

    it('record update with {url} replaces the field; the replaced managed file waits for reclaim', async () => {
      const created = (await createRecord({ name: 'r', docs: [{ data: text('old'), name: 'old.txt' }] })).body;
      const old = created.data.docs[0];
      const updated = await updateRecord(created.id, { docs: [{ url: at('/files/quarterly%20report.csv') }] });
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      // The path segment is percent-decoded for the name, sanitised for the path.
      expect(updated.body.data).toEqual({ name: 'r', docs: [{ name: 'quarterly report.csv', path: expect.stringMatching(/-quarterly_report\.csv$/), type: 'text/csv', size: 4, host: 'localhost' }], photos: [] });
      expect((await bytesOf(created.id, updated.body.data.docs[0])).toString()).toBe('q,1\n');
      expect((await ctx.container.services.reclaim.listPending()).map((file) => file.path)).toContain(old.path);
    });

    it('the name from Content-Disposition: filename* (UTF-8) over filename, and filename alone', async () => {
      const created = await createRecord({ docs: [{ url: at('/download') }, { url: at('/plain-disposition') }] });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(created.body.data.docs.map((a: { name: string; type: string }) => [a.name, a.type])).toEqual([
        ['naïve report.pdf', 'application/pdf'],
        ['from-header.txt', 'text/plain'],
      ]);
    });

    it('the type sniffed from the bytes when the server says octet-stream or nothing; an image-only field takes it', async () => {
      const created = await createRecord({ photos: [{ url: at('/image') }, { url: at('/untyped') }] });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(created.body.data.photos).toEqual([
        { name: 'image', path: expect.stringMatching(pathPattern), type: 'image/png', size: png.length, host: 'localhost' },
        { name: 'untyped', path: expect.stringMatching(pathPattern), type: 'image/png', size: png.length, host: 'localhost' },
      ]);
      expect((await bytesOf(created.body.id, created.body.data.photos[0], 'photos')).equals(png)).toBe(true);
    });

    it('an explicit name and type win over the response', async () => {
      const created = await createRecord({ docs: [{ url: at('/download'), name: 'mine.bin', type: 'application/x-mine' }] });
      expect(created.body.data.docs[0]).toMatchObject({ name: 'mine.bin', type: 'application/x-mine', path: expect.stringMatching(/-mine\.bin$/) });
    });

    it('a redirect within the allowed server is followed; the name comes from the final URL', async () => {
      const created = await createRecord({ docs: [{ url: at('/to-doc') }] });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(created.body.data.docs[0]).toMatchObject({ name: 'doc.txt', type: 'text/plain', size: 18 });
    });
  });

  describe('refused: 400 naming the field and the item, nothing written', () => {
    const cases: Array<{ name: string; url: () => string; message: () => string }> = [
      { name: 'a URL answering 404', url: () => at('/missing'), message: () => `Invalid file source: ${at('/missing')} answered 404` },
      {
        name: 'an address outside the allow-list (another local port)',
        url: () => `http://127.0.0.1:${blocked.port}/secret?token=abc`,
        message: () => `Invalid file source: http://127.0.0.1:${blocked.port}/secret is a private address`,
      },
      {
        name: 'a redirect from the allowed server to a blocked address',
        url: () => at('/to-internal'),
        message: () => `Invalid file source: http://127.0.0.1:${blocked.port}/secret is a private address (redirected from ${at('/to-internal')})`,
      },
      { name: 'a file:// URL', url: () => 'file:///etc/passwd', message: () => 'Invalid file source: file:///etc/passwd: only http and https URLs are fetched' },
      { name: 'an ftp:// URL', url: () => `ftp://127.0.0.1:${allowed.port}/x.txt`, message: () => `Invalid file source: ftp://127.0.0.1:${allowed.port}/x.txt: only http and https URLs are fetched` },
    ];

    it.each(cases)('$name, on create and on update', async ({ url, message }) => {
      const existing = (await createRecord({ name: 'keep', docs: [{ data: text('kept'), name: 'kept.txt' }] })).body;
      const before = await snapshot([existing.id]);
      const expected = { status: 400, body: { error: { code: 'invalid_field_value', message: `Invalid value for field docs: item 0: ${message()}` } } };
      const created = await createRecord({ name: 'new', docs: [{ url: url() }] });
      expect({ status: created.status, body: created.body }).toEqual(expected);
      const updated = await updateRecord(existing.id, { name: 'changed', docs: [{ url: url() }] });
      expect({ status: updated.status, body: updated.body }).toEqual(expected);
      expect(await snapshot([existing.id])).toEqual(before);
      expect(before.rows.filter((row) => row.state === 'pending')).toEqual([]);
      expect(blocked.connections).toBe(0);
    });

    it('a mixed update, one good inline item and one bad URL, writes nothing: the good item is not left behind', async () => {
      const existing = (await createRecord({ name: 'keep', docs: [{ data: text('kept'), name: 'kept.txt' }] })).body;
      const before = await snapshot([existing.id]);
      const updated = await updateRecord(existing.id, { name: 'changed', docs: [existing.data.docs[0], { data: text('good'), name: 'good.txt' }, { url: at('/missing') }] });
      expect({ status: updated.status, body: updated.body }).toEqual({
        status: 400,
        body: { error: { code: 'invalid_field_value', message: `Invalid value for field docs: item 2: Invalid file source: ${at('/missing')} answered 404` } },
      });
      // A good URL before a blocked one: fetched, stored, then taken back.
      const urls = await updateRecord(existing.id, { docs: [{ url: at('/files/doc.txt') }, { url: `http://127.0.0.1:${blocked.port}/x` }] });
      expect(urls.status).toBe(400);
      expect(urls.body.error.message).toBe(`Invalid value for field docs: item 1: Invalid file source: http://127.0.0.1:${blocked.port}/x is a private address`);
      expect(await snapshot([existing.id])).toEqual(before);
      expect(blocked.connections).toBe(0);
    });
  });

  it('a space without file storage refuses a URL item before fetching it', async () => {
    const bare = (await post('/api/spaces/create', { name: 'No files', storage: { kind: 'none' } })).body.id;
    const table = (await createTable(ctx, world, bare, { name: 'T', fields: [{ id: 'docs', name: 'Docs', type: 'file' }] })).id;
    const connections = allowed.connections;
    const answer = await post(`/api/table/${table}/records/create`, { data: { docs: [{ url: at('/files/doc.txt') }] } });
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: { error: { code: 'storage_not_configured', message: 'File storage not configured' } } });
    expect(allowed.connections).toBe(connections);
  });

  describe('over 50 MB: 413, nothing written', () => {
    it.each([
      ['streamed without a Content-Length (cut off once past 50 MB)', '/big'],
      ['announced by its Content-Length (refused before reading)', '/big-declared'],
    ])('%s', async (_name, route) => {
      const existing = (await createRecord({ name: 'keep' })).body;
      const before = await snapshot([existing.id]);
      const updated = await updateRecord(existing.id, { name: 'changed', docs: [{ data: text('small'), name: 'small.txt' }, { url: at(route) }] });
      expect({ status: updated.status, body: updated.body }).toEqual({ status: 413, body: { error: { code: 'payload_too_large', message: 'Payload Too Large' } } });
      // Streamed: the service read past the limit (waiting for it, the server sent as it was read) before refusing.
      if (route === '/big') expect(bigSent).toBeGreaterThan(50 * 1024 * 1024);
      expect(await snapshot([existing.id])).toEqual(before);
    });
  });
});

describe('TABULA_FETCH_ALLOW_HOSTS at startup', () => {
  it('is read into host and port entries (any port when none is given), IP literals in one spelling', () => {
    expect(loadConfig({ TABULA_FETCH_ALLOW_HOSTS: ' 127.0.0.1:8080, [::1]:9000 ,Intranet.Example, 10.1.2.3 ,' }).fetchAllowHosts).toEqual([
      { host: '127.0.0.1', port: 8080 },
      { host: '::1', port: 9000 },
      { host: 'intranet.example', port: null },
      { host: '10.1.2.3', port: null },
    ]);
    expect(loadConfig({}).fetchAllowHosts).toEqual([]);
  });

  it.each(['http://intranet.example', 'intranet.example/files', 'host:0', 'host:65536', 'a:b:c', '[not-ipv6]:80', 'two words'])('refuses %j with an error naming the variable and the entry', (entry) => {
    expect(() => loadConfig({ TABULA_FETCH_ALLOW_HOSTS: `127.0.0.1,${entry}` })).toThrow(
      new RegExp(`^TABULA_FETCH_ALLOW_HOSTS: "${entry.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}" .*\\(expected comma-separated host, host:port or \\[IPv6\\]:port entries, without a scheme or a path\\)$`),
    );
  });
});
