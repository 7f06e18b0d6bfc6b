import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { useTestApp } from '../build-test-app.js';
import { call, createAccount, createKey, createSpace, createTable, type World } from '../factories.js';

const proxy = '10.0.0.1';
/** A second proxy in front of the first one (a CDN, say), also trusted. */
const outerProxies = '10.0.1.0/24';
const clientNetwork = '203.0.113.0/24';
const client = '203.0.113.7';
const stranger = '198.51.100.1';
const ipNotAllowed = { error: { code: 'ip_not_allowed', message: 'API key not allowed from this address' } };

function sessionCookieOf(response: { headers: Record<string, unknown> }): string {
  const header = response.headers['set-cookie'];
  const cookies = Array.isArray(header) ? header : header === undefined ? [] : [String(header)];
  const cookie = cookies.find((c: string) => c.startsWith('tabula_session='));
  if (!cookie) throw new Error('no session cookie');
  return cookie;
}

describe('TABULA_TRUST_PROXY in the configuration', () => {
  const load = (value?: string) => loadConfig(value === undefined ? {} : { TABULA_TRUST_PROXY: value });

  it('is off by default', () => {
    expect(load().trustProxy).toEqual([]);
    expect(load('').trustProxy).toEqual([]);
  });

  it('takes a comma-separated list of addresses, CIDR ranges and the names loopback, linklocal, uniquelocal', () => {
    expect(load(' 10.0.0.1, 10.0.1.0/24 ,fd00::/8,loopback ').trustProxy).toEqual(['10.0.0.1', '10.0.1.0/24', 'fd00::/8', 'loopback']);
  });

  it('refuses anything else, "trust everyone" and hop counts included, naming the variable', () => {
    for (const value of ['true', '*', '1', '2', '10.0.0.1/33', '10.0.0.0/255.0.0.0', 'proxy.example.com', '10.0.0.1,nope']) {
      expect(() => load(value), value).toThrow(/^TABULA_TRUST_PROXY must list proxy addresses or CIDR ranges/);
    }
  });
});

describe('behind trusted proxies (TABULA_TRUST_PROXY set)', () => {
  const ctx = useTestApp({ env: { TABULA_TRUST_PROXY: `${proxy},${outerProxies}` } });
  let world: World;
  let fenced: string;
  let proxyOnly: string;
  beforeAll(async () => {
    world = await createAccount(ctx);
    fenced = (await createKey(ctx, { accountId: world.accountId, ipAllow: [clientNetwork] })).key;
    proxyOnly = (await createKey(ctx, { accountId: world.accountId, ipAllow: [`${proxy}/32`] })).key;
  });

  const listSpaces = (key: string, remoteAddress: string, forwardedFor?: string) =>
    call(ctx, 'GET', '/api/spaces/list', { key, remoteAddress, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } });

  it('judges an API key’s IP allow-list by the client named in X-Forwarded-For by a trusted proxy', async () => {
    expect((await listSpaces(fenced, proxy, client)).status).toBe(200);
    const refused = await listSpaces(fenced, proxy, stranger);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(ipNotAllowed);
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const spoofed = await listSpaces(fenced, stranger, client);
    expect(spoofed.status).toBe(401);
    expect(spoofed.body).toEqual(ipNotAllowed);
    expect((await listSpaces(fenced, client)).status, 'the client itself, connecting directly').toBe(200);
  });

  it('believes only the entries added by trusted proxies: one the client wrote itself is ignored', async () => {
    // The client sent "X-Forwarded-For: 203.0.113.7"; the proxy appended the real peer.
    expect((await listSpaces(fenced, proxy, `${client}, ${stranger}`)).status).toBe(401);
    // Through two trusted proxies, the client is the entry before the outer proxy's.
    expect((await listSpaces(fenced, proxy, `${stranger}, ${client}, 10.0.1.9`)).status).toBe(200);
  });

  it('no longer lets clients behind the proxy through a key that allow-lists only the proxy', async () => {
    expect((await listSpaces(proxyOnly, proxy)).status, 'the proxy itself').toBe(200);
    expect((await listSpaces(proxyOnly, proxy, stranger)).body).toEqual(ipNotAllowed);
  });

  describe('the session cookie', () => {
    const login = (remoteAddress: string, headers: Record<string, string>) =>
      call(ctx, 'POST', '/api/auth/login', { body: { email: world.ownerEmail, password: world.ownerPassword }, remoteAddress, headers });

    it('is Secure when a trusted proxy says the client connection is HTTPS', async () => {
      const response = await login(proxy, { 'x-forwarded-for': client, 'x-forwarded-proto': 'https' });
      expect(response.status).toBe(200);
      expect(sessionCookieOf(response)).toMatch(/; Secure(;|$)/i);
    });

    it('follows the nearest proxy when several protocols are listed', async () => {
      expect(sessionCookieOf(await login(proxy, { 'x-forwarded-proto': 'http, https' }))).toMatch(/; Secure(;|$)/i);
      expect(sessionCookieOf(await login(proxy, { 'x-forwarded-proto': 'https, http' }))).not.toMatch(/; Secure/i);
    });

    it('is not Secure over plain HTTP, nor when an untrusted peer claims HTTPS', async () => {
      expect(sessionCookieOf(await login(proxy, { 'x-forwarded-proto': 'http' }))).not.toMatch(/; Secure/i);
      expect(sessionCookieOf(await login(proxy, {}))).not.toMatch(/; Secure/i);
      expect(sessionCookieOf(await login(stranger, { 'x-forwarded-proto': 'https' }))).not.toMatch(/; Secure/i);
    });
  });
});

describe('without TABULA_TRUST_PROXY', () => {
  const ctx = useTestApp();
  let world: World;
  beforeAll(async () => {
    world = await createAccount(ctx);
  });

  it('ignores X-Forwarded-For and X-Forwarded-Proto from everyone', async () => {
    const fenced = (await createKey(ctx, { accountId: world.accountId, ipAllow: [clientNetwork] })).key;
    const forwarded = await call(ctx, 'GET', '/api/spaces/list', { key: fenced, remoteAddress: proxy, headers: { 'x-forwarded-for': client } });
    expect(forwarded.body).toEqual(ipNotAllowed);
    const login = await call(ctx, 'POST', '/api/auth/login', {
      body: { email: world.ownerEmail, password: world.ownerPassword },
      remoteAddress: proxy,
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(login.status).toBe(200);
    expect(sessionCookieOf(login)).not.toMatch(/; Secure/i);
  });
});

/** Over a real listening server, as a proxy would call it (app.inject sets no socket address chain). */
describe('record get over real HTTP behind a trusted proxy on 127.0.0.1', () => {
  const ctx = useTestApp({ env: { TABULA_TRUST_PROXY: '127.0.0.1' } });
  let base: string;
  let world: World;
  let recordPath: string;
  beforeAll(async () => {
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(ctx.app.server.address() as { port: number }).port}`;
    world = await createAccount(ctx);
    const space = await createSpace(ctx, world, 'Proxied');
    const table = await createTable(ctx, world, space.id, { name: 'Notes', fields: [{ id: 'heading', name: 'Heading', type: 'text' }] });
    const created = await call(ctx, 'POST', `/api/table/${table.id}/records/create`, { key: world.accountKey, body: { data: { heading: 'Hello' } } });
    recordPath = `/api/table/${table.id}/record/${created.body.id}/get`;
  });

  async function get(key: string, forwardedFor?: string): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${base}${recordPath}`, { headers: { authorization: `Bearer ${key}`, ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) } });
    return { status: response.status, body: await response.json() };
  }

  it('serves a key allow-listed for the client, also once its identity is cached, and refuses it for others', async () => {
    const fenced = (await createKey(ctx, { accountId: world.accountId, ipAllow: [clientNetwork] })).key;
    expect((await get(fenced, client)).status).toBe(200);
    expect((await get(fenced, client)).status).toBe(200);
    const other = await get(fenced, stranger);
    expect(other.status).toBe(401);
    expect(other.body).toEqual(ipNotAllowed);
    expect((await get(fenced)).status, 'the proxy itself is not in the allow-list').toBe(401);
  });

  it('refuses clients behind the proxy a key that allow-lists only the proxy, with its identity cached', async () => {
    const proxyOnly = (await createKey(ctx, { accountId: world.accountId, ipAllow: ['127.0.0.1/32'] })).key;
    expect((await get(proxyOnly)).status).toBe(200);
    expect((await get(proxyOnly)).status).toBe(200);
    const behind = await get(proxyOnly, stranger);
    expect(behind.status).toBe(401);
    expect(behind.body).toEqual(ipNotAllowed);
  });
});
