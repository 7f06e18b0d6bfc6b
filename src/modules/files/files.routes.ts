import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { actorOf } from '../../http/auth.plugin.js';
import { parseBodyWithBase64Member } from '../../http/base64-member-body.js';
import { parseJsonBody } from '../../http/json-body.js';
import { detachableBody, readRequestBody } from '../../http/request-body.js';
import { responses } from '../../http/schemas.js';
import type { Services } from '../../container.js';
import { PayloadTooLargeError } from '../../shared/errors.js';
import { RecordParams } from '../records/records.schemas.js';
import { refuseWithoutWriteAccess } from '../records/write-access-hook.js';
import { base64FileBodyLimit, maxFileBytes } from './file-bytes.js';
import { base64FileJson, contentDisposition, etagOf, matchesAny, parseRange } from './file-responses.js';
import { DownloadQuery, DownloadResponses, FieldFiles, FileContent, FileCreateBody, FileRefBody, ThumbnailQuery, ThumbnailResponses, UploadBody, UploadQuery } from './files.schemas.js';

const createPath = '/api/table/:tid/record/:rid/files/create';
const uploadPath = '/api/table/:tid/record/:rid/files/upload';

export function filesRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { files, records, thumbnails } = services;
  const checkWriteAccess = refuseWithoutWriteAccess(records);

  return async (app) => {
    const tags = ['files'];
    const config = { auth: 'cached' as const };
    // Bodies of this plugin are read here, not by Fastify's parsers: files/create's is held
    // once and its base64 decoded in place; the raw upload's is the file itself, streamed, under
    // whatever type it says it is (JSON and text included); anything else is refused.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/json', async (request: FastifyRequest, payload: Readable) => {
      if (request.routeOptions.url === uploadPath) return uploadBody(request, payload);
      const body = await readRequestBody(payload, request.headers, request.routeOptions.bodyLimit ?? 0);
      return request.routeOptions.url === createPath ? parseBodyWithBase64Member(body, 'data', maxFileBytes) : parseJsonBody(body);
    });
    app.addContentTypeParser('*', async (request: FastifyRequest, payload: Readable) => {
      if (request.routeOptions.url === uploadPath) return uploadBody(request, payload);
      throw Object.assign(new Error('Content-Type must be application/json'), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' });
    });

    app.post(createPath, { config, bodyLimit: base64FileBodyLimit, preParsing: checkWriteAccess, schema: { tags, params: RecordParams, body: FileCreateBody, response: responses(FieldFiles) } }, (request) =>
      files.createFile(actorOf(request), request.params.tid, request.params.rid, request.body),
    );
    app.post('/api/table/:tid/record/:rid/files/delete', { config, preParsing: checkWriteAccess, schema: { tags, params: RecordParams, body: FileRefBody, response: responses(FieldFiles) } }, (request) =>
      files.deleteFile(actorOf(request), request.params.tid, request.params.rid, request.body),
    );
    app.post('/api/table/:tid/record/:rid/files/get', { config, schema: { tags, params: RecordParams, body: FileRefBody, response: responses(FileContent) } }, async (request, reply) => {
      const file = await files.openFile(actorOf(request), request.params.tid, request.params.rid, request.body);
      const answer = base64FileJson(file.attachment, file.size, await file.open());
      return reply.type('application/json').header('content-length', answer.length).send(answer.body);
    });
    app.post(uploadPath, { config, preParsing: checkWriteAccess, schema: { tags, params: RecordParams, querystring: UploadQuery, body: UploadBody, consumes: ['application/octet-stream'], response: responses(FieldFiles) } }, (request) => {
      // `application/octet-stream` (or no type) says nothing of the bytes: they are sniffed, as when files/create has no type.
      const declared = request.headers['content-type'];
      const type = request.query.type ?? (declared === undefined || /^application\/octet-stream\s*(;|$)/i.test(declared) ? null : declared);
      const body = (request.body as Readable | undefined) ?? Readable.from([]);
      return files.uploadFile(actorOf(request), request.params.tid, request.params.rid, request.query, type, body);
    });
    app.get('/api/table/:tid/record/:rid/files/download', { config, schema: { tags, params: RecordParams, querystring: DownloadQuery, response: { ...responses(Type.Unknown()), ...DownloadResponses } } }, async (request, reply) => {
      const file = await files.openFile(actorOf(request), request.params.tid, request.params.rid, request.query);
      const etag = etagOf(file.attachment.path);
      if (matchesAny(request.headers['if-none-match'], etag)) return setDownloadHeaders(reply, file.attachment.type, file.attachment.name, etag).code(304).send();
      const ifRange = request.headers['if-range'];
      const range = ifRange === undefined || String(ifRange).trim() === etag ? parseRange(request.headers.range, file.size) : undefined;
      if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${file.size}`).send();
      // The blob is opened before any header of the file is set: should that fail, the error goes out as an error, not as the file.
      const bytes = await file.open(range);
      setDownloadHeaders(reply, file.attachment.type, file.attachment.name, etag);
      if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${file.size}`);
      return reply.header('content-length', range ? range.end - range.start + 1 : file.size).send(bytes);
    });
    app.get('/api/table/:tid/record/:rid/files/thumbnail', { config, schema: { tags, params: RecordParams, querystring: ThumbnailQuery, response: { ...responses(Type.Unknown()), ...ThumbnailResponses } } }, async (request, reply) => {
      const thumbnail = await thumbnails.thumbnail(actorOf(request), request.params.tid, request.params.rid, request.query);
      if (matchesAny(request.headers['if-none-match'], thumbnail.etag)) return setPrivateFileHeaders(reply, 'image/webp', thumbnail.etag).code(304).send();
      // Made (or read) before any header is set: should that fail, the error goes out as an error.
      const bytes = await thumbnail.bytes();
      return setPrivateFileHeaders(reply, 'image/webp', thumbnail.etag).header('content-length', bytes.length).send(bytes);
    });
  };
}

/** The raw upload's body: refused at once when its Content-Length says it is too large; otherwise a stream the upload may abandon. */
function uploadBody(request: FastifyRequest, payload: Readable): Readable {
  if (Number(request.headers['content-length']) > maxFileBytes) throw new PayloadTooLargeError();
  return detachableBody(payload);
}

/**
 * The bytes of a file or of its thumbnail: cached by the browser only to be revalidated (access
 * is checked again on each request; the ETag makes that a 304), and never rendered as a page of
 * this origin, whatever the bytes say they are.
 */
function setPrivateFileHeaders(reply: FastifyReply, type: string, etag: string): FastifyReply {
  return reply
    .type(type)
    .header('etag', etag)
    .header('cache-control', 'private, max-age=0, must-revalidate')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox");
}

/** A download is also a download: saved under the file's own name, and in ranges. */
function setDownloadHeaders(reply: FastifyReply, type: string, name: string, etag: string): FastifyReply {
  return setPrivateFileHeaders(reply, type, etag).header('accept-ranges', 'bytes').header('content-disposition', contentDisposition(name));
}
