import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** How long a browser may reuse a preflight answer. */
const preflightMaxAgeSeconds = 600;

/**
 * Cross-origin requests from the pages of `origins` (exact origins from TABULA_CORS_ORIGINS),
 * registered before authentication so that a preflight, which carries no credentials, is
 * answered first. Any other origin, or a request without one, gets no CORS header at all, and
 * its preflight is answered as any OPTIONS request (405 on a known path, 404 elsewhere).
 *
 * `credentials: true`: a listed front end may use the session cookie as well as API keys. The
 * cookie stays SameSite=Lax, so browsers send it only from the same site (app.example.com to
 * api.example.com); a front end on another site uses an API key in the Authorization header.
 * Session writes still need Content-Type: application/json or the X-Tabula-Request header,
 * which only a listed origin's preflight can obtain.
 */
export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin) ? origin : false),
    methods: ['GET', 'HEAD', 'POST'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Tabula-Request'],
    exposedHeaders: ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Content-Disposition'],
    credentials: true,
    maxAge: preflightMaxAgeSeconds,
  });
}
