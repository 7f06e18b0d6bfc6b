import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/auth.plugin.js';
import { Deleted, responses } from '../../http/schemas.js';
import type { Services } from '../../container.js';
import { Member, MemberAddBody, MemberRemoveBody, Space, SpaceCreateBody, SpaceParams, SpaceSummary, SpaceUpdateBody } from './spaces.schemas.js';

export function spacesRoutes(services: Services): FastifyPluginAsyncTypebox {
  const spaces = services.spaces;
  return async (app) => {
    const tags = ['spaces'];
    app.get('/api/spaces/list', { schema: { tags, response: responses(Type.Array(SpaceSummary)) } }, (request) => spaces.listSpaces(actorOf(request)));
    app.post('/api/spaces/create', { schema: { tags, body: SpaceCreateBody, response: responses(Space) } }, (request) => spaces.createSpace(actorOf(request), request.body));
    app.get('/api/space/:sid/get', { schema: { tags, params: SpaceParams, response: responses(Space) } }, (request) => spaces.getSpace(actorOf(request), request.params.sid));
    app.post('/api/space/:sid/update', { schema: { tags, params: SpaceParams, body: SpaceUpdateBody, response: responses(Space) } }, (request) =>
      spaces.updateSpace(actorOf(request), request.params.sid, request.body),
    );
    app.post('/api/space/:sid/delete', { schema: { tags, params: SpaceParams, response: responses(Deleted) } }, (request) => spaces.deleteSpace(actorOf(request), request.params.sid));

    const memberTags = ['members'];
    app.get('/api/space/:sid/members/list', { schema: { tags: memberTags, params: SpaceParams, response: responses(Type.Array(Member)) } }, (request) =>
      spaces.listMembers(actorOf(request), request.params.sid),
    );
    app.post('/api/space/:sid/members/add', { schema: { tags: memberTags, params: SpaceParams, body: MemberAddBody, response: responses(Member) } }, (request) =>
      spaces.addMember(actorOf(request), request.params.sid, request.body),
    );
    app.post(
      '/api/space/:sid/members/remove',
      { schema: { tags: memberTags, params: SpaceParams, body: MemberRemoveBody, response: responses(Type.Object({ user_id: Type.Integer(), removed: Type.Literal(true) })) } },
      (request) => spaces.removeMember(actorOf(request), request.params.sid, request.body.user_id),
    );
  };
}
