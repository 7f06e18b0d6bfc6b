import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/auth.plugin.js';
import { responses } from '../../http/schemas.js';
import type { Services } from '../../container.js';
import { RecordParams, TableParams } from '../records/records.schemas.js';
import { Change, ChangesList, ChangesListBody, HistoryBody } from './changes.schemas.js';

/** The change log's readers: polling a table's changes and a record's history. */
export function changesRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { changes } = services;
  return async (app) => {
    const tags = ['changes'];
    // The answers are JSON text already (each change stored as its text); the schemas document them.
    const asText = (text: string) => text;
    // The text is made first: a refusal must reach the error handler with the default serialiser.
    app.post('/api/table/:tid/changes/list', { schema: { tags, params: TableParams, body: ChangesListBody, response: responses(ChangesList) } }, async (request, reply) => {
      const text = await changes.listChanges(actorOf(request), request.params.tid, request.body);
      return reply.type('application/json').serializer(asText).send(text);
    });
    app.post('/api/table/:tid/record/:rid/history', { schema: { tags, params: RecordParams, body: HistoryBody, response: responses(Type.Array(Change)) } }, async (request, reply) => {
      const text = await changes.recordHistory(actorOf(request), request.params.tid, request.params.rid, request.body);
      return reply.type('application/json').serializer(asText).send(text);
    });
  };
}
