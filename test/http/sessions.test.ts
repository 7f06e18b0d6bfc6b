import { beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/shared/clock.js';
import { buildAccessWorld, type AccessWorld } from '../access-fixture.js';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, login } from '../factories.js';

const invalidCredentials = { error: { code: 'invalid_credentials', message: 'Invalid email or password' } };
const sessionNeedsJson = {
  error: { code: 'unsupported_media_type', message: 'Session requests that change state must be sent as Content-Type: application/json' },
};

function sessionCookieOf(response: { headers: Record<string, unknown> }): string | undefined {
  const header = response.headers['set-cookie'];
  const cookies = Array.isArray(header) ? header : header === undefined ? [] : [String(header)];
  return cookies.find((c) => c.startsWith('tabula_session='));
}

describe('sessions', () => {
  const ctx = useTestApp();
  let world: AccessWorld;
  beforeAll(async () => {
    world = await buildAccessWorld(ctx);
  });

  const postLogin = (body: unknown, headers?: Record<string, string>) => call(ctx, 'POST', '/api/auth/login', { body, headers });
  const me = (cookie?: string) => call(ctx, 'GET', '/api/auth/me', { cookie });
  const tableNamesInS1 = async () => (await call(ctx, 'GET', `/api/space/${world.s1.id}/tables/list`, { key: world.a.accountKey })).body.map((t: { name: string }) => t.name);

  describe('login', () => {
    it('answers 200 with the user and sets an HttpOnly, SameSite=Lax tabula_session cookie', async () => {
      const { reader } = world.users;
      const response = await postLogin({ email: reader.email, password: reader.password });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ user: { id: reader.id, email: reader.email, name: 'Rita Reader' } });
      const cookie = sessionCookieOf(response)!;
      expect(cookie).toMatch(/^tabula_session=[A-Za-z0-9_-]{20,};/);
      expect(cookie).toMatch(/; HttpOnly/i);
      expect(cookie).toMatch(/; SameSite=Lax/i);
      expect(cookie).toMatch(/; Path=\//);
      expect(cookie).not.toMatch(/; Secure/i); // plain HTTP in tests; Secure is set behind https
      const expires = new Date(/Expires=([^;]+)/i.exec(cookie)![1]).getTime();
      expect(expires).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
    });

    it('accepts the email in any letter case and with surrounding spaces', async () => {
      const { editor } = world.users;
      const response = await postLogin({ email: `  ${editor.email.toUpperCase()} `, password: editor.password });
      expect(response.status).toBe(200);
      expect(response.body.user.id).toBe(editor.id);
    });

    it('answers a wrong password and an unknown email with the same 401 body and no cookie', async () => {
      const wrongPassword = await postLogin({ email: world.users.reader.email, password: 'not-the-password' });
      const unknownEmail = await postLogin({ email: 'nobody@example.com', password: 'not-the-password' });
      for (const response of [wrongPassword, unknownEmail]) {
        expect(response.status).toBe(401);
        expect(response.body).toEqual(invalidCredentials);
        expect(sessionCookieOf(response)).toBeUndefined();
      }
    });

    it('answers an empty password like a wrong one', async () => {
      const response = await postLogin({ email: world.users.reader.email, password: '' });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(invalidCredentials);
    });

    it('refuses a body without email or password, or with unknown properties, with 400', async () => {
      for (const body of [{ email: world.users.reader.email }, { password: 'x' }, { email: world.users.reader.email, password: 'user-password', remember: true }]) {
        const response = await postLogin(body);
        expect(response.status).toBe(400);
        expect(response.body.error.code).toBe('invalid_parameters');
      }
    });

    it('refuses a login form post (not JSON) with 415 and sets no cookie', async () => {
      const response = await call(ctx, 'POST', '/api/auth/login', {
        payload: `email=${encodeURIComponent(world.users.reader.email)}&password=user-password`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(response.status).toBe(415);
      expect(response.body.error.code).toBe('unsupported_media_type');
      expect(sessionCookieOf(response)).toBeUndefined();
    });
  });

  describe('/api/auth/me', () => {
    it('answers the logged-in user with the session cookie', async () => {
      const { admin } = world.users;
      const response = await me(await login(ctx, admin.email, admin.password));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ user: { id: admin.id, email: admin.email, name: 'Ada Admin' }, account_id: world.a.accountId, is_owner: false });
    });

    it("says is_owner: true to the owner's session and to an account key (it acts as the owner)", async () => {
      const { a } = world;
      const response = await me(await login(ctx, a.ownerEmail, a.ownerPassword));
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ user: { id: a.ownerId, email: a.ownerEmail }, account_id: a.accountId, is_owner: true });
      const byKey = await call(ctx, 'GET', '/api/auth/me', { key: a.accountKey });
      expect(byKey.body).toMatchObject({ user: { id: a.ownerId }, account_id: a.accountId, is_owner: true });
    });

    it('answers 401 without a cookie or key', async () => {
      const response = await me();
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: { code: 'missing_api_key', message: 'Missing API key' } });
    });

    it('answers 401 to a forged cookie', async () => {
      const response = await me('tabula_session=forged-token-forged-token-forged-token');
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ error: { code: 'invalid_session', message: 'Session expired or invalid' } });
    });
  });

  describe('logout', () => {
    it('ends the session: the old cookie gets 401 afterwards, and the cookie is cleared', async () => {
      const cookie = await login(ctx, world.users.reader.email, world.users.reader.password);
      expect((await me(cookie)).status).toBe(200);
      const response = await call(ctx, 'POST', '/api/auth/logout', { cookie, body: {} });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ ok: true });
      expect(sessionCookieOf(response)).toMatch(/^tabula_session=;.*Expires=Thu, 01 Jan 1970/i);
      const after = await me(cookie);
      expect(after.status).toBe(401);
      expect(after.body.error.code).toBe('invalid_session');
    });

    it('ends only that session: another session of the same user stays valid', async () => {
      const first = await login(ctx, world.users.editor.email, world.users.editor.password);
      const second = await login(ctx, world.users.editor.email, world.users.editor.password);
      await call(ctx, 'POST', '/api/auth/logout', { cookie: first, body: {} });
      expect((await me(first)).status).toBe(401);
      expect((await me(second)).status).toBe(200);
    });

    it('answers 200 without a session, and with an unknown one', async () => {
      expect((await call(ctx, 'POST', '/api/auth/logout', { body: {} })).body).toEqual({ ok: true });
      expect((await call(ctx, 'POST', '/api/auth/logout', { cookie: 'tabula_session=unknown', body: {} })).body).toEqual({ ok: true });
    });

    it('refuses a cross-site style logout (no JSON Content-Type) with 415 and keeps the session', async () => {
      const cookie = await login(ctx, world.users.reader.email, world.users.reader.password);
      for (const headers of [{}, { 'content-type': 'application/x-www-form-urlencoded' }] as Array<Record<string, string>>) {
        const response = await call(ctx, 'POST', '/api/auth/logout', { cookie, headers });
        expect(response.status).toBe(415);
        expect(response.body.error.code).toBe('unsupported_media_type');
      }
      expect((await me(cookie)).status).toBe(200);
    });
  });

  describe('state-changing session requests must be JSON', () => {
    const cases: Array<{ name: string; headers: Record<string, string>; payload?: string }> = [
      { name: 'an HTML form (application/x-www-form-urlencoded)', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=Forged' },
      { name: 'text/plain carrying JSON', headers: { 'content-type': 'text/plain' }, payload: '{"name":"Forged"}' },
      { name: 'multipart/form-data', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nForged\r\n--x--\r\n' },
      { name: 'a look-alike media type (application/json-seq)', headers: { 'content-type': 'application/json-seq' }, payload: '{"name":"Forged"}' },
      { name: 'no Content-Type and no body', headers: {} },
    ];
    for (const { name, headers, payload } of cases) {
      it(`refuses ${name} with 415 and creates nothing`, async () => {
        const cookie = world.caller("owner's session").auth.cookie!;
        const response = await call(ctx, 'POST', `/api/space/${world.s1.id}/tables/create`, { cookie, headers, payload });
        expect(response.status).toBe(415);
        expect(response.body).toEqual(sessionNeedsJson);
        expect(await tableNamesInS1()).not.toContain('Forged');
      });
    }

    it('accepts application/json with a charset parameter', async () => {
      const cookie = world.caller("owner's session").auth.cookie!;
      const response = await call(ctx, 'POST', `/api/space/${world.s1.id}/tables/create`, {
        cookie,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        payload: JSON.stringify({ name: 'Made with charset' }),
      });
      expect(response.status).toBe(200);
      expect(await tableNamesInS1()).toContain('Made with charset');
    });

    it('does not apply to API keys: a key may POST a body-less delete without Content-Type', async () => {
      const table = await call(ctx, 'POST', `/api/space/${world.s1.id}/tables/create`, { key: world.a.accountKey, body: { name: 'Key delete' } });
      const response = await call(ctx, 'POST', `/api/table/${table.body.id}/delete`, { key: world.a.accountKey });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ id: table.body.id, deleted: true });
    });
  });

  describe('a session acts as a personal key of its user', () => {
    const spaceIds = async (cookie: string) => (await call(ctx, 'GET', '/api/spaces/list', { cookie })).body.map((s: { id: number }) => s.id);

    it("lists only the user's member spaces", async () => {
      expect(await spaceIds(world.caller("reader's session").auth.cookie!)).toEqual([world.s1.id]);
      const nonMember = await login(ctx, world.users.nonMember.email, world.users.nonMember.password);
      expect(await spaceIds(nonMember)).toEqual([]);
    });

    it("lists every space of the account for the owner's session, and none of another account", async () => {
      const ids = await spaceIds(world.caller("owner's session").auth.cookie!);
      expect(ids).toEqual(expect.arrayContaining([world.s1.id, world.s2.id]));
      expect(ids).not.toContain(world.bSpace.id);
    });

    it("answers what the same user's personal key answers, endpoint by endpoint", async () => {
      const pairs = [
        { session: "reader's session", key: "reader's personal key" },
        { session: "space admin's session", key: "space admin's personal key" },
        { session: "owner's session", key: "owner's personal key" },
      ];
      // `accountAuthority`: what the owner's session may do beyond the owner's personal key (CONTRACT §3).
      const requests: Array<{ method: 'GET' | 'POST'; url: string; body?: unknown; accountAuthority?: true }> = [
        { method: 'GET', url: `/api/space/${world.s1.id}/get` },
        { method: 'GET', url: `/api/space/${world.s2.id}/get` },
        { method: 'GET', url: `/api/space/${world.s1.id}/members/list` },
        { method: 'GET', url: `/api/table/${world.t1.id}/get` },
        { method: 'GET', url: `/api/table/${world.bTable.id}/get` },
        { method: 'POST', url: `/api/space/${world.s1.id}/update`, body: { name: 'S1' }, accountAuthority: true },
        { method: 'POST', url: `/api/space/${world.s1.id}/members/add`, body: { user_id: world.users.nonMember.id, role: 'reader' }, accountAuthority: true },
        { method: 'POST', url: `/api/table/${world.t1.id}/update`, body: { name: 'T1' } },
        { method: 'POST', url: '/api/spaces/create', body: { name: 'Never' }, accountAuthority: true },
      ];
      for (const pair of pairs) {
        for (const request of requests.filter((r) => !(r.accountAuthority && pair.session === "owner's session"))) {
          const viaSession = await call(ctx, request.method, request.url, { ...world.caller(pair.session).auth, body: request.body });
          const viaKey = await call(ctx, request.method, request.url, { ...world.caller(pair.key).auth, body: request.body });
          expect({ request, status: viaSession.status, body: viaSession.body }).toEqual({ request, status: viaKey.status, body: viaKey.body });
        }
      }
    });

    it("lets a space admin's session change tables, and refuses a reader's session with 403", async () => {
      const admin = await call(ctx, 'POST', `/api/space/${world.s1.id}/tables/create`, { cookie: world.caller("space admin's session").auth.cookie, body: { name: 'By admin session' } });
      expect(admin.status).toBe(200);
      const reader = await call(ctx, 'POST', `/api/space/${world.s1.id}/tables/create`, { cookie: world.caller("reader's session").auth.cookie, body: { name: 'By reader session' } });
      expect(reader.status).toBe(403);
      expect(reader.body).toEqual({ error: { code: 'admin_required', message: 'Only space admins can change tables' } });
      expect(await tableNamesInS1()).not.toContain('By reader session');
    });
  });

  describe('rate-limit headers', () => {
    function expectRateLimitHeaders(response: { headers: Record<string, unknown> }) {
      for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
        expect(String(response.headers[name]), name).toMatch(/^\d+$/);
      }
    }

    it('are present on responses to account keys, personal keys and sessions', async () => {
      expectRateLimitHeaders(await call(ctx, 'GET', '/api/spaces/list', { key: world.a.accountKey }));
      expectRateLimitHeaders(await call(ctx, 'GET', '/api/spaces/list', { key: world.keys.readerPersonal }));
      expectRateLimitHeaders(await call(ctx, 'GET', '/api/auth/me', { cookie: world.caller("reader's session").auth.cookie }));
    });

    it('are present on authenticated error responses too', async () => {
      const notFound = await call(ctx, 'GET', '/api/space/2000000000/get', { key: world.a.accountKey });
      expect(notFound.status).toBe(404);
      expectRateLimitHeaders(notFound);
      const forbidden = await call(ctx, 'POST', `/api/space/${world.s1.id}/tables/create`, { key: world.keys.readerPersonal, body: { name: 'x' } });
      expect(forbidden.status).toBe(403);
      expectRateLimitHeaders(forbidden);
    });

    it("give a user's personal keys and sessions one shared budget, a quarter of the account's", async () => {
      const viaKey = await call(ctx, 'GET', '/api/spaces/list', { key: world.keys.editorPersonal });
      const viaSession = await call(ctx, 'GET', '/api/spaces/list', { cookie: await login(ctx, world.users.editor.email, world.users.editor.password) });
      const accountKey = await call(ctx, 'GET', '/api/spaces/list', { key: world.a.accountKey });
      const perMinute = Number(accountKey.headers['x-ratelimit-limit']);
      expect(Number(viaKey.headers['x-ratelimit-limit'])).toBe(Math.floor(perMinute / 4));
      expect(Number(viaSession.headers['x-ratelimit-limit'])).toBe(Math.floor(perMinute / 4));
      expect(Number(viaSession.headers['x-ratelimit-remaining'])).toBe(Number(viaKey.headers['x-ratelimit-remaining']) - 1);
    });

    it('are absent when authentication fails', async () => {
      const response = await call(ctx, 'GET', '/api/spaces/list', { key: 'tbk_unknown' });
      expect(response.status).toBe(401);
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    });
  });
});

describe('session lifetime', () => {
  let current = new Date('2030-01-01T00:00:00Z');
  const clock: Clock = { now: () => new Date(current.getTime()) };
  const ctx = useTestApp({ clock });

  it('lasts 30 days: the cookie works a day before and gets 401 after', async () => {
    const owner = await createAccount(ctx);
    const cookie = await login(ctx, owner.ownerEmail, owner.ownerPassword);
    current = new Date('2030-01-30T00:00:00Z');
    expect((await call(ctx, 'GET', '/api/auth/me', { cookie })).status).toBe(200);
    current = new Date('2030-01-31T00:00:01Z');
    const expired = await call(ctx, 'GET', '/api/auth/me', { cookie });
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('invalid_session');
  });
});
