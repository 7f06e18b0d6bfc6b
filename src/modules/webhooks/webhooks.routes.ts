import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/auth.plugin.js';
import { Deleted, responses } from '../../http/schemas.js';
import type { Services } from '../../container.js';
import { TableParams } from '../records/records.schemas.js';
import { CreatedWebhook, CreateWebhookBody, DeliveriesBody, Delivery, DeliveryParams, RotatedSecret, UpdateWebhookBody, Webhook, WebhookParams } from './webhooks.schemas.js';

/** Webhook management (CONTRACT §7): space admins, never a read-only key. */
export function webhooksRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { webhooks } = services;
  return async (app) => {
    const tags = ['webhooks'];
    app.post('/api/table/:tid/webhooks/create', { schema: { tags, params: TableParams, body: CreateWebhookBody, response: responses(CreatedWebhook) } }, (request) =>
      webhooks.create(actorOf(request), request.params.tid, request.body),
    );
    app.get('/api/table/:tid/webhooks/list', { schema: { tags, params: TableParams, response: responses(Type.Array(Webhook)) } }, (request) => webhooks.list(actorOf(request), request.params.tid));
    app.post('/api/webhook/:wid/update', { schema: { tags, params: WebhookParams, body: UpdateWebhookBody, response: responses(Webhook) } }, (request) =>
      webhooks.update(actorOf(request), request.params.wid, request.body),
    );
    app.post('/api/webhook/:wid/delete', { schema: { tags, params: WebhookParams, response: responses(Deleted) } }, (request) => webhooks.delete(actorOf(request), request.params.wid));
    app.post('/api/webhook/:wid/rotate_secret', { schema: { tags, params: WebhookParams, response: responses(RotatedSecret) } }, (request) => webhooks.rotateSecret(actorOf(request), request.params.wid));
    app.post('/api/webhook/:wid/deliveries', { schema: { tags, params: WebhookParams, body: Type.Optional(DeliveriesBody), response: responses(Type.Array(Delivery)) } }, (request) =>
      webhooks.deliveries(actorOf(request), request.params.wid, request.body),
    );
    app.post('/api/webhook/:wid/deliveries/:did/redeliver', { schema: { tags, params: DeliveryParams, response: responses(Delivery) } }, (request) =>
      webhooks.redeliver(actorOf(request), request.params.wid, request.params.did),
    );
  };
}
