import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/auth.plugin.js';
import { parseBodyWithBase64Member } from '../../http/base64-member-body.js';
import { parseJsonBody } from '../../http/json-body.js';
import { Deleted, documentedAs, responses } from '../../http/schemas.js';
import type { Services } from '../../container.js';
import { base64FileBodyLimit, maxFileBytes } from '../files/file-bytes.js';
import { base64FileJson } from '../files/file-responses.js';
import { Attachment, FileContent } from '../files/files.schemas.js';
import { RecordParams } from '../records/records.schemas.js';
import { refuseWithoutWriteAccess } from '../records/write-access-hook.js';
import { CommentCreateBody, CommentFileBody, CommentUpdateBody, CommentUploadBody, EmailCommentBody } from './comments.schemas.js';

const CommentParams = Type.Object({ tid: RecordParams.properties.tid, rid: RecordParams.properties.rid, cid: RecordParams.properties.rid });
const Comment = Type.Object(
  {
    id: Type.Integer(),
    table_id: Type.Integer(),
    record_id: Type.Integer(),
    user_id: Type.Integer(),
    user_name: Type.String(),
    api_key_id: Type.Union([Type.Integer(), Type.Null()]),
    content: Type.String(),
    attachments: Type.Array(Attachment),
    created_at: Type.String(),
    updated_at: Type.Union([Type.String(), Type.Null()]),
    type: Type.String(),
    status: Type.Union([Type.String(), Type.Null()]),
    email: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: false },
);
/** Paging is checked by the comments service, which names the exact problem; the document shows the numbers it accepts. */
const PageQuery = Type.Object(
  {
    limit: Type.Optional(documentedAs(Type.String(), Type.Integer({ minimum: 1, maximum: 100, default: 20 }))),
    offset: Type.Optional(documentedAs(Type.String(), Type.Integer({ minimum: 0, default: 0 }))),
  },
  { additionalProperties: false },
);
const uploadPath = '/api/table/:tid/record/:rid/comments/upload';

export function commentsRoutes(services: Services): FastifyPluginAsyncTypebox {
  const { comments, records } = services;
  const checkWriteAccess = refuseWithoutWriteAccess(records);
  return async (app) => {
    const tags = ['comments'];
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      try {
        done(null, request.routeOptions.url === uploadPath ? parseBodyWithBase64Member(body as Buffer, 'data', maxFileBytes) : parseJsonBody(body as Buffer));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
    // Every comments call goes through records.recordAccess, whose statement confirms the
    // key's cached metadata version (as record calls do): the cached key look-up is safe here.
    const config = { auth: 'cached' as const };
    const writing = { config, preParsing: checkWriteAccess };
    const base = '/api/table/:tid/record/:rid';
    app.get(`${base}/comments/get`, { config, schema: { tags, params: RecordParams, querystring: PageQuery, response: responses(Type.Array(Comment)) } }, (request) =>
      comments.listComments(actorOf(request), request.params.tid, request.params.rid, request.query),
    );
    app.post(`${base}/comments/create`, { ...writing, schema: { tags, params: RecordParams, body: CommentCreateBody, response: responses(Comment) } }, (request) =>
      comments.createComment(actorOf(request), request.params.tid, request.params.rid, request.body),
    );
    app.post(`${base}/comments/createEmailComment`, { ...writing, schema: { tags, params: RecordParams, body: EmailCommentBody, response: responses(Comment) } }, (request) =>
      comments.createEmailComment(actorOf(request), request.params.tid, request.params.rid, request.body),
    );
    app.post(uploadPath, { ...writing, bodyLimit: base64FileBodyLimit, schema: { tags, params: RecordParams, body: CommentUploadBody, response: responses(Attachment) } }, (request) =>
      comments.upload(actorOf(request), request.params.tid, request.params.rid, request.body),
    );
    app.post(`${base}/comments/files/get`, { config, schema: { tags, params: RecordParams, body: CommentFileBody, response: responses(FileContent) } }, async (request, reply) => {
      const file = await comments.openFile(actorOf(request), request.params.tid, request.params.rid, request.body);
      const answer = base64FileJson(file.attachment, file.size, await file.open());
      return reply.type('application/json').header('content-length', answer.length).send(answer.body);
    });
    app.post(`${base}/comment/:cid/update`, { ...writing, schema: { tags, params: CommentParams, body: CommentUpdateBody, response: responses(Comment) } }, (request) =>
      comments.updateComment(actorOf(request), request.params.tid, request.params.rid, request.params.cid, request.body),
    );
    app.post(`${base}/comment/:cid/delete`, { ...writing, schema: { tags, params: CommentParams, response: responses(Deleted) } }, (request) =>
      comments.deleteComment(actorOf(request), request.params.tid, request.params.rid, request.params.cid),
    );
  };
}
