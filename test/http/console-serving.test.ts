import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';

/** A built console as Vite lays it out: index.html, hashed files under assets/, a favicon beside. */
function writeConsoleFixture(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-console-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Tabula</title><script type="module" src="/assets/index-abc123.js"></script><div id="root">console-fixture</div>');
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log("console-fixture");\n');
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js.br'), zlib.brotliCompressSync('console.log("console-fixture");\n'));
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(os.tmpdir(), 'tabula-console-outside.txt'), 'outside');
  return dir;
}

const strictPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

describe('the web console served beside the API', () => {
  const consoleDir = writeConsoleFixture();
  const ctx = useTestApp({ consoleDir });
  afterAll(() => fs.rmSync(consoleDir, { recursive: true, force: true }));

  it.each(['/', '/space/1/table/2', '/space/1/table/2/record/3?x=1', '/login'])('GET %s answers index.html with a strict CSP and no long cache', async (url) => {
    const response = await ctx.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('console-fixture');
    expect(response.headers['content-security-policy']).toBe(strictPolicy);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('HEAD of a console address answers like GET, without a body', async () => {
    const response = await ctx.app.inject({ method: 'HEAD', url: '/space/1' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toBe(strictPolicy);
    expect(response.body).toBe('');
  });

  it('serves assets with a year-long immutable cache and their type', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(response.body).toContain('console-fixture');
  });

  it('sends the build\'s precompressed copy to a browser that accepts it', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toContain('console-fixture');
  });

  it('serves top-level files of the build (favicon) with a short cache', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
  });

  it.each(['/assets/missing.js', '/assets/..%2f..%2ftabula-console-outside.txt'])('GET %s is the 404 JSON error, not the page nor a file outside the build', async (url) => {
    const response = await ctx.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'not_found', message: 'Not found' } });
  });

  it.each(['/assets/../../tabula-console-outside.txt', '/assets/%2e%2e/%2e%2e/tabula-console-outside.txt'])('%s never reads a file outside the build', async (url) => {
    const response = await ctx.app.inject({ method: 'GET', url });
    expect(response.body).not.toContain('outside');
  });

  it.each([
    ['GET', '/api/nope'],
    ['POST', '/api/nope'],
    ['GET', '/api'],
    ['GET', '/api/table/1/nope'],
  ] as const)('%s %s stays a 404 JSON error', async (method, url) => {
    const response = await ctx.app.inject({ method, url, headers: { 'content-type': 'application/json' }, payload: method === 'POST' ? '{}' : undefined });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'not_found', message: 'Not found' } });
    expect(response.headers['content-security-policy']).toBeUndefined();
  });

  it('/healthz, /docs and the API answer as before', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ ok: true });
    const docs = await ctx.app.inject({ method: 'GET', url: '/docs' });
    expect(docs.body).not.toContain('console-fixture');
    expect((await ctx.app.inject({ method: 'GET', url: '/api/spaces/list' })).statusCode).toBe(401);
  });

  it('a POST to a console address is not the page', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/space/1', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('console-fixture');
  });

  it('the console routes are not in the OpenAPI document', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((route) => !route.startsWith('/api/') && route !== '/healthz' && route !== '/readyz')).toEqual([]);
  });
});

describe('without a built console', () => {
  const ctx = useTestApp({ consoleDir: path.join(os.tmpdir(), 'tabula-console-never-built') });

  it('GET / is the 404 JSON error, as an API-only server answers', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});
