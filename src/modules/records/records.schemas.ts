import { Type } from '@fastify/type-provider-typebox';
import { AnyObject, documentedAs, Id } from '../../http/schemas.js';
import { OPERATOR_SPELLINGS } from '../fields/operators.js';

export const RecordParams = Type.Object({ tid: Id, rid: Id });
export const TableParams = Type.Object({ tid: Id });

export const RecordObject = Type.Object({
  id: Type.Integer(),
  title: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
  data: AnyObject,
});

/**
 * Bodies are checked by the records service, which names the exact problem (`Invalid field: x`,
 * `Invalid parameters: limit`): Fastify checks only the loose shape, the document shows the strict one.
 */
const RecordData = Type.Object({}, { additionalProperties: true, description: 'Values by field slug, each in the write format of its field type (docs/api.md)' });
export const RecordWriteBody = documentedAs(
  Type.Object({ data: Type.Optional(AnyObject) }, { additionalProperties: true }),
  Type.Object({ data: RecordData }, { additionalProperties: false, description: 'data is optional on create (an empty record), required on update' }),
);

const Operator = Type.Unsafe<string>({ type: 'string', enum: [...OPERATOR_SPELLINGS] });
/** One filter object of `filters` (records queries and saved views). */
export const Filter = Type.Object(
  {
    column: Type.Optional(Type.String({ minLength: 1, description: 'field slug (or use field)' })),
    field: Type.Optional(Type.String({ minLength: 1, description: 'field slug (or use column)' })),
    compare: Operator,
    value: Type.Optional(Type.Unknown({ description: 'required unless the operator is an empty test' })),
    connector: Type.Optional(Type.Union([Type.Literal('AND'), Type.Literal('OR'), Type.Literal('and'), Type.Literal('or')])),
  },
  { additionalProperties: false },
);
const DocumentedQueryBody = Type.Object(
  {
    fields: Type.Optional(Type.Array(Type.String(), { description: 'narrow data to these slugs' })),
    where: Type.Optional(Type.Object({}, { additionalProperties: true, description: '{slug: value} (equality) or {slug: [operator, value]}, AND-ed' })),
    filters: Type.Optional(Type.Array(Filter, { description: 'AND binds tighter than OR' })),
    order_by: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
    order_dir: Type.Optional(Type.Union([Type.Literal('A'), Type.Literal('D'), Type.Null()])),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'records/query only' })),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'records/query only' })),
    view_id: Type.Optional(Type.Integer({ minimum: 0, description: 'query through a saved view: its filters and order' })),
    append_filters: Type.Optional(Type.Boolean({ description: "with view_id: AND these filters to the view's instead of replacing them" })),
    search: Type.Optional(Type.String({ description: 'every whitespace-separated term must appear in some text-like field' })),
  },
  { additionalProperties: false },
);
export const QueryBody = documentedAs(
  Type.Object(
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
  ),
  DocumentedQueryBody,
);
export const CountResult = Type.Object({ count: Type.Integer(), total: Type.Integer(), total_approx: Type.Boolean(), restricted: Type.Boolean() });
export const DeleteBatchBody = documentedAs(
  Type.Object({ record_ids: Type.Array(Type.Integer()) }, { additionalProperties: true }),
  Type.Object({ record_ids: Type.Array(Id, { maxItems: 1000 }) }),
);
export const TrashBody = documentedAs(
  Type.Object({}, { additionalProperties: true }),
  Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })), offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })) }, { additionalProperties: false, examples: [{ limit: 100, offset: 0 }] }),
);
export const TrashedRecord = Type.Object({
  id: Type.Integer(),
  title: Type.Union([Type.String(), Type.Null()]),
  deleted_at: Type.String(),
  deleted_by: Type.Object({ user_id: Type.Union([Type.Integer(), Type.Null()]), api_key_id: Type.Union([Type.Integer(), Type.Null()]), name: Type.String() }),
  data: AnyObject,
});
export const RestoreBody = documentedAs(
  Type.Object({ ids: Type.Array(Type.Integer()) }, { additionalProperties: true }),
  Type.Object({ ids: Type.Array(Id, { maxItems: 1000 }) }, { examples: [{ ids: [42, 43] }] }),
);
export const RestoreResult = Type.Object({ restored: Type.Array(Type.Integer()), not_found: Type.Array(Type.Integer()) });
export const DeleteBatchResult = Type.Object({ deleted: Type.Array(Type.Integer()), not_found: Type.Array(Type.Integer()) });

/** Items are checked by the service, one by one, so that a refusal names the record (`records[17]: …`). */
export const CreateBatchBody = Type.Object({ records: Type.Array(Type.Unknown()) }, { additionalProperties: true });
export const UpdateBatchBody = CreateBatchBody;
/** validate_batch's answer: every record create_batch would refuse, each with its error as create_batch gives it, without the `records[i]: ` its index replaces. */
export const ValidateBatchResult = Type.Object({
  errors: Type.Array(
    Type.Object({
      index: Type.Integer({ description: 'the record\'s position in records, from 0' }),
      code: Type.String({ description: 'the error code create_batch would answer (docs/errors.md)' }),
      message: Type.String(),
    }),
    { description: 'in order of index; empty when create_batch would create every record' },
  ),
}, {
  examples: [
    {
      errors: [
        { index: 1, code: 'invalid_field_value', message: 'Invalid value for field stage: "prospect" is not one of the options' },
        { index: 2, code: 'invalid_field', message: 'Invalid field: phone' },
      ],
    },
  ],
});
export const UpsertBatchBody = Type.Object({ match_on: Type.Array(Type.String()), records: Type.Array(Type.Unknown()) }, { additionalProperties: true });

/** records/export: a records/ids body plus `format` and `formulas`. */
const { limit: _limit, offset: _offset, ...exportQueryProperties } = DocumentedQueryBody.properties;
export const ExportBody = documentedAs(
  Type.Object({ ...QueryBody.properties, format: Type.Optional(Type.Unknown()), formulas: Type.Optional(Type.Unknown()) }, { additionalProperties: true }),
  Type.Object(
    {
      ...exportQueryProperties,
      format: Type.Optional(Type.Union([Type.Literal('csv'), Type.Literal('json')], { default: 'csv', description: 'csv: one flattened row per record (docs/api.md); json: an array of record objects' })),
      formulas: Type.Optional(
        Type.Union([Type.Literal('escape'), Type.Literal('raw')], {
          default: 'escape',
          description: "CSV only. escape: a text cell starting with = + - @, a tab or a carriage return (or with ' before one) is written with a ' before it, so a spreadsheet shows it as text; raw: every cell as stored",
        }),
      ),
    },
    { additionalProperties: false },
  ),
);
/** records/export answers a file, streamed: CSV text or a JSON array. */
export const ExportResponses = {
  200: {
    description: 'Every matching record, as an attachment',
    content: { 'text/csv': { schema: { type: 'string' } }, 'application/json': { schema: { type: 'array', items: { type: 'object' } } } },
  },
};
