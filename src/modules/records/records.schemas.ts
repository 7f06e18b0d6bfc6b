import { Type } from '@fastify/type-provider-typebox';
import { AnyObject, Id } from '../../http/schemas.js';

export const RecordParams = Type.Object({ tid: Id, rid: Id });
export const TableParams = Type.Object({ tid: Id });

export const RecordObject = Type.Object({
  id: Type.Integer(),
  title: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
  data: AnyObject,
});

/** Bodies are checked by the records service, which names the exact problem (`Invalid field: x`, `Invalid parameters: limit`). */
export const RecordWriteBody = Type.Object({ data: Type.Optional(AnyObject) }, { additionalProperties: true });
export const QueryBody = Type.Object(
  {
    fields: Type.Optional(Type.Array(Type.String())),
    where: Type.Optional(AnyObject),
    filters: Type.Optional(Type.Array(AnyObject)),
    order_by: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    order_dir: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    limit: Type.Optional(Type.Unknown()),
    offset: Type.Optional(Type.Unknown()),
    view_id: Type.Optional(Type.Unknown()),
    append_filters: Type.Optional(Type.Unknown()),
    search: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: true },
);
export const CountResult = Type.Object({ count: Type.Integer(), total: Type.Integer(), total_approx: Type.Boolean(), restricted: Type.Boolean() });
export const DeleteBatchBody = Type.Object({ record_ids: Type.Array(Type.Integer()) }, { additionalProperties: true });
export const DeleteBatchResult = Type.Object({ deleted: Type.Array(Type.Integer()), not_found: Type.Array(Type.Integer()) });

/** Items are checked by the service, one by one, so that a refusal names the record (`records[17]: …`). */
export const CreateBatchBody = Type.Object({ records: Type.Array(Type.Unknown()) }, { additionalProperties: true });
export const UpdateBatchBody = CreateBatchBody;
export const UpsertBatchBody = Type.Object({ match_on: Type.Array(Type.String()), records: Type.Array(Type.Unknown()) }, { additionalProperties: true });
