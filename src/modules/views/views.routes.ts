import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/auth.plugin.js';
import { Deleted, responses } from '../../http/schemas.js';
import type { Services } from '../../container.js';
import { TableParams } from '../records/records.schemas.js';
import { View, ViewBody, ViewChanges, ViewParams } from './views.schemas.js';

export function viewsRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { views } = services;
  return async (app) => {
    const tags = ['views'];
    app.get('/api/table/:tid/views/list', { schema: { tags, params: TableParams, response: responses(Type.Array(View)) } }, (request) => views.listViews(actorOf(request), request.params.tid));
    app.get('/api/table/:tid/view/:vid/get', { schema: { tags, params: ViewParams, response: responses(View) } }, (request) =>
      views.getView(actorOf(request), request.params.tid, request.params.vid),
    );
    app.post('/api/table/:tid/views/create', { schema: { tags, params: TableParams, body: ViewBody, response: responses(View) } }, (request) =>
      views.createView(actorOf(request), request.params.tid, request.body),
    );
    app.post('/api/table/:tid/view/:vid/update', { schema: { tags, params: ViewParams, body: ViewChanges, response: responses(View) } }, (request) =>
      views.updateView(actorOf(request), request.params.tid, request.params.vid, request.body),
    );
    app.post('/api/table/:tid/view/:vid/delete', { schema: { tags, params: ViewParams, response: responses(Deleted) } }, (request) =>
      views.deleteView(actorOf(request), request.params.tid, request.params.vid),
    );
  };
}
