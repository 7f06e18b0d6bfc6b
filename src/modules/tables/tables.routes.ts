import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/auth.plugin.js';
import { Deleted, responses } from '../../http/schemas.js';
import type { Services } from '../../container.js';
import { SpaceParams } from '../spaces/spaces.schemas.js';
import { FieldChanges, FieldDefinition, FieldParams, IndexCreateBody, IndexDeleted, IndexObject, IndexParams, Table, TableCreateBody, TableParams, TableSummary, TableUpdateBody } from './tables.schemas.js';

export function tablesRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { tables, fields, indexes } = services;
  return async (app) => {
    const tags = ['tables'];
    app.get('/api/space/:sid/tables/list', { schema: { tags, params: SpaceParams, response: responses(Type.Array(TableSummary)) } }, (request) =>
      tables.listTables(actorOf(request), request.params.sid),
    );
    app.post('/api/space/:sid/tables/create', { schema: { tags, params: SpaceParams, body: TableCreateBody, response: responses(Table) } }, (request) =>
      tables.createTable(actorOf(request), request.params.sid, request.body),
    );
    app.get('/api/table/:tid/get', { schema: { tags, params: TableParams, response: responses(Table) } }, (request) => tables.getTable(actorOf(request), request.params.tid));
    app.post('/api/table/:tid/update', { schema: { tags, params: TableParams, body: TableUpdateBody, response: responses(Table) } }, (request) =>
      tables.updateTable(actorOf(request), request.params.tid, request.body),
    );
    app.post('/api/table/:tid/delete', { schema: { tags, params: TableParams, response: responses(Deleted) } }, (request) => tables.deleteTable(actorOf(request), request.params.tid));

    const indexTags = ['indexes'];
    app.get('/api/table/:tid/indexes/list', { schema: { tags: indexTags, params: TableParams, response: responses(Type.Array(IndexObject)) } }, (request) =>
      indexes.listIndexes(actorOf(request), request.params.tid),
    );
    app.post('/api/table/:tid/indexes/create', { schema: { tags: indexTags, params: TableParams, body: IndexCreateBody, response: responses(IndexObject) } }, (request) =>
      indexes.createIndex(actorOf(request), request.params.tid, request.body),
    );
    app.post('/api/table/:tid/index/:name/delete', { schema: { tags: indexTags, params: IndexParams, response: responses(IndexDeleted) } }, (request) =>
      indexes.deleteIndex(actorOf(request), request.params.tid, request.params.name),
    );

    const fieldTags = ['fields'];
    app.post('/api/table/:tid/fields/create', { schema: { tags: fieldTags, params: TableParams, body: FieldDefinition, response: responses(Table) } }, (request) =>
      fields.createField(actorOf(request), request.params.tid, request.body),
    );
    app.post('/api/table/:tid/field/:slug/update', { schema: { tags: fieldTags, params: FieldParams, body: FieldChanges, response: responses(Table) } }, (request) =>
      fields.updateField(actorOf(request), request.params.tid, request.params.slug, request.body),
    );
    app.post('/api/table/:tid/field/:slug/delete', { schema: { tags: fieldTags, params: FieldParams, response: responses(Table) } }, (request) =>
      fields.deleteField(actorOf(request), request.params.tid, request.params.slug),
    );
  };
}
