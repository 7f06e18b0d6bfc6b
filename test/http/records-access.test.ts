import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccessWorld, callAs, callerProfiles, missingId, type AccessWorld, type CallerProfile, type ErrorExpectation } from '../access-fixture.js';
import { buildTestApp, type TestContext } from '../build-test-app.js';
import { call, login, type Response } from '../factories.js';

/**
 * The eight record endpoints × every kind of caller (CONTRACT §2, §4, §5; seed "Authentication").
 * Order of checks: authentication (401) → visibility of the table (400 `Invalid Table`, exactly
 * as for a table that does not exist) → read-only key or reader role on a write (403).
 */

interface Endpoint {
  name: string;
  method: 'GET' | 'POST';
  write: boolean;
  path(tid: number, rid: number): string;
  body?(rid: number): unknown;
  /** The happy path: the response body and its effect. */
  checkOk(body: any, rid: number): Promise<void> | void;
}

const invalidTable: ErrorExpectation = { status: 400, code: 'invalid_table', message: 'Invalid Table' };
const readOnlyRefusal = { status: 403 as const, code: 'read_only_key' };
const readerRefusal = { status: 403 as const, code: 'reader_role' };

function expectedOutcome(endpoint: Endpoint, caller: CallerProfile): ErrorExpectation | { status: 403; code: string } | 'ok' {
  if (caller.authError) return caller.authError;
  const identity = caller.identity!;
  if (identity.account !== 'A' || identity.roleInS1 === null) return invalidTable;
  if (endpoint.write && identity.readOnly) return readOnlyRefusal;
  if (endpoint.write && identity.roleInS1 === 'reader') return readerRefusal;
  return 'ok';
}

const describeOutcome = (outcome: ReturnType<typeof expectedOutcome>) =>
  outcome === 'ok' ? '200' : `${outcome.status} ${'message' in outcome ? outcome.message : outcome.code}`;

describe('access matrix of the record endpoints', () => {
  let ctx: TestContext;
  let world: AccessWorld;
  let editorSession: string;

  beforeAll(async () => {
    ctx = await buildTestApp();
    world = await buildAccessWorld(ctx);
    editorSession = await login(ctx, world.users.editor.email, world.users.editor.password);
  });
  afterAll(() => ctx.close());

  const ownerKey = () => world.a.accountKey;
  const base = (tid: number) => `/api/table/${tid}`;

  /** A fresh record of T1 made by the owner, so writes never disturb one another. */
  async function freshRecord(): Promise<number> {
    const response = await call(ctx, 'POST', `${base(world.t1.id)}/records/create`, { key: ownerKey(), body: { data: { name: 'seed', notes: 'original' } } });
    expect(response.status).toBe(200);
    return response.body.id;
  }
  const readAsOwner = (rid: number) => call(ctx, 'GET', `${base(world.t1.id)}/record/${rid}/get`, { key: ownerKey() });
  const allIds = async () => (await call(ctx, 'POST', `${base(world.t1.id)}/records/ids`, { key: ownerKey(), body: {} })).body as number[];

  const endpoints: Endpoint[] = [
    {
      name: 'POST /records/create',
      method: 'POST',
      write: true,
      path: (tid) => `${base(tid)}/records/create`,
      body: () => ({ data: { name: 'created', notes: 'by caller' } }),
      async checkOk(body) {
        expect(body).toMatchObject({ id: expect.any(Number), title: 'created', data: { name: 'created', notes: 'by caller' } });
        expect((await readAsOwner(body.id)).body.data.notes).toBe('by caller');
      },
    },
    {
      name: 'GET /record/<id>/get',
      method: 'GET',
      write: false,
      path: (tid, rid) => `${base(tid)}/record/${rid}/get`,
      checkOk: (body, rid) => expect(body).toMatchObject({ id: rid, title: 'seed', data: { name: 'seed', notes: 'original' } }),
    },
    {
      name: 'POST /record/<id>/update',
      method: 'POST',
      write: true,
      path: (tid, rid) => `${base(tid)}/record/${rid}/update`,
      body: () => ({ data: { notes: 'changed' } }),
      async checkOk(body, rid) {
        expect(body).toMatchObject({ id: rid, data: { name: 'seed', notes: 'changed' } });
        expect((await readAsOwner(rid)).body.data.notes).toBe('changed');
      },
    },
    {
      name: 'POST /record/<id>/delete',
      method: 'POST',
      write: true,
      path: (tid, rid) => `${base(tid)}/record/${rid}/delete`,
      async checkOk(body, rid) {
        expect(body).toStrictEqual({ id: rid, deleted: true });
        expect((await readAsOwner(rid)).status).toBe(400);
      },
    },
    {
      name: 'POST /records/query',
      method: 'POST',
      write: false,
      path: (tid) => `${base(tid)}/records/query`,
      body: () => ({ limit: 1000 }),
      checkOk: (body, rid) => expect(body).toContainEqual(expect.objectContaining({ id: rid, data: { name: 'seed', notes: 'original' } })),
    },
    {
      name: 'POST /records/count',
      method: 'POST',
      write: false,
      path: (tid) => `${base(tid)}/records/count`,
      body: () => ({}),
      checkOk: (body) => expect(body).toMatchObject({ count: expect.any(Number), total: expect.any(Number), total_approx: false, restricted: false }),
    },
    {
      name: 'POST /records/ids',
      method: 'POST',
      write: false,
      path: (tid) => `${base(tid)}/records/ids`,
      body: () => ({}),
      checkOk: (body, rid) => expect(body).toContain(rid),
    },
    {
      name: 'POST /records/delete_batch',
      method: 'POST',
      write: true,
      path: (tid) => `${base(tid)}/records/delete_batch`,
      body: (rid) => ({ record_ids: [rid] }),
      async checkOk(body, rid) {
        expect(body).toStrictEqual({ deleted: [rid], not_found: [] });
        expect((await readAsOwner(rid)).status).toBe(400);
      },
    },
  ];

  function expectRefused(response: Response, outcome: Exclude<ReturnType<typeof expectedOutcome>, 'ok'>) {
    expect(response.status, JSON.stringify(response.body)).toBe(outcome.status);
    if ('message' in outcome) expect(response.body).toEqual({ error: { code: outcome.code, message: outcome.message } });
    else expect(response.body.error.code).toBe(outcome.code);
  }

  for (const endpoint of endpoints) {
    describe(endpoint.name, () => {
      for (const profile of callerProfiles) {
        const outcome = expectedOutcome(endpoint, profile);
        it(`answers ${describeOutcome(outcome)} to ${profile.name}`, async () => {
          const caller = world.caller(profile.name);
          const rid = await freshRecord();
          const before = (await readAsOwner(rid)).body;
          const idsBefore = await allIds();
          const response = await callAs(ctx, caller, endpoint.method, endpoint.path(world.t1.id, rid), endpoint.body?.(rid));
          if (outcome === 'ok') {
            expect(response.status, JSON.stringify(response.body)).toBe(200);
            expect(response.headers['content-type']).toMatch(/^application\/json/);
            await endpoint.checkOk(response.body, rid);
          } else {
            expectRefused(response, outcome);
            expect((await readAsOwner(rid)).body).toEqual(before);
            expect(await allIds()).toEqual(idsBefore);
          }
        });
      }

      it("answers another account's key on this table exactly as on a table id that does not exist", async () => {
        const rid = await freshRecord();
        const other = world.caller("another account's key");
        const own = world.caller('unrestricted account key');
        const expected = { status: 400, body: { error: { code: invalidTable.code, message: invalidTable.message } } };
        for (const [caller, tid] of [
          [other, world.t1.id],
          [other, missingId],
          [own, missingId],
          [own, world.bTable.id],
        ] as const) {
          const response = await callAs(ctx, caller, endpoint.method, endpoint.path(tid, rid), endpoint.body?.(rid));
          expect({ status: response.status, body: response.body }).toEqual(expected);
        }
        expect((await readAsOwner(rid)).status).toBe(200);
      });

      it("lets an editor's session cookie in, a write when sent as Content-Type: application/json", async () => {
        const rid = await freshRecord();
        const response = await call(ctx, endpoint.method, endpoint.path(world.t1.id, rid), {
          cookie: editorSession,
          body: endpoint.method === 'POST' ? (endpoint.body?.(rid) ?? {}) : undefined,
        });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        await endpoint.checkOk(response.body, rid);
      });

      if (endpoint.method === 'POST') {
        it('refuses a session request that is not sent as JSON with 415, changing nothing', async () => {
          const rid = await freshRecord();
          const before = (await readAsOwner(rid)).body;
          const idsBefore = await allIds();
          const body = endpoint.body?.(rid);
          const response = await call(ctx, 'POST', endpoint.path(world.t1.id, rid), {
            cookie: editorSession,
            payload: body === undefined ? '' : new URLSearchParams({ json: JSON.stringify(body) }).toString(),
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          });
          expect(response.status).toBe(415);
          expect(response.body.error.code).toBe('unsupported_media_type');
          expect((await readAsOwner(rid)).body).toEqual(before);
          expect(await allIds()).toEqual(idsBefore);
        });
      }
    });
  }

  it('answers a key restricted to another space with 400 Invalid Table on every record endpoint, and lets it into its own space', async () => {
    const caller = world.caller('account key restricted to S2');
    const rid = await freshRecord();
    for (const endpoint of endpoints) {
      const response = await callAs(ctx, caller, endpoint.method, endpoint.path(world.t1.id, rid), endpoint.body?.(rid));
      expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: { error: { code: 'invalid_table', message: 'Invalid Table' } } });
    }
    const tableInS2 = await call(ctx, 'POST', `/api/space/${world.s2.id}/tables/create`, { key: world.a.accountKey, body: { name: 'In S2', fields: [{ name: 'Name', type: 'text' }] } });
    const created = await callAs(ctx, caller, 'POST', `${base(tableInS2.body.id)}/records/create`, { data: { name: 'allowed' } });
    expect(created.status).toBe(200);
    expect(created.body.title).toBe('allowed');
  });
});
