import { beforeAll, describe, expect, it } from 'vitest';
import { buildAccessWorld, callAs, callerProfiles, missingId, type AccessWorld, type Caller, type CallerProfile, type ErrorExpectation } from '../access-fixture.js';
import { describeAccessMatrix, describeOutcome, expectRefused, type AccessRow, type Outcome } from '../access-matrix-runner.js';
import { blobsOn } from '../blob-files.js';
import { useTestApp } from '../build-test-app.js';
import { call, createTable, login, type Response } from '../factories.js';
import { invalidTable, recordAccessOutcome } from '../record-access-rule.js';

/**
 * The files endpoints × every kind of caller (seed "Files" and "Authentication" 2 and 6;
 * CONTRACT §2, §5). Order of checks, as for records: authentication (401) → visibility of the
 * table (400 `Invalid Table`, exactly as for a table that does not exist) → read-only key or
 * reader role on a write (403). A refused write leaves the record, the ledger of stored files
 * and the blobs on disk exactly as they were.
 *
 * files/create, delete and get are JSON endpoints and run through the shared matrix runner;
 * the raw upload and download are not (their bodies are bytes), so they have their own loop
 * below with the same expectations. The route-coverage test holds both sets against the
 * OpenAPI document's `files` tag: a new files route without rows fails it.
 */

interface Attachment {
  name: string;
  path: string;
  type: string;
  size: number;
  host: string;
}

/** A fresh record of the files table with two attachments in `docs` and an image in `pics`, and the table the path names. */
interface Target {
  tid: number;
  rid: number;
  attachments: Attachment[];
  image: Attachment;
}

interface Endpoint extends AccessRow<Target> {
  write: boolean;
  /** The route as OpenAPI spells it. */
  route: string;
}

const sessionNeedsJson: ErrorExpectation = { status: 415, code: 'unsupported_media_type', message: 'Session requests that change state must be sent as Content-Type: application/json' };

const text = (content: string) => Buffer.from(content).toString('base64');
/** A 1×1 PNG: what the thumbnail route reads. */
const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const pathPattern = /^\/s\d+\/[0-9a-f]{32}-[A-Za-z0-9._-]+$/;

describe('access matrix of the files endpoints', () => {
  const ctx = useTestApp();
  let world: AccessWorld;
  let tableId: number;
  let editorSession: string;

  beforeAll(async () => {
    world = await buildAccessWorld(ctx);
    editorSession = await login(ctx, world.users.editor.email, world.users.editor.password);
    const table = await createTable(ctx, world.a, world.s1.id, {
      name: 'Files',
      fields: [
        { id: 'name', name: 'Name', type: 'text' },
        { id: 'docs', name: 'Docs', type: 'file' },
        { id: 'pics', name: 'Pictures', type: 'file' },
        { id: 'locked', name: 'Locked', type: 'file', editable_by: 'admins' },
      ],
    });
    tableId = table.id;
  });

  const ownerKey = () => world.a.accountKey;
  const base = (tid: number) => `/api/table/${tid}`;
  const readAsOwner = (rid: number) => call(ctx, 'GET', `${base(tableId)}/record/${rid}/get`, { key: ownerKey() });

  /** A record of the files table made by the owner, with first.txt and second.txt in `docs` and dot.png in `pics`. */
  async function freshTarget(): Promise<Target> {
    const response = await call(ctx, 'POST', `${base(tableId)}/records/create`, {
      key: ownerKey(),
      body: {
        data: {
          name: 'seed',
          docs: [{ data: text('first file'), name: 'first.txt', type: 'text/plain' }, { data: text('second file'), name: 'second.txt', type: 'text/plain' }],
          pics: [{ data: png, name: 'dot.png', type: 'image/png' }],
        },
      },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return { tid: tableId, rid: response.body.id, attachments: response.body.data.docs, image: response.body.data.pics[0] };
  }

  /** What a refused write must leave as it was: the record, the ledger rows of the table, the blobs. */
  async function snapshot({ rid }: Pick<Target, 'rid'>) {
    const rows = await ctx.container.database.db
      .selectFrom('stored_files')
      .select(['path', 'state', 'field_id', 'size'])
      .where('table_id', '=', tableId)
      .orderBy('path')
      .execute();
    return { record: (await readAsOwner(rid)).body, rows: rows.map((row) => ({ ...row, size: Number(row.size) })), blobs: blobsOn(ctx.database.dataDir) };
  }

  const fileContent = async (rid: number, filePath: string) => {
    const got = await call(ctx, 'POST', `${base(tableId)}/record/${rid}/files/get`, { key: ownerKey(), body: { field_id: 'docs', path: filePath } });
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    return Buffer.from(got.body.data, 'base64').toString();
  };

  const endpoints: Endpoint[] = [
    {
      name: 'POST /record/<id>/files/create',
      route: 'POST /api/table/{tid}/record/{rid}/files/create',
      method: 'POST',
      write: true,
      path: ({ tid, rid }) => `${base(tid)}/record/${rid}/files/create`,
      body: () => ({ field_id: 'docs', name: 'added.txt', type: 'text/plain', data: text('added by caller') }),
      async checkOk(body, _caller, { rid, attachments }) {
        const added = { name: 'added.txt', path: expect.stringMatching(pathPattern), type: 'text/plain', size: 15, host: 'localhost' };
        expect(body).toStrictEqual({ field_id: 'docs', files: [...attachments, added] });
        expect((await readAsOwner(rid)).body.data.docs).toEqual(body.files);
        expect(await fileContent(rid, body.files[2].path)).toBe('added by caller');
      },
    },
    {
      name: 'POST /record/<id>/files/delete',
      route: 'POST /api/table/{tid}/record/{rid}/files/delete',
      method: 'POST',
      write: true,
      path: ({ tid, rid }) => `${base(tid)}/record/${rid}/files/delete`,
      body: (_caller, { attachments }) => ({ field_id: 'docs', path: attachments[0].path }),
      async checkOk(body, _caller, { rid, attachments }) {
        expect(body).toStrictEqual({ field_id: 'docs', files: [attachments[1]] });
        expect((await readAsOwner(rid)).body.data.docs).toEqual([attachments[1]]);
        // Managed storage: the blob waits in the reclaim queue (seed "Related rules on stored files" 2).
        expect((await ctx.container.services.reclaim.listPending()).map((file) => file.path)).toContain(attachments[0].path);
      },
    },
    {
      name: 'POST /record/<id>/files/get',
      route: 'POST /api/table/{tid}/record/{rid}/files/get',
      method: 'POST',
      write: false,
      path: ({ tid, rid }) => `${base(tid)}/record/${rid}/files/get`,
      body: (_caller, { attachments }) => ({ field_id: 'docs', path: attachments[0].path }),
      checkOk: (body) => expect(body).toStrictEqual({ name: 'first.txt', type: 'text/plain', size: 10, data: text('first file') }),
    },
  ];

  /** The session tests' stand-in for the bodies, which never depend on the caller. */
  const editor = () => world.caller("editor's personal key");

  describeAccessMatrix<Endpoint, Target>({
    ctx,
    world: () => world,
    rows: endpoints,
    expectedOutcome: recordAccessOutcome,
    target: freshTarget,
    snapshot,
    hidden: {
      name: "answers another account's key on this table exactly as on a table id that does not exist",
      expected: () => invalidTable,
      calls(_endpoint, own) {
        const other = world.caller("another account's key");
        const mine = world.caller('unrestricted account key');
        return [
          { caller: other, target: own },
          { caller: other, target: { ...own, tid: missingId } },
          { caller: mine, target: { ...own, tid: missingId } },
          { caller: mine, target: { ...own, tid: world.bTable.id } },
        ];
      },
      async afterwards({ rid, attachments }) {
        expect((await readAsOwner(rid)).body.data.docs).toEqual(attachments);
      },
    },
    moreTests(endpoint) {
      it("lets an editor's session cookie in (writes sent as Content-Type: application/json)", async () => {
        const target = await freshTarget();
        const response = await call(ctx, endpoint.method, endpoint.path(target), { cookie: editorSession, body: endpoint.body?.(editor(), target) ?? {} });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        await endpoint.checkOk(response.body, editor(), target);
      });

      it('refuses a session request that is not sent as JSON with 415, changing nothing', async () => {
        const target = await freshTarget();
        const before = await snapshot(target);
        const response = await call(ctx, 'POST', endpoint.path(target), {
          cookie: editorSession,
          payload: new URLSearchParams({ json: JSON.stringify(endpoint.body?.(editor(), target)) }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        expectRefused(response, sessionNeedsJson);
        expect(await snapshot(target)).toEqual(before);
      });
    },
  });

  /**
   * The raw routes: the upload's body is the file itself, the download answers the bytes. A
   * session cannot upload (state-changing session requests must be JSON, and the upload's body
   * is the file), so sessions get 415 there whatever their role.
   */
  interface RawEndpoint {
    name: string;
    route: string;
    write: boolean;
    send(caller: Caller, target: Target): Promise<Response>;
    checkOk(response: Response, target: Target): Promise<void>;
  }

  const rawEndpoints: RawEndpoint[] = [
    {
      name: 'POST /record/<id>/files/upload (raw body)',
      route: 'POST /api/table/{tid}/record/{rid}/files/upload',
      write: true,
      send: (caller, { tid, rid }) =>
        call(ctx, 'POST', `${base(tid)}/record/${rid}/files/upload?field_id=docs&name=up.bin`, {
          ...caller.auth,
          payload: Buffer.from('uploaded raw'),
          headers: { ...caller.auth.headers, 'content-type': 'application/octet-stream' },
        }),
      async checkOk(response, { rid, attachments }) {
        const added = { name: 'up.bin', path: expect.stringMatching(pathPattern), type: 'application/octet-stream', size: 12, host: 'localhost' };
        expect(response.body).toStrictEqual({ field_id: 'docs', files: [...attachments, added] });
        expect((await readAsOwner(rid)).body.data.docs).toEqual(response.body.files);
        expect(await fileContent(rid, response.body.files[2].path)).toBe('uploaded raw');
      },
    },
    {
      name: 'GET /record/<id>/files/download',
      route: 'GET /api/table/{tid}/record/{rid}/files/download',
      write: false,
      send: (caller, { tid, rid, attachments }) => callAs(ctx, caller, 'GET', `${base(tid)}/record/${rid}/files/download?${new URLSearchParams({ field_id: 'docs', path: attachments[0].path })}`),
      async checkOk(response) {
        expect(response.body).toBe('first file');
        expect(response.headers['content-type']).toMatch(/^text\/plain/);
        expect(response.headers['content-disposition']).toBe(`attachment; filename="first.txt"; filename*=UTF-8''first.txt`);
      },
    },
    {
      name: 'GET /record/<id>/files/thumbnail',
      route: 'GET /api/table/{tid}/record/{rid}/files/thumbnail',
      write: false,
      send: (caller, { tid, rid, image }) => callAs(ctx, caller, 'GET', `${base(tid)}/record/${rid}/files/thumbnail?${new URLSearchParams({ field_id: 'pics', path: image.path, size: '64' })}`),
      async checkOk(response) {
        expect(response.headers['content-type']).toBe('image/webp');
        expect(Number(response.headers['content-length'])).toBeGreaterThan(0);
      },
    },
  ];

  function expectedRawOutcome(endpoint: RawEndpoint, caller: CallerProfile): Outcome {
    if (endpoint.write && !caller.authError && caller.identity?.via === 'session') return sessionNeedsJson;
    return recordAccessOutcome(endpoint, caller);
  }

  for (const endpoint of rawEndpoints) {
    describe(endpoint.name, () => {
      for (const profile of callerProfiles) {
        const outcome = expectedRawOutcome(endpoint, profile);
        it(`answers ${describeOutcome(outcome)} to ${profile.name}`, async () => {
          const caller = world.caller(profile.name);
          const target = await freshTarget();
          const before = await snapshot(target);
          const response = await endpoint.send(caller, target);
          if (outcome === 'ok') {
            expect(response.status, JSON.stringify(response.body)).toBe(200);
            await endpoint.checkOk(response, target);
          } else {
            expectRefused(response, outcome);
            expect(await snapshot(target), 'what a refused call must leave as it was').toEqual(before);
          }
        });
      }

      it("answers another account's key on this table exactly as on a table id that does not exist", async () => {
        const own = await freshTarget();
        const other = world.caller("another account's key");
        const mine = world.caller('unrestricted account key');
        const calls = [
          { caller: other, target: own },
          { caller: other, target: { ...own, tid: missingId } },
          { caller: mine, target: { ...own, tid: missingId } },
          { caller: mine, target: { ...own, tid: world.bTable.id } },
        ];
        for (const { caller, target } of calls) {
          const response = await endpoint.send(caller, target);
          expect({ status: response.status, body: response.body }, `${caller.name} on table ${target.tid}`).toEqual({ status: 400, body: { error: { code: invalidTable.code, message: invalidTable.message } } });
        }
        expect((await readAsOwner(own.rid)).body.data.docs).toEqual(own.attachments);
      });
    });
  }

  it('every files route of the OpenAPI document (tag files) has rows in this matrix, and no row names a route that does not exist', async () => {
    const document = (await call(ctx, 'GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, { tags?: string[] }>> };
    const registered = Object.entries(document.paths).flatMap(([route, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation.tags?.includes('files'))
        .map(([method]) => `${method.toUpperCase()} ${route}`),
    );
    expect(new Set(registered)).toEqual(new Set([...endpoints, ...rawEndpoints].map((endpoint) => endpoint.route)));
  });

  describe('field-level edit permission (seed Authentication 6)', () => {
    it('an editor gets 403 field_not_editable on files/create and files/delete of an admins-only field, and nothing changes; a space admin may', async () => {
      const created = await call(ctx, 'POST', `${base(tableId)}/records/create`, { key: ownerKey(), body: { data: { locked: [{ data: text('locked file'), name: 'locked.txt', type: 'text/plain' }] } } });
      const rid = created.body.id as number;
      const [lockedFile] = created.body.data.locked as Attachment[];
      const target = { rid };
      const before = await snapshot(target);
      const refused: ErrorExpectation = { status: 403, code: 'field_not_editable', message: 'No edit permission for field: locked' };
      const editorKey = world.keys.editorPersonal;
      for (const [action, body] of [
        ['create', { field_id: 'locked', name: 'x.txt', data: text('x') }],
        ['delete', { field_id: 'locked', path: lockedFile.path }],
      ] as const) {
        expectRefused(await call(ctx, 'POST', `${base(tableId)}/record/${rid}/files/${action}`, { key: editorKey, body }), refused);
      }
      expect(await snapshot(target)).toEqual(before);
      // Reading is not editing: the editor may still get the file.
      const got = await call(ctx, 'POST', `${base(tableId)}/record/${rid}/files/get`, { key: editorKey, body: { field_id: 'locked', path: lockedFile.path } });
      expect(got.body).toStrictEqual({ name: 'locked.txt', type: 'text/plain', size: 11, data: text('locked file') });
      const byAdmin = await call(ctx, 'POST', `${base(tableId)}/record/${rid}/files/delete`, { key: world.keys.adminPersonal, body: { field_id: 'locked', path: lockedFile.path } });
      expect(byAdmin.body).toStrictEqual({ field_id: 'locked', files: [] });
    });
  });
});
