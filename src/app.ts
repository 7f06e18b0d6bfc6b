import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { pino, type Logger } from 'pino';
import type { Container } from './container.js';
import { registerAuth } from './http/auth.plugin.js';
import { loadConsole } from './http/console.js';
import { registerCors } from './http/cors.js';
import { frameworkErrorHandler, registerErrorHandling } from './http/error-handler.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { registerMetrics } from './http/metrics.plugin.js';
import { registerOpenApi } from './http/openapi.js';
import { registerRateLimit } from './http/rate-limit.plugin.js';
import { registerUnreadBodyDiscard } from './http/request-body.js';
import { nextRequestId } from './http/request-ids.js';
import { ErrorBody } from './http/schemas.js';
import { compileTrustProxy } from './http/trust-proxy.js';
import { registerValidators } from './http/validator.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { filesRoutes } from './modules/files/files.routes.js';
import { keysRoutes } from './modules/keys/keys.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { viewsRoutes } from './modules/views/views.routes.js';
import { commentsRoutes } from './modules/comments/comments.routes.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { recordsRoutes } from './modules/records/records.routes.js';
import { changesRoutes } from './modules/changes/changes.routes.js';
import { changeStreamRoutes } from './modules/changes/change-stream.routes.js';
import { spacesRoutes } from './modules/spaces/spaces.routes.js';
import { tablesRoutes } from './modules/tables/tables.routes.js';
import { readinessRoutes } from './modules/health/readiness.routes.js';
import { createReadiness } from './modules/health/readiness.service.js';
import { createMetrics } from './modules/health/metrics.service.js';
import type { Lifecycle } from './shared/lifecycle.js';

import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';

export interface AppOptions {
  /** Where the app logs (`tabula serve`: LOG_LEVEL); absent, it logs nothing. */
  logger?: Logger;
  redisPrefix?: string;
  /** Serve the built web console from this folder (`tabula serve`); absent, the app is the API alone. */
  consoleDir?: string;
  /** Shared with the graceful stop of `tabula serve`: draining turns `/readyz` to 503. */
  lifecycle?: Lifecycle;
}

/** Management and auth bodies are small; record and file routes raise their own limit. */
const defaultBodyLimit = 1024 * 1024;

export async function buildApp(container: Container, options: AppOptions = {}) {
  const trustProxy = compileTrustProxy(container.config.trustProxy);
  const log = options.logger ?? pino({ level: 'silent' });
  const app = Fastify({
    // Fastify's own logger costs every request a child logger and listeners on its answer even
    // when nothing is logged at the level set: about 5 µs of a cached count's 75 (session 41).
    // It is given one only to log requests (info and below); Tabula's own lines go to `log`.
    ...(log.isLevelEnabled('info') ? { loggerInstance: log as FastifyBaseLogger } : { logger: false }),
    // request.ip and request.protocol follow X-Forwarded-For/-Proto only from TABULA_TRUST_PROXY peers.
    trustProxy: trustProxy ?? false,
    bodyLimit: defaultBodyLimit,
    genReqId: nextRequestId,
    frameworkErrors: frameworkErrorHandler(log),
    ajv: { customOptions: { removeAdditional: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  registerValidators(app);
  registerJsonBodyParser(app);
  // First, so that its hook counts every answer, refusals by later hooks included.
  if (container.config.metrics) registerMetrics(app, createMetrics({ database: container.database, jobs: container.services.jobs, webhooks: container.services.webhookDelivery }), container.config.metricsToken);
  // The console's page answers the GETs no route takes outside /api/, /docs and /healthz (client-side routes).
  const consolePage = options.consoleDir ? loadConsole(options.consoleDir) : null;
  if (options.consoleDir && !consolePage) log.warn(`The web console is not built (no ${options.consoleDir}/index.html): run npm run build. Serving the API alone.`);
  registerErrorHandling(app, { dialect: container.database.dialect.name, queryTimeoutMs: container.config.queryTimeoutMs }, log, consolePage?.answerUnrouted);
  // Before the send timeout below: an answer waits for the rest of a body it did not read.
  registerUnreadBodyDiscard(app);
  // Once an answer starts, a connection that takes no byte of it for this long is closed: a
  // client that stopped reading costs only that answer's memory, and only until then. Set
  // here rather than for the whole connection, so a query's own time never counts.
  const sendTimeoutMs = container.config.sendTimeoutMs;
  app.addHook('onSend', (request, _reply, payload, done) => {
    // app.inject's stand-in socket has no timer.
    request.raw.socket?.setTimeout?.(sendTimeoutMs);
    done(null, payload);
  });
  app.addSchema(ErrorBody);
  await registerOpenApi(app);
  // Before authentication: its preflight route and hook must not be asked for a key.
  await registerCors(app, container.config.corsOrigins);
  registerAuth(app, container.services);
  await registerRateLimit(app, { perMinute: container.config.rateLimitPerMinute, redisUrl: container.config.redisUrl, redisPrefix: options.redisPrefix ?? container.config.redisPrefix, log });

  app.get('/healthz', { config: { auth: 'public' }, schema: { tags: ['discovery'], response: { 200: Type.Object({ ok: Type.Literal(true) }) } } }, async () => ({ ok: true as const }));
  await app.register(readinessRoutes(createReadiness({ database: container.database, lifecycle: options.lifecycle ?? { draining: false } })));

  await app.register(authRoutes(container.services));
  await app.register(usersRoutes(container.services));
  await app.register(keysRoutes(container.services));
  await app.register(spacesRoutes(container.services));
  await app.register(tablesRoutes(container.services));
  await app.register(recordsRoutes(container.services));
  await app.register(changesRoutes(container.services));
  await app.register(changeStreamRoutes(container.services));
  await app.register(filesRoutes(container.services));
  await app.register(viewsRoutes(container.services));
  await app.register(commentsRoutes(container.services));
  await app.register(notificationsRoutes(container.services));
  await app.register(webhooksRoutes(container.services));
  await consolePage?.registerFiles(app);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
