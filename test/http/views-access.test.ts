import { beforeAll, describe, expect, it } from 'vitest';
import { buildAccessWorld, missingId, type AccessWorld, type Caller, type CallerProfile, type ErrorExpectation } from '../access-fixture.js';
import { describeAccessMatrix, type AccessRow, type Outcome } from '../access-matrix-runner.js';
import { useTestApp } from '../build-test-app.js';
import { call, createTable, login } from '../factories.js';
import { seesT1 } from '../record-access-rule.js';

/**
 * The five view endpoints, and queries, counts and ids through a view, × every kind of caller
 * (seed "Authentication" 3 and 5, "Errors"; CONTRACT §2, §6).
 *
 * Reads (list, get): everyone who sees the table; a table the caller cannot see (or that does
 * not exist) is 404 `Not Authorized`. Changes (create, update, delete): a bearer key of any kind
 * is refused first with 403 `API endpoint not available to API keys`; then a session that does
 * not see the table gets 404 `Not Authorized`, and one whose role is not admin 403. Queries
 * through a view on a table the caller cannot see: 500 `Not Authorized`.
 */

/** The table of the path and the view id of the path (for list and create, the id is unused). */
interface Target {
  tid: number;
  vid: number;
}

interface Endpoint extends AccessRow<Target> {
  change: boolean;
  /** A view of its own for each call (update and delete consume or change it). */
  fresh?: true;
}

const notAuthorized: ErrorExpectation = { status: 404, code: 'view_not_authorized', message: 'Not Authorized' };
const apiKeysRefused: ErrorExpectation = { status: 403, code: 'api_keys_not_allowed', message: 'API endpoint not available to API keys' };
const adminRequired: ErrorExpectation = { status: 403, code: 'admin_required', message: 'Only space admins can change views' };
const queryNotAuthorized: ErrorExpectation = { status: 500, code: 'not_authorized', message: 'Not Authorized' };

function expectedOutcome(endpoint: Endpoint, caller: CallerProfile): Outcome {
  if (caller.authError) return caller.authError;
  const identity = caller.identity!;
  const sees = seesT1(identity);
  if (!endpoint.change) return sees ? 'ok' : notAuthorized;
  if (identity.via !== 'session') return apiKeysRefused;
  if (!sees) return notAuthorized;
  return identity.roleInS1 === 'admin' ? 'ok' : adminRequired;
}

describe('access matrix of the view endpoints', () => {
  const ctx = useTestApp();
  let world: AccessWorld;
  let ownerSession: string;
  let editorSession: string;
  let nonMemberSession: string;
  /** A table of S2, where the space admin of S1 is no member. */
  let tableInS2: number;
  let sharedView: { id: number };
  /** The records of T1 the shared view shows, in its order (notes = keep, name descending). */
  let shown: number[];

  const base = (tid: number) => `/api/table/${tid}`;
  const ownerKey = () => world.a.accountKey;
  const viewBody = { name: 'Kept', type: 'grid', filters: [{ column: 'notes', compare: '=', value: 'keep' }], order_by: 'name', order_dir: 'D' };

  async function createView(name = 'Fresh'): Promise<number> {
    const response = await call(ctx, 'POST', `${base(world.t1.id)}/views/create`, { cookie: ownerSession, body: { ...viewBody, name } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.id;
  }
  const getAsOwner = (vid: number) => call(ctx, 'GET', `${base(world.t1.id)}/view/${vid}/get`, { key: ownerKey() });
  const listAsOwner = async () => (await call(ctx, 'GET', `${base(world.t1.id)}/views/list`, { key: ownerKey() })).body as Array<{ id: number; name: string }>;

  beforeAll(async () => {
    world = await buildAccessWorld(ctx);
    ownerSession = await login(ctx, world.a.ownerEmail, world.a.ownerPassword);
    editorSession = await login(ctx, world.users.editor.email, world.users.editor.password);
    nonMemberSession = await login(ctx, world.users.nonMember.email, world.users.nonMember.password);
    tableInS2 = (await createTable(ctx, world.a, world.s2.id, { name: 'In S2', fields: [{ name: 'Name', type: 'text' }] })).id;
    const ids: Record<string, number> = {};
    for (const [name, notes] of [['a', 'keep'], ['b', 'keep'], ['c', 'drop']]) {
      ids[name] = (await call(ctx, 'POST', `${base(world.t1.id)}/records/create`, { key: ownerKey(), body: { data: { name, notes } } })).body.id;
    }
    shown = [ids.b, ids.a];
    sharedView = { id: await createView('Shared') };
  });

  const endpoints: Endpoint[] = [
    {
      name: 'GET /views/list',
      method: 'GET',
      change: false,
      path: ({ tid }) => `${base(tid)}/views/list`,
      checkOk(body) {
        expect(body[0]).toMatchObject({ id: 0, name: 'Default', is_default: true, table_id: world.t1.id });
        expect(body).toContainEqual(expect.objectContaining({ id: sharedView.id, name: 'Shared', filters: viewBody.filters, order_by: 'name', order_dir: 'D' }));
      },
    },
    {
      name: 'GET /view/<id>/get',
      method: 'GET',
      change: false,
      path: ({ tid, vid }) => `${base(tid)}/view/${vid}/get`,
      checkOk: (body) => expect(body).toMatchObject({ id: sharedView.id, name: 'Shared', table_id: world.t1.id, account_id: world.a.accountId, created_by: world.a.ownerId }),
    },
    {
      name: 'POST /views/create',
      method: 'POST',
      change: true,
      path: ({ tid }) => `${base(tid)}/views/create`,
      body: () => ({ ...viewBody, name: 'Created' }),
      async checkOk(body, caller) {
        expect(body).toMatchObject({ id: expect.any(Number), name: 'Created', created_by: caller.userId, filters: viewBody.filters, is_default: false });
        expect((await getAsOwner(body.id)).body).toEqual(body);
      },
    },
    {
      name: 'POST /view/<id>/update',
      method: 'POST',
      change: true,
      fresh: true,
      path: ({ tid, vid }) => `${base(tid)}/view/${vid}/update`,
      body: () => ({ name: 'Renamed', order_dir: 'A' }),
      async checkOk(body, _caller, { vid }) {
        expect(body).toMatchObject({ id: vid, name: 'Renamed', order_by: 'name', order_dir: 'A', filters: viewBody.filters });
        expect((await getAsOwner(vid)).body).toEqual(body);
      },
    },
    {
      name: 'POST /view/<id>/delete',
      method: 'POST',
      change: true,
      fresh: true,
      path: ({ tid, vid }) => `${base(tid)}/view/${vid}/delete`,
      async checkOk(body, _caller, { vid }) {
        expect(body).toStrictEqual({ id: vid, deleted: true });
        expect((await getAsOwner(vid)).body).toEqual({ error: { code: 'unknown_view', message: 'View not found' } });
      },
    },
  ];

  const target = async (endpoint: Endpoint): Promise<Target> => ({ tid: world.t1.id, vid: endpoint.fresh ? await createView() : sharedView.id });
  /** Every view of T1, read in full: what a refused call leaves as it was. */
  const snapshot = async () => Promise.all((await listAsOwner()).map(async (view) => (await getAsOwner(view.id)).body));
  const someCaller = () => world.caller("owner's session");

  describeAccessMatrix<Endpoint, Target>({
    ctx,
    world: () => world,
    rows: endpoints,
    expectedOutcome,
    target,
    snapshot,
    coverage: {
      name: 'covers every route tagged views',
      tags: ['views'],
      route: (endpoint) => endpoint.name.replace('<id>', '{vid}').replace(' /', ' /api/table/{tid}/'),
    },
    hidden: {
      name: 'answers a table the caller cannot see exactly as a table id that does not exist',
      expected: () => notAuthorized,
      calls(endpoint, own) {
        const as = (name: string, tid: number) => ({ caller: world.caller(name), target: { tid, vid: own.vid } });
        if (endpoint.change) {
          // Only sessions get past the API-key refusal.
          return [as("owner's session", missingId), as("owner's session", world.bTable.id), as("space admin's session", tableInS2), as("space admin's session", missingId)];
        }
        return [as("another account's key", world.t1.id), as("another account's key", missingId), as('unrestricted account key', missingId), as('unrestricted account key', world.bTable.id), as('account key restricted to S2', world.t1.id)];
      },
      async afterwards(own) {
        expect((await getAsOwner(own.vid)).status).toBe(200);
      },
    },
    moreTests(endpoint) {
      const session = (cookie: string, t: Target) =>
        call(ctx, endpoint.method, endpoint.path(t), { cookie, body: endpoint.method === 'POST' ? (endpoint.body?.(someCaller(), t) ?? {}) : undefined });

      it(`answers an editor's session ${endpoint.change ? '403 Only space admins can change views, changing nothing' : '200'}`, async () => {
        const t = await target(endpoint);
        const before = await snapshot();
        const response = await session(editorSession, t);
        if (endpoint.change) {
          expect({ status: response.status, body: response.body }).toEqual({ status: 403, body: { error: { code: adminRequired.code, message: adminRequired.message } } });
          expect(await snapshot()).toEqual(before);
        } else {
          expect(response.status, JSON.stringify(response.body)).toBe(200);
          await endpoint.checkOk(response.body, someCaller(), t);
        }
      });

      it("answers a non-member's session 404 Not Authorized, changing nothing", async () => {
        const t = await target(endpoint);
        const before = await snapshot();
        const response = await session(nonMemberSession, t);
        expect({ status: response.status, body: response.body }).toEqual({ status: 404, body: { error: { code: notAuthorized.code, message: notAuthorized.message } } });
        expect(await snapshot()).toEqual(before);
      });

      if (endpoint.method === 'POST') {
        it("refuses an admin's session request that is not sent as JSON with 415, changing nothing", async () => {
          const t = await target(endpoint);
          const before = await snapshot();
          const body = endpoint.body?.(someCaller(), t);
          const response = await call(ctx, 'POST', endpoint.path(t), {
            cookie: ownerSession,
            payload: body === undefined ? '' : new URLSearchParams({ json: JSON.stringify(body) }).toString(),
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          });
          expect(response.status).toBe(415);
          expect(response.body.error.code).toBe('unsupported_media_type');
          expect(await snapshot()).toEqual(before);
        });
      }

      if (endpoint.fresh || endpoint.name === 'GET /view/<id>/get') {
        it("answers another table's view id, or a missing one, 404 View not found to an admin's session", async () => {
          const otherTableView = (await call(ctx, 'POST', `${base(tableInS2)}/views/create`, { cookie: ownerSession, body: { name: 'Elsewhere' } })).body.id;
          for (const vid of [otherTableView, 999_999]) {
            const response = await session(ownerSession, { tid: world.t1.id, vid });
            expect({ status: response.status, body: response.body }).toEqual({ status: 404, body: { error: { code: 'unknown_view', message: 'View not found' } } });
          }
          expect((await call(ctx, 'GET', `${base(tableInS2)}/view/${otherTableView}/get`, { key: ownerKey() })).status).toBe(200);
        });
      }
    },
  });

  describe('queries through a view', () => {
    type QueryRow = AccessRow<Target>;
    const through = (vid: number) => ({ view_id: vid });
    const rows: QueryRow[] = [
      {
        name: 'POST /records/query with view_id',
        method: 'POST',
        path: ({ tid }) => `${base(tid)}/records/query`,
        body: (_caller, { vid }) => through(vid),
        checkOk: (body) => expect(body.map((record: { id: number }) => record.id)).toEqual(shown),
      },
      {
        name: 'POST /records/count with view_id',
        method: 'POST',
        path: ({ tid }) => `${base(tid)}/records/count`,
        body: (_caller, { vid }) => through(vid),
        checkOk: (body) => expect(body).toEqual({ count: 2, total: 3, total_approx: false, restricted: true }),
      },
      {
        name: 'POST /records/ids with view_id',
        method: 'POST',
        path: ({ tid }) => `${base(tid)}/records/ids`,
        body: (_caller, { vid }) => through(vid),
        checkOk: (body) => expect(body).toEqual(shown),
      },
      {
        name: 'POST /records/export with view_id',
        method: 'POST',
        path: ({ tid }) => `${base(tid)}/records/export`,
        body: (_caller, { vid }) => ({ ...through(vid), format: 'json' }),
        checkOk: (body) => expect(body.map((record: { id: number }) => record.id)).toEqual(shown),
      },
    ];

    /** Records are read by everyone who sees the table; not seeing it answers the seed's 500. */
    const queryOutcome = (_row: QueryRow, caller: CallerProfile): Outcome => {
      if (caller.authError) return caller.authError;
      const identity = caller.identity!;
      return seesT1(identity) ? 'ok' : queryNotAuthorized;
    };

    describeAccessMatrix<QueryRow, Target>({
      ctx,
      world: () => world,
      rows,
      expectedOutcome: queryOutcome,
      target: async () => ({ tid: world.t1.id, vid: sharedView.id }),
      hidden: {
        name: 'answers a table the caller cannot see exactly as a table id that does not exist: 500 Not Authorized',
        expected: () => queryNotAuthorized,
        calls(_row, own) {
          const as = (caller: Caller, tid: number) => ({ caller, target: { tid, vid: own.vid } });
          const other = world.caller("another account's key");
          const mine = world.caller('unrestricted account key');
          return [as(other, world.t1.id), as(other, missingId), as(mine, missingId), as(mine, world.bTable.id), as(world.caller('account key restricted to S2'), world.t1.id)];
        },
      },
      moreTests(row) {
        it("answers an editor's session as any reader of the table, and a non-member's session 500 Not Authorized", async () => {
          const t = { tid: world.t1.id, vid: sharedView.id };
          const editor = await call(ctx, 'POST', row.path(t), { cookie: editorSession, body: row.body!(someCaller(), t) });
          expect(editor.status, JSON.stringify(editor.body)).toBe(200);
          await row.checkOk(editor.body, someCaller(), t);
          const stranger = await call(ctx, 'POST', row.path(t), { cookie: nonMemberSession, body: row.body!(someCaller(), t) });
          expect({ status: stranger.status, body: stranger.body }).toEqual({ status: 500, body: { error: { code: queryNotAuthorized.code, message: queryNotAuthorized.message } } });
        });
      },
    });
  });
});
