import { Readable } from 'node:stream';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/auth.plugin.js';
import { Deleted, responses } from '../../http/schemas.js';
import type { Services } from '../../container.js';
import { CountResult, DeleteBatchBody, DeleteBatchResult, QueryBody, RecordObject, RecordParams, RecordWriteBody, TableParams } from './records.schemas.js';

/** Record writes may carry inline file data (50 MB decoded is about 67 MB of base64). */
const writeBodyLimit = 70 * 1024 * 1024;

export function recordsRoutes(services: Services): FastifyPluginAsyncTypebox {
  const recordsService = services.records;
  return async (app) => {
    const tags = ['records'];
    // Records calls confirm the key's metadata version in their own statements (records.service).
    const config = { auth: 'cached' as const };
    // Record objects are built field by field by the service, exactly the documented shape; their
    // free-form \`data\` gains nothing from the schema serialiser, which is slower than JSON.stringify.
    const serializerCompiler = () => JSON.stringify;
    app.post('/api/table/:tid/records/create', { bodyLimit: writeBodyLimit, config, serializerCompiler, schema: { tags, params: TableParams, body: RecordWriteBody, response: responses(RecordObject) } }, (request) =>
      recordsService.createRecord(actorOf(request), request.params.tid, request.body),
    );
    app.get('/api/table/:tid/record/:rid/get', { config, serializerCompiler, schema: { tags, params: RecordParams, response: responses(RecordObject) } }, (request) =>
      recordsService.getRecord(actorOf(request), request.params.tid, request.params.rid),
    );
    app.post('/api/table/:tid/record/:rid/update', { bodyLimit: writeBodyLimit, config, serializerCompiler, schema: { tags, params: RecordParams, body: RecordWriteBody, response: responses(RecordObject) } }, (request) =>
      recordsService.updateRecord(actorOf(request), request.params.tid, request.params.rid, request.body),
    );
    app.post('/api/table/:tid/record/:rid/delete', { config, schema: { tags, params: RecordParams, response: responses(Deleted) } }, (request) =>
      recordsService.deleteRecord(actorOf(request), request.params.tid, request.params.rid),
    );
    app.post('/api/table/:tid/records/query', { config, serializerCompiler, schema: { tags, params: TableParams, body: QueryBody, response: responses(Type.Array(RecordObject)) } }, (request) =>
      recordsService.queryRecords(actorOf(request), request.params.tid, request.body),
    );
    app.post('/api/table/:tid/records/count', { config, schema: { tags, params: TableParams, body: QueryBody, response: responses(CountResult) } }, (request) =>
      recordsService.countRecords(actorOf(request), request.params.tid, request.body),
    );
    // Streamed: the body is JSON text produced chunk by chunk; the schema documents it (Fastify does not serialise streams).
    app.post('/api/table/:tid/records/ids', { config, schema: { tags, params: TableParams, body: QueryBody, response: responses(Type.Array(Type.Integer())) } }, async (request, reply) => {
      const chunks = await recordsService.streamIds(actorOf(request), request.params.tid, request.body);
      return reply.type('application/json').send(Readable.from(chunks));
    });
    app.post('/api/table/:tid/records/delete_batch', { config, schema: { tags, params: TableParams, body: DeleteBatchBody, response: responses(DeleteBatchResult) } }, (request) =>
      recordsService.deleteBatch(actorOf(request), request.params.tid, request.body),
    );
  };
}
