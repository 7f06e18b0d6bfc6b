import { Type } from '@fastify/type-provider-typebox';
import { AnyObject, documentedAs } from '../../http/schemas.js';

export const Change = Type.Object({
  seq: Type.Integer(),
  kind: Type.String({ enum: ['record.created', 'record.updated', 'record.deleted', 'record.restored', 'comment.created', 'comment.updated', 'comment.deleted'] }),
  table_id: Type.Integer(),
  space_id: Type.Integer(),
  record_id: Type.Integer(),
  comment_id: Type.Optional(Type.Integer()),
  at: Type.String(),
  actor: Type.Object({ user_id: Type.Union([Type.Integer(), Type.Null()]), api_key_id: Type.Union([Type.Integer(), Type.Null()]), name: Type.String() }),
  fields: Type.Array(Type.String()),
  before: AnyObject,
  after: AnyObject,
});

/** Bodies are checked by the service, which names the problem (`Invalid parameters: limit …`). */
export const ChangesListBody = documentedAs(
  Type.Object({}, { additionalProperties: true }),
  Type.Object({ after: Type.Optional(Type.Integer({ minimum: 0, description: 'the last seq seen (0: from the start of the log)' })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })) }, { additionalProperties: false, examples: [{ after: 0, limit: 100 }] }),
);
export const ChangesList = Type.Object({ changes: Type.Array(Change), next_after: Type.Integer() });

export const HistoryBody = documentedAs(
  Type.Object({}, { additionalProperties: true }),
  Type.Object({ before: Type.Optional(Type.Integer({ minimum: 0, description: 'only changes below this seq (the next page)' })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })) }, { additionalProperties: false, examples: [{ limit: 50 }] }),
);
