import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/auth.plugin.js';
import { documentedAs, Id, responses } from '../../http/schemas.js';
import type { Services } from '../../container.js';

/** Bodies are checked by the notifications service, which names the exact problem; the document shows what it accepts. */
const AnyBody = Type.Object({}, { additionalProperties: true });
const paging = { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })), offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })) };
const NotificationsQuery = documentedAs(AnyBody, Type.Object({ filter: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('unread')], { default: 'all' })), ...paging }, { additionalProperties: false }));
const EventsQuery = documentedAs(AnyBody, Type.Object(paging));
const StatusQuery = documentedAs(AnyBody, Type.Object({ record_id: Type.Optional(Type.Union([Id, Type.Null()], { description: 'also tell whether the caller follows this record' })) }));
const Notification = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  actor: Type.Object({ user_id: Type.Integer(), name: Type.String() }),
  table_id: Type.Integer(),
  record_id: Type.Integer(),
  comment_id: Type.Union([Type.Integer(), Type.Null()]),
  created_at: Type.String(),
  read: Type.Boolean(),
  read_at: Type.Union([Type.String(), Type.Null()]),
});
const Event = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  user_id: Type.Integer(),
  api_key_id: Type.Union([Type.Integer(), Type.Null()]),
  table_id: Type.Union([Type.Integer(), Type.Null()]),
  record_id: Type.Union([Type.Integer(), Type.Null()]),
  comment_id: Type.Union([Type.Integer(), Type.Null()]),
  created_at: Type.String(),
});
const SubscriptionParams = Type.Object({ tid: Id, rid: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }) });
const Subscription = Type.Object({ table_id: Type.Integer(), record_id: Type.Integer(), subscribed: Type.Boolean() });

export function notificationsRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { notifications } = services;
  return async (app) => {
    const tags = ['notifications'];
    app.post('/api/notifications/list', { schema: { tags, body: Type.Optional(NotificationsQuery), response: responses(Type.Array(Notification)) } }, (request) =>
      notifications.listNotifications(actorOf(request), request.body),
    );
    app.post('/api/notifications/:id/markRead', { schema: { tags, params: Type.Object({ id: Id }), response: responses(Type.Object({ id: Type.Integer(), read: Type.Literal(true) })) } }, (request) =>
      notifications.markRead(actorOf(request), request.params.id),
    );
    app.post('/api/notifications/markAllRead', { schema: { tags, response: responses(Type.Object({ marked: Type.Integer() })) } }, (request) => notifications.markAllRead(actorOf(request)));
    app.post('/api/subscriptions/:tid/:rid/subscribe', { schema: { tags, params: SubscriptionParams, response: responses(Subscription) } }, (request) =>
      notifications.subscribe(actorOf(request), request.params.tid, request.params.rid, true),
    );
    app.post('/api/subscriptions/:tid/:rid/unsubscribe', { schema: { tags, params: SubscriptionParams, response: responses(Subscription) } }, (request) =>
      notifications.subscribe(actorOf(request), request.params.tid, request.params.rid, false),
    );
    app.post('/api/subscriptions/:tid/status', { schema: { tags, params: Type.Object({ tid: Id }), body: Type.Optional(StatusQuery), response: responses(Type.Object({ table: Type.Boolean(), record: Type.Boolean() })) } }, (request) =>
      notifications.status(actorOf(request), request.params.tid, request.body),
    );
    app.post('/api/events/list', { schema: { tags: ['events'], body: Type.Optional(EventsQuery), response: responses(Type.Array(Event)) } }, (request) => notifications.listEvents(actorOf(request), request.body));
  };
}
