import type { FastifyBaseLogger } from 'fastify';
import type { App } from '../app.js';
import type { Container } from '../container.js';
import type { Lifecycle } from '../shared/lifecycle.js';

/**
 * SIGTERM (or SIGINT): readiness turns to 503 at once so a load balancer stops sending; the
 * server stops accepting connections, change streams end with `event: end` (reason `shutdown`:
 * reconnect, to another process), requests in flight finish, new requests on kept-alive
 * connections get 503; background jobs stop after the item in hand and hand their leases back;
 * then the database closes and the process exits 0. Requests still running after `drainMs` are
 * cut off (their connections closed) and the process exits anyway, still 0: the stop was asked for.
 */
export async function stopGracefully(options: { app: App; log: FastifyBaseLogger; container: Container; lifecycle: Lifecycle; drainMs: number; stopBackground: () => Promise<void> }): Promise<never> {
  const { app, log, container, lifecycle } = options;
  lifecycle.draining = true;
  const deadline = setTimeout(() => {
    log.warn(`requests still running after ${options.drainMs / 1000} s (TABULA_DRAIN_SECONDS): closing their connections`);
    app.server.closeAllConnections();
  }, options.drainMs);
  deadline.unref();
  // Whatever still holds the process after the cut-off (a hung close) does not keep it from exiting.
  setTimeout(() => process.exit(0), options.drainMs + 5000).unref();
  try {
    // Jobs first: they may take a while to reach the end of their item, meanwhile requests finish.
    await Promise.all([
      options.stopBackground().catch((error: unknown) => log.error({ err: error }, 'stopping background jobs failed')),
      app.close().catch((error: unknown) => log.error({ err: error }, 'closing the server failed')),
    ]);
    await container.close();
  } catch (error) {
    log.error({ err: error }, 'closing the database failed');
  }
  clearTimeout(deadline);
  process.exit(0);
}
