import { beforeAll, describe, expect, it } from 'vitest';
import { blobCount } from '../blob-files.js';
import { useTestApp } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, type World } from '../factories.js';

/** A 1×1 PNG: file-type recognises it by its magic number. */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const pathPattern = /^\/s\d+\/[0-9a-f]{32}-[A-Za-z0-9._-]+$/;

describe('files: the raw upload and the streamed download', () => {
  const ctx = useTestApp();
  let world: World;
  let tableId: number;
  let recordId: number;
  let readOnlyKey: string;
  let readerKey: string;
  let editorKey: string;
  let stranger: World;

  const bearer = (key: string | null) => (key ? { authorization: `Bearer ${key}` } : {});
  /** A raw upload through app.inject: the body is the file. */
  const upload = (query: string, payload: Buffer | string, headers: Record<string, string> = { 'content-type': 'application/octet-stream' }, key: string | null = world.accountKey, record = recordId) =>
    ctx.app.inject({ method: 'POST', url: `/api/table/${tableId}/record/${record}/files/upload?${query}`, headers: { ...bearer(key), ...headers }, payload });
  const download = (field: string, filePath: string, headers: Record<string, string> = {}, key: string | null = world.accountKey, record = recordId) =>
    ctx.app.inject({ method: 'GET', url: `/api/table/${tableId}/record/${record}/files/download?field_id=${field}&path=${encodeURIComponent(filePath)}`, headers: { ...bearer(key), ...headers } });
  const lastFile = (response: { json(): any }) => response.json().files.at(-1);
  const getRecord = async () => (await call(ctx, 'GET', `/api/table/${tableId}/record/${recordId}/get`, { key: world.accountKey })).body;

  beforeAll(async () => {
    world = await createAccount(ctx);
    stranger = await createAccount(ctx);
    const spaceId = (await createSpace(ctx, world, 'Raw')).id;
    tableId = (
      await createTable(ctx, world, spaceId, {
        name: 'Uploads',
        fields: [
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'docs', name: 'Docs', type: 'file' },
          { id: 'photos', name: 'Photos', type: 'file', image_only: true },
          { id: 'locked', name: 'Locked', type: 'file', editable_by: 'admins' },
        ],
      })
    ).id;
    recordId = (await call(ctx, 'POST', `/api/table/${tableId}/records/create`, { key: world.accountKey, body: { data: { name: 'one' } } })).body.id;
    readOnlyKey = (await createKey(ctx, { accountId: world.accountId, readOnly: true })).key;
    const reader = await createUser(ctx, world, 'Rita Reader');
    await addMember(ctx, world, spaceId, reader.id, 'reader');
    readerKey = (await createKey(ctx, { userId: reader.id })).key;
    const editor = await createUser(ctx, world, 'Ed Editor');
    await addMember(ctx, world, spaceId, editor.id, 'editor');
    editorKey = (await createKey(ctx, { userId: editor.id })).key;
  });

  describe('upload', () => {
    it('stores the body as the file, typed by its Content-Type, and appends it to the field', async () => {
      const answer = await upload('field_id=docs&name=notes.txt', 'hello raw', { 'content-type': 'text/plain' });
      expect(answer.statusCode).toBe(200);
      expect(answer.json().field_id).toBe('docs');
      expect(lastFile(answer)).toEqual({ name: 'notes.txt', path: expect.stringMatching(pathPattern), type: 'text/plain', size: 9, host: 'localhost' });
      expect((await getRecord()).data.docs).toEqual(answer.json().files);
    });

    it('takes a JSON file as a file, not as a body to parse', async () => {
      const json = '{"not": "a request body"';
      const answer = await upload('field_id=docs&name=data.json', json, { 'content-type': 'application/json' });
      expect(answer.statusCode).toBe(200);
      expect(lastFile(answer)).toMatchObject({ name: 'data.json', type: 'application/json', size: json.length });
      expect((await download('docs', lastFile(answer).path)).body).toBe(json);
    });

    it('`type` in the query overrides the Content-Type', async () => {
      const answer = await upload('field_id=docs&name=table.csv&type=text/csv', 'a,b\n1,2', { 'content-type': 'text/plain' });
      expect(lastFile(answer).type).toBe('text/csv');
    });

    it('sniffs the bytes when the type is application/octet-stream or missing', async () => {
      expect(lastFile(await upload('field_id=docs&name=dot.png', png)).type).toBe('image/png');
      expect(lastFile(await upload('field_id=docs&name=dot2.png', png, { 'content-type': 'application/octet-stream; charset=binary' })).type).toBe('image/png');
      expect(lastFile(await upload('field_id=docs&name=dot3.png', png, {})).type).toBe('image/png');
      expect(lastFile(await upload('field_id=docs&name=blob.bin', Buffer.from([1, 2, 3, 4]))).type).toBe('application/octet-stream');
    });

    it('an empty body is an empty file', async () => {
      const answer = await upload('field_id=docs&name=empty.txt', '', { 'content-type': 'text/plain' });
      expect(answer.statusCode).toBe(200);
      expect(lastFile(answer)).toMatchObject({ name: 'empty.txt', size: 0 });
    });

    it('refuses a missing name or field, a bad type, an unknown parameter, a non-file field, with 400 and nothing stored', async () => {
      const blobs = blobCount(ctx.database.dataDir);
      const cases: Array<[string, RegExp]> = [
        ['field_id=docs', /name is required/],
        ['name=x.txt', /field_id is required/],
        ['field_id=docs&name=', /name must be a non-empty string/],
        ['field_id=docs&name=x&type=not%20a%20type', /not a MIME type/],
        ['field_id=docs&name=x&extra=1', /unknown property "extra"/],
        ['field_id=name&name=x', /name is not a file field/],
        ['field_id=nope&name=x', /Invalid field: nope/],
      ];
      for (const [query, message] of cases) {
        const answer = await upload(query, 'bytes', { 'content-type': 'text/plain' });
        expect(answer.statusCode, query).toBe(400);
        expect(answer.json().error.message, query).toMatch(message);
      }
      expect(blobCount(ctx.database.dataDir)).toBe(blobs);
    });

    it('an image-only field takes images only: a non-image is refused and nothing is stored', async () => {
      const blobs = blobCount(ctx.database.dataDir);
      const refused = await upload('field_id=photos&name=a.txt', 'plain text', { 'content-type': 'text/plain' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.message).toMatch(/not an image/);
      const sniffed = await upload('field_id=photos&name=a.bin', 'plain text');
      expect(sniffed.statusCode).toBe(400);
      expect(blobCount(ctx.database.dataDir)).toBe(blobs);
      expect((await upload('field_id=photos&name=dot.png', png)).statusCode).toBe(200);
    });

    it('the same permissions as files/create: no key 401, read-only key 403, reader 403, another account 400 Invalid Table, editable_by 403', async () => {
      const blobs = blobCount(ctx.database.dataDir);
      const before = await getRecord();
      const noKey = await upload('field_id=docs&name=x', 'x', undefined, null);
      expect(noKey.statusCode).toBe(401);
      const readOnly = await upload('field_id=docs&name=x', 'x', undefined, readOnlyKey);
      expect(readOnly.statusCode).toBe(403);
      expect(readOnly.json().error.code).toBe('read_only_key');
      const reader = await upload('field_id=docs&name=x', 'x', undefined, readerKey);
      expect(reader.statusCode).toBe(403);
      expect(reader.json().error.code).toBe('reader_role');
      const other = await upload('field_id=docs&name=x', 'x', undefined, stranger.accountKey);
      expect(other.statusCode).toBe(400);
      expect(other.json().error).toEqual({ code: 'invalid_table', message: 'Invalid Table' });
      const locked = await upload('field_id=locked&name=x', 'x', undefined, editorKey);
      expect(locked.statusCode).toBe(403);
      expect(locked.json().error.code).toBe('field_not_editable');
      expect(blobCount(ctx.database.dataDir)).toBe(blobs);
      expect(await getRecord()).toEqual(before);
      expect((await upload('field_id=docs&name=ed.txt', 'x', undefined, editorKey)).statusCode).toBe(200);
      expect((await upload('field_id=locked&name=admin.txt', 'x')).statusCode).toBe(200);
    });

    it('files/create and delete still refuse a body that is not JSON with 415', async () => {
      const answer = await ctx.app.inject({ method: 'POST', url: `/api/table/${tableId}/record/${recordId}/files/create`, headers: { ...bearer(world.accountKey), 'content-type': 'text/plain' }, payload: 'x' });
      expect(answer.statusCode).toBe(415);
      expect(answer.json().error.code).toBe('unsupported_media_type');
    });
  });

  describe('download', () => {
    const content = Buffer.from('0123456789abcdef');
    let file: { name: string; path: string; type: string; size: number };

    beforeAll(async () => {
      file = lastFile(await upload('field_id=docs&name=Résumé 2024.txt', content, { 'content-type': 'text/plain' }));
    });

    it('answers the whole file with its type, length, ETag, ranges accepted, a download disposition and nosniff', async () => {
      const answer = await download('docs', file.path);
      expect(answer.statusCode).toBe(200);
      expect(answer.rawPayload.equals(content)).toBe(true);
      expect(answer.headers['content-type']).toMatch(/^text\/plain/);
      expect(answer.headers['content-length']).toBe(String(content.length));
      expect(answer.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
      expect(answer.headers['accept-ranges']).toBe('bytes');
      expect(answer.headers['content-disposition']).toBe(`attachment; filename="${file.path.split('/')[2].slice(33)}"; filename*=UTF-8''R%C3%A9sum%C3%A9%202024.txt`);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['content-security-policy']).toMatch(/sandbox/);
    });

    it('If-None-Match with its ETag (alone, in a list, weak, or *) answers 304 without the bytes', async () => {
      const etag = String((await download('docs', file.path)).headers.etag);
      for (const header of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
        const answer = await download('docs', file.path, { 'if-none-match': header });
        expect(answer.statusCode, header).toBe(304);
        expect(answer.body).toBe('');
        expect(answer.headers.etag).toBe(etag);
      }
      expect((await download('docs', file.path, { 'if-none-match': '"other"' })).statusCode).toBe(200);
    });

    it.each([
      ['bytes=0-3', '0123', 'bytes 0-3/16'],
      ['bytes=5-', '56789abcdef', 'bytes 5-15/16'],
      ['bytes=-4', 'cdef', 'bytes 12-15/16'],
      ['bytes=10-99', 'abcdef', 'bytes 10-15/16'],
    ])('Range %s answers 206 with that part and its Content-Range', async (range, part, contentRange) => {
      const answer = await download('docs', file.path, { range });
      expect(answer.statusCode).toBe(206);
      expect(answer.body).toBe(part);
      expect(answer.headers['content-range']).toBe(contentRange);
      expect(answer.headers['content-length']).toBe(String(part.length));
    });

    it('a range outside the file answers 416 with bytes */size; an invalid or multiple one the whole file', async () => {
      for (const range of ['bytes=16-', 'bytes=100-200', 'bytes=-0']) {
        const answer = await download('docs', file.path, { range });
        expect(answer.statusCode, range).toBe(416);
        expect(answer.headers['content-range']).toBe('bytes */16');
      }
      for (const range of ['bytes=5-3', 'bytes=0-1,4-5', 'lines=1-2']) {
        const answer = await download('docs', file.path, { range });
        expect(answer.statusCode, range).toBe(200);
        expect(answer.rawPayload.equals(content)).toBe(true);
      }
    });

    it('If-Range with another ETag answers the whole file; with its own, the range', async () => {
      const etag = String((await download('docs', file.path)).headers.etag);
      const stale = await download('docs', file.path, { range: 'bytes=0-3', 'if-range': '"0000"' });
      expect(stale.statusCode).toBe(200);
      expect(stale.rawPayload.equals(content)).toBe(true);
      const fresh = await download('docs', file.path, { range: 'bytes=0-3', 'if-range': etag });
      expect(fresh.statusCode).toBe(206);
      expect(fresh.body).toBe('0123');
    });

    it('a read-only key and a reader may download; no key 401; another account 400 Invalid Table', async () => {
      expect((await download('docs', file.path, {}, readOnlyKey)).statusCode).toBe(200);
      expect((await download('docs', file.path, {}, readerKey)).statusCode).toBe(200);
      expect((await download('docs', file.path, {}, null)).statusCode).toBe(401);
      const other = await download('docs', file.path, {}, stranger.accountKey);
      expect(other.statusCode).toBe(400);
      expect(other.json().error.message).toBe('Invalid Table');
    });

    it('through a sibling field or another record: 400 Attachment not found; a missing path 400', async () => {
      const sibling = await download('photos', file.path);
      expect(sibling.statusCode).toBe(400);
      expect(sibling.json().error.message).toBe('Attachment not found');
      expect(sibling.headers['content-disposition']).toBeUndefined();
      const otherRecord = (await call(ctx, 'POST', `/api/table/${tableId}/records/create`, { key: world.accountKey, body: { data: {} } })).body.id;
      const elsewhere = await download('docs', file.path, {}, world.accountKey, otherRecord);
      expect(elsewhere.statusCode).toBe(400);
      expect(elsewhere.json().error.message).toBe('Attachment not found');
      const missing = await ctx.app.inject({ method: 'GET', url: `/api/table/${tableId}/record/${recordId}/files/download?field_id=docs`, headers: bearer(world.accountKey) });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.message).toMatch(/path is required/);
    });

    it('files/get of an uploaded file answers its bytes as base64, with a Content-Length', async () => {
      const got = await call(ctx, 'POST', `/api/table/${tableId}/record/${recordId}/files/get`, { key: world.accountKey, body: { field_id: 'docs', path: file.path } });
      expect(got.status).toBe(200);
      expect(got.body).toEqual({ name: 'Résumé 2024.txt', type: 'text/plain', size: 16, data: content.toString('base64') });
      expect(Number(got.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(got.body)));
    });
  });
});
