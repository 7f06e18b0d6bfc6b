import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/auth.plugin.js';
import { responses } from '../../http/schemas.js';
import type { Services } from '../../container.js';
import { CreatedUser, PublicUser, UserCreateBody } from './users.schemas.js';

/** The console's user pages (CONTRACT §8); `tabula users create` uses the same users service. */
export function usersRoutes(services: Services): FastifyPluginAsyncTypebox {
  const users = services.users;
  return async (app) => {
    const tags = ['users'];
    app.get('/api/users/list', { schema: { tags, response: responses(Type.Array(PublicUser)) } }, (request) => users.listUsersOf(actorOf(request)));
    app.post('/api/users/create', { schema: { tags, body: UserCreateBody, response: responses(CreatedUser) } }, (request) => users.createUserAs(actorOf(request), request.body));
  };
}
