import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, type Response, type World } from '../factories.js';

/**
 * An attachment path copies a file only when the caller can read that file (docs/decisions.md
 * "No attachment path crosses into a space the caller cannot read"): through every write route
 * that takes file values, a path of a space the caller cannot see answers exactly as a path that
 * names no file, so nothing tells the two apart.
 */

interface Attachment {
  name: string;
  path: string;
  type: string;
  size: number;
  host: string;
}

const text = (content: string) => Buffer.from(content).toString('base64');

describe('attachment paths never cross into a space the caller cannot read', () => {
  const ctx = useTestApp();
  let world: World;
  let ours: number;
  let theirs: number;
  let ourTable: number;
  let theirTable: number;
  let ourRecord: number;
  let secret: Attachment;
  /** A path of the same shape naming no file at all. */
  let nowhere: Attachment;
  let editorOfOursOnly: string;
  let keyOfOursOnly: string;
  let readerOfTheirs: string;

  const post = (url: string, body: unknown, key: string) => call(ctx, 'POST', url, { key, body });

  /** Every write route taking file values, each writing `attachment` into a record (or comment) of our table. */
  const writeRoutes: Record<string, (attachment: Attachment, key: string) => Promise<Response>> = {
    'records/create': (a, key) => post(`/api/table/${ourTable}/records/create`, { data: { docs: [a] } }, key),
    'record/update': (a, key) => post(`/api/table/${ourTable}/record/${ourRecord}/update`, { data: { docs: [a] } }, key),
    'records/create_batch': (a, key) => post(`/api/table/${ourTable}/records/create_batch`, { records: [{ data: { name: 'batch' } }, { data: { docs: [a] } }] }, key),
    'records/update_batch': (a, key) => post(`/api/table/${ourTable}/records/update_batch`, { records: [{ id: ourRecord, data: { docs: [a] } }] }, key),
    'records/upsert_batch': (a, key) => post(`/api/table/${ourTable}/records/upsert_batch`, { match_on: ['name'], records: [{ data: { name: 'upserted', docs: [a] } }] }, key),
    'comments/create': (a, key) => post(`/api/table/${ourTable}/record/${ourRecord}/comments/create`, { content: 'see attached', attachments: [a] }, key),
    'comments/createEmailComment': (a, key) => post(`/api/table/${ourTable}/record/${ourRecord}/comments/createEmailComment`, { from: { email: 'someone@example.com' }, subject: 'Hello', attachments: [a] }, key),
  };

  /** The answer with the path taken out: what tells one refused path from another. */
  const withoutPath = (response: Response, path: string) => ({ status: response.status, body: JSON.parse(JSON.stringify(response.body).split(path).join('<path>')) });

  const ourRecordDocs = async () => (await call(ctx, 'GET', `/api/table/${ourTable}/record/${ourRecord}/get`, { key: world.accountKey })).body.data.docs as Attachment[];

  beforeAll(async () => {
    world = await createAccount(ctx);
    ours = (await createSpace(ctx, world, 'Ours')).id;
    theirs = (await createSpace(ctx, world, 'Theirs')).id;
    const fields = [
      { id: 'name', name: 'Name', type: 'text' },
      { id: 'docs', name: 'Docs', type: 'file' },
    ];
    ourTable = (await createTable(ctx, world, ours, { name: 'Ours', fields })).id;
    theirTable = (await createTable(ctx, world, theirs, { name: 'Theirs', fields })).id;
    ourRecord = (await post(`/api/table/${ourTable}/records/create`, { data: { name: 'mine' } }, world.accountKey)).body.id;
    const held = await post(`/api/table/${theirTable}/records/create`, { data: { docs: [{ data: text('the secret'), name: 'secret.txt' }] } }, world.accountKey);
    secret = held.body.data.docs[0];
    expect(secret.path.startsWith(`/s${theirs}/`)).toBe(true);
    nowhere = { ...secret, path: `/s${theirs}/${'0'.repeat(32)}-secret.txt` };

    const editor = await createUser(ctx, world, 'Editor of ours');
    await addMember(ctx, world, ours, editor.id, 'editor');
    editorOfOursOnly = (await createKey(ctx, { userId: editor.id })).key;
    keyOfOursOnly = (await createKey(ctx, { accountId: world.accountId, spaceIds: [ours] })).key;
    const reader = await createUser(ctx, world, 'Editor of ours, reader of theirs');
    await addMember(ctx, world, ours, reader.id, 'editor');
    await addMember(ctx, world, theirs, reader.id, 'reader');
    readerOfTheirs = (await createKey(ctx, { userId: reader.id })).key;
  });

  for (const caller of ['an editor of our space only', 'an account key limited to our space'] as const) {
    for (const route of Object.keys(writeRoutes)) {
      it(`${route}, by ${caller}: a path of the other space answers exactly as a path naming no file`, async () => {
        const key = caller === 'an editor of our space only' ? editorOfOursOnly : keyOfOursOnly;
        const refused = await writeRoutes[route](secret, key);
        const missing = await writeRoutes[route](nowhere, key);
        expect(refused.status, JSON.stringify(refused.body)).toBe(400);
        expect(withoutPath(refused, secret.path)).toEqual(withoutPath(missing, nowhere.path));
        expect(await ourRecordDocs()).toEqual([]);
      });
    }
  }

  it('nothing of the refused writes reached a record: no record of our table holds a file', async () => {
    const all = await post(`/api/table/${ourTable}/records/query`, {}, world.accountKey);
    expect(all.body.map((record: { data: { docs: unknown[] } }) => record.data.docs)).toEqual(all.body.map(() => []));
  });

  it('a caller who can read the other space (a reader there) copies its file: a new path in our space, the same bytes', async () => {
    const copied = await writeRoutes['records/create'](secret, readerOfTheirs);
    expect(copied.status, JSON.stringify(copied.body)).toBe(200);
    const [copy] = copied.body.data.docs as Attachment[];
    expect(copy.path).not.toBe(secret.path);
    expect(copy.path.startsWith(`/s${ours}/`)).toBe(true);
    const got = await post(`/api/table/${ourTable}/record/${copied.body.id}/files/get`, { field_id: 'docs', path: copy.path }, readerOfTheirs);
    expect(got.body).toMatchObject({ name: 'secret.txt', data: text('the secret') });
  });

  it("the owner's unrestricted key copies across the account's spaces (the seed: copies within the same account)", async () => {
    for (const route of ['records/create', 'record/update', 'records/create_batch', 'records/update_batch', 'records/upsert_batch']) {
      const copied = await writeRoutes[route](secret, world.accountKey);
      expect(copied.status, `${route}: ${JSON.stringify(copied.body)}`).toBe(200);
    }
    const [copy] = await ourRecordDocs();
    expect(copy.path.startsWith(`/s${ours}/`)).toBe(true);
    expect(copy.path).not.toBe(secret.path);
  });

  it('a path of another account answers as a path naming no file too, even to an unrestricted key', async () => {
    const stranger = await createAccount(ctx);
    const strangerSpace = (await createSpace(ctx, stranger, 'Strangers')).id;
    const strangerTable = (await createTable(ctx, stranger, strangerSpace, { name: 'S', fields: [{ id: 'docs', name: 'Docs', type: 'file' }] })).id;
    const theirsAttachment = (await post(`/api/table/${strangerTable}/records/create`, { data: { docs: [{ data: text('x'), name: 'secret.txt' }] } }, stranger.accountKey)).body.data.docs[0] as Attachment;
    const refused = await writeRoutes['records/create'](theirsAttachment, world.accountKey);
    const missing = await writeRoutes['records/create']({ ...theirsAttachment, path: `/s${strangerSpace}/${'0'.repeat(32)}-secret.txt` }, world.accountKey);
    expect(refused.status).toBe(400);
    expect(withoutPath(refused, theirsAttachment.path)).toEqual(withoutPath(missing, `/s${strangerSpace}/${'0'.repeat(32)}-secret.txt`));
  });
});
