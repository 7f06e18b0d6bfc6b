import { Readable } from 'node:stream';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/auth.plugin.js';
import { Deleted, responses } from '../../http/schemas.js';
import type { Services } from '../../container.js';
import { refuseWithoutWriteAccess } from './write-access-hook.js';
import { exportText } from './record-export.js';
import { CountResult, CreateBatchBody, ExportBody, ExportResponses, DeleteBatchBody, DeleteBatchResult, QueryBody, RecordObject, RecordParams, RecordWriteBody, TableParams, UpdateBatchBody, UpsertBatchBody, ValidateBatchResult, TrashBody, TrashedRecord, RestoreBody, RestoreResult } from './records.schemas.js';

/**
 * Record writes hold at most a few long texts (a long text is up to 1,000,000 characters, 6 MB
 * when every one is a JSON escape); query bodies keep the default 1 MiB.
 */
const writeBodyLimit = 16 * 1024 * 1024;
/**
 * A batch of 1,000 records averaging 64 KiB each: room for imports of ordinary records with
 * notes and inline attachments, while one request's body (parsed, a few times its size in
 * memory) stays far below what a server can hold for several callers at once. Records of
 * long texts go in smaller batches, or one by one through records/create (16 MiB each).
 */
const batchBodyLimit = 64 * 1024 * 1024;

export function recordsRoutes(services: Services): FastifyPluginAsyncTypebox {
  const recordsService = services.records;
  return async (app) => {
    const tags = ['records'];
    // Records calls confirm the key's metadata version in their own statements (records.service).
    const config = { auth: 'cached' as const };
    // Query bodies are small (1 MiB) and decide how a hidden table answers (`view_id`: 500 `Not
    // Authorized`, else 400 `Invalid Table`): the service checks access once it has read them.
    const reading = { config };
    const writing = { config, preParsing: refuseWithoutWriteAccess(recordsService) };
    // Record objects are built field by field by the service, exactly the documented shape; their
    // free-form \`data\` gains nothing from the schema serialiser, which is slower than JSON.stringify.
    const serializerCompiler = () => JSON.stringify;
    app.post('/api/table/:tid/records/create', { bodyLimit: writeBodyLimit, ...writing, serializerCompiler, schema: { tags, params: TableParams, body: RecordWriteBody, response: responses(RecordObject) } }, (request) =>
      recordsService.createRecord(actorOf(request), request.params.tid, request.body),
    );
    app.get('/api/table/:tid/record/:rid/get', { config, serializerCompiler, schema: { tags, params: RecordParams, response: responses(RecordObject) } }, (request) =>
      recordsService.getRecord(actorOf(request), request.params.tid, request.params.rid),
    );
    app.post('/api/table/:tid/record/:rid/update', { bodyLimit: writeBodyLimit, ...writing, serializerCompiler, schema: { tags, params: RecordParams, body: RecordWriteBody, response: responses(RecordObject) } }, (request) =>
      recordsService.updateRecord(actorOf(request), request.params.tid, request.params.rid, request.body),
    );
    app.post('/api/table/:tid/record/:rid/delete', { ...writing, schema: { tags, params: RecordParams, response: responses(Deleted) } }, (request) =>
      recordsService.deleteRecord(actorOf(request), request.params.tid, request.params.rid),
    );
    app.post('/api/table/:tid/records/query', { ...reading, serializerCompiler, schema: { tags, params: TableParams, body: QueryBody, response: responses(Type.Array(RecordObject)) } }, (request) =>
      recordsService.queryRecords(actorOf(request), request.params.tid, request.body),
    );
    app.post('/api/table/:tid/records/count', { ...reading, schema: { tags, params: TableParams, body: QueryBody, response: responses(CountResult) } }, (request) =>
      recordsService.countRecords(actorOf(request), request.params.tid, request.body),
    );
    // The answer is JSON text already; the schema documents it.
    app.post('/api/table/:tid/records/ids', { ...reading, schema: { tags, params: TableParams, body: QueryBody, response: responses(Type.Array(Type.Integer())) } }, async (request, reply) => {
      const ids = await recordsService.listIds(actorOf(request), request.params.tid, request.body);
      return reply.type('application/json').serializer((text: string) => text).send(ids);
    });
    // Streamed a page at a time: the ids first, then 1,000 records per statement (records.service).
    app.post('/api/table/:tid/records/export', { ...reading, schema: { tags, params: TableParams, body: ExportBody, response: { ...responses(Type.Unknown()), ...ExportResponses } } }, async (request, reply) => {
      const exported = await recordsService.exportRecords(actorOf(request), request.params.tid, request.body);
      return reply
        .type(exported.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="table-${request.params.tid}.${exported.format}"`)
        .header('x-total-count', String(exported.total))
        .send(Readable.from(exportText(exported)));
    });
    const batch = { bodyLimit: batchBodyLimit, ...writing, serializerCompiler };
    app.post('/api/table/:tid/records/create_batch', { ...batch, schema: { tags, params: TableParams, body: CreateBatchBody, response: responses(Type.Array(RecordObject)) } }, (request) =>
      recordsService.createBatch(actorOf(request), request.params.tid, request.body),
    );
    // create_batch's body, limits and access; it writes nothing (record-batches validateCreateBatch).
    app.post('/api/table/:tid/records/validate_batch', { ...batch, serializerCompiler: undefined, schema: { tags, params: TableParams, body: CreateBatchBody, response: responses(ValidateBatchResult) } }, (request) =>
      recordsService.validateBatch(actorOf(request), request.params.tid, request.body),
    );
    app.post('/api/table/:tid/records/update_batch', { ...batch, schema: { tags, params: TableParams, body: UpdateBatchBody, response: responses(Type.Array(RecordObject)) } }, (request) =>
      recordsService.updateBatch(actorOf(request), request.params.tid, request.body),
    );
    app.post('/api/table/:tid/records/upsert_batch', { ...batch, schema: { tags, params: TableParams, body: UpsertBatchBody, response: responses(Type.Array(RecordObject)) } }, (request) =>
      recordsService.upsertBatch(actorOf(request), request.params.tid, request.body),
    );
    app.post('/api/table/:tid/records/trash', { ...reading, schema: { tags, params: TableParams, body: TrashBody, response: responses(Type.Array(TrashedRecord)) } }, (request) =>
      recordsService.listTrash(actorOf(request), request.params.tid, request.body),
    );
    app.post('/api/table/:tid/records/restore', { ...writing, schema: { tags, params: TableParams, body: RestoreBody, response: responses(RestoreResult) } }, (request) =>
      recordsService.restoreRecords(actorOf(request), request.params.tid, request.body),
    );
    app.post('/api/table/:tid/records/delete_batch', { ...writing, schema: { tags, params: TableParams, body: DeleteBatchBody, response: responses(DeleteBatchResult) } }, (request) =>
      recordsService.deleteBatch(actorOf(request), request.params.tid, request.body),
    );
  };
}
