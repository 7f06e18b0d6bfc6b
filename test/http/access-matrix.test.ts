import { beforeAll, describe, expect, it } from 'vitest';
import { buildAccessWorld, callAs, callerProfiles, missingId, type AccessWorld, type CallerProfile, type ErrorExpectation, type Identity } from '../access-fixture.js';
import { describeAccessMatrix, type AccessRow } from '../access-matrix-runner.js';
import { useTestApp } from '../build-test-app.js';
import { call, createTable, createUser } from '../factories.js';

/**
 * Every management endpoint × every kind of caller (CONTRACT §2, §3, §5, §8). The expected outcome
 * comes from the "who" column of §3 and §8 through `expectedOutcome`; each test then checks the exact
 * status and error body, or the happy-path response and its effect.
 *
 * Order of checks the service promises: authentication (401) → visibility of the space or table
 * (404, exactly as if it did not exist) → read-only key on a write (403) → who may write (403).
 */

type Scope = 'account' | 'space' | 'table';
type Who =
  | 'anyone'
  | 'members'
  | 'unrestricted account key'
  | 'account key'
  | 'account key or space admin'
  /** CONTRACT §8: the owner's session or an unrestricted account key. */
  | 'owner'
  /** keys/list and keys/create: everyone (the owner all keys, a user their own), but an account key restricted to spaces. */
  | 'key holders'
  /** Revoking an account key of A: the owner of A; everyone else is answered as if it did not exist. */
  | "key's owner"
  | 'session';

interface Target {
  sid: number;
  tid: number;
  slug: string;
  /** An account key of A, for key revoke. */
  keyId?: number;
}

interface Endpoint extends AccessRow<Target> {
  /** What a 404 names: the space or the table of the path; `account` for paths without an id. */
  scope: Scope;
  who: Who;
  /** A target of its own for each call (writes that consume or change it); the shared S1/T1 otherwise. */
  fresh?(): Promise<Target>;
}

const readOnlyKey: ErrorExpectation = { status: 403, code: 'read_only_key', message: 'Read-only API key' };
const refusals: Record<Exclude<Who, 'anyone' | 'members'>, ErrorExpectation> = {
  'unrestricted account key': { status: 403, code: 'account_key_required', message: 'Only an unrestricted account key can manage spaces' },
  'account key': { status: 403, code: 'account_key_required', message: 'Only an account key can manage members' },
  'account key or space admin': { status: 403, code: 'admin_required', message: 'Only space admins can change tables' },
  owner: { status: 403, code: 'owner_required', message: 'Only the account owner can create users' },
  'key holders': { status: 403, code: 'owner_required', message: 'An account key restricted to spaces cannot manage keys' },
  "key's owner": { status: 404, code: 'key_not_found', message: 'Key not found' },
  session: { status: 403, code: 'api_keys_not_allowed', message: 'API endpoint not available to API keys' },
};
const notFound: Record<Exclude<Scope, 'account'>, ErrorExpectation> = {
  space: { status: 404, code: 'space_not_found', message: 'Space not found' },
  table: { status: 404, code: 'table_not_found', message: 'Table not found' },
};

/** CONTRACT §3's "who" column, applied to a caller. Targets are always in (a space like) S1. */
function expectedOutcome(endpoint: Pick<Endpoint, 'method' | 'scope' | 'who'>, caller: CallerProfile): ErrorExpectation | 'ok' {
  if (caller.authError) return caller.authError;
  const identity = caller.identity!;
  if (endpoint.scope !== 'account' && identity.roleInS1 === null) return notFound[endpoint.scope];
  if (endpoint.method === 'POST' && identity.readOnly) return readOnlyKey;
  // CONTRACT §3: the owner's session carries an unrestricted account key's authority.
  const isAccountKey = identity.via === 'account_key' || (identity.via === 'session' && identity.user === 'owner');
  const isWholeAccount = isAccountKey && !identity.restricted;
  switch (endpoint.who) {
    case 'anyone':
    case 'members':
      return 'ok';
    case 'unrestricted account key':
    case 'owner':
      return isWholeAccount ? 'ok' : refusals[endpoint.who];
    case 'account key':
      return isAccountKey ? 'ok' : refusals[endpoint.who];
    case 'account key or space admin':
      return isAccountKey || identity.roleInS1 === 'admin' ? 'ok' : refusals[endpoint.who];
    case 'key holders':
      return identity.via === 'account_key' && identity.restricted ? refusals[endpoint.who] : 'ok';
    case "key's owner":
      if (identity.via === 'account_key' && identity.restricted) return refusals['key holders'];
      return isWholeAccount && identity.account === 'A' ? 'ok' : refusals[endpoint.who];
    case 'session':
      return identity.via === 'session' ? 'ok' : refusals[endpoint.who];
  }
}

describe('access matrix of the management API', () => {
  const ctx = useTestApp();
  let world: AccessWorld;
  /** A user of account A who is added and removed by the member endpoints. */
  let spare: { id: number; email: string };

  beforeAll(async () => {
    world = await buildAccessWorld(ctx);
    spare = await createUser(ctx, world.a, 'Spare User');
  });

  /** A distinct e-mail per caller for users/create (e-mails are unique across accounts). */
  const emailMadeBy = (callerName: string) => `made-by-${callerName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}@example.com`;
  const asAccount = (method: 'GET' | 'POST', url: string, body?: unknown) => call(ctx, method, url, { key: world.a.accountKey, body });
  const sharedTarget = (): Target => ({ sid: world.s1.id, tid: world.t1.id, slug: world.t1.fieldSlug });

  /** A space with S1's members and roles, so every caller relates to it as to S1. */
  async function freshSpaceLikeS1(): Promise<Target> {
    const created = await asAccount('POST', '/api/spaces/create', { name: 'Like S1' });
    for (const [user, role] of [[world.users.admin, 'admin'], [world.users.editor, 'editor'], [world.users.reader, 'reader']] as const) {
      await asAccount('POST', `/api/space/${created.body.id}/members/add`, { user_id: user.id, role });
    }
    return { ...sharedTarget(), sid: created.body.id };
  }

  async function freshTableInS1(): Promise<Target> {
    const table = await createTable(ctx, world.a, world.s1.id, { name: 'Scratch', fields: [{ name: 'Name', type: 'text' }, { name: 'Notes', type: 'text' }] });
    return { ...sharedTarget(), tid: table.id };
  }

  /** A table with a number field (indexable on both engines) and, with `indexed`, an index `by_amount` on it. */
  async function freshIndexedTable(indexed: boolean): Promise<Target> {
    const table = await createTable(ctx, world.a, world.s1.id, { name: 'Indexed', fields: [{ name: 'Name', type: 'text' }, { name: 'Amount', type: 'number' }] });
    if (indexed) expect((await asAccount('POST', `/api/table/${table.id}/indexes/create`, { name: 'by_amount', fields: ['amount'] })).status).toBe(200);
    return { ...sharedTarget(), tid: table.id, slug: 'by_amount' };
  }

  async function indexNames(tableId: number): Promise<string[]> {
    return (await asAccount('GET', `/api/table/${tableId}/indexes/list`)).body.map((index: { name: string }) => index.name);
  }

  async function memberIds(spaceId: number): Promise<number[]> {
    const response = await asAccount('GET', `/api/space/${spaceId}/members/list`);
    return response.body.map((m: { user_id: number }) => m.user_id);
  }

  async function fieldsOf(tableId: number): Promise<Array<{ id: string; name: string }>> {
    return (await asAccount('GET', `/api/table/${tableId}/get`)).body.fields;
  }

  const endpoints: Endpoint[] = [
    {
      name: 'GET /api/spaces/list',
      method: 'GET',
      path: () => '/api/spaces/list',
      scope: 'account',
      who: 'anyone',
      checkOk(body, caller) {
        const ids = body.map((s: { id: number }) => s.id);
        const identity = caller.identity!;
        expect(ids.includes(world.s1.id)).toBe(identity.roleInS1 !== null);
        expect(ids.includes(world.s2.id)).toBe(identity.roleInS2 !== null);
        expect(ids.includes(world.bSpace.id)).toBe(identity.account === 'B');
        const accountId = identity.account === 'A' ? world.a.accountId : world.b.accountId;
        for (const space of body) expect(Object.keys(space).sort()).toEqual(['account_id', 'id', 'name']);
        for (const space of body) expect(space.account_id).toBe(accountId);
      },
    },
    {
      name: 'POST /api/spaces/create',
      method: 'POST',
      path: () => '/api/spaces/create',
      body: (caller) => ({ name: `Made by ${caller.name}` }),
      scope: 'account',
      who: 'unrestricted account key',
      checkOk(body, caller) {
        const accountId = caller.identity!.account === 'A' ? world.a.accountId : world.b.accountId;
        expect(body).toMatchObject({ name: `Made by ${caller.name}`, account_id: accountId, storage: { kind: 'managed' } });
      },
      async checkUnchanged(caller) {
        const names = (await asAccount('GET', '/api/spaces/list')).body.map((s: { name: string }) => s.name);
        expect(names).not.toContain(`Made by ${caller.name}`);
      },
    },
    {
      name: 'GET /api/space/<sid>/get',
      method: 'GET',
      path: (t) => `/api/space/${t.sid}/get`,
      scope: 'space',
      who: 'members',
      checkOk(body) {
        expect(body).toMatchObject({ id: world.s1.id, name: 'S1', account_id: world.a.accountId, storage: { kind: 'managed' } });
        expect(body.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      },
    },
    {
      name: 'POST /api/space/<sid>/update',
      method: 'POST',
      path: (t) => `/api/space/${t.sid}/update`,
      body: () => ({ name: 'Renamed' }),
      scope: 'space',
      who: 'unrestricted account key',
      fresh: freshSpaceLikeS1,
      checkOk(body, _caller, t) {
        expect(body).toMatchObject({ id: t.sid, name: 'Renamed' });
      },
      async checkUnchanged(_caller, t) {
        expect((await asAccount('GET', `/api/space/${t.sid}/get`)).body.name).toBe('Like S1');
      },
    },
    {
      name: 'POST /api/space/<sid>/delete',
      method: 'POST',
      path: (t) => `/api/space/${t.sid}/delete`,
      scope: 'space',
      who: 'unrestricted account key',
      fresh: freshSpaceLikeS1,
      async checkOk(body, _caller, t) {
        expect(body).toEqual({ id: t.sid, deleted: true });
        expect((await asAccount('GET', `/api/space/${t.sid}/get`)).status).toBe(404);
      },
      async checkUnchanged(_caller, t) {
        expect((await asAccount('GET', `/api/space/${t.sid}/get`)).status).toBe(200);
      },
    },
    {
      name: 'GET /api/space/<sid>/members/list',
      method: 'GET',
      path: (t) => `/api/space/${t.sid}/members/list`,
      scope: 'space',
      who: 'members',
      checkOk(body) {
        expect(body).toEqual(
          expect.arrayContaining([
            { user_id: world.users.admin.id, email: world.users.admin.email, name: 'Ada Admin', role: 'admin' },
            { user_id: world.users.editor.id, email: world.users.editor.email, name: 'Eddie Editor', role: 'editor' },
            { user_id: world.users.reader.id, email: world.users.reader.email, name: 'Rita Reader', role: 'reader' },
          ]),
        );
      },
    },
    {
      name: 'POST /api/space/<sid>/members/add',
      method: 'POST',
      path: (t) => `/api/space/${t.sid}/members/add`,
      body: () => ({ user_id: spare.id, role: 'editor' }),
      scope: 'space',
      who: 'account key',
      async fresh() {
        await asAccount('POST', `/api/space/${world.s1.id}/members/remove`, { user_id: spare.id });
        return sharedTarget();
      },
      async checkOk(body) {
        expect(body).toEqual({ user_id: spare.id, email: spare.email, name: 'Spare User', role: 'editor' });
        expect(await memberIds(world.s1.id)).toContain(spare.id);
      },
      async checkUnchanged() {
        expect(await memberIds(world.s1.id)).not.toContain(spare.id);
      },
    },
    {
      name: 'POST /api/space/<sid>/members/remove',
      method: 'POST',
      path: (t) => `/api/space/${t.sid}/members/remove`,
      body: () => ({ user_id: spare.id }),
      scope: 'space',
      who: 'account key',
      async fresh() {
        await asAccount('POST', `/api/space/${world.s1.id}/members/add`, { user_id: spare.id, role: 'reader' });
        return sharedTarget();
      },
      async checkOk(body) {
        expect(body).toEqual({ user_id: spare.id, removed: true });
        expect(await memberIds(world.s1.id)).not.toContain(spare.id);
      },
      async checkUnchanged() {
        expect(await memberIds(world.s1.id)).toContain(spare.id);
      },
    },
    {
      name: 'GET /api/space/<sid>/tables/list',
      method: 'GET',
      path: (t) => `/api/space/${t.sid}/tables/list`,
      scope: 'space',
      who: 'members',
      checkOk(body) {
        expect(body).toContainEqual({ id: world.t1.id, name: 'T1', space_id: world.s1.id });
      },
    },
    {
      name: 'POST /api/space/<sid>/tables/create',
      method: 'POST',
      path: (t) => `/api/space/${t.sid}/tables/create`,
      body: (caller) => ({ name: `Made by ${caller.name}`, fields: [{ name: 'Name', type: 'text' }] }),
      scope: 'space',
      who: 'account key or space admin',
      checkOk(body, caller) {
        expect(body).toMatchObject({ name: `Made by ${caller.name}`, space_id: world.s1.id, title_field: 'name' });
      },
      async checkUnchanged(caller) {
        const names = (await asAccount('GET', `/api/space/${world.s1.id}/tables/list`)).body.map((t: { name: string }) => t.name);
        expect(names).not.toContain(`Made by ${caller.name}`);
      },
    },
    {
      name: 'GET /api/table/<tid>/get',
      method: 'GET',
      path: (t) => `/api/table/${t.tid}/get`,
      scope: 'table',
      who: 'members',
      checkOk(body) {
        expect(body).toMatchObject({ id: world.t1.id, name: 'T1', space_id: world.s1.id, title_field: 'name', indexes: [] });
        expect(body.fields.map((f: { id: string }) => f.id)).toEqual(['name', 'notes']);
      },
    },
    {
      name: 'POST /api/table/<tid>/update',
      method: 'POST',
      path: (t) => `/api/table/${t.tid}/update`,
      body: () => ({ name: 'Renamed table' }),
      scope: 'table',
      who: 'account key or space admin',
      fresh: freshTableInS1,
      checkOk(body, _caller, t) {
        expect(body).toMatchObject({ id: t.tid, name: 'Renamed table' });
      },
      async checkUnchanged(_caller, t) {
        expect((await asAccount('GET', `/api/table/${t.tid}/get`)).body.name).toBe('Scratch');
      },
    },
    {
      name: 'POST /api/table/<tid>/delete',
      method: 'POST',
      path: (t) => `/api/table/${t.tid}/delete`,
      scope: 'table',
      who: 'account key or space admin',
      fresh: freshTableInS1,
      async checkOk(body, _caller, t) {
        expect(body).toEqual({ id: t.tid, deleted: true });
        expect((await asAccount('GET', `/api/table/${t.tid}/get`)).status).toBe(404);
      },
      async checkUnchanged(_caller, t) {
        expect((await asAccount('GET', `/api/table/${t.tid}/get`)).status).toBe(200);
      },
    },
    {
      name: 'POST /api/table/<tid>/fields/create',
      method: 'POST',
      path: (t) => `/api/table/${t.tid}/fields/create`,
      body: () => ({ name: 'Extra', type: 'number' }),
      scope: 'table',
      who: 'account key or space admin',
      fresh: freshTableInS1,
      checkOk(body, _caller, t) {
        expect(body.id).toBe(t.tid);
        expect(body.fields.map((f: { id: string }) => f.id)).toEqual(['name', 'notes', 'extra']);
      },
      async checkUnchanged(_caller, t) {
        expect((await fieldsOf(t.tid)).map((f) => f.id)).toEqual(['name', 'notes']);
      },
    },
    {
      name: 'POST /api/table/<tid>/field/<slug>/update',
      method: 'POST',
      path: (t) => `/api/table/${t.tid}/field/${t.slug}/update`,
      body: () => ({ name: 'Remarks' }),
      scope: 'table',
      who: 'account key or space admin',
      fresh: freshTableInS1,
      checkOk(body) {
        expect(body.fields.find((f: { id: string }) => f.id === 'notes')).toMatchObject({ name: 'Remarks', type: 'text' });
      },
      async checkUnchanged(_caller, t) {
        expect((await fieldsOf(t.tid)).find((f) => f.id === 'notes')?.name).toBe('Notes');
      },
    },
    {
      name: 'POST /api/table/<tid>/field/<slug>/delete',
      method: 'POST',
      path: (t) => `/api/table/${t.tid}/field/${t.slug}/delete`,
      scope: 'table',
      who: 'account key or space admin',
      fresh: freshTableInS1,
      checkOk(body) {
        expect(body.fields.map((f: { id: string }) => f.id)).toEqual(['name']);
      },
      async checkUnchanged(_caller, t) {
        expect((await fieldsOf(t.tid)).map((f) => f.id)).toEqual(['name', 'notes']);
      },
    },
    {
      name: 'GET /api/table/<tid>/indexes/list',
      method: 'GET',
      path: (t) => `/api/table/${t.tid}/indexes/list`,
      scope: 'table',
      who: 'members',
      fresh: () => freshIndexedTable(true),
      checkOk(body) {
        expect(body).toEqual([{ name: 'by_amount', fields: ['amount'], direction: null, origin: 'manual', reason: null, created_at: expect.any(String), last_used_at: null }]);
      },
    },
    {
      name: 'POST /api/table/<tid>/indexes/create',
      method: 'POST',
      path: (t) => `/api/table/${t.tid}/indexes/create`,
      body: () => ({ fields: ['amount'], direction: 'desc' }),
      scope: 'table',
      who: 'account key or space admin',
      fresh: () => freshIndexedTable(false),
      checkOk(body) {
        expect(body).toMatchObject({ name: 'idx_amount_asc', fields: ['amount'], direction: 'asc', origin: 'manual' });
      },
      async checkUnchanged(_caller, t) {
        expect(await indexNames(t.tid)).toEqual([]);
      },
    },
    {
      name: 'POST /api/table/<tid>/index/<name>/delete',
      method: 'POST',
      path: (t) => `/api/table/${t.tid}/index/${t.slug}/delete`,
      scope: 'table',
      who: 'account key or space admin',
      fresh: () => freshIndexedTable(true),
      async checkOk(body, _caller, t) {
        expect(body).toEqual({ name: 'by_amount', deleted: true });
        expect(await indexNames(t.tid)).toEqual([]);
      },
      async checkUnchanged(_caller, t) {
        expect(await indexNames(t.tid)).toEqual(['by_amount']);
      },
    },
    {
      name: 'GET /api/users/list',
      method: 'GET',
      path: () => '/api/users/list',
      scope: 'account',
      who: 'anyone',
      checkOk(body, caller) {
        const ids = body.map((user: { id: number }) => user.id);
        if (caller.identity!.account === 'A') {
          expect(ids).toEqual(expect.arrayContaining([world.a.ownerId, ...Object.values(world.users).map((user) => user.id)]));
          expect(body).toContainEqual({ id: world.users.reader.id, email: world.users.reader.email, name: 'Rita Reader' });
        }
        expect(ids.includes(world.a.ownerId)).toBe(caller.identity!.account === 'A');
        expect(ids.includes(world.b.ownerId)).toBe(caller.identity!.account === 'B');
        for (const user of body) expect(Object.keys(user).sort()).toEqual(['email', 'id', 'name']);
      },
    },
    {
      name: 'POST /api/users/create',
      method: 'POST',
      path: () => '/api/users/create',
      body: (caller) => ({ email: emailMadeBy(caller.name), name: `Made by ${caller.name}` }),
      scope: 'account',
      who: 'owner',
      async checkOk(body, caller) {
        expect(body).toEqual({ id: expect.any(Number), email: emailMadeBy(caller.name), name: `Made by ${caller.name}`, password: expect.stringMatching(/^.{12,}$/) });
        expect((await call(ctx, 'POST', '/api/auth/login', { body: { email: body.email, password: body.password } })).status).toBe(200);
      },
      async checkUnchanged(caller) {
        expect(await ctx.container.services.users.findUserByEmail(emailMadeBy(caller.name))).toBeUndefined();
      },
    },
    {
      name: 'GET /api/keys/list',
      method: 'GET',
      path: () => '/api/keys/list',
      scope: 'account',
      who: 'key holders',
      async checkOk(body, caller) {
        const identity = caller.identity!;
        const accountId = identity.account === 'A' ? world.a.accountId : world.b.accountId;
        const isWholeAccount = (identity.via === 'account_key' || (identity.via === 'session' && identity.user === 'owner')) && !identity.restricted;
        const expected = (await ctx.container.services.keys.listKeys())
          .filter((key) => key.account_id === accountId && key.revoked_at === null && (isWholeAccount || key.user_id === caller.userId))
          .map((key) => key.id);
        expect(body.map((key: { id: number }) => key.id)).toEqual(expected);
        for (const key of body) {
          expect(Object.keys(key).sort()).toEqual(['created_at', 'expires_at', 'id', 'ip_allow', 'kind', 'last_used_at', 'name', 'read_only', 'spaces', 'user_id']);
        }
      },
    },
    {
      name: 'POST /api/keys/create',
      method: 'POST',
      path: () => '/api/keys/create',
      body: (caller) => ({ name: `Made by ${caller.name}`, kind: 'personal' }),
      scope: 'account',
      who: 'key holders',
      async checkOk(body, caller) {
        expect(body).toMatchObject({ name: `Made by ${caller.name}`, kind: 'personal', user_id: caller.userId, read_only: false, key: expect.stringMatching(/^tbk_/) });
        // From inside the allow-list of the IP-limited caller, whose limit the new key inherits.
        const me = await call(ctx, 'GET', '/api/auth/me', { key: body.key, remoteAddress: '10.20.30.40' });
        expect(me.body.user.id).toBe(caller.userId);
      },
      async checkUnchanged(caller) {
        expect((await ctx.container.services.keys.listKeys()).map((key) => key.name)).not.toContain(`Made by ${caller.name}`);
      },
    },
    {
      name: 'POST /api/key/<id>/revoke',
      method: 'POST',
      path: (t) => `/api/key/${t.keyId}/revoke`,
      scope: 'account',
      who: "key's owner",
      async fresh() {
        const key = await ctx.container.services.keys.createKey({ name: 'to revoke', accountId: world.a.accountId });
        return { ...sharedTarget(), keyId: key.id };
      },
      async checkOk(body, _caller, t) {
        expect(body).toEqual({ id: t.keyId, revoked: true });
        expect((await ctx.container.services.keys.listKeys()).find((key) => key.id === t.keyId)?.revoked_at).not.toBeNull();
      },
      async checkUnchanged(_caller, t) {
        expect((await ctx.container.services.keys.listKeys()).find((key) => key.id === t.keyId)?.revoked_at).toBeNull();
      },
    },
    {
      name: 'POST /api/auth/password',
      method: 'POST',
      path: () => '/api/auth/password',
      // The same password again: the world's users keep theirs (the rules are tested in account-console.test.ts).
      body: (caller) => {
        const password = caller.identity?.user === 'owner' ? world.a.ownerPassword : 'user-password';
        return { current: password, new: password };
      },
      scope: 'account',
      who: 'session',
      async checkOk(body, caller) {
        expect(body).toEqual({ ok: true });
        expect((await call(ctx, 'GET', '/api/auth/me', { cookie: caller.auth.cookie })).status).toBe(200);
      },
    },
    {
      name: 'GET /api/auth/me',
      method: 'GET',
      path: () => '/api/auth/me',
      scope: 'account',
      who: 'anyone',
      checkOk(body, caller) {
        expect(Object.keys(body.user).sort()).toEqual(['email', 'id', 'name']);
        expect(body.user.id).toBe(caller.userId);
      },
    },
  ];

  describeAccessMatrix<Endpoint, Target>({
    ctx,
    world: () => world,
    rows: endpoints,
    expectedOutcome,
    target: async (endpoint) => (endpoint.fresh ? endpoint.fresh() : sharedTarget()),
    coverage: {
      name: 'covers every management route the app registers (OpenAPI tags spaces, members, tables, fields, indexes, auth, users, keys)',
      tags: ['spaces', 'members', 'tables', 'fields', 'indexes', 'auth', 'users', 'keys'],
      route: (e) =>
        `${e.method} ${e.path({ sid: 0, tid: 0, slug: 'x', keyId: 0 })}`
          .replace('/space/0/', '/space/{sid}/')
          .replace('/table/0/', '/table/{tid}/')
          .replace('/field/x/', '/field/{slug}/')
          .replace('/index/x/', '/index/{name}/')
          .replace('/key/0/', '/key/{id}/'),
      exempt: ['POST /api/auth/login', 'POST /api/auth/logout'],
    },
    hidden: {
      name: "answers another account's key exactly as for an id that does not exist",
      expected: (endpoint) => (endpoint.scope === 'account' ? null : notFound[endpoint.scope]),
      calls(endpoint, own) {
        const missing: Target = endpoint.scope === 'space' ? { ...own, sid: missingId } : { ...own, tid: missingId };
        const other = world.caller("another account's key");
        return [
          { caller: other, target: own },
          { caller: other, target: missing },
          { caller: world.caller('unrestricted account key'), target: missing },
        ];
      },
    },
  });

  /**
   * The change streams (tag `changes`, outside this matrix's coverage check) × every caller:
   * everything is settled before a stream opens, so a refusal is the usual JSON error. A stream
   * never ends, and app.inject waits for an answer's end: `payloadAsStream` answers at the headers
   * (the stream stays open until the app closes). Streams themselves: changes-stream.test.ts.
   */
  describe('change streams × every caller', () => {
    const invalidTable: ErrorExpectation = { status: 400, code: 'invalid_table', message: 'Invalid Table' };
    const streams = [
      { route: 'GET /api/table/<tid>/changes/stream', path: () => `/api/table/${world.t1.id}/changes/stream`, hidden: (identity: Identity) => identity.account !== 'A' || identity.roleInS1 === null, refusal: invalidTable },
      { route: 'GET /api/space/<sid>/changes/stream', path: () => `/api/space/${world.s1.id}/changes/stream`, hidden: (identity: Identity) => identity.roleInS1 === null, refusal: notFound.space },
    ];
    for (const stream of streams) {
      for (const profile of callerProfiles) {
        const outcome = profile.authError ?? (stream.hidden(profile.identity!) ? stream.refusal : 'ok');
        it(`${stream.route} answers ${outcome === 'ok' ? '200 text/event-stream' : `${outcome.status} ${outcome.message}`} to ${profile.name}`, async () => {
          const { auth } = world.caller(profile.name);
          const headers: Record<string, string> = { ...auth.headers };
          if (auth.key) headers.authorization = `Bearer ${auth.key}`;
          if (auth.cookie) headers.cookie = auth.cookie;
          const response = await ctx.app.inject({ method: 'GET', url: stream.path(), headers, remoteAddress: auth.remoteAddress, payloadAsStream: true });
          if (outcome === 'ok') {
            expect(response.statusCode).toBe(200);
            expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
            return;
          }
          let body = '';
          for await (const chunk of response.stream()) body += chunk;
          expect({ status: response.statusCode, body: JSON.parse(body) }).toEqual({ status: outcome.status, body: { error: { code: outcome.code, message: outcome.message } } });
        });
      }
    }
  });

  describe('an account key restricted to S2 inside S2', () => {
    it('reads S2, its members and tables', async () => {
      const restricted = world.caller('account key restricted to S2');
      for (const path of ['get', 'members/list', 'tables/list']) {
        expect((await callAs(ctx, restricted, 'GET', `/api/space/${world.s2.id}/${path}`)).status).toBe(200);
      }
    });

    it('creates tables and manages members of S2 like any account key', async () => {
      const restricted = world.caller('account key restricted to S2');
      const table = await callAs(ctx, restricted, 'POST', `/api/space/${world.s2.id}/tables/create`, { name: 'In S2' });
      expect(table.status).toBe(200);
      const added = await callAs(ctx, restricted, 'POST', `/api/space/${world.s2.id}/members/add`, { user_id: world.users.reader.id, role: 'reader' });
      expect(added.status).toBe(200);
      const removed = await callAs(ctx, restricted, 'POST', `/api/space/${world.s2.id}/members/remove`, { user_id: world.users.reader.id });
      expect(removed.body).toEqual({ user_id: world.users.reader.id, removed: true });
    });

    it('may not update or delete S2 itself: only an unrestricted account key manages spaces', async () => {
      const restricted = world.caller('account key restricted to S2');
      for (const action of ['update', 'delete']) {
        const response = await callAs(ctx, restricted, 'POST', `/api/space/${world.s2.id}/${action}`, action === 'update' ? { name: 'Nope' } : {});
        const { code, message } = refusals['unrestricted account key'];
        expect({ status: response.status, body: response.body }).toEqual({ status: 403, body: { error: { code, message } } });
      }
      expect((await call(ctx, 'GET', `/api/space/${world.s2.id}/get`, { key: world.a.accountKey })).body.name).toBe('S2');
    });
  });

  describe('API key authentication details', () => {
    it('accepts the Bearer scheme in any letter case', async () => {
      const response = await call(ctx, 'GET', '/api/auth/me', { headers: { authorization: `bearer ${world.a.accountKey}` } });
      expect(response.status).toBe(200);
      expect(response.body.user.id).toBe(world.a.ownerId);
    });

    it('answers an empty Authorization header as an invalid key, not a missing one', async () => {
      const response = await call(ctx, 'GET', '/api/auth/me', { headers: { authorization: '' } });
      expect(response.body).toEqual({ error: { code: 'invalid_api_key', message: 'Invalid API key' } });
    });

    it('prefers the Authorization header over a session cookie', async () => {
      const response = await call(ctx, 'GET', '/api/auth/me', { key: 'tbk_unknown', cookie: world.caller("reader's session").auth.cookie });
      expect(response.status).toBe(401);
      expect(response.body.error.message).toBe('Invalid API key');
    });

    it('checks the IP allow-list against the socket address, not X-Forwarded-For', async () => {
      const response = await call(ctx, 'GET', '/api/auth/me', { key: world.keys.ipAllowed, headers: { 'x-forwarded-for': '10.1.1.1' } });
      expect(response.status).toBe(401);
      expect(response.body.error.code).toBe('ip_not_allowed');
    });

    it('lets an allow-listed key in from an IPv4-mapped IPv6 address inside the range', async () => {
      const response = await call(ctx, 'GET', '/api/auth/me', { key: world.keys.ipAllowed, remoteAddress: '::ffff:10.9.8.7' });
      expect(response.status).toBe(200);
    });

    it('refuses a malformed IP allow-list entry when the key is created', async () => {
      for (const entry of ['10.0.0.0/8/9', '10.0.0.0/33', '10.0.0/8', 'example.com', '10.0.0.0/']) {
        await expect(ctx.container.services.keys.createKey({ name: 'bad', accountId: world.a.accountId, ipAllow: [entry] })).rejects.toThrow(`Invalid IP address or CIDR range: ${entry}`);
      }
    });

    it("refuses writes to a read-only personal key even of a space admin, and lets it read", async () => {
      const key = await ctx.container.services.keys.createKey({ name: 'admin read-only', userId: world.users.admin.id, readOnly: true });
      const write = await call(ctx, 'POST', `/api/table/${world.t1.id}/update`, { key: key.key, body: { name: 'T1' } });
      expect({ status: write.status, body: write.body }).toEqual({ status: 403, body: { error: { code: readOnlyKey.code, message: readOnlyKey.message } } });
      expect((await call(ctx, 'GET', `/api/table/${world.t1.id}/get`, { key: key.key })).status).toBe(200);
    });

    it('shows the rotated key keeps its id and name: the new secret acts as the same account key', async () => {
      const listed = await ctx.container.services.keys.listKeys();
      const rotated = listed.find((k) => k.name === 'rotated');
      expect(rotated).toMatchObject({ kind: 'account', revoked_at: null });
      const response = await call(ctx, 'GET', '/api/spaces/list', { key: world.keys.rotatedNew });
      expect(response.body.map((s: { id: number }) => s.id)).toEqual(expect.arrayContaining([world.s1.id, world.s2.id]));
    });
  });
});
