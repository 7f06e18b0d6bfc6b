import { Type } from '@fastify/type-provider-typebox';
import { documentedAs, Id } from '../../http/schemas.js';

/**
 * Comment bodies are checked by the comments service, which names the exact problem (`Invalid
 * parameters: content is required`): Fastify checks only that a body is an object, the document
 * shows what the service accepts.
 */
const AnyBody = Type.Object({}, { additionalProperties: true });
const strictly = (properties: Parameters<typeof Type.Object>[0]) => documentedAs(AnyBody, Type.Object(properties, { additionalProperties: false }));

const text = (maxLength: number) => Type.Union([Type.String({ maxLength }), Type.Null()]);
const CommentAttachments = Type.Union(
  [Type.Array(Type.Object({ path: Type.String() }, { additionalProperties: true, description: 'an attachment object answered by comments/upload (only its path counts)' }), { maxItems: 20 }), Type.Null()],
  { description: 'files stored with comments/upload for this table within the hour, each at most once' },
);

export const CommentCreateBody = strictly({
  content: Type.Optional(Type.Union([Type.String({ maxLength: 100_000, description: '@[Name](user:ID) mentions notify the user' }), Type.Null()])),
  attachments: Type.Optional(CommentAttachments),
});
export const EmailCommentBody = strictly({
  from: Type.Object({ email: Type.String({ description: 'an e-mail address' }), name: Type.Optional(text(200)) }, { additionalProperties: false }),
  to: Type.Optional(Type.Union([Type.Array(Type.String({ description: 'an e-mail address' }), { maxItems: 100 }), Type.Null()])),
  subject: Type.Optional(text(1000)),
  body: Type.Optional(text(1_000_000)),
  attachments: Type.Optional(CommentAttachments),
  messageId: Type.Optional(text(1000)),
  inReplyTo: Type.Optional(text(1000)),
});
export const CommentUploadBody = strictly({
  name: Type.String({ minLength: 1 }),
  type: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'MIME type; sniffed from the bytes when omitted' })),
  data: Type.String({ description: 'the bytes, base64 (at most 50 MB decoded)' }),
});
export const CommentFileBody = strictly({ comment_id: Id, path: Type.String({ minLength: 1 }) });
export const CommentUpdateBody = strictly({ content: Type.String({ maxLength: 100_000 }) });
