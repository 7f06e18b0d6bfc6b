import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/auth.plugin.js';
import { responses } from '../../http/schemas.js';
import type { Services } from '../../container.js';
import { ApiKey, IssuedApiKey, KeyCreateBody, KeyParams, KeyRevoked } from './keys.schemas.js';

/** The console's key pages (CONTRACT §8); the command line manages keys through the same keys service. */
export function keysRoutes(services: Services): FastifyPluginAsyncTypebox {
  const keys = services.keyManagement;
  return async (app) => {
    const tags = ['keys'];
    app.get('/api/keys/list', { schema: { tags, response: responses(Type.Array(ApiKey)) } }, (request) => keys.listKeys(actorOf(request)));
    app.post('/api/keys/create', { schema: { tags, body: KeyCreateBody, response: responses(IssuedApiKey) } }, (request) => keys.createKey(actorOf(request), request.body));
    app.post('/api/key/:id/revoke', { schema: { tags, params: KeyParams, response: responses(KeyRevoked) } }, (request) => keys.revokeKey(actorOf(request), request.params.id));
  };
}
