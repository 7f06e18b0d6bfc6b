import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../modules/health/metrics.service.js';
import { ErrorCode, UnauthorizedError } from '../shared/errors.js';

/**
 * `GET /metrics` (Prometheus text) and the hook that counts every answered request. Registered
 * only with `TABULA_METRICS=on`. With `TABULA_METRICS_TOKEN` set, only `Authorization: Bearer
 * <token>` may read it; it is never an API key (a scraper needs no account). Hidden from the
 * OpenAPI document: it is for operators, not API clients (docs/api.md and docs/operations.md).
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | null): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });
  const expected = token === null ? null : crypto.createHash('sha256').update(`Bearer ${token}`).digest();
  app.get('/metrics', { config: { auth: 'public' }, schema: { hide: true } }, async (request, reply) => {
    if (expected) {
      const given = crypto.createHash('sha256').update(request.headers.authorization ?? '').digest();
      if (!crypto.timingSafeEqual(given, expected)) throw new UnauthorizedError('GET /metrics needs Authorization: Bearer <TABULA_METRICS_TOKEN>', ErrorCode.invalidCredentials);
    }
    return reply.header('content-type', metrics.contentType).header('cache-control', 'no-store').send(await metrics.render());
  });
}
