import { parse as parseCookieHeader, serialize as serializeCookie } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import type { Actor } from '../modules/auth/actor.js';
import type { Services } from '../container.js';
import { ErrorCode, UnauthorizedError, UnsupportedMediaTypeError } from '../shared/errors.js';

export const sessionCookieName = 'tabula_session';

/** The session token from the request's Cookie header, if it carries one. */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  return header ? parseCookieHeader(header)[sessionCookieName] || undefined : undefined;
}

/** Sets the session cookie; `expires` in the past clears it. */
export function setSessionCookie(reply: FastifyReply, token: string, expires: Date, secure: boolean): void {
  reply.header('set-cookie', serializeCookie(sessionCookieName, token, { httpOnly: true, sameSite: 'lax', path: '/', expires, secure }));
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.header('set-cookie', serializeCookie(sessionCookieName, '', { path: '/', expires: new Date(0), maxAge: 0 }));
}

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
  if (!request.actor) throw new UnauthorizedError('Missing API key', ErrorCode.missingApiKey);
  return request.actor;
}

/** The auth scheme is case-insensitive (RFC 9110 §11.1); the token is a base64url-ish secret. */
export const bearerPattern = /^Bearer +([A-Za-z0-9_\-.~+/=]{1,512})$/i;
const jsonContentType = /^application\/json\s*(;|$)/i;

/** The header a session request with a body that is not JSON (a raw upload) must carry. */
export const sessionRequestHeader = 'x-tabula-request';

/**
 * Session writes must be JSON, or carry `X-Tabula-Request: 1`, so that a cross-site HTML form
 * (which can only send urlencoded, multipart or text/plain bodies, and no header of its own)
 * cannot forge them. A page of another origin can set neither without a CORS preflight, which
 * only the origins of TABULA_CORS_ORIGINS pass (CONTRACT §8: the console's raw uploads).
 */
export function assertJsonSessionWrite(request: FastifyRequest): void {
  if (request.method === 'GET' || request.method === 'HEAD') return;
  if (request.headers[sessionRequestHeader] === '1') return;
  if (!jsonContentType.test(request.headers['content-type'] ?? '')) {
    throw new UnsupportedMediaTypeError('Session requests that change state must be sent as Content-Type: application/json');
  }
}

/**
 * Resolves `request.actor` from `Authorization: Bearer <key>` or the session cookie, as an
 * `onRequest` hook added to every route that is not public (unknown routes get none). It is
 * attached per route, so that the route's auth mode is read once here rather than through
 * `request.routeOptions`, which Fastify rebuilds on every access. Written with a callback:
 * a records call whose key is cached authenticates without a promise.
 */
export function registerAuth(app: FastifyInstance, services: Services): void {
  app.decorateRequest('actor', null);
  const settle = (request: FastifyRequest, done: HookHandlerDoneFunction) => (actor: Actor) => {
    request.actor = actor;
    done();
  };
  const authenticate = (cachedKeys: boolean): onRequestHookHandler =>
    function authenticate(request, _reply, done) {
      const header = request.headers.authorization;
      if (header !== undefined) {
        const match = bearerPattern.exec(header.trim());
        if (!match) throw new UnauthorizedError();
        const cached = cachedKeys ? services.keys.authenticateCachedKey(match[1], request.ip) : undefined;
        if (cached) {
          request.actor = cached;
          return done();
        }
        services.keys.authenticateKey(match[1], request.ip).then(settle(request, done), done);
        return;
      }
      authenticateSession(request).then(settle(request, done), done);
    };
  async function authenticateSession(request: FastifyRequest): Promise<Actor> {
    const token = sessionTokenOf(request);
    const actor = token ? await services.auth.authenticateSession(token) : null;
    if (!actor) throw new UnauthorizedError(token ? 'Session expired or invalid' : 'Missing API key', token ? ErrorCode.invalidSession : ErrorCode.missingApiKey);
    assertJsonSessionWrite(request);
    return actor;
  }
  app.addHook('onRoute', (route) => {
    const mode = route.config?.auth;
    if (mode === 'public') return;
    route.onRequest = [authenticate(mode === 'cached'), ...[route.onRequest ?? []].flat()];
  });
}
