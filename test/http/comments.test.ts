import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, login, type World } from '../factories.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('comments: threads, uploads, e-mail, mentions, notifications, subscriptions', () => {
  let nowMs = Date.parse('2024-05-01T10:00:00Z');
  const ctx = useTestApp({ clock: { now: () => new Date(nowMs) } });
  let world: World;
  let spaceId: number;
  let tableId: number;
  let otherTableId: number;
  let recordId: number;
  let ada: { id: number; email: string; key: string; session: string };
  let bob: { id: number; email: string; key: string; session: string };
  let outsiderId: number;
  let readOnlyKey: string;

  const base = (record = recordId, table = tableId) => `/api/table/${table}/record/${record}`;
  const post = (url: string, body: unknown, key: string | null = world.accountKey, cookie?: string) => call(ctx, 'POST', url, { key: cookie ? null : key, cookie, body });
  const get = (url: string, key = world.accountKey) => call(ctx, 'GET', url, { key });
  const comment = (content: string, extra: Record<string, unknown> = {}, key?: string, record?: number) => post(`${base(record)}/comments/create`, { content, ...extra }, key);
  const upload = (name: string, data: string, record?: number, table?: number) => post(`${base(record, table)}/comments/upload`, { name, type: 'text/plain', data: b64(data) });
  const notificationsOf = async (who: { key: string }) => (await post('/api/notifications/list', {}, who.key)).body;

  async function member(name: string, role: 'editor' | 'admin' | 'reader' = 'editor') {
    const user = await createUser(ctx, world, name);
    await addMember(ctx, world, spaceId, user.id, role);
    return { id: user.id, email: user.email, key: (await createKey(ctx, { userId: user.id, name: `${name}'s key` })).key, session: await login(ctx, user.email, 'user-password') };
  }

  beforeAll(async () => {
    world = await createAccount(ctx);
    spaceId = (await createSpace(ctx, world, 'Talk')).id;
    tableId = (await createTable(ctx, world, spaceId, { name: 'Tasks', fields: [{ id: 'name', name: 'Name', type: 'text' }, { id: 'docs', name: 'Docs', type: 'file' }] })).id;
    otherTableId = (await createTable(ctx, world, spaceId, { name: 'Other', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
    recordId = (await post(`/api/table/${tableId}/records/create`, { data: { name: 'first' } })).body.id;
    ada = await member('Ada');
    bob = await member('Bob');
    outsiderId = (await createUser(ctx, world, 'Outsider')).id;
    readOnlyKey = (await createKey(ctx, { accountId: world.accountId, readOnly: true })).key;
  });

  it('an API key posts as the key: user_id 0, "API: <key name>", api_key_id', async () => {
    const created = await comment('Hello', {}, ada.key);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ table_id: tableId, record_id: recordId, user_id: 0, user_name: "API: Ada's key", content: 'Hello', attachments: [], type: 'comment', status: null, updated_at: null, created_at: '2024-05-01 10:00:00' });
    expect(created.body.api_key_id).toEqual(expect.any(Number));
  });

  it('a session posts as its user, with api_key_id null', async () => {
    const created = await post(`${base()}/comments/create`, { content: 'From a session' }, null, bob.session);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ user_id: bob.id, user_name: 'Bob', api_key_id: null });
  });

  it('pages from the newest: each page oldest to newest, equal timestamps never repeated or skipped', async () => {
    const record = (await post(`/api/table/${tableId}/records/create`, { data: { name: 'paged' } })).body.id;
    for (let i = 1; i <= 45; i++) await comment(`c${i}`, {}, undefined, record);
    const page = async (limit: number, offset: number) => (await get(`${base(record)}/comments/get?limit=${limit}&offset=${offset}`)).body.map((c: { content: string }) => c.content);
    expect(await page(3, 0)).toEqual(['c43', 'c44', 'c45']);
    expect(await page(3, 3)).toEqual(['c40', 'c41', 'c42']);
    const seen: string[] = [];
    for (let offset = 0; offset < 45; offset += 7) seen.unshift(...(await page(7, offset)));
    expect(seen).toEqual(Array.from({ length: 45 }, (_, i) => `c${i + 1}`));
    expect((await get(`${base(record)}/comments/get`)).body).toHaveLength(20);
    for (const query of ['limit=0', 'limit=101', 'offset=-1', 'limit=x']) expect((await get(`${base(record)}/comments/get?${query}`)).status).toBe(400);
  });

  it('content may be empty only with an attachment; attachments only from comments/upload of the same table', async () => {
    expect((await comment('')).body.error.message).toMatch(/content/);
    const file = (await upload('note.txt', 'attached')).body;
    expect(file).toMatchObject({ name: 'note.txt', type: 'text/plain', size: 8, path: expect.stringMatching(/^\/s\d+\//) });
    const withFile = await comment('', { attachments: [file] });
    expect(withFile.status).toBe(200);
    expect(withFile.body.attachments).toEqual([file]);
    // Used once: an upload is one comment's.
    expect((await comment('again', { attachments: [file] })).status).toBe(400);
    const foreign = (await upload('x.txt', 'x', (await post(`/api/table/${otherTableId}/records/create`, { data: {} })).body.id, otherTableId)).body;
    const fromOtherTable = await comment('x', { attachments: [foreign] });
    expect(fromOtherTable.status).toBe(400);
    expect(fromOtherTable.body.error.message).toContain(foreign.path);
    const fieldFile = (await post(`/api/table/${tableId}/records/create`, { data: { docs: [{ data: b64('in a field'), name: 'f.txt' }] } })).body.data.docs[0];
    expect((await comment('x', { attachments: [fieldFile] })).status).toBe(400);
    expect((await comment('x', { attachments: [{ path: '../../etc/passwd' }] })).body.error.message).toMatch(/unsafe path/);
    const got = await post(`${base()}/comments/files/get`, { comment_id: withFile.body.id, path: file.path });
    expect(got.body).toEqual({ name: 'note.txt', type: 'text/plain', size: 8, data: b64('attached') });
    expect((await post(`${base()}/comments/files/get`, { comment_id: withFile.body.id, path: fieldFile.path })).body.error.message).toBe('Attachment not found');
  });

  it('uploads need file storage: File storage not configured', async () => {
    const bare = (await post('/api/spaces/create', { name: 'No storage', storage: { kind: 'none' } })).body.id;
    const table = (await createTable(ctx, world, bare, { name: 'T' })).id;
    const record = (await post(`/api/table/${table}/records/create`, { data: {} })).body.id;
    const answer = await upload('x.txt', 'x', record, table);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toBe('File storage not configured');
  });

  it('mentions notify current members once and subscribe them; unknown and non-member ids are ignored', async () => {
    const created = await comment(`Look @{${ada.id}:Ada} @{${outsiderId}:Out} @{999999:Ghost} @{${ada.id}:Ada again}`, {}, bob.key);
    expect(created.body.content).toContain(`@{${ada.id}:Ada}`);
    const mine = (await notificationsOf(ada)).filter((n: { kind: string; comment_id: number }) => n.comment_id === created.body.id);
    expect(mine).toEqual([expect.objectContaining({ kind: 'comment.mention', table_id: tableId, record_id: recordId, comment_id: created.body.id, read: false })]);
    expect((await post(`/api/subscriptions/${tableId}/status`, { record_id: recordId }, ada.key)).body).toEqual({ table: false, record: true });
    // An edit adding a mention notifies only the newly mentioned.
    const before = (await notificationsOf(ada)).length;
    const edited = await post(`${base()}/comment/${created.body.id}/update`, { content: `${created.body.content} and @{${world.ownerId}:Owner}` }, bob.key);
    expect(edited.status).toBe(200);
    expect(edited.body.updated_at).toEqual(expect.any(String));
    expect((await notificationsOf(ada)).length).toBe(before);
  });

  it('followers of a record hear of new comments by others (comment.created)', async () => {
    const record = (await post(`/api/table/${tableId}/records/create`, { data: { name: 'followed' } })).body.id;
    expect((await post(`/api/subscriptions/${tableId}/${record}/subscribe`, {}, ada.key)).body).toEqual({ table_id: tableId, record_id: record, subscribed: true });
    const created = await comment('news', {}, bob.key, record);
    expect((await notificationsOf(ada)).some((n: { kind: string; comment_id: number }) => n.kind === 'comment.created' && n.comment_id === created.body.id)).toBe(true);
    await post(`/api/subscriptions/${tableId}/${record}/unsubscribe`, {}, ada.key);
    const later = await comment('more', {}, bob.key, record);
    expect((await notificationsOf(ada)).some((n: { comment_id: number }) => n.comment_id === later.body.id)).toBe(false);
  });

  it('notifications: list (all or unread), mark one and all read; account keys have none', async () => {
    const unread = (await post('/api/notifications/list', { filter: 'unread' }, ada.key)).body;
    expect(unread.length).toBeGreaterThan(0);
    expect((await post(`/api/notifications/${unread[0].id}/markRead`, {}, ada.key)).body).toEqual({ id: unread[0].id, read: true });
    expect((await post(`/api/notifications/${unread[0].id}/markRead`, {}, bob.key)).status).toBe(404);
    expect((await post('/api/notifications/markAllRead', {}, ada.key)).body.marked).toBe(unread.length - 1);
    expect((await post('/api/notifications/list', { filter: 'unread' }, ada.key)).body).toEqual([]);
    expect((await post('/api/notifications/list', {}, world.accountKey)).status).toBe(403);
    expect((await post('/api/notifications/list', { filter: 'some' }, ada.key)).status).toBe(400);
  });

  it('only the author edits or deletes (403 for others); a deleted comment\'s files go to reclaim', async () => {
    const file = (await upload('bye.txt', 'bye')).body;
    const created = (await comment('mine', { attachments: [file] }, ada.key)).body;
    expect((await post(`${base()}/comment/${created.id}/update`, { content: 'hijack' }, bob.key)).status).toBe(403);
    expect((await post(`${base()}/comment/${created.id}/delete`, {}, world.accountKey)).status).toBe(403);
    expect((await post(`${base()}/comment/${created.id}/update`, { content: 'x' }, null, ada.session)).status).toBe(403);
    expect((await post(`${base()}/comment/${created.id}/delete`, {}, ada.key)).body).toEqual({ id: created.id, deleted: true });
    expect((await ctx.container.services.reclaim.listPending()).map((f) => f.path)).toContain(file.path);
    expect((await post(`${base()}/comment/${created.id}/delete`, {}, ada.key)).body.error.message).toBe('Comment not found');
  });

  it('read-only keys and readers cannot comment; readers can read', async () => {
    expect((await comment('no', {}, readOnlyKey)).status).toBe(403);
    const reader = await member('Rita', 'reader');
    expect((await comment('no', {}, reader.key)).body.error.code).toBe('reader_role');
    expect((await get(`${base()}/comments/get`, reader.key)).status).toBe(200);
  });

  it('e-mail comments: checked sender, verbatim HTML, generated message id, archived .eml', async () => {
    const hostile = '<p onclick="alert(1)">Hi <script>alert(2)</script></p>';
    const file = (await upload('invoice.txt', 'total 5')).body;
    const created = await post(`${base()}/comments/createEmailComment`, { from: { email: 'client@example.com', name: 'Client' }, to: ['team@example.com'], subject: 'Invoice', body: hostile, attachments: [file], inReplyTo: '<prev@example.com>' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ type: 'email_in', status: 'received', user_id: 0, user_name: 'Email: Client <client@example.com>', content: hostile, attachments: [file] });
    expect(created.body.email).toMatchObject({ from: { email: 'client@example.com', name: 'Client' }, to: ['team@example.com'], subject: 'Invoice', in_reply_to: '<prev@example.com>', message_id: expect.stringMatching(/^<.+@.+>$/) });
    const eml = created.body.email.eml;
    expect(eml).toMatchObject({ name: 'message.eml', type: 'message/rfc822' });
    const message = Buffer.from((await post(`${base()}/comments/files/get`, { comment_id: created.body.id, path: eml.path })).body.data, 'base64').toString();
    expect(message).toContain('Subject: Invoice');
    expect(message).toContain('In-Reply-To: <prev@example.com>');
    expect(message).toContain('invoice.txt');
    const cases: Array<[unknown, RegExp]> = [
      [{ subject: 'x' }, /from is required/],
      [{ from: { email: 'not an address' }, subject: 'x' }, /from.email/],
      [{ from: { email: 'a@example.com' } }, /subject or body/],
      [{ from: { email: 'a@example.com' }, subject: 'x', to: ['nope'] }, /to must be/],
    ];
    for (const [body, message] of cases) expect((await post(`${base()}/comments/createEmailComment`, body)).body.error.message).toMatch(message);
    const plain = await post(`${base()}/comments/createEmailComment`, { from: { email: 'a@example.com' }, body: 'hi' });
    expect(plain.body.user_name).toBe('Email: a@example.com');
  });

  it('API-made comments are audited for the account owner, with their api_key_id', async () => {
    const created = (await comment('audited', {}, ada.key)).body;
    const events = (await post('/api/events/list', { limit: 5 })).body;
    expect(events[0]).toMatchObject({ kind: 'comment.created', api_key_id: created.api_key_id, table_id: tableId, record_id: recordId, comment_id: created.id });
    expect((await post('/api/events/list', {}, ada.key)).status).toBe(403);
  });

  it('a deleted record takes its comments along, and their files go to reclaim', async () => {
    const record = (await post(`/api/table/${tableId}/records/create`, { data: { name: 'doomed' } })).body.id;
    const file = (await upload('doomed.txt', 'doomed', record)).body;
    await comment('bye', { attachments: [file] }, undefined, record);
    await post(`/api/table/${tableId}/record/${record}/delete`, {});
    await ctx.container.services.records.purgeTrash(new Date(Date.now() + 31 * 24 * 3600 * 1000)); // comments go with the record when the trash is purged
    expect((await ctx.container.services.reclaim.listPending()).map((f) => f.path)).toContain(file.path);
    expect((await get(`${base(record)}/comments/get`)).body.error.message).toBe('Record not found');
    nowMs += 1000;
  });
});
