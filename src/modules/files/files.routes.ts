import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, preParsingAsyncHookHandler } from 'fastify';
import type { Readable } from 'node:stream';
import { actorOf } from '../../http/auth.plugin.js';
import { parseBodyWithBase64Member } from '../../http/base64-member-body.js';
import { parseJsonBody } from '../../http/json-body.js';
import { responses } from '../../http/schemas.js';
import type { Services } from '../../container.js';
import { RecordParams } from '../records/records.schemas.js';
import { maxFileBytes } from './file-bytes.js';
import { base64FileJson, contentDisposition, etagOf, parseRange } from './file-responses.js';
import { DownloadQuery, FieldFiles, FileContent, FileCreateBody, FileRefBody, UploadQuery } from './files.schemas.js';

/** files/create carries a file of up to 50 MB as base64 (4 characters per 3 bytes), plus its other members. */
const createBodyLimit = Math.ceil((maxFileBytes * 4) / 3) + 64 * 1024;
const createPath = '/api/table/:tid/record/:rid/files/create';
const uploadPath = '/api/table/:tid/record/:rid/files/upload';

export function filesRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { files, records } = services;
  /** As for records: a caller who may not write the table is refused before its body is read. */
  const checkWriteAccess: preParsingAsyncHookHandler = async (request, _reply, payload) => {
    const tableId = Number((request.params as { tid?: string }).tid);
    if (Number.isInteger(tableId) && tableId > 0) await records.checkTableAccess(actorOf(request), tableId, 'write');
    return payload;
  };

  return async (app) => {
    const tags = ['files'];
    const config = { auth: 'cached' as const };
    // JSON bodies of this plugin: files/create decodes its base64 straight from the body's bytes.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      try {
        const parsed = request.routeOptions.url === createPath ? parseBodyWithBase64Member(body as Buffer, 'data', maxFileBytes) : parseJsonBody(body as Buffer);
        done(null, parsed);
      } catch (error) {
        done(error as Error, undefined);
      }
    });
    // The raw upload takes any other type as the file itself, streamed (text too: Fastify's own
    // text/plain parser would read it whole into a string); elsewhere such a body is refused.
    app.removeContentTypeParser('text/plain');
    app.addContentTypeParser('*', (request, payload, done) => {
      if (request.routeOptions.url === uploadPath) return done(null, payload);
      done(Object.assign(new Error('Content-Type must be application/json'), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' }), undefined);
    });

    app.post(createPath, { config, bodyLimit: createBodyLimit, preParsing: checkWriteAccess, schema: { tags, params: RecordParams, body: FileCreateBody, response: responses(FieldFiles) } }, (request) =>
      files.createFile(actorOf(request), request.params.tid, request.params.rid, request.body),
    );
    app.post('/api/table/:tid/record/:rid/files/delete', { config, preParsing: checkWriteAccess, schema: { tags, params: RecordParams, body: FileRefBody, response: responses(FieldFiles) } }, (request) =>
      files.deleteFile(actorOf(request), request.params.tid, request.params.rid, request.body),
    );
    app.post('/api/table/:tid/record/:rid/files/get', { config, schema: { tags, params: RecordParams, body: FileRefBody, response: responses(FileContent) } }, async (request, reply) => {
      const file = await files.openFile(actorOf(request), request.params.tid, request.params.rid, request.body);
      return reply.type('application/json').send(base64FileJson(file.attachment, file.size, await file.open()));
    });
    app.post(uploadPath, { config, preParsing: checkWriteAccess, schema: { tags, params: RecordParams, querystring: UploadQuery, response: responses(FieldFiles) } }, (request) => {
      const type = request.query.type ?? request.headers['content-type'] ?? null;
      return files.uploadFile(actorOf(request), request.params.tid, request.params.rid, request.query, type, request.body as Readable);
    });
    app.get('/api/table/:tid/record/:rid/files/download', { config, schema: { tags, params: RecordParams, querystring: DownloadQuery } }, async (request, reply) => {
      const file = await files.openFile(actorOf(request), request.params.tid, request.params.rid, request.query);
      const etag = etagOf(file.attachment.path);
      setDownloadHeaders(reply, file.attachment.type, file.attachment.name, etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      const ifRange = request.headers['if-range'];
      const range = ifRange === undefined || ifRange === etag ? parseRange(request.headers.range, file.size) : undefined;
      if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${file.size}`).send();
      if (range) {
        reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${file.size}`).header('content-length', range.end - range.start + 1);
        return reply.send(await file.open(range));
      }
      return reply.header('content-length', file.size).send(await file.open());
    });
  };
}

/** Downloads are never rendered by the browser as a page of this origin, whatever the file says it is. */
function setDownloadHeaders(reply: FastifyReply, type: string, name: string, etag: string): void {
  reply
    .type(type)
    .header('etag', etag)
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'private, max-age=0, must-revalidate')
    .header('content-disposition', contentDisposition(name))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox");
}
