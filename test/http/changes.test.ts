import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { testEngine } from '../test-database.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, login, type World } from '../factories.js';

/**
 * The change log (CONTRACT section 7): every write route appends exactly one change per record
 * it changed, in the write's transaction; history, trash and restore read and use it.
 */

const text = (content: string) => Buffer.from(content).toString('base64');

interface Change {
  seq: number;
  kind: string;
  table_id: number;
  space_id: number;
  record_id: number;
  comment_id?: number;
  at: string;
  actor: { user_id: number | null; api_key_id: number | null; name: string };
  fields: string[];
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

describe('changes: the log, history, trash and restore', () => {
  let nowMs = Date.parse('2026-11-01T10:00:00Z');
  const ctx = useTestApp({ clock: { now: () => new Date(nowMs) } });
  let world: World;
  let stranger: World;
  let spaceId: number;
  let tableId: number;
  let readerKey: string;
  let readOnlyKey: string;
  let readerCookie: string;

  const post = (url: string, body: unknown = {}, key: string = world.accountKey) => call(ctx, 'POST', url, { key, body });
  const changesAfter = async (after: number, table = tableId): Promise<Change[]> => {
    const response = await post(`/api/table/${table}/changes/list`, { after, limit: 1000 });
    expect(response.status).toBe(200);
    return response.body.changes;
  };
  const lastSeq = async () => (await ctx.container.services.unit.settleQueued(), Number((await ctx.container.database.db.selectFrom('changes').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst())?.seq ?? 0));
  const create = async (data: Record<string, unknown>) => (await post(`/api/table/${tableId}/records/create`, { data })).body as { id: number; created_at: string; data: Record<string, any> };

  beforeAll(async () => {
    world = await createAccount(ctx);
    stranger = await createAccount(ctx);
    spaceId = (await createSpace(ctx, world, 'Changes')).id;
    tableId = (
      await createTable(ctx, world, spaceId, {
        name: 'Deals',
        fields: [
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'amount', name: 'Amount', type: 'number' },
          { id: 'stage', name: 'Stage', type: 'select', options: [{ value: 'lead' }, { value: 'won' }] },
          { id: 'docs', name: 'Docs', type: 'file' },
        ],
      })
    ).id;
    const reader = await createUser(ctx, world, 'Reader');
    await addMember(ctx, world, spaceId, reader.id, 'reader');
    readerKey = (await createKey(ctx, { userId: reader.id })).key;
    readerCookie = await login(ctx, reader.email, 'user-password');
    readOnlyKey = (await createKey(ctx, { accountId: world.accountId, readOnly: true })).key;
  });

  it('every write route appends exactly one change per record it changed, of the right kind', async () => {
    const [a, b] = [await create({ name: 'a' }), await create({ name: 'b' })];
    const comment = (await post(`/api/table/${tableId}/record/${a.id}/comments/create`, { content: 'first' })).body;
    const routes: Array<{ name: string; run: () => Promise<unknown>; kinds: string[] }> = [
      { name: 'records/create', run: () => post(`/api/table/${tableId}/records/create`, { data: { name: 'c' } }), kinds: ['record.created'] },
      { name: 'update', run: () => post(`/api/table/${tableId}/record/${a.id}/update`, { data: { amount: 5 } }), kinds: ['record.updated'] },
      { name: 'records/create_batch', run: () => post(`/api/table/${tableId}/records/create_batch`, { records: [{ data: { name: 'x' } }, { data: { name: 'y' } }, { data: {} }] }), kinds: ['record.created', 'record.created', 'record.created'] },
      { name: 'records/update_batch', run: () => post(`/api/table/${tableId}/records/update_batch`, { records: [{ id: a.id, data: { amount: 6 } }, { id: b.id, data: { amount: 7 } }] }), kinds: ['record.updated', 'record.updated'] },
      { name: 'records/upsert_batch', run: () => post(`/api/table/${tableId}/records/upsert_batch`, { match_on: ['name'], records: [{ data: { name: 'a', stage: 'won' } }, { data: { name: 'fresh' } }] }), kinds: ['record.created', 'record.updated'] },
      { name: 'files/create', run: () => post(`/api/table/${tableId}/record/${a.id}/files/create`, { field_id: 'docs', name: 'n.txt', data: text('hello') }), kinds: ['record.updated'] },
      {
        name: 'files/upload',
        run: () => ctx.app.inject({ method: 'POST', url: `/api/table/${tableId}/record/${b.id}/files/upload?field_id=docs&name=u.txt`, headers: { authorization: `Bearer ${world.accountKey}`, 'content-type': 'application/octet-stream' }, payload: Buffer.from('raw') }),
        kinds: ['record.updated'],
      },
      {
        name: 'files/delete',
        run: async () => {
          const path = (await call(ctx, 'GET', `/api/table/${tableId}/record/${a.id}/get`, { key: world.accountKey })).body.data.docs[0].path;
          return post(`/api/table/${tableId}/record/${a.id}/files/delete`, { field_id: 'docs', path });
        },
        kinds: ['record.updated'],
      },
      { name: 'comments/create', run: () => post(`/api/table/${tableId}/record/${a.id}/comments/create`, { content: 'hello' }), kinds: ['comment.created'] },
      { name: 'comments/createEmailComment', run: () => post(`/api/table/${tableId}/record/${a.id}/comments/createEmailComment`, { from: { email: 'x@example.com' }, to: ['y@example.com'], subject: 'Hi', body: 'mail' }), kinds: ['comment.created'] },
      { name: 'comment/update', run: () => post(`/api/table/${tableId}/record/${a.id}/comment/${comment.id}/update`, { content: 'edited' }), kinds: ['comment.updated'] },
      { name: 'comment/delete', run: () => post(`/api/table/${tableId}/record/${a.id}/comment/${comment.id}/delete`), kinds: ['comment.deleted'] },
      { name: 'delete', run: () => post(`/api/table/${tableId}/record/${b.id}/delete`), kinds: ['record.deleted'] },
      { name: 'records/delete_batch', run: () => post(`/api/table/${tableId}/records/delete_batch`, { record_ids: [a.id, 999999] }), kinds: ['record.deleted'] },
      { name: 'records/restore', run: () => post(`/api/table/${tableId}/records/restore`, { ids: [a.id, b.id, 999999] }), kinds: ['record.restored', 'record.restored'] },
    ];
    // Every write route of a record or a comment is here: the document's POST routes of those
    // tags, but for those that only read (or store a file for a comment to come), and
    // validate_batch, which writes nothing (below: it appends nothing).
    const reads = new Set(['records/query', 'records/count', 'records/ids', 'records/export', 'records/trash', 'changes/list', 'history', 'files/get', 'comments/files/get', 'comments/upload', 'records/validate_batch']);
    const document = (await call(ctx, 'GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, { tags?: string[] }>> };
    const writeRoutes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method, operation]) => method === 'post' && operation.tags?.some((tag) => ['records', 'files', 'comments'].includes(tag)))
        .map(() => path.replace(/^\/api\/table\/\{tid\}\/(record\/\{rid\}\/)?/, '').replace('comment/{cid}/', 'comment/')),
    ).filter((route) => !reads.has(route));
    expect(new Set(writeRoutes)).toEqual(new Set(routes.map((route) => route.name)));
    for (const route of routes) {
      const before = await lastSeq();
      const response = (await route.run()) as { status?: number; statusCode?: number; body?: unknown };
      expect(response.status ?? response.statusCode, route.name).toBe(200);
      const appended = await changesAfter(before);
      expect(appended.map((change) => change.kind).sort(), route.name).toEqual([...route.kinds].sort());
      expect(new Set(appended.map((change) => `${change.record_id}:${change.comment_id ?? ''}`)).size, route.name).toBe(appended.length);
    }
  });

  it('a write that fails, or changes nothing, appends nothing; nor does validate_batch', async () => {
    const record = await create({ name: 'same', amount: 1 });
    const before = await lastSeq();
    expect((await post(`/api/table/${tableId}/records/validate_batch`, { records: [{ data: { name: 'ok' } }, { data: { amount: 3 } }] })).body).toEqual({ errors: [] });
    expect((await post(`/api/table/${tableId}/records/validate_batch`, { records: [{ data: { name: 'ok' } }, { data: { amount: 'x' } }] })).body.errors).toHaveLength(1);
    expect((await post(`/api/table/${tableId}/record/${record.id}/update`, { data: { name: 'same', amount: 1 } })).status).toBe(200);
    expect((await post(`/api/table/${tableId}/record/${record.id}/update`, { data: { nope: 1 } })).status).toBe(400);
    expect((await post(`/api/table/${tableId}/records/create_batch`, { records: [{ data: { name: 'ok' } }, { data: { amount: 'x' } }] })).status).toBe(400);
    expect((await post(`/api/table/${tableId}/records/update_batch`, { records: [{ id: record.id, data: { amount: 2 } }, { id: 999999, data: {} }] })).status).toBe(400);
    expect((await post(`/api/table/${tableId}/record/999999/delete`)).status).toBe(400);
    expect((await post(`/api/table/${tableId}/records/restore`, { ids: [record.id] })).body).toEqual({ restored: [], not_found: [record.id] });
    expect((await post(`/api/table/${tableId}/record/${record.id}/update`, { data: { amount: 2 } }, readOnlyKey)).status).toBe(403);
    expect(await changesAfter(before)).toEqual([]);
  });

  it('a change names the actor and holds only the changed fields, before and after, in read form', async () => {
    const record = await create({ name: 'Ada', amount: 1, stage: 'lead' });
    const before = await lastSeq();
    await post(`/api/table/${tableId}/record/${record.id}/update`, { data: { name: 'Ada', amount: 2, stage: 'won' } });
    const [change] = await changesAfter(before);
    expect(change).toMatchObject({
      kind: 'record.updated',
      table_id: tableId,
      space_id: spaceId,
      record_id: record.id,
      at: '2026-11-01 10:00:00',
      fields: ['amount', 'stage'],
      before: { amount: 1, stage: 'lead' },
      after: { amount: 2, stage: 'won' },
    });
    expect(change.actor.name).toMatch(/^API: /);
    expect(change.actor.api_key_id).toEqual(expect.any(Number));
    expect(change).not.toHaveProperty('comment_id');
    const created = (await changesAfter(before - 1)).find((c) => c.kind === 'record.created' && c.record_id === record.id)!;
    expect(created).toMatchObject({ before: {}, after: { name: 'Ada', amount: 1, stage: 'lead' } });
    expect(created.fields.sort()).toEqual(['amount', 'name', 'stage']);
    const deletedAt = await lastSeq();
    await post(`/api/table/${tableId}/record/${record.id}/delete`);
    const [deleted] = await changesAfter(deletedAt);
    expect(deleted).toMatchObject({ kind: 'record.deleted', before: { name: 'Ada', amount: 2, stage: 'won' }, after: {} });
  });

  it('values that need other rows to read (users, lookups) are shown in read form, on update and delete', async () => {
    const target = (await createTable(ctx, world, spaceId, { name: 'Companies', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
    const acme = (await post(`/api/table/${target}/records/create`, { data: { name: 'Acme' } })).body.id;
    const table = (await createTable(ctx, world, spaceId, { name: 'People', fields: [{ id: 'name', name: 'Name', type: 'text' }, { id: 'owner', name: 'Owner', type: 'user' }, { id: 'company', name: 'Company', type: 'lookup', table_id: target }] })).id;
    const person = (await post(`/api/table/${table}/records/create`, { data: { name: 'Bo', company: acme } })).body.id;
    const before = await lastSeq();
    expect((await post(`/api/table/${table}/record/${person}/update`, { data: { owner: world.ownerId } })).status).toBe(200);
    expect((await post(`/api/table/${table}/record/${person}/delete`)).status).toBe(200);
    const [updated, deleted] = await changesAfter(before, table);
    expect(updated).toMatchObject({ kind: 'record.updated', fields: ['owner'], before: {}, after: { owner: { id: world.ownerId, email: world.ownerEmail, name: 'Owner' } } });
    expect(deleted).toMatchObject({ kind: 'record.deleted', before: { name: 'Bo', owner: { id: world.ownerId }, company: { id: acme, title: 'Acme' } }, after: {} });
  });

  it('a session change shows its user by name', async () => {
    const owner = await login(ctx, world.ownerEmail, world.ownerPassword);
    const record = await create({ name: 'by session' });
    const before = await lastSeq();
    const response = await call(ctx, 'POST', `/api/table/${tableId}/record/${record.id}/update`, { cookie: owner, body: { data: { amount: 9 } } });
    expect(response.status).toBe(200);
    const [change] = await changesAfter(before);
    expect(change.actor).toEqual({ user_id: world.ownerId, api_key_id: null, name: 'Owner' });
    expect(readerCookie).toBeTruthy();
  });

  it('changes/list pages in seq order with next_after, and checks its body', async () => {
    const start = await lastSeq();
    for (const name of ['p1', 'p2', 'p3']) await create({ name });
    const first = await post(`/api/table/${tableId}/changes/list`, { after: start, limit: 2 });
    expect(first.body.changes.map((c: Change) => c.after.name)).toEqual(['p1', 'p2']);
    const second = await post(`/api/table/${tableId}/changes/list`, { after: first.body.next_after, limit: 2 });
    expect(second.body.changes.map((c: Change) => c.after.name)).toEqual(['p3']);
    const third = await post(`/api/table/${tableId}/changes/list`, { after: second.body.next_after });
    expect(third.body).toEqual({ changes: [], next_after: second.body.next_after });
    for (const body of [{ limit: 0 }, { limit: 1001 }, { after: -1 }, { after: 'x' }, { nope: 1 }]) {
      const response = await post(`/api/table/${tableId}/changes/list`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.message).toMatch(/^Invalid parameters/);
    }
  });

  it("a batch's changes are in the log in the batch's order, one seq each, their values as written", async () => {
    const start = await lastSeq();
    // More than one insert statement holds (128 rows), and values that must reach the log as written.
    const hostile = ['quote " here', 'back\\slash', '{braces}', 'a,b', 'NULL', 'line\nbreak', 'émoji 🎉', "it's", ''];
    const names = Array.from({ length: 300 }, (_, n) => `${hostile[n % hostile.length]} ${n}`);
    const created = (await post(`/api/table/${tableId}/records/create_batch`, { records: names.map((name) => ({ data: { name } })) })).body as Array<{ id: number }>;
    const changes = await changesAfter(start);
    expect(changes.map((change) => change.record_id)).toEqual(created.map((record) => record.id));
    expect(changes.map((change) => change.after.name)).toEqual(names);
    expect(new Set(changes.map((change) => change.kind))).toEqual(new Set(['record.created']));
    expect(changes.every((change, n) => n === 0 || change.seq === changes[n - 1].seq + 1)).toBe(true);
    expect(changes.every((change) => change.actor.api_key_id !== null && change.table_id === tableId && change.space_id === spaceId)).toBe(true);
  });

  it('history: newest first, comments included, paged with before', async () => {
    const record = await create({ name: 'h0' });
    await post(`/api/table/${tableId}/record/${record.id}/update`, { data: { name: 'h1' } });
    await post(`/api/table/${tableId}/record/${record.id}/comments/create`, { content: 'note' });
    await post(`/api/table/${tableId}/record/${record.id}/update`, { data: { name: 'h2' } });
    const history = await post(`/api/table/${tableId}/record/${record.id}/history`, {});
    expect(history.status).toBe(200);
    expect(history.body.map((c: Change) => c.kind)).toEqual(['record.updated', 'comment.created', 'record.updated', 'record.created']);
    const page = await post(`/api/table/${tableId}/record/${record.id}/history`, { limit: 2 });
    const next = await post(`/api/table/${tableId}/record/${record.id}/history`, { limit: 2, before: page.body[1].seq });
    expect(next.body.map((c: Change) => c.kind)).toEqual(['record.updated', 'record.created']);
    expect((await post(`/api/table/${tableId}/record/${record.id}/history`, {}, readerKey)).status).toBe(200);
    expect((await post(`/api/table/${tableId}/record/999999/history`, {})).body.error.message).toBe('Record not found');
  });

  it('trash and restore keep the id, values, files and comments; trashed records are in no query', async () => {
    const record = await create({ name: 'keep me', amount: 3, docs: [{ name: 'f.txt', data: text('file body') }] });
    await post(`/api/table/${tableId}/record/${record.id}/comments/create`, { content: 'still here' });
    const totalBefore = (await post(`/api/table/${tableId}/records/count`, {})).body.total;
    expect((await post(`/api/table/${tableId}/record/${record.id}/delete`)).body).toEqual({ id: record.id, deleted: true });
    expect((await post(`/api/table/${tableId}/records/count`, {})).body.total).toBe(totalBefore - 1);
    expect((await post(`/api/table/${tableId}/records/ids`, {})).body).not.toContain(record.id);
    expect((await post(`/api/table/${tableId}/records/query`, { search: 'keep me' })).body).toEqual([]);
    expect((await call(ctx, 'GET', `/api/table/${tableId}/record/${record.id}/get`, { key: world.accountKey })).body.error.message).toBe('Record not found');
    const trash = await post(`/api/table/${tableId}/records/trash`, {}, readerKey);
    expect(trash.status).toBe(200);
    expect(trash.body[0]).toMatchObject({ id: record.id, title: 'keep me', deleted_at: '2026-11-01 10:00:00', data: { name: 'keep me', amount: 3 } });
    expect(trash.body[0].deleted_by.name).toMatch(/^API: /);
    expect((await post(`/api/table/${tableId}/records/restore`, { ids: [record.id] }, readerKey)).status).toBe(403);
    expect((await post(`/api/table/${tableId}/records/restore`, { ids: [record.id] }, readOnlyKey)).status).toBe(403);
    expect((await post(`/api/table/${tableId}/records/restore`, { ids: [record.id] })).body).toEqual({ restored: [record.id], not_found: [] });
    const back = (await call(ctx, 'GET', `/api/table/${tableId}/record/${record.id}/get`, { key: world.accountKey })).body;
    expect(back).toMatchObject({ id: record.id, created_at: record.created_at, data: { name: 'keep me', amount: 3, docs: record.data.docs } });
    const file = await post(`/api/table/${tableId}/record/${record.id}/files/get`, { field_id: 'docs', path: record.data.docs[0].path });
    expect(Buffer.from(file.body.data, 'base64').toString()).toBe('file body');
    const comments = await call(ctx, 'GET', `/api/table/${tableId}/record/${record.id}/comments/get`, { key: world.accountKey });
    expect(comments.body.map((c: { content: string }) => c.content)).toContain('still here');
    expect((await post(`/api/table/${tableId}/records/query`, { search: 'keep me' })).body.map((r: { id: number }) => r.id)).toEqual([record.id]);
    expect((await post(`/api/table/${tableId}/records/count`, {})).body.total).toBe(totalBefore);
  });

  it('the purge removes what was deleted more than 30 days ago, with its comments; its files go to reclaim', async () => {
    const record = await create({ name: 'old', docs: [{ name: 'old.txt', data: text('old') }] });
    await post(`/api/table/${tableId}/record/${record.id}/comments/create`, { content: 'bye' });
    await post(`/api/table/${tableId}/record/${record.id}/delete`);
    nowMs += 29 * 24 * 3600 * 1000;
    expect(await ctx.container.services.records.purgeTrash()).toBe(0);
    nowMs += 2 * 24 * 3600 * 1000;
    expect(await ctx.container.services.records.purgeTrash()).toBeGreaterThanOrEqual(1);
    expect((await post(`/api/table/${tableId}/records/trash`, { limit: 1000 })).body.map((r: { id: number }) => r.id)).not.toContain(record.id);
    expect((await post(`/api/table/${tableId}/records/restore`, { ids: [record.id] })).body).toEqual({ restored: [], not_found: [record.id] });
    expect((await ctx.container.services.reclaim.listPending()).map((f) => f.path)).toContain(record.data.docs[0].path);
    const comments = await ctx.container.database.db.selectFrom('comments').select('id').where('table_id', '=', tableId).where('record_id', '=', record.id).execute();
    expect(comments).toEqual([]);
    // A new record never takes a purged id.
    expect((await create({ name: 'new' })).id).toBeGreaterThan(record.id);
  });

  it('another account, a hidden table or a missing key: as if the table did not exist', async () => {
    const record = await create({ name: 'private' });
    for (const [url, body] of [
      [`/api/table/${tableId}/changes/list`, {}],
      [`/api/table/${tableId}/record/${record.id}/history`, {}],
      [`/api/table/${tableId}/records/trash`, {}],
      [`/api/table/${tableId}/records/restore`, { ids: [record.id] }],
    ] as const) {
      const response = await post(url, body, stranger.accountKey);
      expect({ url, status: response.status, message: response.body.error?.message }).toEqual({ url, status: 400, message: 'Invalid Table' });
      expect((await call(ctx, 'POST', url, { body })).status).toBe(401);
      expect((await post(url, body, 'tbk_not_a_key')).status).toBe(401);
    }
    const otherSpace = (await createSpace(ctx, world, 'Elsewhere')).id;
    const limited = (await createKey(ctx, { accountId: world.accountId, spaceIds: [otherSpace] })).key;
    expect((await post(`/api/table/${tableId}/changes/list`, {}, limited)).body.error.message).toBe('Invalid Table');
  });

  it('concurrent updates of one record all succeed, each with its change, before = the value it replaced', async () => {
    const record = await create({ name: 'hot', amount: 0 });
    const writers = 16;
    const answers = await Promise.all(Array.from({ length: writers }, (_, n) => post(`/api/table/${tableId}/record/${record.id}/update`, { data: { amount: n + 1 } })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(writers).fill(200));
    const history = ((await post(`/api/table/${tableId}/record/${record.id}/history`, { limit: 100 })).body as Change[]).reverse();
    const updates = history.filter((change) => change.kind === 'record.updated');
    expect(updates).toHaveLength(writers);
    // A chain: each change's before is the previous one's after.
    let amount: unknown = 0;
    for (const change of updates) {
      expect(change.before.amount ?? 0).toBe(amount);
      amount = change.after.amount;
    }
  });

  it.skipIf(testEngine !== 'postgres')('a change a stopped process left queued after its commit reaches the log at the next sequencer run (or read)', async () => {
    const record = await create({ name: 'queued' });
    const [created] = (await changesAfter((await lastSeq()) - 1)).filter((change) => change.record_id === record.id);
    const { seq: _seq, ...row } = (await ctx.container.database.db.selectFrom('changes').selectAll().where('seq', '=', created.seq).executeTakeFirstOrThrow()) as Record<string, unknown>;
    // The create's background run may still be due (runs are spaced 25 ms apart): run it now, so that only sequencePending moves what follows.
    await ctx.container.services.unit.drain();
    // As if a process committed this write and died before its sequencer run.
    await ctx.container.database.db.insertInto('change_queue').values({ ...row, kind: 'record.updated', payload_json: '{"fields":["name"],"before":{"name":"queued"},"after":{"name":"left behind"}}' } as never).execute();
    const logged = async () => Number((await ctx.container.database.db.selectFrom('changes').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst())?.seq ?? 0);
    const before = await logged();
    await ctx.container.services.unit.sequencePending();
    expect(await logged()).toBe(before + 1);
    const [left] = await changesAfter(before);
    expect(left).toMatchObject({ kind: 'record.updated', record_id: record.id, after: { name: 'left behind' } });
    expect(await ctx.container.database.db.selectFrom('change_queue').selectAll().execute()).toEqual([]);
  });

  it('concurrent writers: a reader polling mid-flight sees seqs only grow and misses none', async () => {
    const table = (await createTable(ctx, world, spaceId, { name: 'Busy', fields: [{ id: 'n', name: 'N', type: 'number' }] })).id;
    const seeded = (await post(`/api/table/${table}/records/create_batch`, { records: Array.from({ length: 8 }, (_, n) => ({ data: { n } })) })).body as Array<{ id: number }>;
    const start = await lastSeq();
    let writing = true;
    const seen: number[] = [];
    const poller = (async () => {
      let after = start;
      while (writing || after < (await lastSeq())) {
        const page = await post(`/api/table/${table}/changes/list`, { after, limit: 50 });
        for (const change of page.body.changes as Change[]) seen.push(change.seq);
        after = page.body.next_after;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
    const writers = Array.from({ length: 8 }, (_, w) =>
      (async () => {
        for (let round = 0; round < 6; round++) {
          if ((w + round) % 3 === 0) await post(`/api/table/${table}/records/create_batch`, { records: [{ data: { n: round } }, { data: { n: round + 1 } }] });
          else if ((w + round) % 3 === 1) await post(`/api/table/${table}/record/${seeded[w].id}/update`, { data: { n: 1000 * w + round } });
          else await post(`/api/table/${table}/records/create`, { data: { n: -round } });
        }
      })(),
    );
    await Promise.all(writers);
    writing = false;
    await poller;
    const all = (await changesAfter(start, table)).map((change) => change.seq);
    expect(seen).toEqual(all);
    expect([...seen].sort((x, y) => x - y)).toEqual(seen);
    expect(all.length).toBe(8 * 6 + 8 * 2);
  });
});
