import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Services } from '../container.js';
import type { Actor } from '../modules/auth/actor.js';
import { bearerPattern } from './auth.plugin.js';
import { handOverCount, isOverLimit, rateLimitHeaders, type RequestCount } from './rate-limit.plugin.js';
import { clientAddressOf, type TrustProxy } from './trust-proxy.js';

/** Fastify's own request handler, which answers whatever the fast path hands over. */
export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** The route's canonical form only: ids of up to nine digits fit the schema's integer range. */
const recordGetPath = /^\/api\/table\/([1-9][0-9]{0,8})\/record\/([1-9][0-9]{0,8})\/get$/;

/**
 * `GET /api/table/:tid/record/:rid/get`, the hottest call of the API, answered without
 * Fastify's per-request machinery (request and reply objects, hook runners, path validation,
 * the send pipeline): a fifth of the call's CPU. It takes only the plain case: the route in
 * its canonical form, no body, a bearer key whose identity is cached, and a record the caller
 * may read. It reuses the same functions as the route (key cache, rate-limit counter, records
 * service, headers), and everything else goes to Fastify unchanged: other requests at once,
 * and a call that fails (not found, not allowed, over the limit, stale metadata) after the
 * fact, with its rate-limit count handed over so it is not counted twice. Fastify then
 * answers it exactly as the route does, running the service call again. Off while requests
 * are logged (those log lines come from Fastify) and once the server is closing.
 *
 * A change to the route's authentication, rate limiting or response headers must be made here
 * too: test/http/record-get-fast-path.test.ts asks every situation through both and compares.
 */
/**
 * The cached identity of a key, or undefined, never a throw: a cached key that grants nothing
 * from this address (allow-list, owner gone) is the route's to refuse, with its own 401 body.
 */
function cachedActor(services: Services, secret: string, clientAddress: string): Actor | undefined {
  try {
    return services.keys.authenticateCachedKey(secret, clientAddress);
  } catch {
    return undefined;
  }
}

/** `trustProxy` is the function Fastify was given, so that a key's allow-list sees the same client address. */
export function createRecordGetFastPath(services: Services, trustProxy: TrustProxy | null = null) {
  /** Set once the rate limiter exists; until then, and once disabled, nothing is taken. */
  let countRequest: ((actor: Actor) => RequestCount | Promise<RequestCount>) | null = null;
  return {
    enable(counter: (actor: Actor) => RequestCount | Promise<RequestCount>): void {
      countRequest = counter;
    },
    disable(): void {
      countRequest = null;
    },
    /** Whether the fast path took the request (it then answers it, or hands it to `fastify` itself). */
    take(request: IncomingMessage, response: ServerResponse, fastify: RequestHandler): boolean {
      if (countRequest === null || request.method !== 'GET') return false;
      const match = recordGetPath.exec(request.url ?? '');
      const header = request.headers.authorization;
      if (!match || header === undefined || request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined) return false;
      const bearer = bearerPattern.exec(header.trim());
      const actor = bearer ? cachedActor(services, bearer[1], clientAddressOf(request, trustProxy)) : undefined;
      if (!actor) return false;
      const handOver = (count: RequestCount) => {
        handOverCount(request, count);
        fastify(request, response);
      };
      const answer = (count: RequestCount) => {
        if (isOverLimit(count)) return handOver(count);
        services.records.getRecord(actor, Number(match[1]), Number(match[2])).then(
          (record) => {
            const body = JSON.stringify(record);
            // Added to the object rather than spread into a new one: measured, the spread copy
            // costs Node's writeHead more than the rest of the fast path saves.
            const headers: OutgoingHttpHeaders = rateLimitHeaders(count);
            headers['content-type'] = 'application/json; charset=utf-8';
            headers['content-length'] = Buffer.byteLength(body);
            response.writeHead(200, headers);
            response.end(body);
          },
          () => handOver(count),
        );
      };
      const count = countRequest(actor);
      if (count instanceof Promise) count.then(answer, () => fastify(request, response));
      else answer(count);
      return true;
    },
  };
}
