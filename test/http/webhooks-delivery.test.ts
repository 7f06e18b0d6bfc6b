import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { addMember, call, createAccount, createKey, createSpace, createTable, createUser, type World } from '../factories.js';
import { startReceiver, type Receiver } from '../webhook-receiver.js';

/**
 * How webhooks are delivered (CONTRACT §7): in seq order with one request in flight, retried
 * with backoff (`Retry-After` honoured), disabled by a 410 or by 24 hours of failure (the
 * space's admins notified), redirects not followed, private addresses refused, and a slow
 * receiver holding up nothing but itself. Real receivers on 127.0.0.1; the clock is the test's.
 */

interface Delivery {
  id: number;
  seq: number;
  attempt: number;
  status: string;
  response_code: number | null;
  error: string | null;
  at: string;
  next_attempt_at: string | null;
  response_body: string | null;
}

describe('webhooks: delivery', () => {
  // Real time, moved forward by the tests that need a day to pass.
  let skippedMs = 0;
  const ctx = useTestApp({
    clock: { now: () => new Date(Date.now() + skippedMs) },
    env: { TABULA_FETCH_ALLOW_HOSTS: '127.0.0.1', TABULA_WEBHOOK_TIMEOUT: '2s' },
    webhooks: { pollMs: 50, retry: { scheduleMs: [20], jitter: 0 } },
  });
  let world: World;
  let spaceId: number;
  let tableId: number;
  const receivers: Receiver[] = [];

  const post = (url: string, body: unknown = {}, key: string = world.accountKey) => call(ctx, 'POST', url, { key, body });
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const started = await startReceiver(...args);
    receivers.push(started);
    return started;
  };
  const createWebhook = async (url: string) => {
    const response = await post(`/api/table/${tableId}/webhooks/create`, { url });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as { id: number; secret: string };
  };
  const createRecord = async (name: string) => {
    const response = await post(`/api/table/${tableId}/records/create`, { data: { name } });
    expect(response.status).toBe(200);
    return response.body as { id: number };
  };
  const deliveries = async (webhookId: number): Promise<Delivery[]> => (await post(`/api/webhook/${webhookId}/deliveries`, { limit: 200 })).body;
  const webhookOf = async (webhookId: number) => ((await call(ctx, 'GET', `/api/table/${tableId}/webhooks/list`, { key: world.accountKey })).body as Array<{ id: number; active: boolean }>).find((hook) => hook.id === webhookId);

  beforeAll(async () => {
    world = await createAccount(ctx);
    spaceId = (await createSpace(ctx, world, 'Deliveries')).id;
    tableId = (await createTable(ctx, world, spaceId, { name: 'Deals', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('keeps seq order under retries: the 2nd of 5 changes failing three times arrives as 1,2,2,2,2,3,4,5', async () => {
    let secondSeq = 0;
    let failures = 0;
    const target = await receiver((request, index) => {
      if (index === 1) secondSeq = request.message.data.seq;
      if (request.message.data.seq === secondSeq && failures < 3) {
        failures += 1;
        return { status: 500, body: 'try again' };
      }
      return { status: 200 };
    });
    const hook = await createWebhook(target.url);
    for (const name of ['one', 'two', 'three', 'four', 'five']) await createRecord(name);
    await target.waitFor(8);
    const seqs = target.seqs();
    const distinct = [...new Set(seqs)];
    expect(distinct).toHaveLength(5);
    expect(seqs).toEqual([distinct[0], distinct[1], distinct[1], distinct[1], distinct[1], distinct[2], distinct[3], distinct[4]]);
    expect(distinct).toEqual([...distinct].sort((x, y) => x - y));
    // Every retry of a change carries the same webhook-id.
    expect(new Set(target.received.slice(1, 5).map((request) => request.headers['webhook-id'])).size).toBe(1);
    await expect.poll(async () => (await deliveries(hook.id)).length).toBe(8);
    const log = (await deliveries(hook.id)).reverse();
    expect(log.map((entry) => [entry.attempt, entry.status, entry.response_code])).toEqual([
      [1, 'succeeded', 200],
      [1, 'failed', 500],
      [2, 'failed', 500],
      [3, 'failed', 500],
      [4, 'succeeded', 200],
      [1, 'succeeded', 200],
      [1, 'succeeded', 200],
      [1, 'succeeded', 200],
    ]);
    expect(log[1]).toMatchObject({ response_body: 'try again', next_attempt_at: expect.any(String) });
    await post(`/api/webhook/${hook.id}/delete`);
  });

  it('honours Retry-After, and keeps at most 4 KB of an answer', async () => {
    const target = await receiver(() => ({ status: 503, headers: { 'retry-after': '120' }, body: 'x'.repeat(10_000) }));
    const hook = await createWebhook(target.url);
    await createRecord('later');
    await target.waitFor(1);
    await expect.poll(async () => (await deliveries(hook.id)).length).toBe(1);
    const [entry] = await deliveries(hook.id);
    expect(entry.response_body).toBe('x'.repeat(4096));
    expect(Date.parse(`${entry.next_attempt_at!.replace(' ', 'T')}Z`) - Date.parse(`${entry.at.replace(' ', 'T')}Z`)).toBe(120_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(target.received).toHaveLength(1);
    await post(`/api/webhook/${hook.id}/delete`);
  });

  it('a 410 disables the webhook at once', async () => {
    const target = await receiver(() => ({ status: 410 }));
    const hook = await createWebhook(target.url);
    await createRecord('gone');
    await target.waitFor(1);
    await expect.poll(async () => (await webhookOf(hook.id))?.active).toBe(false);
    await createRecord('not sent');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(target.received).toHaveLength(1);
    expect((await deliveries(hook.id))[0]).toMatchObject({ status: 'failed', response_code: 410, next_attempt_at: null });
    await post(`/api/webhook/${hook.id}/delete`);
  });

  it('24 hours of failure disable the webhook and notify the space admins; turning it on again resumes at the failed change', async () => {
    const admin = await createUser(ctx, world, 'Ada Admin');
    await addMember(ctx, world, spaceId, admin.id, 'admin');
    const editor = await createUser(ctx, world, 'Eddie Editor');
    await addMember(ctx, world, spaceId, editor.id, 'editor');
    let down = true;
    // Each failure asks for an hour's pause, so that only the test's clock brings the retries.
    const target = await receiver(() => (down ? { status: 500, headers: { 'retry-after': '3600' } } : { status: 200 }));
    const hook = await createWebhook(target.url);
    const record = await createRecord('failing');
    await target.waitFor(1);
    await expect.poll(async () => (await deliveries(hook.id)).length).toBe(1);
    skippedMs += 23 * 3600_000;
    ctx.container.services.webhookDelivery.wake();
    await target.waitFor(2);
    await expect.poll(async () => (await deliveries(hook.id)).length).toBe(2);
    expect((await webhookOf(hook.id))?.active).toBe(true);
    skippedMs += 3600_000;
    ctx.container.services.webhookDelivery.wake();
    await target.waitFor(3);
    await expect.poll(async () => (await webhookOf(hook.id))?.active).toBe(false);
    const notified = async (userId: number) => {
      const key = (await createKey(ctx, { userId })).key;
      return ((await post('/api/notifications/list', {}, key)).body as Array<{ kind: string; table_id: number; record_id: number }>).filter((n) => n.kind === 'webhook.disabled');
    };
    expect(await notified(admin.id)).toEqual([expect.objectContaining({ kind: 'webhook.disabled', table_id: tableId, record_id: 0 })]);
    expect(await notified(world.ownerId)).toHaveLength(1);
    expect(await notified(editor.id)).toEqual([]);
    expect((await deliveries(hook.id))[0]).toMatchObject({ attempt: 3, status: 'failed', next_attempt_at: null });

    down = false;
    expect((await post(`/api/webhook/${hook.id}/update`, { active: true })).body.active).toBe(true);
    await target.waitFor(4);
    expect(target.received[3].message.data.record_id).toBe(record.id);
    await expect.poll(async () => (await deliveries(hook.id))[0]).toMatchObject({ attempt: 1, status: 'succeeded' });
    await post(`/api/webhook/${hook.id}/delete`);
  });

  it('does not follow redirects', async () => {
    const elsewhere = await receiver();
    const target = await receiver(() => ({ status: 302, headers: { location: elsewhere.url } }));
    const hook = await createWebhook(target.url);
    await createRecord('redirected');
    await target.waitFor(1);
    await expect.poll(async () => (await deliveries(hook.id)).length).toBeGreaterThan(0);
    expect((await deliveries(hook.id)).at(-1)).toMatchObject({ status: 'failed', response_code: 302, error: `redirect not followed (302 to ${elsewhere.url})` });
    expect(elsewhere.received).toEqual([]);
    await post(`/api/webhook/${hook.id}/delete`);
  });

  it('refuses a name that resolves to a private address (TABULA_FETCH_ALLOW_HOSTS names only 127.0.0.1)', async () => {
    const target = await receiver();
    const hook = await createWebhook(`http://localhost:${target.port}/hook`);
    await createRecord('private');
    await expect.poll(async () => (await deliveries(hook.id)).length).toBeGreaterThan(0);
    expect((await deliveries(hook.id)).at(-1)).toMatchObject({ status: 'failed', response_code: null, error: expect.stringContaining('localhost resolves to a private address') });
    expect(target.received).toEqual([]);
    await post(`/api/webhook/${hook.id}/delete`);
  });

  it('a sender thread that dies mid-request: the attempt is logged as failed and retried, and the next change goes out', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const target = await receiver((_, index) => (index === 0 ? { status: 200, wait: held } : { status: 200 }));
    const hook = await createWebhook(target.url);
    await createRecord('in flight');
    await target.waitFor(1);
    // The thread `serve`'s container sends from, killed while it waits for the answer.
    await ctx.container.services.webhookSender.crashThreadForTest();
    release();
    await target.waitFor(2);
    await createRecord('after');
    await target.waitFor(3);
    const [first, again, next] = target.seqs();
    expect([again, next > first]).toEqual([first, true]);
    expect(target.received[1].headers['webhook-id']).toBe(target.received[0].headers['webhook-id']);
    await expect.poll(async () => (await deliveries(hook.id)).length).toBe(3);
    expect((await deliveries(hook.id)).reverse().map((entry) => [entry.seq, entry.attempt, entry.status, entry.response_code, entry.error])).toEqual([
      [first, 1, 'failed', null, "the webhook sender's thread stopped (it exited with code 1); not known to be delivered"],
      [first, 2, 'succeeded', 200, null],
      [next, 1, 'succeeded', 200, null],
    ]);
    await post(`/api/webhook/${hook.id}/delete`);
  });

  it('a receiver that does not answer delays neither writes nor another webhook, and times out', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = await receiver(() => ({ status: 200, wait: held }));
    const fast = await receiver();
    const slowHook = await createWebhook(slow.url);
    const fastHook = await createWebhook(fast.url);
    await createRecord('first');
    await slow.waitFor(1);
    // The slow receiver holds its first request; writes answer, and the other webhook gets each change.
    for (const name of ['second', 'third', 'fourth']) await createRecord(name);
    await fast.waitFor(4);
    expect(slow.received).toHaveLength(1);
    expect(fast.received.map((request) => request.message.data.after)).toEqual([{ name: 'first' }, { name: 'second' }, { name: 'third' }, { name: 'fourth' }]);
    // Past TABULA_WEBHOOK_TIMEOUT (2 s here) the attempt has failed and is retried.
    await expect.poll(async () => (await deliveries(slowHook.id)).at(-1)?.error, { timeout: 10_000 }).toBe('no answer within 2 s');
    release();
    await slow.waitFor(5, 15_000);
    expect([...new Set(slow.seqs())]).toEqual(fast.seqs());
    await post(`/api/webhook/${slowHook.id}/delete`);
    await post(`/api/webhook/${fastHook.id}/delete`);
  });
});

describe('webhooks: more due webhooks than places', () => {
  // Two places, workers that would wait 30 s for a next change, and no poll to speak of: only
  // a worker letting go of its place when others wait for one gets every webhook its change.
  const ctx = useTestApp({
    env: { TABULA_FETCH_ALLOW_HOSTS: '127.0.0.1' },
    webhooks: { concurrency: 2, lingerMs: 30_000, pollMs: 600_000 },
  });
  const receivers: Receiver[] = [];
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('six webhooks on one table each get the change though only two are delivered to at once', async () => {
    const world = await createAccount(ctx);
    const spaceId = (await createSpace(ctx, world, 'Crowded')).id;
    const tableId = (await createTable(ctx, world, spaceId, { name: 'Wide', fields: [{ id: 'name', name: 'Name', type: 'text' }] })).id;
    for (let n = 0; n < 6; n += 1) {
      const target = await startReceiver();
      receivers.push(target);
      expect((await call(ctx, 'POST', `/api/table/${tableId}/webhooks/create`, { key: world.accountKey, body: { url: target.url } })).status).toBe(200);
    }
    expect((await call(ctx, 'POST', `/api/table/${tableId}/records/create`, { key: world.accountKey, body: { data: { name: 'one' } } })).status).toBe(200);
    await Promise.all(receivers.map((target) => target.waitFor(1, 10_000)));
    expect(receivers.map((target) => target.received.length)).toEqual([1, 1, 1, 1, 1, 1]);
  });
});

describe('webhooks: an engine with no webhook to deliver', () => {
  // One poll, at start: anything delivered later was woken by a commit.
  const ctx = useTestApp({ env: { TABULA_FETCH_ALLOW_HOSTS: '127.0.0.1' }, webhooks: { pollMs: 600_000, wakeDelayMs: 5 } });

  it('searches for nothing after commits while no webhook is on, and delivers at once from the webhook made here', async () => {
    const world = await createAccount(ctx);
    const space = await createSpace(ctx, world, 'Quiet');
    const table = await createTable(ctx, world, space.id, { name: 'Deals', fields: [{ id: 'name', name: 'Name', type: 'text' }] });
    const engine = ctx.container.services.webhookDelivery;
    const createRecord = async (name: string) => expect((await call(ctx, 'POST', `/api/table/${table.id}/records/create`, { key: world.accountKey, body: { data: { name } } })).status).toBe(200);
    const before = engine.stats().searches;
    for (let n = 0; n < 20; n++) await createRecord(`quiet ${n}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(engine.stats().searches).toBe(before);

    const target = await startReceiver();
    try {
      const made = await call(ctx, 'POST', `/api/table/${table.id}/webhooks/create`, { key: world.accountKey, body: { url: target.url } });
      expect(made.status).toBe(200);
      await createRecord('heard');
      // Ten minutes before the next poll: only the commit's wake-up can send it.
      await target.waitFor(1, 5_000);
      expect(target.received[0].message.data.after).toMatchObject({ name: 'heard' });
      expect(engine.stats().searches).toBeGreaterThan(before);
    } finally {
      await target.close();
    }
  });
});
