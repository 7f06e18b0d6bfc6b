import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, NotFoundError } from '../shared/errors.js';

/**
 * The console's page: its own scripts and styles only (no inline script or style, nothing from
 * another origin), API calls to this origin, never framed.
 */
export const consoleContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Hashed file names (Vite): a file's content never changes under its name. */
const assetCacheControl = 'public, max-age=31536000, immutable';
/** Other files of the build's top level (favicon.svg): not hashed, so kept briefly. */
const topLevelCacheControl = 'public, max-age=3600';

/** Paths that are never the console's: the API, its documentation, health, and the assets (a missing one is a 404). */
const reservedPrefixes = ['/api', '/docs', '/healthz', '/readyz', '/metrics', '/assets'];

function isReserved(pathname: string): boolean {
  return reservedPrefixes.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

export interface ConsolePage {
  /** Answers a GET or HEAD that no route took with index.html (client-side routes); false when the path is not the console's. */
  answerUnrouted(request: FastifyRequest, reply: FastifyReply): boolean;
  /** The routes of `/assets/*` and of the build's top-level files. */
  registerFiles(app: FastifyInstance): Promise<void>;
}

/**
 * The built console (`console/dist`), or null when it has not been built. @fastify/static is
 * loaded here, on first use, so that only a serving process pays for it.
 */
export function loadConsole(consoleDir: string): ConsolePage | null {
  let page: Buffer;
  try {
    page = fs.readFileSync(path.join(consoleDir, 'index.html'));
  } catch {
    return null;
  }
  const topLevelFiles = fs
    .readdirSync(consoleDir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== 'index.html' && !/\.(br|gz)$/.test(entry.name))
    .map((entry) => entry.name);
  return {
    answerUnrouted(request, reply) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return false;
      if (isReserved(request.url.split('?', 1)[0])) return false;
      void reply
        .status(200)
        .header('content-type', 'text/html; charset=utf-8')
        // Revalidated on every load: a new build's page names new asset files.
        .header('cache-control', 'no-cache')
        .header('content-security-policy', consoleContentSecurityPolicy)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'same-origin')
        .send(page);
      return true;
    },
    async registerFiles(app) {
      const { default: fastifyStatic } = await import('@fastify/static');
      // serve: false — only reply.sendFile; the routes are ours, public and left out of the OpenAPI document.
      await app.register(fastifyStatic, { root: consoleDir, serve: false, preCompressed: true, cacheControl: false });
      const assets = path.join(consoleDir, 'assets');
      const routeOptions = { config: { auth: 'public' as const }, schema: { hide: true } };
      app.get('/assets/*', routeOptions, (request, reply) => {
        // A missing asset is the API's 404 (send would call the not-found handler, which sees this route and says 405).
        const file = path.resolve(assets, (request.params as { '*': string })['*']);
        if (!file.startsWith(assets + path.sep) || !fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw new NotFoundError('Not found', ErrorCode.notFound);
        reply.header('cache-control', assetCacheControl).header('x-content-type-options', 'nosniff');
        return reply.sendFile(path.relative(assets, file), assets);
      });
      for (const file of topLevelFiles) {
        app.get(`/${file}`, routeOptions, (_request, reply) => reply.header('cache-control', topLevelCacheControl).sendFile(file));
      }
    },
  };
}
