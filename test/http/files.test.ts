import { beforeAll, describe, expect, it } from 'vitest';
import { blobsOn } from '../blob-files.js';
import { useTestApp } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, type World } from '../factories.js';

/** A 1×1 PNG: file-type recognises it by its magic number. */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const text = (content: string) => Buffer.from(content).toString('base64');
const pathPattern = /^\/s\d+\/[0-9a-f]{32}-[A-Za-z0-9._-]+$/;

describe('files: create, delete, get (the specification rules)', () => {
  let nowMs = Date.parse('2024-05-01T10:00:00Z');
  const ctx = useTestApp({ clock: { now: () => new Date(nowMs) } });
  let world: World;
  let spaceId: number;
  let tableId: number;
  let recordId: number;
  let readOnlyKey: string;
  let editorKey: string;

  const post = (url: string, body: unknown, key: string = world.accountKey) => call(ctx, 'POST', url, { key, body });
  const files = (action: string, body: unknown, key?: string, record = recordId, table = tableId) => post(`/api/table/${table}/record/${record}/files/${action}`, body, key);
  const getRecord = async (id = recordId) => (await call(ctx, 'GET', `/api/table/${tableId}/record/${id}/get`, { key: world.accountKey })).body;
  const createRecord = async (data: unknown = {}) => (await post(`/api/table/${tableId}/records/create`, { data })).body;

  beforeAll(async () => {
    world = await createAccount(ctx);
    spaceId = (await createSpace(ctx, world, 'Files')).id;
    tableId = (
      await createTable(ctx, world, spaceId, {
        name: 'Docs',
        fields: [
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'docs', name: 'Docs', type: 'file' },
          { id: 'photos', name: 'Photos', type: 'file', image_only: true },
          { id: 'locked', name: 'Locked', type: 'file', editable_by: 'admins' },
        ],
      })
    ).id;
    recordId = (await createRecord({ name: 'one' })).id;
    readOnlyKey = (await createKey(ctx, { accountId: world.accountId, readOnly: true })).key;
    const editor = await createUser(ctx, world, 'Ed Editor');
    await addMember(ctx, world, spaceId, editor.id, 'editor');
    editorKey = (await createKey(ctx, { userId: editor.id })).key;
  });

  it('files/create appends an attachment object and answers the whole field', async () => {
    const first = await files('create', { field_id: 'docs', name: 'a.txt', type: 'text/plain', data: text('alpha') });
    expect(first.status).toBe(200);
    expect(first.body.field_id).toBe('docs');
    expect(first.body.files).toEqual([{ name: 'a.txt', path: expect.stringMatching(pathPattern), type: 'text/plain', size: 5, host: 'localhost' }]);
    expect(first.body.files[0].path.startsWith(`/s${spaceId}/`)).toBe(true);
    const second = await files('create', { field_id: 'docs', name: 'b.txt', type: 'text/plain', data: text('beta') });
    expect(second.body.files.map((f: { name: string }) => f.name)).toEqual(['a.txt', 'b.txt']);
    expect(second.body.files[0]).toEqual(first.body.files[0]);
    expect((await getRecord()).data.docs).toEqual(second.body.files);
  });

  it('sniffs the MIME type from the bytes when none is given', async () => {
    const created = await files('create', { field_id: 'photos', name: 'dot.png', data: png.toString('base64') });
    expect(created.status).toBe(200);
    expect(created.body.files[0].type).toBe('image/png');
  });

  it('files/get answers name, type, size and the bytes as base64', async () => {
    const [attachment] = (await getRecord()).data.docs;
    const got = await files('get', { field_id: 'docs', path: attachment.path });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ name: 'a.txt', type: 'text/plain', size: 5, data: text('alpha') });
  });

  it('files/get through a sibling field fails: the attachment must be in that field of that record', async () => {
    const [attachment] = (await getRecord()).data.docs;
    const got = await files('get', { field_id: 'photos', path: attachment.path });
    expect(got.status).toBe(400);
    expect(got.body.error).toEqual({ code: 'attachment_not_found', message: 'Attachment not found' });
    const other = (await createRecord({ name: 'two' })).id;
    expect((await files('get', { field_id: 'docs', path: attachment.path }, undefined, other)).body.error.message).toBe('Attachment not found');
  });

  it('files/delete removes exactly one attachment; other fields are untouched', async () => {
    const before = await getRecord();
    const [first, second] = before.data.docs;
    const deleted = await files('delete', { field_id: 'docs', path: first.path });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ field_id: 'docs', files: [second] });
    const after = await getRecord();
    expect(after.data.docs).toEqual([second]);
    expect(after.data.photos).toEqual(before.data.photos);
    const again = await files('delete', { field_id: 'docs', path: first.path });
    expect(again.status).toBe(400);
    // The specification's message has a code of its own (CONTRACT §5).
    expect(again.body).toEqual({ error: { code: 'attachment_not_found', message: 'Attachment not found' } });
  });

  it('refuses bad parameters with 400: a non-file field, bad base64, a missing parameter, an unknown field, a missing record', async () => {
    const cases: Array<[unknown, RegExp, number?]> = [
      [{ field_id: 'name', name: 'x', data: text('x') }, /name is not a file field/],
      [{ field_id: 'docs', name: 'x', data: 'not base64!' }, /base64/],
      [{ field_id: 'docs', name: 'x', data: 'QUJD=' }, /base64/],
      [{ field_id: 'docs', data: text('x') }, /name is required/],
      [{ name: 'x', data: text('x') }, /field_id is required/],
      [{ field_id: 'docs', name: 'x' }, /data is required/],
      [{ field_id: 'nope', name: 'x', data: text('x') }, /Invalid field: nope/],
      [{ field_id: 'docs', name: 'x', data: text('x'), extra: 1 }, /unknown property "extra"/],
      [{ field_id: 'docs', name: 'x', type: 'not a type', data: text('x') }, /not a MIME type/],
      [{ field_id: 'docs', name: 'x', data: text('x') }, /Record not found/, 2_000_000_000],
    ];
    const blobs = blobsOn(ctx.database.dataDir).length;
    for (const [body, message, record] of cases) {
      const answer = await files('create', body, undefined, record ?? recordId);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message).toMatch(message);
    }
    expect(blobsOn(ctx.database.dataDir).length).toBe(blobs);
    expect((await files('delete', { field_id: 'docs' })).status).toBe(400);
    expect((await files('get', { path: '/x' })).status).toBe(400);
  });

  it('a non-image given to an image-only field is refused, and nothing is stored', async () => {
    const blobs = blobsOn(ctx.database.dataDir).length;
    const refused = await files('create', { field_id: 'photos', name: 'a.txt', data: text('plain text') });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/not an image/);
    expect(blobsOn(ctx.database.dataDir).length).toBe(blobs);
  });

  it('a read-only key gets 403 on create and delete, and may get', async () => {
    const [attachment] = (await getRecord()).data.docs;
    expect((await files('create', { field_id: 'docs', name: 'x', data: text('x') }, readOnlyKey)).status).toBe(403);
    expect((await files('delete', { field_id: 'docs', path: attachment.path }, readOnlyKey)).status).toBe(403);
    expect((await files('get', { field_id: 'docs', path: attachment.path }, readOnlyKey)).status).toBe(200);
  });

  it('field-level edit permission is enforced with 403', async () => {
    const refused = await files('create', { field_id: 'locked', name: 'x', data: text('x') }, editorKey);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('field_not_editable');
    expect((await files('create', { field_id: 'docs', name: 'x', data: text('x') }, editorKey)).status).toBe(200);
  });

  it('record update replaces and reorders with full attachment objects', async () => {
    const id = (await createRecord({})).id;
    await files('create', { field_id: 'docs', name: 'one', data: text('1') }, undefined, id);
    const { files: both } = (await files('create', { field_id: 'docs', name: 'two', data: text('2') }, undefined, id)).body;
    const reordered = await post(`/api/table/${tableId}/record/${id}/update`, { data: { docs: [both[1], both[0]] } });
    expect(reordered.status).toBe(200);
    expect(reordered.body.data.docs).toEqual([both[1], both[0]]);
  });

  it('records/create and update take inline-data descriptors: raw base64 or a data URI', async () => {
    const created = await createRecord({ docs: [{ data: text('hello'), name: 'hello.txt' }, { data: `data:text/csv;base64,${text('a,b')}`, name: 'x.csv' }] });
    expect(created.data.docs).toEqual([
      { name: 'hello.txt', path: expect.stringMatching(pathPattern), type: 'application/octet-stream', size: 5, host: 'localhost' },
      { name: 'x.csv', path: expect.stringMatching(pathPattern), type: 'text/csv', size: 3, host: 'localhost' },
    ]);
    const got = await files('get', { field_id: 'docs', path: created.data.docs[1].path }, undefined, created.id);
    expect(Buffer.from(got.body.data, 'base64').toString()).toBe('a,b');
  });

  it('one bad item fails the whole write: nothing is written and no blob is left', async () => {
    const id = (await createRecord({ name: 'keep' })).id;
    const before = await getRecord(id);
    const blobs = blobsOn(ctx.database.dataDir).length;
    const answer = await post(`/api/table/${tableId}/record/${id}/update`, { data: { name: 'changed', docs: [{ data: text('fine'), name: 'ok.txt' }, { data: '!!!', name: 'bad' }] } });
    expect(answer.status).toBe(400);
    expect(await getRecord(id)).toEqual(before);
    expect(blobsOn(ctx.database.dataDir).length).toBe(blobs);
    const images = await post(`/api/table/${tableId}/records/create`, { data: { photos: [{ data: png.toString('base64') }, { data: text('not an image') }] } });
    expect(images.status).toBe(400);
    expect(blobsOn(ctx.database.dataDir).length).toBe(blobs);
  });

  it('an attachment of another record becomes an independent copy; re-saving its own makes none', async () => {
    const source = await createRecord({ docs: [{ data: text('shared?'), name: 's.txt' }] });
    const original = source.data.docs[0];
    const copied = await createRecord({ docs: [original] });
    expect(copied.data.docs[0]).toEqual({ ...original, path: expect.stringMatching(pathPattern) });
    expect(copied.data.docs[0].path).not.toBe(original.path);
    const resaved = await post(`/api/table/${tableId}/record/${source.id}/update`, { data: { docs: [original] } });
    expect(resaved.body.data.docs).toEqual([original]);
    // Deleting the original leaves the copy readable.
    await files('delete', { field_id: 'docs', path: original.path }, undefined, source.id);
    const got = await files('get', { field_id: 'docs', path: copied.data.docs[0].path }, undefined, copied.id);
    expect(Buffer.from(got.body.data, 'base64').toString()).toBe('shared?');
  });

  it('unknown paths and another account\'s paths are refused', async () => {
    const unknown = await createRecord({ docs: [{ name: 'x', path: `/s${spaceId}/${'0'.repeat(32)}-x`, type: 'text/plain', size: 1, host: 'localhost' }] });
    expect(unknown.error.message).toMatch(/no attachment has the path/);
    const other = await createAccount(ctx);
    const otherSpace = (await createSpace(ctx, other, 'Theirs')).id;
    const otherTable = (await createTable(ctx, other, otherSpace, { name: 'T', fields: [{ id: 'docs', name: 'Docs', type: 'file' }] })).id;
    const theirs = (await call(ctx, 'POST', `/api/table/${otherTable}/records/create`, { key: other.accountKey, body: { data: { docs: [{ data: text('secret'), name: 'secret.txt' }] } } })).body.data.docs[0];
    const stolen = await post(`/api/table/${tableId}/records/create`, { data: { docs: [theirs] } });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error.message).toMatch(/no attachment has the path/);
  });

  it('a space without file storage refuses uploads with 400 File storage not configured', async () => {
    const bare = (await post('/api/spaces/create', { name: 'No files', storage: { kind: 'none' } })).body.id;
    const table = (await createTable(ctx, world, bare, { name: 'T', fields: [{ id: 'docs', name: 'Docs', type: 'file' }] })).id;
    const id = (await post(`/api/table/${table}/records/create`, { data: {} })).body.id;
    const answer = await files('create', { field_id: 'docs', name: 'x', data: text('x') }, undefined, id, table);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe('File storage not configured');
  });

  it('deleting a record keeps its files while it is in the trash; the purge queues them; the sweep deletes them only after 30 more days', async () => {
    const record = await createRecord({ docs: [{ data: text('bye'), name: 'bye.txt' }] });
    const blobs = blobsOn(ctx.database.dataDir).length;
    await post(`/api/table/${tableId}/record/${record.id}/delete`, {});
    const reclaim = ctx.container.services.reclaim;
    expect((await reclaim.listPending()).map((f) => f.path)).not.toContain(record.data.docs[0].path);
    expect(await ctx.container.services.records.purgeTrash(new Date(nowMs + 31 * 24 * 3600 * 1000))).toBe(1);
    expect((await reclaim.listPending()).map((f) => f.path)).toContain(record.data.docs[0].path);
    expect((await reclaim.sweep()).deleted).toBe(0);
    expect(blobsOn(ctx.database.dataDir).length).toBe(blobs);
    nowMs += 31 * 24 * 3600 * 1000;
    const report = await reclaim.sweep();
    expect(report.deleted).toBeGreaterThanOrEqual(1);
    expect(blobsOn(ctx.database.dataDir).length).toBeLessThan(blobs);
    expect((await reclaim.listPending()).map((f) => f.path)).not.toContain(record.data.docs[0].path);
  });
});
