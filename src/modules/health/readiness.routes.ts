import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { createReadiness } from './readiness.service.js';

const Ready = Type.Object({ ready: Type.Literal(true) }, { additionalProperties: false });
const NotReady = Type.Object(
  {
    ready: Type.Literal(false),
    reason: Type.Union([Type.Literal('draining'), Type.Literal('database_unavailable'), Type.Literal('migrations_pending')]),
    message: Type.String(),
  },
  { additionalProperties: false },
);

/** `GET /readyz` beside `/healthz`: 200 when this process should get traffic, 503 with the reason when not. */
export function readinessRoutes(readiness: ReturnType<typeof createReadiness>): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/readyz', { config: { auth: 'public' }, schema: { tags: ['discovery'], response: { 200: Ready, 503: NotReady } } }, async (_request, reply) => {
      const state = await readiness.check();
      return state.ready ? state : reply.code(503).header('retry-after', '5').send(state);
    });
  };
}
