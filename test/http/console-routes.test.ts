import { beforeAll, describe, expect, it } from 'vitest';
import { buildAccessWorld, type AccessWorld } from '../access-fixture.js';
import { useTestApp } from '../build-test-app.js';
import { call, createKey, createTable, createUser, login } from '../factories.js';

/**
 * What the web console needs of the server (CONTRACT §3, §8), beyond the access matrix
 * (test/http/access-matrix.test.ts): the owner's session managing the account, password
 * changes, users, keys, and sessions on the raw file routes.
 */
describe('the console routes', () => {
  const ctx = useTestApp();
  let world: AccessWorld;
  beforeAll(async () => {
    world = await buildAccessWorld(ctx);
  });

  const ownerSession = () => world.caller("owner's session").auth.cookie!;
  const adminSession = () => world.caller("space admin's session").auth.cookie!;
  const me = (auth: { cookie?: string; key?: string }) => call(ctx, 'GET', '/api/auth/me', auth);
  const expectError = (response: { status: number; body: any }, status: number, code: string, message?: string) => {
    expect({ status: response.status, code: response.body.error?.code }, JSON.stringify(response.body)).toEqual({ status, code });
    if (message !== undefined) expect(response.body.error.message).toBe(message);
  };

  describe("the owner's session has an unrestricted account key's authority (CONTRACT §3)", () => {
    it('creates, renames and deletes a space, manages its members and creates a table in it', async () => {
      const cookie = ownerSession();
      const space = await call(ctx, 'POST', '/api/spaces/create', { cookie, body: { name: 'Console space' } });
      expect(space.status).toBe(200);
      const sid = space.body.id;
      expect((await call(ctx, 'POST', `/api/space/${sid}/update`, { cookie, body: { name: 'Renamed' } })).body.name).toBe('Renamed');
      const added = await call(ctx, 'POST', `/api/space/${sid}/members/add`, { cookie, body: { user_id: world.users.editor.id, role: 'editor' } });
      expect(added.body).toMatchObject({ user_id: world.users.editor.id, role: 'editor' });
      expect((await call(ctx, 'POST', `/api/space/${sid}/members/remove`, { cookie, body: { user_id: world.users.editor.id } })).body).toEqual({ user_id: world.users.editor.id, removed: true });
      const table = await call(ctx, 'POST', `/api/space/${sid}/tables/create`, { cookie, body: { name: 'Console table', fields: [{ name: 'Name', type: 'text' }] } });
      expect(table.status).toBe(200);
      expect(table.body).toMatchObject({ name: 'Console table', space_id: sid });
      expect((await call(ctx, 'POST', `/api/space/${sid}/delete`, { cookie, body: {} })).body).toEqual({ id: sid, deleted: true });
    });

    it("lets a non-owner admin's session create a table in their space, but not a space, nor manage members", async () => {
      const cookie = adminSession();
      const table = await call(ctx, 'POST', `/api/space/${world.s1.id}/tables/create`, { cookie, body: { name: 'By the admin', fields: [{ name: 'Name', type: 'text' }] } });
      expect(table.status).toBe(200);
      expectError(await call(ctx, 'POST', '/api/spaces/create', { cookie, body: { name: 'Not mine' } }), 403, 'account_key_required', 'Only an unrestricted account key can manage spaces');
      expectError(await call(ctx, 'POST', `/api/space/${world.s1.id}/members/add`, { cookie, body: { user_id: world.users.nonMember.id, role: 'reader' } }), 403, 'account_key_required');
      const names = (await call(ctx, 'GET', '/api/spaces/list', { key: world.a.accountKey })).body.map((s: { name: string }) => s.name);
      expect(names).not.toContain('Not mine');
    });

    it("gives the owner's personal key no more than the owner's roles: it still cannot create a space", async () => {
      expectError(await call(ctx, 'POST', '/api/spaces/create', { key: world.keys.ownerPersonal, body: { name: 'Via key' } }), 403, 'account_key_required');
    });

    it("still posts the owner's session's comments as the owner, not as an API key (CONTRACT §6)", async () => {
      const cookie = ownerSession();
      const record = await call(ctx, 'POST', `/api/table/${world.t1.id}/records/create`, { cookie, body: { data: { name: 'Commented' } } });
      const comment = await call(ctx, 'POST', `/api/table/${world.t1.id}/record/${record.body.id}/comments/create`, { cookie, body: { content: 'Hello' } });
      expect(comment.status, JSON.stringify(comment.body)).toBe(200);
      expect(comment.body).toMatchObject({ user_id: world.a.ownerId, api_key_id: null });
    });
  });

  describe('POST /api/auth/password', () => {
    const change = (cookie: string, body: unknown) => call(ctx, 'POST', '/api/auth/password', { cookie, body });

    it("sets the new password and ends the user's other sessions, keeping this one and the user's keys", async () => {
      const user = await createUser(ctx, world.a, 'Pat Password');
      const key = await createKey(ctx, { userId: user.id });
      const current = await login(ctx, user.email, 'user-password');
      const other = await login(ctx, user.email, 'user-password');
      const bystander = await login(ctx, world.users.editor.email, 'user-password');
      const response = await change(current, { current: 'user-password', new: 'brand-new-password' });
      expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: { ok: true } });
      expect((await me({ cookie: current })).status).toBe(200);
      expectError(await me({ cookie: other }), 401, 'invalid_session');
      expect((await me({ cookie: bystander })).status).toBe(200);
      expect((await me({ key: key.key })).status).toBe(200);
      expectError(await call(ctx, 'POST', '/api/auth/login', { body: { email: user.email, password: 'user-password' } }), 401, 'invalid_credentials');
      expect((await call(ctx, 'POST', '/api/auth/login', { body: { email: user.email, password: 'brand-new-password' } })).status).toBe(200);
    });

    it('answers a wrong current password with 400 (the session stays valid) and changes nothing', async () => {
      const user = await createUser(ctx, world.a, 'Wrong Current');
      const current = await login(ctx, user.email, 'user-password');
      const other = await login(ctx, user.email, 'user-password');
      const response = await change(current, { current: 'not-the-password', new: 'brand-new-password' });
      expectError(response, 400, 'invalid_current_password', 'Current password is incorrect');
      expect((await me({ cookie: current })).status).toBe(200);
      expect((await me({ cookie: other })).status).toBe(200);
      expect((await call(ctx, 'POST', '/api/auth/login', { body: { email: user.email, password: 'user-password' } })).status).toBe(200);
    });

    it('holds the new password to the rules of every password (8 characters at least)', async () => {
      const user = await createUser(ctx, world.a, 'Short Password');
      const current = await login(ctx, user.email, 'user-password');
      expectError(await change(current, { current: 'user-password', new: 'short' }), 400, 'invalid_parameters', 'Invalid password: must be at least 8 characters');
      expectError(await change(current, { current: 'user-password' }), 400, 'invalid_parameters');
      expect((await call(ctx, 'POST', '/api/auth/login', { body: { email: user.email, password: 'user-password' } })).status).toBe(200);
    });

    it('refuses a request that is not JSON with 415, and any API key with 403', async () => {
      const user = await createUser(ctx, world.a, 'Form Post');
      const current = await login(ctx, user.email, 'user-password');
      const form = await call(ctx, 'POST', '/api/auth/password', { cookie: current, payload: 'current=user-password&new=brand-new-password', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expectError(form, 415, 'unsupported_media_type');
      const key = await createKey(ctx, { userId: user.id });
      expectError(await call(ctx, 'POST', '/api/auth/password', { key: key.key, body: { current: 'user-password', new: 'brand-new-password' } }), 403, 'api_keys_not_allowed');
      expect((await call(ctx, 'POST', '/api/auth/login', { body: { email: user.email, password: 'user-password' } })).status).toBe(200);
    });
  });

  describe('users', () => {
    it('creates a user with a given password (not echoed) who can log in, and lists them', async () => {
      const response = await call(ctx, 'POST', '/api/users/create', { cookie: ownerSession(), body: { email: ' Given@Example.com ', name: 'Given Password', password: 'given-password' } });
      expect(response.body).toEqual({ id: expect.any(Number), email: 'given@example.com', name: 'Given Password' });
      expect((await call(ctx, 'POST', '/api/auth/login', { body: { email: 'given@example.com', password: 'given-password' } })).status).toBe(200);
      const listed = await call(ctx, 'GET', '/api/users/list', { cookie: adminSession() });
      expect(listed.body).toContainEqual({ id: response.body.id, email: 'given@example.com', name: 'Given Password' });
    });

    it('refuses a taken e-mail (409), a bad e-mail, a short password and a missing name (400)', async () => {
      const cookie = ownerSession();
      expectError(await call(ctx, 'POST', '/api/users/create', { cookie, body: { email: world.users.reader.email, name: 'Twin' } }), 409, 'email_taken');
      expectError(await call(ctx, 'POST', '/api/users/create', { cookie, body: { email: 'not-an-email', name: 'Bad' } }), 400, 'invalid_parameters');
      expectError(await call(ctx, 'POST', '/api/users/create', { cookie, body: { email: 'short@example.com', name: 'Short', password: 'short' } }), 400, 'invalid_parameters');
      expectError(await call(ctx, 'POST', '/api/users/create', { cookie, body: { email: 'noname@example.com' } }), 400, 'invalid_parameters');
    });
  });

  describe('keys', () => {
    const keysOf = async (auth: { cookie?: string; key?: string }) => (await call(ctx, 'GET', '/api/keys/list', auth)).body as Array<{ id: number; name: string; user_id: number | null }>;

    it("lets the owner's session create an account key that acts as an account key, listed without its secret", async () => {
      const created = await call(ctx, 'POST', '/api/keys/create', { cookie: ownerSession(), body: { name: 'Console account key', kind: 'account' } });
      expect(created.body).toEqual({
        id: expect.any(Number),
        name: 'Console account key',
        kind: 'account',
        user_id: null,
        read_only: false,
        spaces: null,
        ip_allow: null,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        last_used_at: null,
        expires_at: null,
        key: expect.stringMatching(/^tbk_/),
      });
      expect((await call(ctx, 'POST', '/api/spaces/create', { key: created.body.key, body: { name: 'By the new key' } })).status).toBe(200);
      const listed = await call(ctx, 'GET', '/api/keys/list', { cookie: ownerSession() });
      expect(listed.body.find((key: { id: number }) => key.id === created.body.id)).toMatchObject({ name: 'Console account key', kind: 'account', last_used_at: expect.any(String) });
      expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
    });

    it("lets the owner create a personal key for another user, with scopes and expiry; it acts as that user", async () => {
      const body = { name: 'For the editor', kind: 'personal', user_id: world.users.editor.id, read_only: true, spaces: [world.s1.id], ip_allow: ['10.0.0.0/8'], expires_at: '2100-01-01T12:00:00Z' };
      const created = await call(ctx, 'POST', '/api/keys/create', { key: world.a.accountKey, body });
      expect(created.body).toMatchObject({ kind: 'personal', user_id: world.users.editor.id, read_only: true, spaces: [world.s1.id], ip_allow: ['10.0.0.0/8'], expires_at: '2100-01-01 12:00:00' });
      expect((await call(ctx, 'GET', '/api/auth/me', { key: created.body.key, remoteAddress: '10.1.1.1' })).body.user.id).toBe(world.users.editor.id);
      expectError(await call(ctx, 'GET', '/api/auth/me', { key: created.body.key }), 401, 'ip_not_allowed');
    });

    it("refuses a user of another account (404), user_id on an account key and bad scopes or expiry (400)", async () => {
      const cookie = ownerSession();
      const create = (body: Record<string, unknown>) => call(ctx, 'POST', '/api/keys/create', { cookie, body: { name: 'Bad', kind: 'personal', ...body } });
      expectError(await create({ user_id: world.b.ownerId }), 404, 'user_not_found', 'User not found');
      expectError(await create({ kind: 'account', user_id: world.users.editor.id }), 400, 'invalid_parameters');
      expectError(await create({ kind: 'robot' }), 400, 'invalid_parameters');
      expectError(await create({ expires_at: '2000-01-01' }), 400, 'invalid_parameters');
      expectError(await create({ expires_at: 'tomorrow' }), 400, 'invalid_parameters');
      expectError(await create({ ip_allow: ['10.0.0.0/33'] }), 400, 'invalid_parameters');
      expectError(await create({ spaces: [world.bSpace.id] }), 400, 'invalid_parameters');
      expect((await keysOf({ cookie })).map((key) => key.name)).not.toContain('Bad');
    });

    it("lets a user's session create, list and revoke their own personal keys only", async () => {
      const cookie = adminSession();
      const admin = world.users.admin.id;
      const created = await call(ctx, 'POST', '/api/keys/create', { cookie, body: { name: 'Admin laptop', kind: 'personal' } });
      expect(created.body).toMatchObject({ kind: 'personal', user_id: admin });
      const listed = await keysOf({ cookie });
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.every((key) => key.user_id === admin)).toBe(true);
      expect(listed.map((key) => key.id)).toContain(created.body.id);

      expectError(await call(ctx, 'POST', '/api/keys/create', { cookie, body: { name: 'Sneaky', kind: 'account' } }), 403, 'owner_required', 'Only the account owner can create account keys');
      expectError(await call(ctx, 'POST', '/api/keys/create', { cookie, body: { name: 'Sneaky', kind: 'personal', user_id: world.users.reader.id } }), 403, 'owner_required', 'Only the account owner can create keys for other users');

      const readerKey = await createKey(ctx, { userId: world.users.reader.id });
      expectError(await call(ctx, 'POST', `/api/key/${readerKey.id}/revoke`, { cookie, body: {} }), 404, 'key_not_found', 'Key not found');
      expect((await me({ key: readerKey.key })).status).toBe(200);

      expect((await call(ctx, 'POST', `/api/key/${created.body.id}/revoke`, { cookie, body: {} })).body).toEqual({ id: created.body.id, revoked: true });
      expectError(await me({ key: created.body.key }), 401, 'invalid_api_key', 'Invalid API key');
      expect((await keysOf({ cookie })).map((key) => key.id)).not.toContain(created.body.id);
    });

    it("lets the owner revoke another user's personal key, and answers 404 for a key that does not exist", async () => {
      const key = await createKey(ctx, { userId: world.users.reader.id });
      expect((await call(ctx, 'POST', `/api/key/${key.id}/revoke`, { cookie: ownerSession(), body: {} })).body).toEqual({ id: key.id, revoked: true });
      expectError(await me({ key: key.key }), 401, 'invalid_api_key');
      expectError(await call(ctx, 'POST', '/api/key/2000000000/revoke', { cookie: ownerSession(), body: {} }), 404, 'key_not_found');
    });

    it('lets a personal key manage its own keys, and revoke itself', async () => {
      const key = await createKey(ctx, { userId: world.users.nonMember.id });
      const listed = await keysOf({ key: key.key });
      expect(listed.map((k) => k.id)).toContain(key.id);
      expect(listed.every((k) => k.user_id === world.users.nonMember.id)).toBe(true);
      expect((await call(ctx, 'POST', `/api/key/${key.id}/revoke`, { key: key.key })).body).toEqual({ id: key.id, revoked: true });
      expectError(await me({ key: key.key }), 401, 'invalid_api_key');
    });

    it('never lets a key create a key beyond its own spaces, addresses or expiry; what it leaves out, the new key inherits', async () => {
      const limited = await createKey(ctx, { userId: world.users.admin.id, spaceIds: [world.s1.id], ipAllow: ['10.0.0.0/8'], expiresAt: new Date('2099-01-01T00:00:00Z') });
      const create = (body: Record<string, unknown>) => call(ctx, 'POST', '/api/keys/create', { key: limited.key, remoteAddress: '10.0.0.1', body: { name: 'Child', kind: 'personal', ...body } });
      expectError(await create({ spaces: [world.s2.id] }), 403, 'key_scope_exceeded', 'A key cannot create a key beyond its own limits: spaces');
      expectError(await create({ ip_allow: ['0.0.0.0/0'] }), 403, 'key_scope_exceeded', 'A key cannot create a key beyond its own limits: ip_allow');
      expectError(await create({ expires_at: '2100-01-01' }), 403, 'key_scope_exceeded', 'A key cannot create a key beyond its own limits: expires_at');
      const inherited = await create({});
      expect(inherited.body).toMatchObject({ spaces: [world.s1.id], ip_allow: ['10.0.0.0/8'], expires_at: '2099-01-01 00:00:00' });
      const narrower = await create({ expires_at: '2098-06-01 00:00:00' });
      expect(narrower.body).toMatchObject({ spaces: [world.s1.id], expires_at: '2098-06-01 00:00:00' });
    });
  });

  describe('sessions on the raw file routes (CONTRACT §8)', () => {
    let tableId: number;
    let recordId: number;
    beforeAll(async () => {
      const table = await createTable(ctx, world.a, world.s1.id, { name: 'Raw files', fields: [{ name: 'Name', type: 'text' }, { name: 'Docs', type: 'file' }] });
      tableId = table.id;
      recordId = (await call(ctx, 'POST', `/api/table/${tableId}/records/create`, { key: world.a.accountKey, body: { data: { name: 'R' } } })).body.id;
    });
    const upload = (headers: Record<string, string>, name: string) =>
      call(ctx, 'POST', `/api/table/${tableId}/record/${recordId}/files/upload?field_id=docs&name=${name}`, {
        cookie: adminSession(),
        payload: Buffer.from(`bytes of ${name}`),
        headers: { 'content-type': 'application/octet-stream', ...headers },
      });
    const attachedNames = async () => (await call(ctx, 'GET', `/api/table/${tableId}/record/${recordId}/get`, { key: world.a.accountKey })).body.data.docs.map((file: { name: string }) => file.name);

    it('uploads with X-Tabula-Request: 1, and the session downloads it', async () => {
      const response = await upload({ 'x-tabula-request': '1' }, 'with-header.bin');
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const file = response.body.files.find((f: { name: string }) => f.name === 'with-header.bin');
      const download = await call(ctx, 'GET', `/api/table/${tableId}/record/${recordId}/files/download?${new URLSearchParams({ field_id: 'docs', path: file.path })}`, { cookie: adminSession() });
      expect(download.status).toBe(200);
      expect(download.body).toBe('bytes of with-header.bin');
    });

    it('refuses an upload without the header (or with another value) with 415 and attaches nothing', async () => {
      for (const headers of [{}, { 'x-tabula-request': '0' }, { 'x-tabula-request': 'true' }] as Array<Record<string, string>>) {
        expectError(await upload(headers, 'no-header.bin'), 415, 'unsupported_media_type', 'Session requests that change state must be sent as Content-Type: application/json');
      }
      expect(await attachedNames()).not.toContain('no-header.bin');
    });

    it('does not make a form body acceptable on a JSON route: the header passes the session check, the body is still refused', async () => {
      const response = await call(ctx, 'POST', `/api/space/${world.s1.id}/tables/create`, {
        cookie: adminSession(),
        payload: 'name=Forged',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-tabula-request': '1' },
      });
      expect(response.status).toBe(415);
      const names = (await call(ctx, 'GET', `/api/space/${world.s1.id}/tables/list`, { key: world.a.accountKey })).body.map((t: { name: string }) => t.name);
      expect(names).not.toContain('Forged');
    });
  });
});
