import { afterAll, beforeAll, describe, expect } from 'vitest';
import { buildAccessWorld, missingId, type AccessWorld, type CallerProfile, type ErrorExpectation } from '../access-fixture.js';
import { describeAccessMatrix, type AccessRow, type Outcome } from '../access-matrix-runner.js';
import { useTestApp } from '../build-test-app.js';
import { call } from '../factories.js';
import { seesT1 } from '../record-access-rule.js';
import { startReceiver, type Receiver } from '../webhook-receiver.js';

/**
 * The seven webhook endpoints × every kind of caller (CONTRACT §7, "Webhooks"): space admins
 * only (an account key, the owner, an admin of the table's space), never a read-only key, not
 * even to read. A table or webhook the caller cannot see answers exactly as a missing one.
 * Order of checks: authentication (401) → visibility (404) → read-only key (403) → admin (403).
 */

interface Target {
  tid: number;
  wid: number;
  did: number;
}

interface Endpoint extends AccessRow<Target> {
  /** A webhook of its own for each call (update, delete, rotate change or consume it). */
  fresh?: true;
  scope: 'table' | 'webhook';
}

const notFound: Record<Endpoint['scope'], ErrorExpectation> = {
  table: { status: 404, code: 'table_not_found', message: 'Table not found' },
  webhook: { status: 404, code: 'webhook_not_found', message: 'Webhook not found' },
};
const readOnly: ErrorExpectation = { status: 403, code: 'read_only_key', message: 'Read-only API key' };
const adminRequired: ErrorExpectation = { status: 403, code: 'admin_required', message: 'Only space admins can manage webhooks' };

function expectedOutcome(endpoint: Endpoint, caller: CallerProfile): Outcome {
  if (caller.authError) return caller.authError;
  const identity = caller.identity!;
  if (!seesT1(identity)) return notFound[endpoint.scope];
  if (identity.readOnly) return readOnly;
  return identity.roleInS1 === 'admin' ? 'ok' : adminRequired;
}

describe('access matrix of the webhook endpoints', () => {
  const ctx = useTestApp({ env: { TABULA_FETCH_ALLOW_HOSTS: '127.0.0.1' } });
  let world: AccessWorld;
  let receiver: Receiver;
  let shared: { id: number; deliveryId: number };

  const asOwner = (method: 'GET' | 'POST', url: string, body?: unknown) => call(ctx, method, url, { key: world.a.accountKey, body });
  const listHooks = async () => (await asOwner('GET', `/api/table/${world.t1.id}/webhooks/list`)).body as Array<{ id: number; url: string; active: boolean; events: string[] }>;
  async function createHook(url = receiver.url): Promise<number> {
    const response = await asOwner('POST', `/api/table/${world.t1.id}/webhooks/create`, { url });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.id;
  }

  beforeAll(async () => {
    world = await buildAccessWorld(ctx);
    receiver = await startReceiver();
    const id = await createHook();
    await asOwner('POST', `/api/table/${world.t1.id}/records/create`, { data: { name: 'hooked' } });
    // The matrix's app delivers nothing by itself: a logged delivery to redeliver is written here.
    await ctx.container.services.unit.settleQueued();
    const change = await ctx.container.database.db.selectFrom('changes').select(['seq', 'kind']).where('table_id', '=', world.t1.id).orderBy('seq', 'desc').executeTakeFirstOrThrow();
    const row = await ctx.container.database.db
      .insertInto('webhook_deliveries')
      .values({ webhook_id: id, seq: change.seq, kind: change.kind, attempt: 1, status: 'failed', response_code: 500, response_body: '', duration_ms: 1, error: null, at: '2026-11-01 10:00:00', next_attempt_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    shared = { id, deliveryId: Number(row.id) };
  });
  afterAll(() => receiver?.close());

  const endpoints: Endpoint[] = [
    {
      name: 'POST /webhooks/create',
      method: 'POST',
      scope: 'table',
      path: ({ tid }) => `/api/table/${tid}/webhooks/create`,
      body: (caller) => ({ url: `${receiver.url}?by=${encodeURIComponent(caller.name)}` }),
      async checkOk(body, caller) {
        expect(body).toMatchObject({ table_id: world.t1.id, active: true, secret: expect.stringMatching(/^whsec_/) });
        expect((await listHooks()).map((hook) => hook.url)).toContain(`${receiver.url}?by=${encodeURIComponent(caller.name)}`);
      },
    },
    {
      name: 'GET /webhooks/list',
      method: 'GET',
      scope: 'table',
      path: ({ tid }) => `/api/table/${tid}/webhooks/list`,
      checkOk: (body) => expect(body).toContainEqual(expect.objectContaining({ id: shared.id, url: receiver.url })),
    },
    {
      name: 'POST /webhook/<id>/update',
      method: 'POST',
      scope: 'webhook',
      fresh: true,
      path: ({ wid }) => `/api/webhook/${wid}/update`,
      body: () => ({ events: ['record.deleted'] }),
      checkOk: (body, _caller, { wid }) => expect(body).toMatchObject({ id: wid, events: ['record.deleted'] }),
    },
    {
      name: 'POST /webhook/<id>/delete',
      method: 'POST',
      scope: 'webhook',
      fresh: true,
      path: ({ wid }) => `/api/webhook/${wid}/delete`,
      async checkOk(body, _caller, { wid }) {
        expect(body).toEqual({ id: wid, deleted: true });
        expect((await listHooks()).map((hook) => hook.id)).not.toContain(wid);
      },
    },
    {
      name: 'POST /webhook/<id>/rotate_secret',
      method: 'POST',
      scope: 'webhook',
      fresh: true,
      path: ({ wid }) => `/api/webhook/${wid}/rotate_secret`,
      checkOk: (body, _caller, { wid }) => expect(body).toEqual({ id: wid, secret: expect.stringMatching(/^whsec_/) }),
    },
    {
      name: 'POST /webhook/<id>/deliveries',
      method: 'POST',
      scope: 'webhook',
      path: ({ wid }) => `/api/webhook/${wid}/deliveries`,
      body: () => ({ limit: 200 }),
      checkOk: (body) => expect(body).toContainEqual(expect.objectContaining({ id: shared.deliveryId, status: 'failed', response_code: 500 })),
    },
    {
      name: 'POST /webhook/<id>/deliveries/<did>/redeliver',
      method: 'POST',
      scope: 'webhook',
      path: ({ wid, did }) => `/api/webhook/${wid}/deliveries/${did}/redeliver`,
      checkOk: (body) => expect(body).toMatchObject({ attempt: 2, status: 'succeeded', response_code: 200 }),
    },
  ];

  const target = async (endpoint: Endpoint): Promise<Target> => ({ tid: world.t1.id, wid: endpoint.fresh ? await createHook() : shared.id, did: shared.deliveryId });
  /** Every webhook of T1 and the shared one's log, less the redeliveries the matrix itself makes. */
  const snapshot = async () => ({ hooks: await listHooks(), received: receiver.received.length });

  describeAccessMatrix<Endpoint, Target>({
    ctx,
    world: () => world,
    rows: endpoints,
    expectedOutcome,
    target,
    snapshot,
    coverage: {
      name: 'covers every route tagged webhooks',
      tags: ['webhooks'],
      route: (endpoint) => endpoint.name.replace(' /webhooks/', ' /api/table/{tid}/webhooks/').replace(' /webhook/<id>/', ' /api/webhook/{wid}/').replace('<did>', '{did}'),
    },
    hidden: {
      name: "answers a webhook or table the caller cannot see exactly as one that does not exist",
      expected: (endpoint) => notFound[endpoint.scope],
      calls(endpoint, own) {
        const as = (name: string, change: Partial<Target>) => ({ caller: world.caller(name), target: { ...own, ...change } });
        if (endpoint.scope === 'table') return [as("another account's key", {}), as('unrestricted account key', { tid: missingId }), as('unrestricted account key', { tid: world.bTable.id }), as('account key restricted to S2', {})];
        return [as("another account's key", {}), as('unrestricted account key', { wid: missingId }), as('account key restricted to S2', {}), as("non-member's personal key", {})];
      },
      async afterwards(own) {
        expect((await listHooks()).map((hook) => hook.id)).toContain(own.wid);
      },
    },
  });
});
