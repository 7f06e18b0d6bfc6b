import fs from 'node:fs';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { requestExamples } from './openapi-examples.js';
import { operations } from './openapi-operations.js';
import { AnyObject, documentedKeyword } from './schemas.js';

/** Where the interactive documentation lives; its page, assets and copy of the document are public. */
export const docsPrefix = '/docs';

/**
 * Swagger UI's page loads only its own scripts and styles from this origin (no CDN), and calls
 * only this origin. Styles may be inline: the UI sets them from its scripts. No
 * `upgrade-insecure-requests`: a server on plain HTTP (localhost) must still load its assets.
 */
const docsContentSecurityPolicy = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
].join('; ');

/** Tabula's logo (Swagger UI's top bar, on its dark background) and icon (the tab), from assets/: the same path from src/http and dist/http. */
const readAsset = (name: string) => fs.readFileSync(new URL(`../../assets/${name}`, import.meta.url));

/** What the responses of the shared `responses()` map mean (http/schemas.ts), for readers of the document. */
const responseDescriptions: Record<string, string> = {
  200: 'OK',
  206: 'Partial content: the requested byte range',
  304: 'Not modified: the ETag of If-None-Match still matches',
  400: 'Invalid input, or a missing table or record (the message names the problem)',
  401: 'Missing, unknown or revoked API key, or expired session',
  403: 'The key or user may not do this (read-only key, role, field permission)',
  404: 'Space, table, view or notification not found, or not visible to the caller',
  413: 'Payload Too Large',
  415: 'Content-Type must be application/json',
  416: 'Range not satisfiable',
  429: 'Rate limit exceeded; Retry-After says when to come back',
  500: 'Internal error (with a request id), or one of the specification\'s 500s such as "Not Authorized"',
};

/** A copy of a route schema as the document shows it: every part marked with `documentedAs` replaced by its documented shape. */
function documentedSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(documentedSchema);
  if (typeof node !== 'object' || node === null) return node;
  const record = node as Record<string, unknown>;
  if (record[documentedKeyword] !== undefined) return documentedSchema(record[documentedKeyword]);
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, documentedSchema(value)]));
}

/**
 * Names and summarises an operation from the central table and gives its body the example of
 * openapi-examples.ts (a one-item `examples` becomes the media type's `example`); public routes
 * need no credentials.
 */
function describeRoute({ schema, url, route }: { schema: unknown; url: string; route: RouteOptions }) {
  const shown = documentedSchema(schema ?? {}) as Record<string, unknown>;
  const key = typeof route.method === 'string' ? `${route.method} ${url}` : undefined;
  const operation = key ? operations[key] : undefined;
  if (operation) {
    shown.operationId = operation.operationId;
    shown.summary = operation.summary;
    if (operation.sessionOnly) shown.security = [{ session: [] }];
  }
  const example = key ? requestExamples[key] : undefined;
  if (example !== undefined && shown.body) shown.body = { ...(shown.body as Record<string, unknown>), examples: [example] };
  if (route.config?.auth === 'public') shown.security = [];
  return { schema: shown, url };
}

/**
 * OpenAPI 3.0 allows null in an enum only when the enum lists it; the converter marks a union of
 * literals and null `nullable` without listing it.
 */
function listNullInNullableEnums(node: unknown): void {
  if (typeof node !== 'object' || node === null) return;
  for (const value of Object.values(node)) listNullInNullableEnums(value);
  const schema = node as { nullable?: unknown; enum?: unknown[] };
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum.push(null);
}

/** Last touches on the whole document: readable response descriptions, exact nullable enums. */
function finishDocument({ openapiObject }: { openapiObject: Record<string, any> }) {
  for (const pathItem of Object.values<Record<string, any>>(openapiObject.paths ?? {})) {
    for (const operation of Object.values<Record<string, any>>(pathItem)) {
      for (const [status, response] of Object.entries<Record<string, any>>(operation.responses ?? {})) {
        if (response.description === 'Default Response' && responseDescriptions[status]) response.description = responseDescriptions[status];
      }
    }
  }
  listNullInNullableEnums(openapiObject);
  return openapiObject;
}

/**
 * The OpenAPI 3 document, generated from the route schemas (`GET /api/openapi.json`), and Swagger
 * UI at /docs serving it from the package's local assets. Registered before authentication and
 * the rate limit: its onRoute hook marks the documentation's own routes public before theirs run.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    if (route.url === docsPrefix || route.url.startsWith(`${docsPrefix}/`)) route.config = { ...route.config, auth: 'public' };
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Tabula',
        version: '1',
        description: 'Records in user-defined tables behind an HTTP JSON API. Interactive documentation: /docs.',
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
      },
      // Relative: the document describes whichever server serves it (Swagger UI calls that origin).
      servers: [{ url: '/', description: 'The server that serves this document' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer tbk_…`' },
          session: { type: 'apiKey', in: 'cookie', name: 'tabula_session', description: 'The session cookie set by login' },
        },
      },
      security: [{ bearer: [] }, { session: [] }],
    },
    // Shared schemas keep their $id as their name in components (`ErrorBody`, not `def-0`).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => (typeof json.$id === 'string' ? json.$id : `def-${index}`) },
    transform: describeRoute,
    transformObject: finishDocument as never,
  });
  await app.register(swaggerUi, {
    routePrefix: docsPrefix,
    staticCSP: docsContentSecurityPolicy,
    // The logo goes in as a data: URI (img-src allows it); the icon is served under /docs/static/theme/.
    logo: { type: 'image/svg+xml', content: readAsset('tabula-logo.svg') },
    theme: { title: 'Tabula API', favicon: [{ filename: 'tabula-icon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: readAsset('tabula-icon.svg') }] },
    uiConfig: { deepLinking: true },
  });
  app.get('/api/openapi.json', { config: { auth: 'public' }, schema: { tags: ['discovery'], response: { 200: AnyObject } } }, async () => app.swagger());
}
