import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createSpace, createTable, type World } from '../factories.js';
import { startReceiver, type Receiver } from '../webhook-receiver.js';
import { expectEveryWriteRoute, writeRoutes } from '../write-routes.js';

/**
 * Webhook management and what a receiver gets (CONTRACT §7, "Webhooks"): signed messages that
 * the `standardwebhooks` package verifies, one per change of every write route, none for a
 * write that failed. Real receivers on 127.0.0.1.
 */

const allKinds = ['record.created', 'record.updated', 'record.deleted', 'record.restored', 'comment.created', 'comment.updated', 'comment.deleted'];

describe('webhooks: management and signed deliveries', () => {
  const ctx = useTestApp({ env: { TABULA_FETCH_ALLOW_HOSTS: '127.0.0.1' }, webhooks: { pollMs: 50, retry: { scheduleMs: [20], jitter: 0 } } });
  let world: World;
  let tableId: number;
  let receiver: Receiver;

  const post = (url: string, body: unknown = {}, key: string = world.accountKey) => call(ctx, 'POST', url, { key, body });
  const createWebhook = async (body: Record<string, unknown>, table = tableId) => {
    const response = await post(`/api/table/${table}/webhooks/create`, body);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as { id: number; secret: string };
  };
  const createRecord = async (data: Record<string, unknown>) => (await post(`/api/table/${tableId}/records/create`, { data })).body as { id: number };

  beforeAll(async () => {
    world = await createAccount(ctx);
    const space = await createSpace(ctx, world, 'Hooks');
    tableId = (
      await createTable(ctx, world, space.id, {
        name: 'Deals',
        fields: [
          { id: 'name', name: 'Name', type: 'text' },
          { id: 'amount', name: 'Amount', type: 'number' },
          { id: 'stage', name: 'Stage', type: 'select', options: [{ value: 'lead' }, { value: 'won' }] },
          { id: 'docs', name: 'Docs', type: 'file' },
        ],
      })
    ).id;
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it('create shows the secret once; list, update, delete manage the webhook', async () => {
    const created = await post(`/api/table/${tableId}/webhooks/create`, { url: 'http://127.0.0.1:9/nowhere', events: ['record.created'] });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.any(Number), table_id: tableId, url: 'http://127.0.0.1:9/nowhere', events: ['record.created'], fields: [], active: true, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/) });
    const id = created.body.id;
    const listed = await call(ctx, 'GET', `/api/table/${tableId}/webhooks/list`, { key: world.accountKey });
    expect(listed.body).toContainEqual({ id, table_id: tableId, url: 'http://127.0.0.1:9/nowhere', events: ['record.created'], fields: [], active: true });
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    const updated = await post(`/api/webhook/${id}/update`, { events: allKinds, fields: ['stage'], active: false });
    expect(updated.body).toEqual({ id, table_id: tableId, url: 'http://127.0.0.1:9/nowhere', events: allKinds, fields: ['stage'], active: false });
    const rotated = await post(`/api/webhook/${id}/rotate_secret`);
    expect(rotated.body).toEqual({ id, secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect((await post(`/api/webhook/${id}/deliveries`, {})).body).toEqual([]);
    expect((await post(`/api/webhook/${id}/delete`)).body).toEqual({ id, deleted: true });
    expect((await post(`/api/webhook/${id}/delete`)).body).toEqual({ error: { code: 'webhook_not_found', message: 'Webhook not found' } });
  });

  it('bad input is refused naming the problem, and creates nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'Invalid parameters: url must be an http or https URL of at most 2048 characters'],
      [{ url: 'ftp://127.0.0.1/x' }, 'Invalid parameters: url must be an http or https URL'],
      [{ url: 'not a url' }, 'Invalid parameters: url must be an absolute http or https URL'],
      [{ url: 'http://10.1.2.3/hook' }, 'Invalid parameters: url http://10.1.2.3 is a private address'],
      [{ url: 'http://[::1]:8080/hook' }, 'Invalid parameters: url http://[::1]:8080 is a private address'],
      [{ url: receiver.url, events: [] }, `Invalid parameters: events must be a non-empty list of ${allKinds.join(', ')}`],
      [{ url: receiver.url, events: ['record.moved'] }, `Invalid parameters: events: unknown kind "record.moved" (one of ${allKinds.join(', ')})`],
      [{ url: receiver.url, fields: ['nope'] }, 'Invalid parameters: fields: the table has no field "nope"'],
      [{ url: receiver.url, secret: 'mine' }, 'Invalid parameters: unknown property "secret"'],
    ];
    const before = (await call(ctx, 'GET', `/api/table/${tableId}/webhooks/list`, { key: world.accountKey })).body;
    for (const [body, message] of cases) {
      const response = await post(`/api/table/${tableId}/webhooks/create`, body);
      expect({ status: response.status, message: response.body.error?.message }, JSON.stringify(body)).toEqual({ status: 400, message });
    }
    expect((await call(ctx, 'GET', `/api/table/${tableId}/webhooks/list`, { key: world.accountKey })).body).toEqual(before);
  });

  it('signs each message so that the standardwebhooks package verifies it, with the new and the old secret during a rotation', async () => {
    const hook = await createWebhook({ url: receiver.url, events: ['record.created'] });
    const start = receiver.received.length;
    const record = await createRecord({ name: 'Signed', amount: 3 });
    await receiver.waitFor(start + 1);
    const first = receiver.received[start];
    const verified = new Webhook(hook.secret).verify(first.body, first.headers as Record<string, string>) as { type: string; timestamp: string; data: { record_id: number; kind: string; after: unknown } };
    expect(verified).toMatchObject({ type: 'record.created', data: { record_id: record.id, kind: 'record.created', after: { name: 'Signed', amount: 3 } } });
    expect(verified.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(first.headers['webhook-id']).toBe(`msg_${hook.id}_${verified.data && (first.message.data.seq)}`);
    expect(Math.abs(Number(first.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    // A signature by another secret is refused: the check above can fail.
    expect(() => new Webhook('whsec_' + Buffer.alloc(24, 1).toString('base64')).verify(first.body, first.headers as Record<string, string>)).toThrow();

    const rotated = (await post(`/api/webhook/${hook.id}/rotate_secret`)).body as { secret: string };
    await createRecord({ name: 'Rotated' });
    await receiver.waitFor(start + 2);
    const second = receiver.received[start + 1];
    expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [rotated.secret, hook.secret]) {
      expect(new Webhook(secret).verify(second.body, second.headers as Record<string, string>)).toMatchObject({ type: 'record.created', data: { after: { name: 'Rotated' } } });
    }
    await post(`/api/webhook/${hook.id}/delete`);
  });

  it('every write route produces its deliveries, one per change, and a failed write none', async () => {
    const a = await createRecord({ name: 'a' });
    const b = await createRecord({ name: 'b' });
    const comment = (await post(`/api/table/${tableId}/record/${a.id}/comments/create`, { content: 'first' })).body;
    const hook = await createWebhook({ url: receiver.url });
    const routes = writeRoutes(ctx, world.accountKey, tableId, a.id, b.id, comment.id);
    await expectEveryWriteRoute(ctx, routes);
    for (const route of routes) {
      const start = receiver.received.length;
      const response = await route.run();
      expect(response.status ?? response.statusCode, route.name).toBe(200);
      await receiver.waitFor(start + route.kinds.length);
      const got = receiver.received.slice(start).map((request) => request.message.type);
      expect(got.sort(), route.name).toEqual([...route.kinds].sort());
    }
    const start = receiver.received.length;
    expect((await post(`/api/table/${tableId}/records/create_batch`, { records: [{ data: { name: 'ok' } }, { data: { amount: 'x' } }] })).status).toBe(400);
    expect((await post(`/api/table/${tableId}/record/${a.id}/update`, { data: { nope: 1 } })).status).toBe(400);
    // A write after the failed ones: once it arrived, anything the failed writes had sent would have too.
    await createRecord({ name: 'after the failures' });
    await receiver.waitFor(start + 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.received.slice(start).map((request) => request.message.data.after)).toEqual([{ name: 'after the failures' }]);
    const log = (await post(`/api/webhook/${hook.id}/deliveries`, { limit: 200 })).body as Array<{ status: string; attempt: number; response_code: number }>;
    expect(log.length).toBe(receiver.received.length - receiver.received.findIndex((request) => request.headers['webhook-id']?.toString().startsWith(`msg_${hook.id}_`)));
    expect(log.every((entry) => entry.status === 'succeeded' && entry.attempt === 1 && entry.response_code === 200)).toBe(true);
    await post(`/api/webhook/${hook.id}/delete`);
  });

  it('sends only the kinds and fields asked for', async () => {
    const hook = await createWebhook({ url: receiver.url, events: ['record.updated'], fields: ['stage'] });
    const start = receiver.received.length;
    const record = await createRecord({ name: 'Filtered' });
    await post(`/api/table/${tableId}/record/${record.id}/update`, { data: { amount: 9 } });
    await post(`/api/table/${tableId}/record/${record.id}/update`, { data: { stage: 'won' } });
    await receiver.waitFor(start + 1);
    await createRecord({ name: 'Filtered too' });
    await post(`/api/table/${tableId}/record/${record.id}/update`, { data: { stage: 'lead', amount: 1 } });
    await receiver.waitFor(start + 2);
    expect(receiver.received.slice(start).map((request) => [request.message.type, request.message.data.fields])).toEqual([
      ['record.updated', ['stage']],
      ['record.updated', expect.arrayContaining(['stage', 'amount'])],
    ]);
    await post(`/api/webhook/${hook.id}/delete`);
  });

  it('redeliver sends a logged change again, with the same webhook-id, and answers the new delivery', async () => {
    const hook = await createWebhook({ url: receiver.url });
    const start = receiver.received.length;
    await createRecord({ name: 'Again' });
    await receiver.waitFor(start + 1);
    await expect.poll(async () => (await post(`/api/webhook/${hook.id}/deliveries`)).body.length).toBe(1);
    const [delivery] = (await post(`/api/webhook/${hook.id}/deliveries`)).body;
    const again = await post(`/api/webhook/${hook.id}/deliveries/${delivery.id}/redeliver`);
    expect(again.body).toMatchObject({ seq: delivery.seq, kind: 'record.created', attempt: 2, status: 'succeeded', response_code: 200 });
    expect(receiver.received[start + 1].headers['webhook-id']).toBe(receiver.received[start].headers['webhook-id']);
    expect(receiver.received[start + 1].body).toBe(receiver.received[start].body);
    expect((await post(`/api/webhook/${hook.id}/deliveries/999999/redeliver`)).body).toEqual({ error: { code: 'delivery_not_found', message: 'Delivery not found' } });
    await post(`/api/webhook/${hook.id}/delete`);
  });
});
