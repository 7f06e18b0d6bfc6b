import { beforeAll, describe, expect, it } from 'vitest';
import { buildAccessWorld, callAs, missingId, type AccessWorld, type Caller, type CallerProfile, type ErrorExpectation } from '../access-fixture.js';
import { describeAccessMatrix, expectRefused, type AccessRow, type Outcome } from '../access-matrix-runner.js';
import { useTestApp } from '../build-test-app.js';
import { call, createTable } from '../factories.js';
import { invalidTable, readOnlyRefusal, recordAccessOutcome, seesT1 } from '../record-access-rule.js';

/**
 * The comments endpoints, and the notifications, subscriptions and events endpoints, × every
 * kind of caller (seed "Comments", "Authentication", "Events"; CONTRACT §2, §6).
 *
 * Comments, as records: authentication (401) → visibility of the table (400 `Invalid Table`,
 * exactly as for a table that does not exist) → on a write, read-only key or reader role
 * (403) → on an edit or a delete, the author alone (403 `forbidden`). Notifications are a
 * user's (an account key gets 403); subscriptions need a key that is not read-only and a
 * record the caller sees; events are the account owner's (an account key or the owner's own
 * key or session). A refused call leaves comments, stored files, notifications,
 * subscriptions and events as they were.
 *
 * Edits, deletes and the notification endpoints act on something of the caller's own (its
 * comment, its notification). The runner asks the world for a test's caller just before it
 * asks for the target, so `matrixWorld` notes that caller and `target` makes the thing for it:
 * a comment posted by the caller itself (through the API, with its own credentials), a
 * notification of its user. Callers that will be refused get the owner's instead.
 */

interface Attachment {
  name: string;
  path: string;
  type: string;
  size: number;
  host: string;
}

const notTheAuthor: ErrorExpectation = { status: 403, code: 'forbidden', message: "Only the comment's author can change it" };
const recordNotFound: ErrorExpectation = { status: 400, code: 'record_not_found', message: 'Record not found' };
const commentNotFound: ErrorExpectation = { status: 400, code: 'comment_not_found', message: 'Comment not found' };
const sessionNeedsJson: ErrorExpectation = { status: 415, code: 'unsupported_media_type', message: 'Session requests that change state must be sent as Content-Type: application/json' };
const usersOnly: ErrorExpectation = { status: 403, code: 'forbidden', message: 'Notifications belong to users: use a personal API key or a session' };
const ownerOnly: ErrorExpectation = { status: 403, code: 'forbidden', message: "Only the account owner can read the account's events" };
const notificationNotFound: ErrorExpectation = { status: 404, code: 'notification_not_found', message: 'Notification not found' };

const b64 = (text: string) => Buffer.from(text).toString('base64');
const pathPattern = /^\/s\d+\/[0-9a-f]{32}-[A-Za-z0-9._-]+$/;

describe('access matrix of the comments, notifications, subscriptions and events endpoints', () => {
  const ctx = useTestApp();
  let world: AccessWorld;
  /** The caller of the test running now, noted when the runner asks the world for it. */
  let nextCaller: Caller | null = null;
  const matrixWorld = (): AccessWorld => ({ ...world, caller: (name: string) => (nextCaller = world.caller(name)) });
  /** The caller the runner asked for just before this target (null for a target made outside a matrix test). */
  const takeCaller = () => {
    const caller = nextCaller;
    nextCaller = null;
    return caller;
  };

  const db = () => ctx.container.database.db;
  const ownerKey = () => world.a.accountKey;
  const base = (tid: number, rid: number) => `/api/table/${tid}/record/${rid}`;
  const ownerPost = (url: string, body: unknown = {}) => call(ctx, 'POST', url, { key: ownerKey(), body });
  const commentsAsOwner = async (rid: number) => {
    const response = await call(ctx, 'GET', `${base(world.t1.id, rid)}/comments/get?limit=100`, { key: ownerKey() });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as Array<Record<string, unknown>>;
  };

  async function freshRecord(): Promise<number> {
    const response = await ownerPost(`/api/table/${world.t1.id}/records/create`, { data: { name: 'thread', notes: 'comments' } });
    expect(response.status).toBe(200);
    return response.body.id;
  }

  /** A comment on `rid` posted by `caller` with its own credentials. */
  async function commentBy(caller: Caller, rid: number, content: string, attachments: Attachment[] = []): Promise<number> {
    const response = await callAs(ctx, caller, 'POST', `${base(world.t1.id, rid)}/comments/create`, { content, attachments });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.id;
  }

  let shared: { rid: number; cid: number; file: Attachment };

  beforeAll(async () => {
    world = await buildAccessWorld(ctx);
    const rid = await freshRecord();
    const file = (await ownerPost(`${base(world.t1.id, rid)}/comments/upload`, { name: 'shared.txt', type: 'text/plain', data: b64('shared words') })).body as Attachment;
    const cid = await commentBy(world.caller('unrestricted account key'), rid, 'The shared comment', [file]);
    shared = { rid, cid, file };
  });

  describe('comments', () => {
    interface Target {
      tid: number;
      rid: number;
      cid: number;
      path: string;
    }

    interface Endpoint extends AccessRow<Target> {
      write: boolean;
      route: string;
      /** Acts on a comment of the caller's own, on a record of its own. */
      authorOnly?: true;
      /** A record of its own for each call. */
      fresh?: true;
    }

    /** Who a comment posted by `caller` is by (seed "Comment create rules" 3; CONTRACT §6). */
    const authorship = (caller: Caller) =>
      caller.identity!.via === 'session'
        ? { user_id: caller.userId, user_name: caller.identity!.user === 'owner' ? 'Owner' : world.users[caller.identity!.user as 'admin'].name, api_key_id: null }
        : { user_id: 0, user_name: expect.stringMatching(/^API: /), api_key_id: expect.any(Number) };

    const endpoints: Endpoint[] = [
      {
        name: 'GET /comments/get',
        route: 'GET /api/table/{tid}/record/{rid}/comments/get',
        method: 'GET',
        write: false,
        path: ({ tid, rid }) => `${base(tid, rid)}/comments/get?limit=100`,
        async checkOk(body, _caller, { rid }) {
          expect(body).toEqual(await commentsAsOwner(rid));
          expect(body).toContainEqual(expect.objectContaining({ id: shared.cid, content: 'The shared comment', attachments: [shared.file] }));
        },
      },
      {
        name: 'POST /comments/create',
        route: 'POST /api/table/{tid}/record/{rid}/comments/create',
        method: 'POST',
        write: true,
        fresh: true,
        path: ({ tid, rid }) => `${base(tid, rid)}/comments/create`,
        body: () => ({ content: `Created, @{${world.users.editor.id}:Eddie}` }),
        async checkOk(body, caller, { rid }) {
          expect(body).toMatchObject({ id: expect.any(Number), table_id: world.t1.id, record_id: rid, content: `Created, @{${world.users.editor.id}:Eddie}`, attachments: [], type: 'comment', status: null, updated_at: null, ...authorship(caller) });
          expect(await commentsAsOwner(rid)).toEqual([body]);
        },
      },
      {
        name: 'POST /comments/createEmailComment',
        route: 'POST /api/table/{tid}/record/{rid}/comments/createEmailComment',
        method: 'POST',
        write: true,
        fresh: true,
        path: ({ tid, rid }) => `${base(tid, rid)}/comments/createEmailComment`,
        body: () => ({ from: { email: 'client@example.com' }, subject: 'Hello', body: '<p>Hi</p>' }),
        async checkOk(body, caller, { rid }) {
          expect(body).toMatchObject({ record_id: rid, type: 'email_in', status: 'received', user_id: 0, user_name: 'Email: client@example.com', content: '<p>Hi</p>', api_key_id: caller.identity!.via === 'session' ? null : expect.any(Number) });
          expect(body.email).toMatchObject({ from: { email: 'client@example.com', name: null }, subject: 'Hello', eml: { name: 'message.eml', type: 'message/rfc822', path: expect.stringMatching(pathPattern) } });
          expect(await commentsAsOwner(rid)).toEqual([body]);
        },
      },
      {
        name: 'POST /comments/upload',
        route: 'POST /api/table/{tid}/record/{rid}/comments/upload',
        method: 'POST',
        write: true,
        fresh: true,
        path: ({ tid, rid }) => `${base(tid, rid)}/comments/upload`,
        body: () => ({ name: 'note.txt', type: 'text/plain', data: b64('a note') }),
        async checkOk(body, _caller, { rid }) {
          expect(body).toEqual({ name: 'note.txt', type: 'text/plain', size: 6, path: expect.stringMatching(pathPattern), host: expect.any(String) });
          // The upload waits for a comment of this table: the owner's attaches it.
          const attached = await ownerPost(`${base(world.t1.id, rid)}/comments/create`, { content: '', attachments: [body] });
          expect(attached.status, JSON.stringify(attached.body)).toBe(200);
          expect(attached.body.attachments).toEqual([body]);
        },
      },
      {
        name: 'POST /comments/files/get',
        route: 'POST /api/table/{tid}/record/{rid}/comments/files/get',
        method: 'POST',
        write: false,
        path: ({ tid, rid }) => `${base(tid, rid)}/comments/files/get`,
        body: (_caller, { cid, path }) => ({ comment_id: cid, path }),
        checkOk: (body) => expect(body).toStrictEqual({ name: 'shared.txt', type: 'text/plain', size: 12, data: b64('shared words') }),
      },
      {
        name: 'POST /comment/<id>/update',
        route: 'POST /api/table/{tid}/record/{rid}/comment/{cid}/update',
        method: 'POST',
        write: true,
        authorOnly: true,
        path: ({ tid, rid, cid }) => `${base(tid, rid)}/comment/${cid}/update`,
        body: () => ({ content: 'Edited' }),
        async checkOk(body, caller, { rid, cid }) {
          expect(body).toMatchObject({ id: cid, record_id: rid, content: 'Edited', updated_at: expect.any(String), ...authorship(caller) });
          expect(await commentsAsOwner(rid)).toEqual([body]);
        },
      },
      {
        name: 'POST /comment/<id>/delete',
        route: 'POST /api/table/{tid}/record/{rid}/comment/{cid}/delete',
        method: 'POST',
        write: true,
        authorOnly: true,
        path: ({ tid, rid, cid }) => `${base(tid, rid)}/comment/${cid}/delete`,
        async checkOk(body, _caller, { rid, cid }) {
          expect(body).toStrictEqual({ id: cid, deleted: true });
          expect(await commentsAsOwner(rid)).toEqual([]);
        },
      },
    ];

    /**
     * Edits and deletes: a comment on a record of its own, posted by this test's caller when it
     * may write (its own credentials), else by the owner's account key. Fresh writes: a record
     * of their own. Reads: the shared record and comment.
     */
    async function target(endpoint: Endpoint): Promise<Target> {
      const caller = takeCaller();
      if (endpoint.authorOnly) {
        const rid = await freshRecord();
        const author = caller && recordAccessOutcome(endpoint, caller) === 'ok' ? caller : world.caller('unrestricted account key');
        return { tid: world.t1.id, rid, cid: await commentBy(author, rid, 'Original'), path: '' };
      }
      if (endpoint.fresh) return { tid: world.t1.id, rid: await freshRecord(), cid: 0, path: '' };
      return { tid: world.t1.id, rid: shared.rid, cid: shared.cid, path: shared.file.path };
    }

    /** What a refused call leaves as it was: the record's comments, the account's stored files and events, every notification and subscription. */
    const snapshot = async ({ rid }: Target) => ({
      comments: await commentsAsOwner(rid),
      files: await db().selectFrom('stored_files').select(['path', 'state']).where('account_id', '=', world.a.accountId).orderBy('path').execute(),
      events: await db().selectFrom('events').selectAll().orderBy('id').execute(),
      notifications: await db().selectFrom('notifications').selectAll().orderBy('id').execute(),
      subscriptions: await db().selectFrom('subscriptions').selectAll().orderBy('table_id').orderBy('record_id').orderBy('user_id').execute(),
    });

    describeAccessMatrix<Endpoint, Target>({
      ctx,
      world: matrixWorld,
      rows: endpoints,
      expectedOutcome: recordAccessOutcome,
      target,
      snapshot,
      coverage: { name: 'covers every route tagged comments', tags: ['comments'], route: (endpoint) => endpoint.route },
      hidden: {
        name: 'answers a table the caller cannot see exactly as a table id that does not exist: 400 Invalid Table',
        expected: () => invalidTable,
        calls(_endpoint, own) {
          const other = world.caller("another account's key");
          const mine = world.caller('unrestricted account key');
          const restricted = world.caller('account key restricted to S2');
          return [
            { caller: other, target: own },
            { caller: other, target: { ...own, tid: missingId } },
            { caller: mine, target: { ...own, tid: missingId } },
            { caller: mine, target: { ...own, tid: world.bTable.id } },
            { caller: restricted, target: own },
          ];
        },
        async afterwards(own) {
          if (own.cid) expect((await commentsAsOwner(own.rid)).map((comment) => comment.id)).toContain(own.cid);
        },
      },
      moreTests(endpoint) {
        const owner = () => world.caller('unrestricted account key');

        it('answers a record id that does not exist 400 Record not found', async () => {
          const t = await target(endpoint);
          const response = await callAs(ctx, owner(), endpoint.method, endpoint.path({ ...t, rid: 999_999 }), endpoint.body?.(owner(), t));
          expectRefused(response, recordNotFound);
        });

        if (endpoint.method === 'POST') {
          it('refuses a session request that is not sent as JSON with 415, changing nothing', async () => {
            const t = await target(endpoint);
            const before = await snapshot(t);
            const body = endpoint.body?.(owner(), t);
            const response = await call(ctx, 'POST', endpoint.path(t), {
              cookie: world.caller("owner's session").auth.cookie,
              payload: body === undefined ? '' : new URLSearchParams({ json: JSON.stringify(body) }).toString(),
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
            });
            expectRefused(response, sessionNeedsJson);
            expect(await snapshot(t)).toEqual(before);
          });
        }

        if (endpoint.authorOnly) {
          /** Writers and whose comments they may not change: every other author, the same user by another way included. */
          const pairs: Array<[string, string]> = [
            ['unrestricted account key', "rotated key's new secret"],
            ["owner's personal key", 'unrestricted account key'],
            ["owner's session", "owner's personal key"],
            ["owner's personal key", "owner's session"],
            ["editor's personal key", "space admin's personal key"],
            ["space admin's session", "space admin's personal key"],
            ["space admin's personal key", "editor's personal key"],
            ["space admin's session", "editor's personal key"],
          ];
          it(`answers the author alone: ${pairs.length} other writers get 403 Only the comment's author can change it, changing nothing`, async () => {
            for (const [authorName, otherName] of pairs) {
              const rid = await freshRecord();
              const t = { tid: world.t1.id, rid, cid: await commentBy(world.caller(authorName), rid, 'Original'), path: '' };
              const before = await snapshot(t);
              const other = world.caller(otherName);
              const response = await callAs(ctx, other, endpoint.method, endpoint.path(t), endpoint.body?.(other, t));
              expect({ status: response.status, body: response.body }, `${otherName} on ${authorName}'s comment`).toEqual({ status: 403, body: { error: { code: notTheAuthor.code, message: notTheAuthor.message } } });
              expect(await snapshot(t)).toEqual(before);
            }
          });

          it("answers another record's comment, or one that does not exist, 400 Comment not found to its author", async () => {
            const t = await target(endpoint);
            const elsewhere = await freshRecord();
            for (const path of [endpoint.path({ ...t, rid: elsewhere }), endpoint.path({ ...t, cid: 999_999 })]) {
              expectRefused(await callAs(ctx, owner(), endpoint.method, path, endpoint.body?.(owner(), t)), commentNotFound);
            }
            expect((await commentsAsOwner(t.rid)).map((comment) => comment.content)).toEqual(['Original']);
          });
        }
      },
    });
  });

  describe('notifications, subscriptions and events', () => {
    /** A notification of the caller's user, and a record of T1 it follows. */
    interface Target {
      tid: number;
      rid: number;
      nid: number;
      userId: number;
    }

    type Kind = 'mine' | 'follow' | 'status' | 'events';
    interface Endpoint extends AccessRow<Target> {
      kind: Kind;
      route: string;
    }

    function outcome(endpoint: Endpoint, caller: CallerProfile): Outcome {
      if (caller.authError) return caller.authError;
      const identity = caller.identity!;
      const sees = seesT1(identity);
      switch (endpoint.kind) {
        case 'mine':
          return identity.via === 'account_key' ? usersOnly : 'ok';
        case 'follow':
          if (identity.readOnly) return readOnlyRefusal;
          return sees ? 'ok' : invalidTable;
        case 'status':
          return sees ? 'ok' : invalidTable;
        case 'events':
          return identity.user === 'owner' || identity.user === 'bOwner' ? 'ok' : ownerOnly;
      }
    }

    const userRows = (userId: number) => db().selectFrom('notifications').selectAll().where('user_id', '=', userId).orderBy('id').execute();
    const followsOf = (userId: number, rid: number) =>
      db().selectFrom('subscriptions').select('user_id').where('table_id', '=', world.t1.id).where('record_id', '=', rid).where('user_id', '=', userId).execute();

    /** Known events: a comment by A's account key on T1 and one on a table of S2, a comment by B's key. */
    let events: { a: number; s2: number; b: number };
    let tableInS2: number;

    beforeAll(async () => {
      tableInS2 = (await createTable(ctx, world.a, world.s2.id, { name: 'In S2', fields: [{ name: 'Name', type: 'text' }] })).id;
      const onS2 = (await ownerPost(`/api/table/${tableInS2}/records/create`, { data: { name: 'x' } })).body.id;
      const bRecord = (await call(ctx, 'POST', `/api/table/${world.bTable.id}/records/create`, { key: world.b.accountKey, body: { data: {} } })).body.id;
      const a = (await ownerPost(`${base(world.t1.id, shared.rid)}/comments/create`, { content: 'audited in A' })).body.id;
      const s2 = (await ownerPost(`${base(tableInS2, onS2)}/comments/create`, { content: 'audited in S2' })).body.id;
      const b = (await call(ctx, 'POST', `${base(world.bTable.id, bRecord)}/comments/create`, { key: world.b.accountKey, body: { content: 'audited in B' } })).body.id;
      events = { a, s2, b };
    });

    /**
     * A notification of the caller's user (the owner's when the caller has none, or will be
     * refused), inserted as a mention inserts it, and a fresh record of T1 that user follows.
     */
    async function target(): Promise<Target> {
      const caller = takeCaller();
      const userId = caller?.userId ?? world.a.ownerId;
      const inB = caller?.identity?.account === 'B';
      const rid = await freshRecord();
      const stamp = '2024-05-01 10:00:00';
      const notification = await db()
        .insertInto('notifications')
        .values({ account_id: inB ? world.b.accountId : world.a.accountId, user_id: userId, kind: 'comment.mention', actor_user_id: 0, actor_name: 'API: matrix', table_id: inB ? world.bTable.id : world.t1.id, record_id: rid, comment_id: null, created_at: stamp, read_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db().insertInto('subscriptions').values({ table_id: world.t1.id, record_id: rid, user_id: userId, created_at: stamp }).execute();
      return { tid: world.t1.id, rid, nid: Number(notification.id), userId };
    }

    const endpoints: Endpoint[] = [
      {
        name: 'POST /api/notifications/list',
        route: 'POST /api/notifications/list',
        kind: 'mine',
        method: 'POST',
        path: () => '/api/notifications/list',
        body: () => ({ filter: 'unread', limit: 200 }),
        async checkOk(body, _caller, { nid, userId }) {
          expect(body).toContainEqual(expect.objectContaining({ id: nid, kind: 'comment.mention', actor: { user_id: 0, name: 'API: matrix' }, read: false, read_at: null }));
          const own = (await userRows(userId)).filter((row) => row.read_at === null).map((row) => Number(row.id));
          expect(body.map((n: { id: number }) => n.id)).toEqual(own.reverse().slice(0, 200));
        },
      },
      {
        name: 'POST /api/notifications/<id>/markRead',
        route: 'POST /api/notifications/{id}/markRead',
        kind: 'mine',
        method: 'POST',
        path: ({ nid }) => `/api/notifications/${nid}/markRead`,
        async checkOk(body, _caller, { nid, userId }) {
          expect(body).toStrictEqual({ id: nid, read: true });
          expect((await userRows(userId)).find((row) => Number(row.id) === nid)?.read_at).toEqual(expect.any(String));
        },
      },
      {
        name: 'POST /api/notifications/markAllRead',
        route: 'POST /api/notifications/markAllRead',
        kind: 'mine',
        method: 'POST',
        path: () => '/api/notifications/markAllRead',
        async checkOk(body, _caller, { userId }) {
          expect(body).toStrictEqual({ marked: expect.any(Number) });
          expect(body.marked).toBeGreaterThanOrEqual(1);
          expect((await userRows(userId)).filter((row) => row.read_at === null)).toEqual([]);
        },
      },
      {
        name: 'POST /api/subscriptions/<tid>/<rid>/subscribe',
        route: 'POST /api/subscriptions/{tid}/{rid}/subscribe',
        kind: 'follow',
        method: 'POST',
        // The caller's own record is followed already: a record of the shared thread is not.
        path: ({ tid }) => `/api/subscriptions/${tid}/${shared.rid}/subscribe`,
        async checkOk(body, _caller, { userId }) {
          expect(body).toStrictEqual({ table_id: world.t1.id, record_id: shared.rid, subscribed: true });
          expect(await followsOf(userId, shared.rid)).toEqual([{ user_id: userId }]);
          await db().deleteFrom('subscriptions').where('record_id', '=', shared.rid).where('user_id', '=', userId).execute();
        },
      },
      {
        name: 'POST /api/subscriptions/<tid>/<rid>/unsubscribe',
        route: 'POST /api/subscriptions/{tid}/{rid}/unsubscribe',
        kind: 'follow',
        method: 'POST',
        path: ({ tid, rid }) => `/api/subscriptions/${tid}/${rid}/unsubscribe`,
        async checkOk(body, _caller, { rid, userId }) {
          expect(body).toStrictEqual({ table_id: world.t1.id, record_id: rid, subscribed: false });
          expect(await followsOf(userId, rid)).toEqual([]);
        },
      },
      {
        name: 'POST /api/subscriptions/<tid>/status',
        route: 'POST /api/subscriptions/{tid}/status',
        kind: 'status',
        method: 'POST',
        path: ({ tid }) => `/api/subscriptions/${tid}/status`,
        body: (_caller, { rid }) => ({ record_id: rid }),
        checkOk: (body) => expect(body).toStrictEqual({ table: false, record: true }),
      },
      {
        name: 'POST /api/events/list',
        route: 'POST /api/events/list',
        kind: 'events',
        method: 'POST',
        path: () => '/api/events/list',
        body: () => ({ limit: 200 }),
        checkOk(body, caller) {
          const commentIds = body.map((event: { comment_id: number }) => event.comment_id);
          const identity = caller.identity!;
          if (identity.account === 'B') {
            expect(commentIds).toEqual([events.b]);
          } else if (identity.restricted) {
            // A key restricted to S2 reads the events of S2's tables only.
            expect(commentIds).toContain(events.s2);
            expect(body.every((event: { table_id: number }) => event.table_id === tableInS2)).toBe(true);
          } else {
            expect(commentIds).toEqual(expect.arrayContaining([events.a, events.s2]));
            expect(commentIds).not.toContain(events.b);
          }
          expect(body[0]).toStrictEqual({ id: expect.any(Number), kind: 'comment.created', user_id: expect.any(Number), api_key_id: expect.any(Number), table_id: expect.any(Number), record_id: expect.any(Number), comment_id: expect.any(Number), created_at: expect.any(String) });
        },
      },
    ];

    const snapshot = async () => ({
      notifications: await db().selectFrom('notifications').selectAll().orderBy('id').execute(),
      subscriptions: await db().selectFrom('subscriptions').selectAll().orderBy('table_id').orderBy('record_id').orderBy('user_id').execute(),
      events: await db().selectFrom('events').selectAll().orderBy('id').execute(),
    });

    describeAccessMatrix<Endpoint, Target>({
      ctx,
      world: matrixWorld,
      rows: endpoints,
      expectedOutcome: outcome,
      target,
      snapshot,
      coverage: { name: 'covers every route tagged notifications or events', tags: ['notifications', 'events'], route: (endpoint) => endpoint.route },
      hidden: {
        name: "answers another user's notification, or a table the caller cannot see, exactly as one that does not exist",
        expected: (endpoint) => (endpoint.name.includes('markRead') ? notificationNotFound : endpoint.kind === 'follow' || endpoint.kind === 'status' ? invalidTable : null),
        calls(endpoint, own) {
          const as = (name: string, change: Partial<Target>) => ({ caller: world.caller(name), target: { ...own, ...change } });
          if (endpoint.kind === 'mine') {
            // `own` is the owner's notification.
            return [as("editor's personal key", {}), as("space admin's session", {}), as("another account owner's personal key", {}), as("owner's personal key", { nid: missingId }), as("reader's session", { nid: missingId })];
          }
          return [as("another account's key", {}), as("another account's key", { tid: missingId }), as('unrestricted account key', { tid: missingId }), as('unrestricted account key', { tid: world.bTable.id }), as('account key restricted to S2', {})];
        },
        async afterwards(own) {
          expect((await userRows(own.userId)).find((row) => Number(row.id) === own.nid)?.read_at).toBeNull();
          expect(await followsOf(own.userId, own.rid)).toEqual([{ user_id: own.userId }]);
        },
      },
      moreTests(endpoint) {
        if (endpoint.kind === 'follow' || endpoint.kind === 'status') {
          it('answers a record id that does not exist 400 Record not found', async () => {
            const caller = world.caller("editor's personal key");
            const t = await target();
            const path = endpoint.kind === 'status' ? endpoint.path(t) : `/api/subscriptions/${t.tid}/999999/${endpoint.name.includes('unsubscribe') ? 'unsubscribe' : 'subscribe'}`;
            expectRefused(await callAs(ctx, caller, 'POST', path, endpoint.kind === 'status' ? { record_id: 999_999 } : {}), recordNotFound);
          });
        }
        if (endpoint.kind === 'mine' && endpoint.name.includes('markRead')) {
          it("leaves another user's notification unread when refused", async () => {
            const t = await target();
            const before = await snapshot();
            expectRefused(await callAs(ctx, world.caller("editor's personal key"), 'POST', endpoint.path(t)), notificationNotFound);
            expect(await snapshot()).toEqual(before);
          });
        }
      },
    });
  });
});
