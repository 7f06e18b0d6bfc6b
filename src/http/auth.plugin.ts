import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../modules/auth/actor.js';
import type { Services } from '../container.js';
import { UnauthorizedError, UnsupportedMediaTypeError } from '../shared/errors.js';

export const sessionCookieName = 'tabula_session';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
  interface FastifyContextConfig {
    /**
     * `public` routes skip authentication; `cached` routes may take the API key from the
     * metadata cache because they confirm its version in their own statements (records).
     */
    auth?: 'public' | 'cached';
  }
}

/** The authenticated identity; routes behind the auth hook can rely on it. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new UnauthorizedError('Missing API key', 'missing_api_key');
  return request.actor;
}

/** The auth scheme is case-insensitive (RFC 9110 §11.1); the token is a base64url-ish secret. */
const bearerPattern = /^Bearer +([A-Za-z0-9_\-.~+/=]{1,512})$/i;
const jsonContentType = /^application\/json\s*(;|$)/i;

/**
 * Session writes must be JSON so that a cross-site HTML form (which can only send
 * urlencoded, multipart or text/plain bodies) cannot forge them.
 */
export function assertJsonSessionWrite(request: FastifyRequest): void {
  if (request.method === 'GET' || request.method === 'HEAD') return;
  if (!jsonContentType.test(request.headers['content-type'] ?? '')) {
    throw new UnsupportedMediaTypeError('Session requests that change state must be sent as Content-Type: application/json');
  }
}

/** Resolves `request.actor` from `Authorization: Bearer <key>` or the session cookie. */
export function registerAuth(app: FastifyInstance, services: Services): void {
  app.decorateRequest('actor', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.auth === 'public' || !request.routeOptions.url) return;
    const header = request.headers.authorization;
    if (header !== undefined) {
      const match = bearerPattern.exec(header.trim());
      if (!match) throw new UnauthorizedError();
      request.actor = await services.keys.authenticateKey(match[1], request.ip, { cached: request.routeOptions.config?.auth === 'cached' });
      return;
    }
    const token = request.cookies?.[sessionCookieName];
    const actor = token ? await services.auth.authenticateSession(token) : null;
    if (!actor) throw new UnauthorizedError(token ? 'Session expired or invalid' : 'Missing API key', token ? 'invalid_session' : 'missing_api_key');
    assertJsonSessionWrite(request);
    request.actor = actor;
  });
}
