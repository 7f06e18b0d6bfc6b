import { beforeAll, describe, expect, it } from 'vitest';
import { maxFileBytes } from '../../src/modules/files/file-bytes.js';
import { useTestApp } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, login, type World } from '../factories.js';

/**
 * Comment rules beyond comments.test.ts (seed "Comments", "Authentication" 7, "Events";
 * CONTRACT §6): mentions of removed members, of the author, odd tokens, edits that change
 * mentions; hostile e-mail HTML kept verbatim and only ever served as JSON; upload limits
 * and foreign paths; e-mails without storage; audit events; table-wide subscriptions; whose
 * notifications and events are whose; deleted records taking their comments along.
 */

const b64 = (text: string) => Buffer.from(text).toString('base64');

interface Person {
  id: number;
  name: string;
  key: string;
  session: string;
}

interface Notification {
  id: number;
  kind: string;
  comment_id: number;
  record_id: number;
}

describe('comment rules: mentions, e-mail HTML, limits, events, subscriptions', () => {
  const ctx = useTestApp({ clock: { now: () => new Date('2024-05-01T10:00:00Z') } });
  let world: World;
  let spaceId: number;
  let tableId: number;
  let ada: Person;
  let bob: Person;
  let cy: Person;

  const db = () => ctx.container.database.db;
  const post = (url: string, body: unknown, key: string | null = world.accountKey) => call(ctx, 'POST', url, { key, body });
  const postAs = (who: Person, via: 'key' | 'session', url: string, body: unknown) => (via === 'key' ? call(ctx, 'POST', url, { key: who.key, body }) : call(ctx, 'POST', url, { cookie: who.session, body }));
  const thread = (record: number, table = tableId) => `/api/table/${table}/record/${record}`;
  const newRecord = async (table = tableId, key = world.accountKey) => (await post(`/api/table/${table}/records/create`, { data: {} }, key)).body.id as number;
  async function comment(record: number, content: string, key: string | null = world.accountKey) {
    const response = await post(`${thread(record)}/comments/create`, { content }, key);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as { id: number; content: string; api_key_id: number | null };
  }
  const notificationsOf = async (who: Person) => (await post('/api/notifications/list', { limit: 200 }, who.key)).body as Notification[];
  const aboutComment = async (who: Person, commentId: number) => (await notificationsOf(who)).filter((n) => n.comment_id === commentId).map((n) => n.kind);
  const follows = async (who: Person, record: number) => (await post(`/api/subscriptions/${tableId}/status`, { record_id: record }, who.key)).body as { table: boolean; record: boolean };
  const eventsOf = async (key = world.accountKey) => (await post('/api/events/list', { limit: 200 }, key)).body as Array<{ kind: string; comment_id: number; api_key_id: number | null }>;

  async function person(name: string, space = spaceId): Promise<Person> {
    const user = await createUser(ctx, world, name);
    await addMember(ctx, world, space, user.id, 'editor');
    return { id: user.id, name, key: (await createKey(ctx, { userId: user.id, name: `${name}'s key` })).key, session: await login(ctx, user.email, 'user-password') };
  }

  beforeAll(async () => {
    world = await createAccount(ctx);
    spaceId = (await createSpace(ctx, world, 'Rules')).id;
    tableId = (await createTable(ctx, world, spaceId, { name: 'Deals', fields: [{ name: 'Name', type: 'text' }] })).id;
    ada = await person('Ada');
    bob = await person('Bob');
    cy = await person('Cy');
  });

  describe('mentions', () => {
    it('a user removed from the space is neither notified nor subscribed by a mention, nor told of new comments on records it followed', async () => {
      const dora = await person('Dora');
      const record = await newRecord();
      await post(`/api/subscriptions/${tableId}/${record}/subscribe`, {}, dora.key);
      expect((await post(`/api/space/${spaceId}/members/remove`, { user_id: dora.id })).status).toBe(200);
      const created = await comment(record, `Ping @{${dora.id}:Dora} and @{${ada.id}:Ada}`);
      expect(created.content).toBe(`Ping @{${dora.id}:Dora} and @{${ada.id}:Ada}`);
      expect(await aboutComment(dora, created.id)).toEqual([]);
      expect(await aboutComment(ada, created.id)).toEqual(['comment.mention']);
      const followers = await db().selectFrom('subscriptions').select('user_id').where('table_id', '=', tableId).where('record_id', '=', record).orderBy('user_id').execute();
      // Dora's subscription from before stays (it is hers), but gives her nothing while she is out of the space.
      expect(followers.map((row) => row.user_id)).toEqual([ada.id, dora.id].sort((a, b) => a - b));
      // An edit adding her again does nothing either; she no longer sees the table at all.
      await post(`${thread(record)}/comment/${created.id}/update`, { content: `${created.content} @{${dora.id}:Dora again}` });
      expect(await aboutComment(dora, created.id)).toEqual([]);
      expect((await post(`/api/subscriptions/${tableId}/status`, { record_id: record }, dora.key)).body.error.code).toBe('invalid_table');
    });

    for (const via of ['session', 'key'] as const) {
      it(`the author mentioning themself (${via === 'key' ? 'with a personal key' : 'in a session'}) gets no notification, nor one as a follower`, async () => {
        const record = await newRecord();
        await post(`/api/subscriptions/${tableId}/${record}/subscribe`, {}, bob.key);
        const created = (await postAs(bob, via, `${thread(record)}/comments/create`, { content: `Note to self @{${bob.id}:Bob}, cc @{${ada.id}:Ada}` })).body;
        expect(created.user_id).toBe(via === 'session' ? bob.id : 0);
        expect(await aboutComment(bob, created.id)).toEqual([]);
        expect(await aboutComment(ada, created.id)).toEqual(['comment.mention']);
        const edited = await postAs(bob, via, `${thread(record)}/comment/${created.id}/update`, { content: `Edited @{${bob.id}:Bob} @{${ada.id}:Ada}` });
        expect(edited.status).toBe(200);
        expect(await aboutComment(bob, created.id)).toEqual([]);
      });
    }

    it('an account key comment mentioning the owner notifies the owner: the key is the account, not the owner in person', async () => {
      const ownerKey = (await createKey(ctx, { userId: world.ownerId, name: 'owner personal' })).key;
      const record = await newRecord();
      const created = await comment(record, `Owner: @{${world.ownerId}:Owner}`);
      const mine = (await post('/api/notifications/list', {}, ownerKey)).body as Notification[];
      expect(mine.filter((n) => n.comment_id === created.id).map((n) => n.kind)).toEqual(['comment.mention']);
    });

    it('odd tokens: an empty name and a name cut at the first "}" are mentions; anything else is text; content is kept verbatim', async () => {
      const cases: Array<[string, Person[]]> = [
        [`@{${ada.id}:}`, [ada]],
        [`@{${bob.id}:a}b}`, [bob]],
        [`@{${cy.id}:multi\nline {brace}`, [cy]],
        [`@{${ada.id}} @{ ${bob.id}:x} @{${cy.id} :x} @{${ada.id}x:y} @{${bob.id}:unclosed`, []],
        [`@{-${cy.id}:neg} @@{${ada.id}:double at}`, [ada]],
      ];
      const stored: string[] = [];
      for (const [content, mentioned] of cases) {
        // A record each: the mentioned follow the record, and would hear of the next case's comment.
        const record = await newRecord();
        const created = await comment(record, content);
        expect(created.content).toBe(content);
        for (const who of [ada, bob, cy]) expect(await aboutComment(who, created.id), `${who.name} in ${JSON.stringify(content)}`).toEqual(mentioned.includes(who) ? ['comment.mention'] : []);
        stored.push(...(await call(ctx, 'GET', `${thread(record)}/comments/get`, { key: world.accountKey })).body.map((c: { content: string }) => c.content));
      }
      expect(stored).toEqual(cases.map(([content]) => content));
    });

    it('an edit that removes one mention and adds another notifies only the newly mentioned; the removed keeps its notification and subscription', async () => {
      const record = await newRecord();
      const created = await comment(record, `@{${ada.id}:Ada} please check`);
      expect(await aboutComment(ada, created.id)).toEqual(['comment.mention']);
      const edited = await post(`${thread(record)}/comment/${created.id}/update`, { content: `@{${bob.id}:Bob} please check` });
      expect(edited.body.content).toBe(`@{${bob.id}:Bob} please check`);
      expect(await aboutComment(bob, created.id)).toEqual(['comment.mention']);
      expect(await aboutComment(ada, created.id)).toEqual(['comment.mention']);
      expect(await follows(ada, record)).toEqual({ table: false, record: true });
      expect(await follows(bob, record)).toEqual({ table: false, record: true });
      // The same text again, or a rename of a mention's display name, mentions nobody new.
      await post(`${thread(record)}/comment/${created.id}/update`, { content: `@{${bob.id}:Robert} please check` });
      expect(await aboutComment(bob, created.id)).toEqual(['comment.mention']);
      // Mentioned anew after being removed: compared with the text just before the edit, Ada is new again.
      await post(`${thread(record)}/comment/${created.id}/update`, { content: `@{${bob.id}:Bob} @{${ada.id}:Ada}` });
      expect(await aboutComment(ada, created.id)).toEqual(['comment.mention', 'comment.mention']);
      expect(await aboutComment(cy, created.id)).toEqual([]);
    });

    it("deleting a comment takes its notifications along", async () => {
      const record = await newRecord();
      const created = await comment(record, `@{${cy.id}:Cy}`);
      expect(await aboutComment(cy, created.id)).toEqual(['comment.mention']);
      await post(`${thread(record)}/comment/${created.id}/delete`, {});
      expect(await aboutComment(cy, created.id)).toEqual([]);
    });
  });

  describe('hostile HTML in e-mail comments', () => {
    const hostile = '<img src=x onerror="alert(1)"><script>fetch("/api/events/list")</script><a href="javascript:alert(2)">x</a></p><!--';
    let created: { id: number; content: string; user_name: string; email: { subject: string; eml: { path: string } } };
    let record: number;

    beforeAll(async () => {
      record = await newRecord();
      const response = await post(`${thread(record)}/comments/createEmailComment`, { from: { email: 'evil@example.com', name: '<b onmouseover=alert(3)>Evil</b>' }, to: ['team@example.com'], subject: '<script>alert(4)</script>', body: hostile });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      created = response.body;
    });

    it('stores body, subject and sender name verbatim', async () => {
      expect(created.content).toBe(hostile);
      expect(created.user_name).toBe('Email: <b onmouseover=alert(3)>Evil</b> <evil@example.com>');
      expect(created.email.subject).toBe('<script>alert(4)</script>');
      const row = await db().selectFrom('comments').select(['content', 'user_name', 'email_json']).where('id', '=', created.id).executeTakeFirstOrThrow();
      expect(row.content).toBe(hostile);
      expect(JSON.parse(row.email_json!).subject).toBe('<script>alert(4)</script>');
    });

    it('serves it only inside JSON: comments/get, createEmailComment and the .eml download answer application/json', async () => {
      const got = await ctx.app.inject({ method: 'GET', url: `${thread(record)}/comments/get`, headers: { authorization: `Bearer ${world.accountKey}` } });
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(got.json()[0].content).toBe(hostile);
      // The markup is inside a JSON string, never the document itself.
      expect(got.body.startsWith('[{')).toBe(true);

      const eml = await ctx.app.inject({ method: 'POST', url: `${thread(record)}/comments/files/get`, headers: { authorization: `Bearer ${world.accountKey}`, 'content-type': 'application/json' }, payload: JSON.stringify({ comment_id: created.id, path: created.email.eml.path }) });
      expect(eml.statusCode).toBe(200);
      expect(eml.headers['content-type']).toMatch(/^application\/json/);
      const file = eml.json() as { name: string; type: string; data: string };
      expect(file).toMatchObject({ name: 'message.eml', type: 'message/rfc822' });
      expect(eml.body).not.toContain('<script>');
      // The archived message holds the HTML as sent, as a text/html part of an e-mail, base64 in JSON here.
      expect(Buffer.from(file.data, 'base64').toString()).toMatch(/Content-Type: text\/html/);
    });
  });

  describe('uploads and attachments', () => {
    it('refuses an upload over 50 MB decoded with 413 Payload Too Large, storing nothing', async () => {
      const record = await newRecord();
      const before = await db().selectFrom('stored_files').select('path').execute();
      const data = Buffer.alloc(maxFileBytes + 3).toString('base64');
      const response = await post(`${thread(record)}/comments/upload`, { name: 'big.bin', data });
      expect({ status: response.status, body: response.body }).toEqual({ status: 413, body: { error: { code: 'payload_too_large', message: 'Payload Too Large' } } });
      const tooLong = await ctx.app.inject({ method: 'POST', url: `${thread(record)}/comments/upload`, headers: { authorization: `Bearer ${world.accountKey}`, 'content-type': 'application/json' }, payload: `{"name":"big.bin","data":"${data}AAAA${'A'.repeat(128 * 1024)}"}` });
      expect(tooLong.statusCode).toBe(413);
      expect(await db().selectFrom('stored_files').select('path').execute()).toEqual(before);
    });

    it("refuses attachments whose path is another account's upload with 400 naming it, in comments and e-mails", async () => {
      const other = await createAccount(ctx);
      const otherSpace = await createSpace(ctx, other, 'Theirs');
      const otherTable = (await createTable(ctx, other, otherSpace.id, { name: 'T', fields: [{ name: 'Name', type: 'text' }] })).id;
      const otherRecord = await newRecord(otherTable, other.accountKey);
      const theirs = (await post(`${thread(otherRecord, otherTable)}/comments/upload`, { name: 'theirs.txt', data: b64('theirs') }, other.accountKey)).body;
      expect(theirs.path).toMatch(/^\/s\d+\//);
      const record = await newRecord();
      const expected = { error: { code: 'invalid_parameters', message: `Invalid parameters: attachment ${theirs.path} is not an upload of comments/upload for this table (or it is used already)` } };
      const asComment = await post(`${thread(record)}/comments/create`, { content: 'x', attachments: [theirs] });
      expect({ status: asComment.status, body: asComment.body }).toEqual({ status: 400, body: expected });
      const asEmail = await post(`${thread(record)}/comments/createEmailComment`, { from: { email: 'a@example.com' }, subject: 'x', attachments: [theirs] });
      expect({ status: asEmail.status, body: asEmail.body }).toEqual({ status: 400, body: expected });
      expect((await call(ctx, 'GET', `${thread(record)}/comments/get`, { key: world.accountKey })).body).toEqual([]);
      // Theirs is still theirs to attach, and the failed e-mail left no archived message behind.
      expect((await post(`${thread(otherRecord, otherTable)}/comments/create`, { content: '', attachments: [theirs] }, other.accountKey)).status).toBe(200);
      expect(await db().selectFrom('stored_files').select('path').where('account_id', '=', world.accountId).where('name', '=', 'message.eml').where('state', '=', 'pending').execute()).toEqual([]);
    });

    it('an e-mail comment in a space without file storage has eml null', async () => {
      const bare = (await post('/api/spaces/create', { name: 'No storage', storage: { kind: 'none' } })).body.id;
      const table = (await createTable(ctx, world, bare, { name: 'T', fields: [{ name: 'Name', type: 'text' }] })).id;
      const record = await newRecord(table);
      const created = await post(`${thread(record, table)}/comments/createEmailComment`, { from: { email: 'a@example.com' }, subject: 'Hello', body: '<p>hi</p>' });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ type: 'email_in', status: 'received', attachments: [] });
      expect(created.body.email).toEqual({ from: { email: 'a@example.com', name: null }, to: [], subject: 'Hello', message_id: expect.stringMatching(/^<.+@.+>$/), in_reply_to: null, eml: null });
    });
  });

  describe('events', () => {
    it('API keys creating, editing and deleting comments are recorded with the key; a session is not audited', async () => {
      const record = await newRecord();
      const before = (await eventsOf()).length;
      const created = await comment(record, 'by key', ada.key);
      await post(`${thread(record)}/comment/${created.id}/update`, { content: 'edited by key' }, ada.key);
      await post(`${thread(record)}/comment/${created.id}/delete`, {}, ada.key);
      const events = await eventsOf();
      expect(events.slice(0, 3)).toEqual([
        expect.objectContaining({ kind: 'comment.deleted', comment_id: created.id, api_key_id: created.api_key_id, user_id: ada.id, table_id: tableId, record_id: record }),
        expect.objectContaining({ kind: 'comment.updated', comment_id: created.id, api_key_id: created.api_key_id, user_id: ada.id }),
        expect.objectContaining({ kind: 'comment.created', comment_id: created.id, api_key_id: created.api_key_id, user_id: ada.id }),
      ]);
      expect(events.length).toBe(before + 3);

      const bySession = (await postAs(bob, 'session', `${thread(record)}/comments/create`, { content: 'by session' })).body;
      await postAs(bob, 'session', `${thread(record)}/comment/${bySession.id}/update`, { content: 'edited in session' });
      await postAs(bob, 'session', `${thread(record)}/comment/${bySession.id}/delete`, {});
      expect((await eventsOf()).length).toBe(before + 3);
    });

    it("the owner's session, the owner's personal key and an account key read the same events; members get 403", async () => {
      const ownerSession = await login(ctx, world.ownerEmail, world.ownerPassword);
      const ownerKey = (await createKey(ctx, { userId: world.ownerId })).key;
      const otherAccountKey = (await createKey(ctx, { accountId: world.accountId })).key;
      const byAccountKey = await eventsOf();
      expect(byAccountKey.length).toBeGreaterThan(0);
      expect((await call(ctx, 'POST', '/api/events/list', { cookie: ownerSession, body: { limit: 200 } })).body).toEqual(byAccountKey);
      expect(await eventsOf(ownerKey)).toEqual(byAccountKey);
      expect(await eventsOf(otherAccountKey)).toEqual(byAccountKey);
      const refused = await post('/api/events/list', {}, ada.key);
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 403, body: { error: { code: 'forbidden', message: "Only the account owner can read the account's events" } } });
      expect((await call(ctx, 'POST', '/api/events/list', { cookie: ada.session, body: {} })).status).toBe(403);
    });
  });

  describe('subscriptions and notifications', () => {
    it('a subscription with record id 0 (the whole table) hears of every record’s comments, until unsubscribed', async () => {
      const table = (await createTable(ctx, world, spaceId, { name: 'Followed', fields: [{ name: 'Name', type: 'text' }] })).id;
      const [one, two] = [await newRecord(table), await newRecord(table)];
      expect((await post(`/api/subscriptions/${table}/0/subscribe`, {}, cy.key)).body).toEqual({ table_id: table, record_id: 0, subscribed: true });
      expect((await post(`/api/subscriptions/${table}/status`, { record_id: one }, cy.key)).body).toEqual({ table: true, record: false });
      expect((await post(`/api/subscriptions/${table}/status`, {}, cy.key)).body).toEqual({ table: true, record: false });
      const first = (await post(`${thread(one, table)}/comments/create`, { content: 'on one' }, ada.key)).body;
      const second = (await post(`${thread(two, table)}/comments/create`, { content: 'on two' }, bob.key)).body;
      const heard = (await notificationsOf(cy)).filter((n) => [first.id, second.id].includes(n.comment_id));
      expect(heard.map((n) => [n.kind, n.record_id])).toEqual([
        ['comment.created', two],
        ['comment.created', one],
      ]);
      // Following both the table and the record: one notification, not two.
      await post(`/api/subscriptions/${table}/${one}/subscribe`, {}, cy.key);
      const third = (await post(`${thread(one, table)}/comments/create`, { content: 'again' }, ada.key)).body;
      expect(await aboutComment(cy, third.id)).toEqual(['comment.created']);
      await post(`/api/subscriptions/${table}/0/unsubscribe`, {}, cy.key);
      await post(`/api/subscriptions/${table}/${one}/unsubscribe`, {}, cy.key);
      const fourth = (await post(`${thread(two, table)}/comments/create`, { content: 'unheard' }, ada.key)).body;
      expect(await aboutComment(cy, fourth.id)).toEqual([]);
    });

    it("another user's notification is invisible: markRead answers 404 as for an id that does not exist, and leaves it unread", async () => {
      const record = await newRecord();
      const created = await comment(record, `@{${ada.id}:Ada}`);
      const [mine] = (await notificationsOf(ada)).filter((n) => n.comment_id === created.id);
      const notFound = { status: 404, body: { error: { code: 'notification_not_found', message: 'Notification not found' } } };
      for (const [url, key] of [[`/api/notifications/${mine.id}/markRead`, bob.key], ['/api/notifications/2000000000/markRead', ada.key]]) {
        const response = await post(url, {}, key);
        expect({ status: response.status, body: response.body }).toEqual(notFound);
      }
      expect((await post('/api/notifications/markAllRead', {}, bob.key)).status).toBe(200);
      expect((await notificationsOf(ada)).find((n) => n.id === mine.id)).toMatchObject({ read: false });
      expect((await notificationsOf(bob)).some((n) => n.id === mine.id)).toBe(false);
    });
  });

  describe('deleted records', () => {
    it('records/delete_batch takes their comments, e-mails and follow-ups along; their files, the .eml included, go to reclaim', async () => {
      const [keep, gone] = [await newRecord(), await newRecord()];
      const file = (await post(`${thread(gone)}/comments/upload`, { name: 'gone.txt', data: b64('gone') })).body;
      await post(`${thread(gone)}/comments/create`, { content: `@{${cy.id}:Cy}`, attachments: [file] });
      const email = (await post(`${thread(gone)}/comments/createEmailComment`, { from: { email: 'a@example.com' }, subject: 'bye' })).body;
      await comment(keep, 'kept');
      await post(`/api/subscriptions/${tableId}/${gone}/subscribe`, {}, bob.key);
      expect((await post(`/api/table/${tableId}/records/delete_batch`, { record_ids: [gone] })).body).toEqual({ deleted: [gone], not_found: [] });
      await ctx.container.services.records.purgeTrash(new Date(Date.now() + 31 * 24 * 3600 * 1000)); // comments go with the record when the trash is purged
      const pending = (await ctx.container.services.reclaim.listPending()).map((f) => f.path);
      expect(pending).toEqual(expect.arrayContaining([file.path, email.email.eml.path]));
      expect(await db().selectFrom('comments').select('id').where('table_id', '=', tableId).where('record_id', '=', gone).execute()).toEqual([]);
      expect(await db().selectFrom('notifications').select('id').where('table_id', '=', tableId).where('record_id', '=', gone).execute()).toEqual([]);
      expect(await db().selectFrom('subscriptions').select('user_id').where('table_id', '=', tableId).where('record_id', '=', gone).execute()).toEqual([]);
      expect((await call(ctx, 'GET', `${thread(keep)}/comments/get`, { key: world.accountKey })).body.map((c: { content: string }) => c.content)).toEqual(['kept']);
    });
  });
});
