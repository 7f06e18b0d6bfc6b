import { Type } from '@fastify/type-provider-typebox';
import { AnyObject, documentedAs, Id } from '../../http/schemas.js';
import { fieldTypeNames } from '../fields/registry.js';

export const TableParams = Type.Object({ tid: Id });
export const FieldParams = Type.Object({ tid: Id, slug: Type.String({ maxLength: 63 }) });
export const TableSummary = Type.Object({ id: Type.Integer(), name: Type.String(), space_id: Type.Integer() });
export const IndexParams = Type.Object({ tid: Id, name: Type.String({ maxLength: 63 }) });
const Nullable = (schema: ReturnType<typeof Type.String>) => Type.Union([schema, Type.Null()]);
export const IndexObject = Type.Object({
  name: Type.String(),
  fields: Type.Array(Type.String()),
  direction: Type.Union([Type.Literal('asc'), Type.Literal('desc'), Type.Null()]),
  origin: Type.Union([Type.Literal('calendar'), Type.Literal('view'), Type.Literal('automatic'), Type.Literal('manual')]),
  reason: Nullable(Type.String()),
  created_at: Nullable(Type.String()),
  last_used_at: Nullable(Type.String()),
});
/** Field slugs; the service names an unknown or repeated field, or one that cannot be indexed. */
export const IndexCreateBody = Type.Object(
  {
    fields: Type.Array(Type.String({ maxLength: 63 }), { minItems: 1, maxItems: 4 }),
    direction: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    name: Type.Optional(Type.String({ maxLength: 63 })),
  },
  { additionalProperties: false },
);
export const IndexDeleted = Type.Object({ name: Type.String(), deleted: Type.Literal(true) });
export const Table = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  space_id: Type.Integer(),
  title_field: Type.Union([Type.String(), Type.Null()]),
  fields: Type.Array(AnyObject),
  indexes: Type.Array(IndexObject),
});
/**
 * Field definitions are validated by the field registry, which names the bad key (`Invalid field
 * definition: …`): Fastify checks only that one is an object, the document shows its keys.
 */
const fieldKeys = {
  id: Type.String({ pattern: '^[a-z][a-z0-9_]{0,62}$', description: 'the slug, the key in record data; made from name when omitted' }),
  name: Type.String({ minLength: 1 }),
  type: Type.Unsafe<string>({ type: 'string', enum: [...fieldTypeNames] }),
  multiple: Type.Boolean({ description: 'select, user and lookup; file fields are always multiple' }),
  required: Type.Boolean(),
  editable_by: Type.Unsafe<string>({ type: 'string', enum: ['members', 'admins', 'none'] }),
  hidden: Type.Union([Type.Literal('always'), Type.Null()], { description: 'hides the field from the grid interface only' }),
  options: Type.Array(Type.Object({ value: Type.String({ minLength: 1, maxLength: 200 }), color: Type.Optional(Type.Union([Type.String(), Type.Null()])) }, { additionalProperties: false }), {
    description: 'select fields',
  }),
  table_id: Type.Integer({ description: 'lookup fields: the table looked up (cannot change)' }),
  decimals: Type.Union([Type.Integer({ minimum: 0, maximum: 10 }), Type.Null()], { description: 'number fields' }),
  image_only: Type.Boolean({ description: 'file fields' }),
};
const { name, type, ...settings } = fieldKeys;
const NewField = Type.Object({ name, type, ...Type.Partial(Type.Object(settings)).properties }, { additionalProperties: false });
export const FieldDefinition = documentedAs(AnyObject, NewField);
export const FieldChanges = documentedAs(AnyObject, Type.Partial(Type.Object(fieldKeys), { additionalProperties: false, description: 'type and multiple cannot change (giving the current value is allowed)' }));
export const TableCreateBody = Type.Object(
  { name: Type.String({ maxLength: 200 }), fields: Type.Optional(Type.Array(FieldDefinition, { maxItems: 500 })), title_field: Type.Optional(Type.Union([Type.String(), Type.Null()])) },
  { additionalProperties: false },
);
export const TableUpdateBody = Type.Object(
  { name: Type.Optional(Type.String({ maxLength: 200 })), title_field: Type.Optional(Type.Union([Type.String(), Type.Null()])) },
  { additionalProperties: false },
);
