import diagnostics from 'node:diagnostics_channel';
import type { FastifyInstance } from 'fastify';
import openapiTS from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { operations } from '../../src/http/openapi-operations.js';
import { useTestApp } from '../build-test-app.js';
import { call } from '../factories.js';

/**
 * Every route the app registers, seen by an onRoute hook added as soon as Fastify creates the
 * instance (its `fastify.initialization` diagnostics channel), before any route exists.
 */
const registered: Array<{ method: string; url: string; auth?: string }> = [];
diagnostics.subscribe('fastify.initialization', (message) => {
  (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', (route) => {
    // HEAD twins of GET routes are Fastify's own, left out of the document.
    for (const method of [route.method].flat()) if (method !== 'HEAD') registered.push({ method, url: route.url, auth: route.config?.auth });
  });
});

type Operation = { operationId?: string; summary?: string; security?: unknown[]; requestBody?: any; responses: Record<string, any> };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, any> } };

/** `/api/table/{tid}/get` → `/api/table/:tid/get`, the form routes are registered and keyed in. */
const routeUrl = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');
const isDocsUi = (url: string) => url === '/docs' || url.startsWith('/docs/');

describe('the OpenAPI document', () => {
  const ctx = useTestApp();
  const documentOf = async () => (await call(ctx, 'GET', '/api/openapi.json')).body as Document;
  const operationsOf = (document: Document) =>
    Object.entries(document.paths).flatMap(([path, pathItem]) => Object.entries(pathItem).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${routeUrl(path)}`, operation })));

  it('is a valid OpenAPI 3 document: openapi-typescript (Redocly structural rules, unique operationIds) accepts it', async () => {
    const document = await documentOf();
    expect(document.openapi).toMatch(/^3\.0\./);
    await expect(openapiTS(document as any, { silent: true })).resolves.toBeDefined();
  });

  it('the validator in use refuses a broken document (so the check above can fail)', async () => {
    const broken = structuredClone(await documentOf()) as any;
    broken.paths['/api/spaces/list'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/Missing' };
    await expect(openapiTS(broken, { silent: true })).rejects.toThrow(/Missing|resolve/i);
  });

  it('lists every registered route but the docs UI, each with an operationId and a summary from src/http/openapi-operations.ts, ids unique', async () => {
    const document = await documentOf();
    const documented = operationsOf(document);
    const routes = registered.filter((route) => !isDocsUi(route.url)).map((route) => `${route.method} ${route.url}`);
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.filter((key) => !operations[key]), 'routes without an entry in src/http/openapi-operations.ts').toEqual([]);
    expect(new Set(documented.map(({ key }) => key))).toEqual(new Set(routes));
    expect(Object.keys(operations).filter((key) => !routes.includes(key)), 'entries of openapi-operations.ts without a route').toEqual([]);
    for (const { key, operation } of documented) {
      expect(operation.operationId, key).toBe(operations[key].operationId);
      expect(operation.summary, key).toBe(operations[key].summary);
    }
    const ids = documented.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('asks no credentials of the public routes, a session of the session-only ones, and a key or session of all others', async () => {
    const document = await documentOf();
    expect(document as unknown).toMatchObject({ security: [{ bearer: [] }, { session: [] }] });
    const publicRoutes = new Set(registered.filter((route) => route.auth === 'public' && !isDocsUi(route.url)).map((route) => `${route.method} ${route.url}`));
    expect(publicRoutes).toEqual(new Set(['GET /healthz', 'GET /readyz', 'GET /api/openapi.json', 'POST /api/auth/login', 'POST /api/auth/logout']));
    for (const { key, operation } of operationsOf(document)) {
      const expected = publicRoutes.has(key) ? [] : operations[key].sessionOnly ? [{ session: [] }] : undefined;
      expect(operation.security, key).toEqual(expected);
    }
  });

  it('names the error body as a component, and every error response of a JSON route refers to it', async () => {
    const document = await documentOf();
    expect(document.components.schemas.ErrorBody).toMatchObject({
      type: 'object',
      required: ['error'],
      properties: { error: { required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } } },
    });
    for (const { key, operation } of operationsOf(document)) {
      expect(operation.responses['200'], key).toBeDefined();
      // Probes answer 200 or (readiness) 503 with their own body, never an error body.
      if (key === 'GET /healthz' || key === 'GET /readyz' || key === 'GET /api/openapi.json') continue;
      for (const status of ['400', '401', '403', '404', '429', '500']) {
        expect(operation.responses[status]?.content['application/json'].schema, `${key} ${status}`).toEqual({ $ref: '#/components/schemas/ErrorBody' });
      }
    }
  });

  it('shows the strict bodies the services check, not the loose shapes Fastify validates, and no internal keyword', async () => {
    const document = await documentOf();
    const text = JSON.stringify(document);
    expect(text).not.toContain('x-documented');
    const bodyOf = (path: string) => document.paths[path].post.requestBody.content['application/json'].schema;
    const query = bodyOf('/api/table/{tid}/records/query');
    expect(query.additionalProperties).toBe(false);
    expect(query.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000 });
    expect(query.properties.filters.items).toMatchObject({ required: ['compare'], additionalProperties: false });
    expect(bodyOf('/api/table/{tid}/records/create')).toMatchObject({ additionalProperties: false, properties: { data: { type: 'object' } } });
    expect(bodyOf('/api/table/{tid}/fields/create')).toMatchObject({ required: ['name', 'type'], additionalProperties: false });
    expect(bodyOf('/api/table/{tid}/field/{slug}/update').required).toBeUndefined();
    expect(bodyOf('/api/table/{tid}/record/{rid}/files/create')).toMatchObject({ required: ['field_id', 'name', 'data'], additionalProperties: false });
    expect(bodyOf('/api/table/{tid}/record/{rid}/comments/create')).toMatchObject({ additionalProperties: false, properties: { content: {}, attachments: {} } });
    expect(bodyOf('/api/table/{tid}/views/create')).toMatchObject({ required: ['name'], additionalProperties: false });
    expect(bodyOf('/api/spaces/create').properties.storage.anyOf).toHaveLength(5);
    expect(document.paths['/api/table/{tid}/record/{rid}/files/upload'].post.requestBody.content).toEqual({
      'application/octet-stream': { schema: { type: 'string', format: 'binary', description: 'the file itself (at most 50 MB)' } },
    });
    expect(Object.keys(document.paths['/api/table/{tid}/record/{rid}/files/download'].get.responses['200'].content)).toEqual(['application/octet-stream']);
  });
});

describe('interactive documentation at /docs', () => {
  const ctx = useTestApp();

  it('serves Swagger UI without a key, from local assets only, under a content security policy and without rate-limit headers', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('swagger-ui-bundle.js');
    expect(page.body, 'no asset from another origin').not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-ratelimit-limit']).toBeUndefined();
    for (const asset of ['/docs/static/swagger-ui-bundle.js', '/docs/static/swagger-ui.css', '/docs/static/swagger-initializer.js']) {
      const response = await ctx.app.inject({ method: 'GET', url: asset });
      expect(response.statusCode, asset).toBe(200);
      expect(response.body.length, asset).toBeGreaterThan(100);
    }
  });

  it('serves the same document at /docs/json as at /api/openapi.json, without a key', async () => {
    const fromDocs = await call(ctx, 'GET', '/docs/json');
    expect(fromDocs.status).toBe(200);
    expect(fromDocs.body).toEqual((await call(ctx, 'GET', '/api/openapi.json')).body);
  });

  it('leaves every other route behind authentication: a key is still required next to /docs', async () => {
    const response = await call(ctx, 'GET', '/api/spaces/list');
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('missing_api_key');
  });
});
