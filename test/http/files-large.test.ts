import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { blobsOn } from '../blob-files.js';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';

const MB = 1024 * 1024;

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** What the client's socket reported, if anything (EPIPE, ECONNRESET): nothing, when all goes well. */
  clientError: NodeJS.ErrnoException | undefined;
  /** Bytes of the body the client managed to hand to its socket. */
  written: number;
}

/**
 * One request over a real socket, as a plain client sends it: the whole body, written 1 MiB at
 * a time as the socket takes it (with `Content-Length`, or chunked without one), whatever the
 * server answers meanwhile; then the answer, read whole. Resolves once both are over, with
 * the first error the client's socket reported (EPIPE, ECONNRESET), if any.
 */
function send(port: number, method: 'GET' | 'POST', requestPath: string, headers: Record<string, string>, body?: Buffer, options: { chunked?: boolean } = {}): Promise<RawAnswer> {
  const requestHeaders: Record<string, string | number> = { ...headers };
  if (body && !options.chunked) requestHeaders['content-length'] = body.length;
  const request = http.request({ host: '127.0.0.1', port, method, path: requestPath, headers: requestHeaders, agent: false });
  let clientError: NodeJS.ErrnoException | undefined;
  const failed = new Promise<void>((resolve) =>
    request.on('error', (error: NodeJS.ErrnoException) => {
      clientError ??= error;
      resolve();
    }),
  );
  const answered = new Promise<Omit<RawAnswer, 'clientError' | 'written'> | undefined>((resolve) => {
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', () => resolve(undefined));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    void failed.then(() => resolve(undefined));
  });
  let written = 0;
  const writing = (async () => {
    for (let at = 0; body && at < body.length && !request.destroyed; at += MB) {
      const piece = body.subarray(at, Math.min(at + MB, body.length));
      const more = request.write(piece);
      written += piece.length;
      if (!more) await Promise.race([new Promise((next) => request.once('drain', next)), failed]);
    }
    if (!request.destroyed) request.end();
  })();
  return Promise.all([answered, Promise.race([writing, failed])]).then(([answer]) => ({ ...(answer ?? { status: 0, headers: {}, body: Buffer.alloc(0) }), clientError, written }));
}

/** `length` bytes that are not all alike, so that a byte out of place shows. */
function fileOf(length: number, seed = 7): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  let state = seed;
  for (let i = 0; i < length; i += 4) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    bytes.writeUInt32LE(state, Math.min(i, length - 4));
  }
  return bytes;
}

const createBody = (fields: Record<string, string>, data: Buffer) => Buffer.from(JSON.stringify({ ...fields, data: data.toString('base64') }));

describe('large files over a real connection: 413 that the client reads, 12 MB that works', () => {
  const ctx = useTestApp();
  let world: World;
  let port: number;
  let tableId: number;
  let recordId: number;
  let auth: Record<string, string>;
  const files = (action: string, record = recordId) => `/api/table/${tableId}/record/${record}/files/${action}`;
  const getRecord = async () => (await call(ctx, 'GET', `/api/table/${tableId}/record/${recordId}/get`, { key: world.accountKey })).body;

  beforeAll(async () => {
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as { port: number }).port;
    world = await createAccount(ctx);
    const spaceId = (await createSpace(ctx, world, 'Large')).id;
    tableId = (await createTable(ctx, world, spaceId, { name: 'Big files', fields: [{ id: 'docs', name: 'Docs', type: 'file' }] })).id;
    recordId = (await call(ctx, 'POST', `/api/table/${tableId}/records/create`, { key: world.accountKey, body: { data: {} } })).body.id;
    auth = { authorization: `Bearer ${world.accountKey}` };
  });

  /** The answer is the 413 of the specification, read whole by a client that wrote its whole body; nothing was stored. */
  async function expectRefusedAndNothingStored(answering: () => Promise<RawAnswer>, bodyLength: number) {
    const blobs = blobsOn(ctx.database.dataDir).length;
    const before = await getRecord();
    const answer = await answering();
    expect(answer.clientError, `client error ${answer.clientError?.code}`).toBeUndefined();
    expect(answer.written).toBe(bodyLength);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body.toString())).toEqual({ error: { code: 'payload_too_large', message: 'Payload Too Large' } });
    expect(blobsOn(ctx.database.dataDir).length).toBe(blobs);
    expect(await getRecord()).toEqual(before);
  }

  it('a files/create body carrying a 60 MB file gets 413, with Content-Length and chunked', async () => {
    const body = createBody({ field_id: 'docs', name: 'big.bin' }, fileOf(60 * MB));
    const json = { ...auth, 'content-type': 'application/json' };
    await expectRefusedAndNothingStored(() => send(port, 'POST', files('create'), json, body), body.length);
    await expectRefusedAndNothingStored(() => send(port, 'POST', files('create'), json, body, { chunked: true }), body.length);
  }, 60_000);

  it('a raw upload of 60 MB gets 413: refused from its Content-Length, or after 50 MB when chunked', async () => {
    const body = fileOf(60 * MB);
    const raw = { ...auth, 'content-type': 'application/octet-stream' };
    await expectRefusedAndNothingStored(() => send(port, 'POST', `${files('upload')}?field_id=docs&name=big.bin`, raw, body), body.length);
    await expectRefusedAndNothingStored(() => send(port, 'POST', `${files('upload')}?field_id=docs&name=big.bin`, raw, body, { chunked: true }), body.length);
  }, 60_000);

  it('after an upload refused while it streamed, the rest is read and the same connection serves the next request', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const body = fileOf(51 * MB);
      const first = await new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
        const request = http.request({ host: '127.0.0.1', port, method: 'POST', path: `${files('upload')}?field_id=docs&name=x.bin`, headers: { ...auth, 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' }, agent }, (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? 0, socket: request.socket }));
        });
        request.on('error', reject);
        request.end(body);
      });
      expect(first.status).toBe(413);
      const second = await new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
        const request = http.request({ host: '127.0.0.1', port, method: 'GET', path: `/api/table/${tableId}/record/${recordId}/get`, headers: auth, agent }, (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? 0, socket: request.socket }));
        });
        request.on('error', reject);
        request.end();
      });
      expect(second.status).toBe(200);
      expect(second.socket).toBe(first.socket);
    } finally {
      agent.destroy();
    }
  }, 60_000);

  it('a base64 text decoding to more than 50 MB gets 413 and stores nothing, whether the body limit or the decoder finds it', async () => {
    const json = { ...auth, 'content-type': 'application/json' };
    const over = createBody({ field_id: 'docs', name: 'over.bin' }, fileOf(51 * MB));
    await expectRefusedAndNothingStored(() => send(port, 'POST', files('create'), json, over), over.length);
    // One byte past 50 MiB: the body is within its limit, the decoded size is not.
    const justOver = createBody({ field_id: 'docs', name: 'just-over.bin' }, fileOf(50 * MB + 1));
    await expectRefusedAndNothingStored(() => send(port, 'POST', files('create'), json, justOver), justOver.length);
  }, 60_000);

  it('a 12 MB files/create and a 12 MB raw upload are stored and read back byte-identical (files/get and download)', async () => {
    const content = fileOf(12 * MB, 11);
    const created = await send(port, 'POST', files('create'), { ...auth, 'content-type': 'application/json' }, createBody({ field_id: 'docs', name: 'twelve.bin' }, content));
    expect(created.status).toBe(200);
    const viaCreate = JSON.parse(created.body.toString()).files.at(-1);
    expect(viaCreate).toMatchObject({ name: 'twelve.bin', size: content.length });
    const uploaded = await send(port, 'POST', `${files('upload')}?field_id=docs&name=twelve-raw.bin`, { ...auth, 'content-type': 'application/x-custom' }, content);
    expect(uploaded.status).toBe(200);
    const viaUpload = JSON.parse(uploaded.body.toString()).files.at(-1);
    expect(viaUpload).toMatchObject({ name: 'twelve-raw.bin', type: 'application/x-custom', size: content.length });
    for (const attachment of [viaCreate, viaUpload]) {
      const got = await send(port, 'POST', files('get'), { ...auth, 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ field_id: 'docs', path: attachment.path })));
      expect(got.status).toBe(200);
      const parsed = JSON.parse(got.body.toString());
      expect(parsed.size).toBe(content.length);
      expect(Buffer.from(parsed.data, 'base64').equals(content)).toBe(true);
      const downloaded = await send(port, 'GET', `${files('download')}?field_id=docs&path=${encodeURIComponent(attachment.path)}`, auth);
      expect(downloaded.status).toBe(200);
      expect(Number(downloaded.headers['content-length'])).toBe(content.length);
      expect(downloaded.body.equals(content)).toBe(true);
    }
  }, 60_000);
});
