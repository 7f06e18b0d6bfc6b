import { beforeAll, describe, expect, it } from 'vitest';
import { buildAccessWorld, callAs, missingId, type AccessWorld } from '../access-fixture.js';
import { describeAccessMatrix, type AccessRow } from '../access-matrix-runner.js';
import { useTestApp } from '../build-test-app.js';
import { call, login } from '../factories.js';
import { invalidTable, recordAccessOutcome } from '../record-access-rule.js';

/**
 * The record endpoints × every kind of caller (CONTRACT §2, §4, §5; seed "Authentication").
 * Order of checks: authentication (401) → visibility of the table (400 `Invalid Table`, exactly
 * as for a table that does not exist) → read-only key or reader role on a write (403).
 */

/** A record of T1, and the table the path names: T1, or one the caller must not see. */
interface Target {
  tid: number;
  rid: number;
}

interface Endpoint extends AccessRow<Target> {
  write: boolean;
}

describe('access matrix of the record endpoints', () => {
  const ctx = useTestApp();
  let world: AccessWorld;
  let editorSession: string;

  beforeAll(async () => {
    world = await buildAccessWorld(ctx);
    editorSession = await login(ctx, world.users.editor.email, world.users.editor.password);
  });

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
      path: ({ tid }) => `${base(tid)}/records/create`,
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
      path: ({ tid, rid }) => `${base(tid)}/record/${rid}/get`,
      checkOk: (body, _caller, { rid }) => expect(body).toMatchObject({ id: rid, title: 'seed', data: { name: 'seed', notes: 'original' } }),
    },
    {
      name: 'POST /record/<id>/update',
      method: 'POST',
      write: true,
      path: ({ tid, rid }) => `${base(tid)}/record/${rid}/update`,
      body: () => ({ data: { notes: 'changed' } }),
      async checkOk(body, _caller, { rid }) {
        expect(body).toMatchObject({ id: rid, data: { name: 'seed', notes: 'changed' } });
        expect((await readAsOwner(rid)).body.data.notes).toBe('changed');
      },
    },
    {
      name: 'POST /record/<id>/delete',
      method: 'POST',
      write: true,
      path: ({ tid, rid }) => `${base(tid)}/record/${rid}/delete`,
      async checkOk(body, _caller, { rid }) {
        expect(body).toStrictEqual({ id: rid, deleted: true });
        expect((await readAsOwner(rid)).status).toBe(400);
      },
    },
    {
      name: 'POST /records/query',
      method: 'POST',
      write: false,
      path: ({ tid }) => `${base(tid)}/records/query`,
      body: () => ({ limit: 1000 }),
      checkOk: (body, _caller, { rid }) => expect(body).toContainEqual(expect.objectContaining({ id: rid, data: { name: 'seed', notes: 'original' } })),
    },
    {
      name: 'POST /records/count',
      method: 'POST',
      write: false,
      path: ({ tid }) => `${base(tid)}/records/count`,
      body: () => ({}),
      checkOk: (body) => expect(body).toMatchObject({ count: expect.any(Number), total: expect.any(Number), total_approx: false, restricted: false }),
    },
    {
      name: 'POST /records/ids',
      method: 'POST',
      write: false,
      path: ({ tid }) => `${base(tid)}/records/ids`,
      body: () => ({}),
      checkOk: (body, _caller, { rid }) => expect(body).toContain(rid),
    },
    {
      name: 'POST /records/export',
      method: 'POST',
      write: false,
      path: ({ tid }) => `${base(tid)}/records/export`,
      body: () => ({ format: 'json' }),
      checkOk: (body, _caller, { rid }) => expect(body).toContainEqual(expect.objectContaining({ id: rid, data: { name: 'seed', notes: 'original' } })),
    },
    {
      name: 'POST /records/delete_batch',
      method: 'POST',
      write: true,
      path: ({ tid }) => `${base(tid)}/records/delete_batch`,
      body: (_caller, { rid }) => ({ record_ids: [rid] }),
      async checkOk(body, _caller, { rid }) {
        expect(body).toStrictEqual({ deleted: [rid], not_found: [] });
        expect((await readAsOwner(rid)).status).toBe(400);
      },
    },
    {
      name: 'POST /records/trash',
      method: 'POST',
      write: false,
      path: ({ tid }) => `${base(tid)}/records/trash`,
      body: () => ({ limit: 1000 }),
      checkOk: (body) => expect(Array.isArray(body)).toBe(true),
    },
    {
      name: 'POST /records/restore',
      method: 'POST',
      write: true,
      path: ({ tid }) => `${base(tid)}/records/restore`,
      // A live record is not in the trash: the access is what is checked here (changes.test.ts restores).
      body: (_caller, { rid }) => ({ ids: [rid] }),
      checkOk: (body, _caller, { rid }) => expect(body).toStrictEqual({ restored: [], not_found: [rid] }),
    },
    {
      name: 'POST /changes/list',
      method: 'POST',
      write: false,
      path: ({ tid }) => `${base(tid)}/changes/list`,
      body: () => ({ limit: 1000 }),
      checkOk: (body) => expect(body).toMatchObject({ changes: expect.any(Array), next_after: expect.any(Number) }),
    },
    {
      name: 'POST /record/<id>/history',
      method: 'POST',
      write: false,
      path: ({ tid, rid }) => `${base(tid)}/record/${rid}/history`,
      body: () => ({}),
      checkOk: (body, _caller, { rid }) => expect(body).toContainEqual(expect.objectContaining({ kind: 'record.created', record_id: rid })),
    },
    {
      name: 'POST /records/create_batch',
      method: 'POST',
      write: true,
      path: ({ tid }) => `${base(tid)}/records/create_batch`,
      body: () => ({ records: [{ data: { name: 'batch one', notes: 'by caller' } }, { data: { name: 'batch two' } }] }),
      async checkOk(body) {
        expect(body).toMatchObject([{ title: 'batch one', data: { name: 'batch one', notes: 'by caller' } }, { title: 'batch two', data: { name: 'batch two', notes: null } }]);
        expect((await readAsOwner(body[1].id)).body.data.name).toBe('batch two');
      },
    },
    {
      // Refused as create_batch is (a write's access), though it writes nothing.
      name: 'POST /records/validate_batch',
      method: 'POST',
      write: true,
      path: ({ tid }) => `${base(tid)}/records/validate_batch`,
      body: () => ({ records: [{ data: { name: 'checked' } }, { data: { name: 'not a field', colour: 'red' } }] }),
      async checkOk(body) {
        expect(body).toStrictEqual({ errors: [{ index: 1, code: 'invalid_field', message: 'Invalid field: colour' }] });
        expect((await call(ctx, 'POST', `${base(world.t1.id)}/records/query`, { key: ownerKey(), body: { where: { name: 'checked' } } })).body).toEqual([]);
      },
    },
    {
      name: 'POST /records/update_batch',
      method: 'POST',
      write: true,
      path: ({ tid }) => `${base(tid)}/records/update_batch`,
      body: (_caller, { rid }) => ({ records: [{ id: rid, data: { notes: 'changed in batch' } }] }),
      async checkOk(body, _caller, { rid }) {
        expect(body).toMatchObject([{ id: rid, data: { name: 'seed', notes: 'changed in batch' } }]);
        expect((await readAsOwner(rid)).body.data.notes).toBe('changed in batch');
      },
    },
    {
      name: 'POST /records/upsert_batch',
      method: 'POST',
      write: true,
      path: ({ tid }) => `${base(tid)}/records/upsert_batch`,
      // The fresh record's id as its name: unique, so that the match finds exactly that record.
      body: (_caller, { rid }) => ({ match_on: ['name'], records: [{ data: { name: `upsert ${rid}`, notes: 'new' } }] }),
      async checkOk(body, _caller, { rid }) {
        expect(body).toMatchObject([{ title: `upsert ${rid}`, data: { name: `upsert ${rid}`, notes: 'new' } }]);
        expect((await readAsOwner(body[0].id)).body.data.notes).toBe('new');
      },
    },
  ];

  /** The record and the table's ids, as the owner sees them: what a refused call leaves as it was. */
  const snapshot = async ({ rid }: Target) => ({ record: (await readAsOwner(rid)).body, ids: await allIds() });
  const freshTarget = async (): Promise<Target> => ({ tid: world.t1.id, rid: await freshRecord() });
  /** The session tests' stand-in for the bodies and checks, which never depend on the caller. */
  const editor = () => world.caller("editor's personal key");

  describeAccessMatrix<Endpoint, Target>({
    ctx,
    world: () => world,
    rows: endpoints,
    expectedOutcome: recordAccessOutcome,
    target: freshTarget,
    snapshot,
    coverage: { name: 'covers every route tagged records or changes', tags: ['records', 'changes'], route: (endpoint) => endpoint.name.replace(' /', ' /api/table/{tid}/').replace('<id>', '{rid}') },
    hidden: {
      name: "answers another account's key on this table exactly as on a table id that does not exist",
      expected: () => invalidTable,
      calls(_endpoint, { rid }) {
        const other = world.caller("another account's key");
        const own = world.caller('unrestricted account key');
        return [
          { caller: other, target: { tid: world.t1.id, rid } },
          { caller: other, target: { tid: missingId, rid } },
          { caller: own, target: { tid: missingId, rid } },
          { caller: own, target: { tid: world.bTable.id, rid } },
        ];
      },
      async afterwards({ rid }) {
        expect((await readAsOwner(rid)).status).toBe(200);
      },
    },
    moreTests(endpoint) {
      it("lets an editor's session cookie in, a write when sent as Content-Type: application/json", async () => {
        const target = await freshTarget();
        const response = await call(ctx, endpoint.method, endpoint.path(target), {
          cookie: editorSession,
          body: endpoint.method === 'POST' ? (endpoint.body?.(editor(), target) ?? {}) : undefined,
        });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        await endpoint.checkOk(response.body, editor(), target);
      });

      if (endpoint.method === 'POST') {
        it('refuses a session request that is not sent as JSON with 415, changing nothing', async () => {
          const target = await freshTarget();
          const before = await snapshot(target);
          const body = endpoint.body?.(editor(), target);
          const response = await call(ctx, 'POST', endpoint.path(target), {
            cookie: editorSession,
            payload: body === undefined ? '' : new URLSearchParams({ json: JSON.stringify(body) }).toString(),
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          });
          expect(response.status).toBe(415);
          expect(response.body.error.code).toBe('unsupported_media_type');
          expect(await snapshot(target)).toEqual(before);
        });
      }
    },
  });

  it('answers a key restricted to another space with 400 Invalid Table on every record endpoint, and lets it into its own space', async () => {
    const caller = world.caller('account key restricted to S2');
    const target = await freshTarget();
    for (const endpoint of endpoints) {
      const response = await callAs(ctx, caller, endpoint.method, endpoint.path(target), endpoint.body?.(caller, target));
      expect({ status: response.status, body: response.body }).toEqual({ status: 400, body: { error: { code: 'invalid_table', message: 'Invalid Table' } } });
    }
    const tableInS2 = await call(ctx, 'POST', `/api/space/${world.s2.id}/tables/create`, { key: world.a.accountKey, body: { name: 'In S2', fields: [{ name: 'Name', type: 'text' }] } });
    const created = await callAs(ctx, caller, 'POST', `${base(tableInS2.body.id)}/records/create`, { data: { name: 'allowed' } });
    expect(created.status).toBe(200);
    expect(created.body.title).toBe('allowed');
  });
});
