import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useSecondApp, useTestApp, type TestContext } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, login, type World } from '../factories.js';
import { openStream, type SseStream, type StreamRequest } from '../sse-client.js';
import { testEngine } from '../test-database.js';

/**
 * The live feed (CONTRACT section 7, `changes/stream`): Server-Sent Events over a real listening
 * server. The feed's page is 5 changes here, so catch-up and fan-out both page.
 */

const streams: SseStream[] = [];
afterEach(() => {
  for (const stream of streams.splice(0)) stream.close();
});

async function listen(ctx: TestContext): Promise<string> {
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
}

interface Fixture {
  world: World;
  spaceId: number;
  tableId: number;
  otherTableId: number;
  base: string;
}

async function buildFixture(ctx: TestContext): Promise<Fixture> {
  const world = await createAccount(ctx);
  const spaceId = (await createSpace(ctx, world, 'Live')).id;
  const fields = [{ id: 'name', name: 'Name', type: 'text' }];
  const tableId = (await createTable(ctx, world, spaceId, { name: 'Deals', fields })).id;
  const otherTableId = (await createTable(ctx, world, spaceId, { name: 'Leads', fields })).id;
  return { world, spaceId, tableId, otherTableId, base: await listen(ctx) };
}

describe('changes/stream', () => {
  const ctx = useTestApp({ env: { TABULA_STREAMS_PER_KEY: '3' }, feed: { heartbeatMs: 100, revalidateMs: 50, pageSize: 5, maxBufferedBytes: 64 * 1024, drainTimeoutMs: 2000 } });
  let f: Fixture;
  let stranger: World;

  beforeAll(async () => {
    f = await buildFixture(ctx);
    stranger = await createAccount(ctx);
  });

  const open = async (path: string, options: StreamRequest = {}) => {
    const stream = await openStream(f.base, path, { key: f.world.accountKey, ...options });
    streams.push(stream);
    return stream;
  };
  const tableStream = (query = '', options?: StreamRequest) => open(`/api/table/${f.tableId}/changes/stream${query}`, options);
  const create = async (name: string, tableId = f.tableId, key = f.world.accountKey) => {
    const response = await call(ctx, 'POST', `/api/table/${tableId}/records/create`, { key, body: { data: { name } } });
    expect(response.status).toBe(200);
    return response.body.id as number;
  };
  const lastSeq = async () => (await ctx.container.services.unit.settleQueued(), Number((await ctx.container.database.db.selectFrom('changes').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst())?.seq ?? 0));
  const untilNoStreams = () => waitFor(() => ctx.container.services.changeFeed.stats().streams === 0, 'every stream to end');

  it('streams a write as id, event and data, starting with what is committed after it opened', async () => {
    await create('before');
    const stream = await tableStream();
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-cache, no-transform');
    expect(stream.headers['x-ratelimit-limit']).toBeDefined();
    const id = await create('after');
    await stream.waitForChanges(1);
    const [event] = stream.events.filter((e) => e.event === 'record.created');
    const change = JSON.parse(event.data!);
    expect(event.id).toBe(String(change.seq));
    expect(change).toMatchObject({ kind: 'record.created', table_id: f.tableId, space_id: f.spaceId, record_id: id, fields: ['name'], before: {}, after: { name: 'after' } });
    expect(namesOf(stream)).toEqual(['after']);
  });

  it('resumes after Last-Event-ID past a dropped connection, losing and repeating nothing', async () => {
    const first = await tableStream();
    for (const name of ['a1', 'a2', 'a3']) await create(name);
    await first.waitForChanges(3);
    const lastId = first.events.filter((e) => e.id).at(-1)!.id!;
    first.close();
    await untilNoStreams();
    // Written while nobody listens: more than one page of catch-up (5), and other tables' changes between.
    for (let i = 1; i <= 12; i += 1) {
      await create(`b${i}`);
      if (i % 4 === 0) await create(`other${i}`, f.otherTableId);
    }
    const second = await tableStream('?after=1', { headers: { 'last-event-id': lastId } });
    await second.waitForChanges(12);
    await create('c1');
    await second.waitForChanges(13);
    expect(namesOf(second)).toEqual([...Array.from({ length: 12 }, (_, i) => `b${i + 1}`), 'c1']);
    const seqs = second.changes().map((change) => change.seq);
    expect(seqs[0]).toBeGreaterThan(Number(lastId));
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
  });

  it('resumes after ?after= when no Last-Event-ID is sent', async () => {
    const from = await lastSeq();
    await create('q1');
    await create('q2');
    const stream = await tableStream(`?after=${from}`);
    await stream.waitForChanges(2);
    expect(namesOf(stream)).toEqual(['q1', 'q2']);
  });

  it('hands over from catch-up to live without a gap or a repeat while writes keep coming', async () => {
    const from = await lastSeq();
    const writing = (async () => {
      for (let i = 0; i < 30; i += 1) await create(`w${i}`);
    })();
    const stream = await tableStream(`?after=${from}`);
    await writing;
    await stream.waitForChanges(30);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(namesOf(stream)).toEqual(Array.from({ length: 30 }, (_, i) => `w${i}`));
  });

  it('sends one resync for a cursor older than the retained log, then live changes', async () => {
    await create('old');
    const head = await lastSeq();
    await ctx.container.database.db.updateTable('change_log_state').set({ purged_through: head }).where('id', '=', 1).execute();
    try {
      const stream = await tableStream('?after=0');
      const resync = await stream.waitForEvent('resync');
      expect(resync.id).toBe(String(head));
      expect(JSON.parse(resync.data!)).toEqual({ reason: 'cursor_expired', after: 0, next_after: head });
      await create('fresh');
      await stream.waitForChanges(1);
      expect(namesOf(stream)).toEqual(['fresh']);
      expect(stream.events.filter((e) => e.event === 'resync')).toHaveLength(1);
    } finally {
      await ctx.container.database.db.updateTable('change_log_state').set({ purged_through: 0 }).where('id', '=', 1).execute();
    }
  });

  it('sends resync for a cursor beyond the last change (another database, a restore)', async () => {
    const head = await lastSeq();
    const stream = await tableStream(`?after=${head + 1000}`);
    expect(JSON.parse((await stream.waitForEvent('resync')).data!)).toEqual({ reason: 'cursor_ahead', after: head + 1000, next_after: head });
  });

  it('sends a heartbeat comment line while nothing changes', async () => {
    const stream = await tableStream();
    await stream.waitUntil(() => stream.events.some((e) => e.comment === 'heartbeat'), 'a heartbeat');
  });

  it('ends the stream of a key once it is revoked, with event end access_revoked', async () => {
    const key = await createKey(ctx, { accountId: f.world.accountId });
    const stream = await tableStream('', { key: key.key });
    await create('seen');
    await stream.waitForChanges(1);
    await ctx.container.services.keys.revokeKey(key.id);
    const end = await stream.waitForEvent('end');
    expect(JSON.parse(end.data!)).toEqual({ reason: 'access_revoked' });
    await stream.waitForClose();
  });

  it('ends the streams of a member removed from the space, key and session alike', async () => {
    const user = await createUser(ctx, f.world, 'Leaving');
    await addMember(ctx, f.world, f.spaceId, user.id, 'reader');
    const key = await createKey(ctx, { userId: user.id });
    const cookie = await login(ctx, user.email, 'user-password');
    const byKey = await tableStream('', { key: key.key });
    const bySession = await open(`/api/space/${f.spaceId}/changes/stream`, { key: undefined, cookie });
    expect([byKey.status, bySession.status]).toEqual([200, 200]);
    const removed = await call(ctx, 'POST', `/api/space/${f.spaceId}/members/remove`, { key: f.world.accountKey, body: { user_id: user.id } });
    expect(removed.status).toBe(200);
    for (const stream of [byKey, bySession]) expect(JSON.parse((await stream.waitForEvent('end')).data!)).toEqual({ reason: 'access_revoked' });
  });

  it('streams every table of a space to the space stream, and no table of another space', async () => {
    const otherSpace = (await createSpace(ctx, f.world, 'Elsewhere')).id;
    const elsewhere = (await createTable(ctx, f.world, otherSpace, { name: 'Far', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
    const stream = await open(`/api/space/${f.spaceId}/changes/stream`);
    await create('s1', f.tableId);
    await create('far', elsewhere);
    await create('s2', f.otherTableId);
    await stream.waitForChanges(2);
    await create('s3', f.tableId);
    await stream.waitForChanges(3);
    expect(namesOf(stream)).toEqual(['s1', 's2', 's3']);
    expect(stream.changes().map((change) => change.table_id)).toEqual([f.tableId, f.otherTableId, f.tableId]);
  });

  it("answers another account's key, a restricted key and a non-member as for a missing table or space, in JSON, before any stream", async () => {
    const restricted = await createKey(ctx, { accountId: f.world.accountId, spaceIds: [(await createSpace(ctx, f.world, 'Only')).id] });
    const outsider = await createUser(ctx, f.world, 'Outsider');
    const outsiderKey = await createKey(ctx, { userId: outsider.id });
    const invalidTable = { error: { code: 'invalid_table', message: 'Invalid Table' } };
    const spaceNotFound = { error: { code: 'space_not_found', message: 'Space not found' } };
    for (const key of [stranger.accountKey, restricted.key, outsiderKey.key]) {
      for (const [path, status, body] of [
        [`/api/table/${f.tableId}/changes/stream`, 400, invalidTable],
        [`/api/table/2000000000/changes/stream`, 400, invalidTable],
        [`/api/space/${f.spaceId}/changes/stream`, 404, spaceNotFound],
        [`/api/space/2000000000/changes/stream`, 404, spaceNotFound],
      ] as const) {
        const stream = await open(path, { key });
        expect({ status: stream.status, type: stream.headers['content-type'], body: stream.json }, path).toEqual({ status, type: 'application/json; charset=utf-8', body });
      }
    }
  });

  it('answers 401 without a key, and 400 for a Last-Event-ID or after that is no seq', async () => {
    const anonymous = await open(`/api/table/${f.tableId}/changes/stream`, { key: undefined });
    expect({ status: anonymous.status, body: anonymous.json }).toEqual({ status: 401, body: { error: { code: 'missing_api_key', message: 'Missing API key' } } });
    const badHeader = await tableStream('', { headers: { 'last-event-id': 'abc' } });
    expect({ status: badHeader.status, body: badHeader.json }).toEqual({ status: 400, body: { error: { code: 'invalid_parameters', message: 'Invalid parameters: Last-Event-ID must be a change seq (an integer of 0 or more)' } } });
    expect((await tableStream('?after=-1')).status).toBe(400);
  });

  it('refuses a stream over the per-key cap with 429 too_many_streams, and takes it once one closed', async () => {
    const key = await createKey(ctx, { accountId: f.world.accountId });
    const open3 = [await tableStream('', { key: key.key }), await tableStream('', { key: key.key }), await open(`/api/space/${f.spaceId}/changes/stream`, { key: key.key })];
    expect(open3.map((s) => s.status)).toEqual([200, 200, 200]);
    const refused = await tableStream('', { key: key.key });
    expect({ status: refused.status, body: refused.json }).toEqual({
      status: 429,
      body: { error: { code: 'too_many_streams', message: 'Too many open change streams: this key or session already has 3 (TABULA_STREAMS_PER_KEY); close one first' } },
    });
    expect((await tableStream()).status, 'another key has its own streams').toBe(200);
    open3[0].close();
    await waitFor(() => ctx.container.services.changeFeed.stats().streams === 3, 'the closed stream to be gone');
    expect((await tableStream('', { key: key.key })).status).toBe(200);
  });

  it('drops a subscriber that stops reading with event end slow_consumer, holding a bounded buffer for it', async () => {
    const stream = await tableStream();
    stream.response.pause();
    // About 12 MB of changes: more than the sockets' kernel buffers hold.
    const text = 'x'.repeat(100_000);
    for (let batch = 0; batch < 3; batch += 1) {
      const records = Array.from({ length: 40 }, () => ({ data: { name: text } }));
      expect((await call(ctx, 'POST', `/api/table/${f.tableId}/records/create_batch`, { key: f.world.accountKey, body: { records } })).status).toBe(200);
    }
    await untilNoStreams();
    stream.response.resume();
    const end = await stream.waitForEvent('end');
    expect(JSON.parse(end.data!)).toEqual({ reason: 'slow_consumer' });
    expect(stream.changes().length).toBeLessThan(120);
  });
});

describe('changes/stream with a quiet feed (no heartbeat to read the log in between)', () => {
  const ctx = useTestApp({ env: { TABULA_SEND_TIMEOUT: '300ms' }, feed: { heartbeatMs: 60_000 } });
  // Another process on the same database (on SQLite: a command such as `records import`), whose commits do not wake this feed at once.
  const other = useSecondApp(ctx);
  let f: Fixture;

  beforeAll(async () => {
    f = await buildFixture(ctx);
  });

  const create = async (via: TestContext, name: string) => {
    const response = await call(via, 'POST', `/api/table/${f.tableId}/records/create`, { key: f.world.accountKey, body: { data: { name } } });
    expect(response.status).toBe(200);
  };
  const open = async (query = '') => {
    const stream = await openStream(f.base, `/api/table/${f.tableId}/changes/stream${query}`, { key: f.world.accountKey });
    streams.push(stream);
    return stream;
  };

  it('keeps a quiet stream open past the send timeout, on a connection an earlier answer set it on', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const earlier = await new Promise<number>((resolve, reject) => {
        http.get(`${f.base}/api/auth/me`, { agent, headers: { authorization: `Bearer ${f.world.accountKey}` } }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        }).on('error', reject);
      });
      expect(earlier).toBe(200);
      const stream = await openStream(f.base, `/api/table/${f.tableId}/changes/stream`, { key: f.world.accountKey, agent });
      streams.push(stream);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(stream.closed).toBe(false);
      await create(ctx, 'late');
      await stream.waitForChanges(1);
    } finally {
      agent.destroy();
    }
  });

  it('sends a change the feed has not read yet once to a stream that caught up past it, and once to a live one', async () => {
    const live = await open();
    await create(ctx, 'one');
    await live.waitForChanges(1);
    const from = live.changes()[0].seq;
    // Committed by the other process: this feed has not read it, its cursor stays behind.
    await create(other, 'two');
    const joining = await open(`?after=${from}`);
    await joining.waitForChanges(1);
    await waitFor(() => ctx.container.services.changeFeed.stats().live === 2, 'the catching-up stream to go live');
    // This process's write wakes the feed, which reads both from its cursor.
    await create(ctx, 'three');
    await live.waitForChanges(3);
    await joining.waitForChanges(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(namesOf(live)).toEqual(['one', 'two', 'three']);
    expect(namesOf(joining)).toEqual(['two', 'three']);
  });
});

describe.runIf(testEngine === 'postgres')('changes/stream across processes (PostgreSQL)', () => {
  const first = useTestApp();
  const second = useSecondApp(first);
  let f: Fixture;
  let secondBase: string;

  beforeAll(async () => {
    f = await buildFixture(first);
    secondBase = await listen(second);
  });

  it("streams a write committed by another process (LISTEN/NOTIFY wakes this process's feed)", async () => {
    const stream = await openStream(secondBase, `/api/table/${f.tableId}/changes/stream`, { key: f.world.accountKey });
    streams.push(stream);
    expect(stream.status).toBe(200);
    const response = await call(first, 'POST', `/api/table/${f.tableId}/records/create`, { key: f.world.accountKey, body: { data: { name: 'from the first' } } });
    expect(response.status).toBe(200);
    await stream.waitForChanges(1);
    expect(stream.changes()[0]).toMatchObject({ record_id: response.body.id, kind: 'record.created' });
  });
});

function namesOf(stream: SseStream): Array<string | undefined> {
  return stream.changes().map((change) => (change.after as { name?: string }).name);
}

async function waitFor(test: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
