import { Type } from '@fastify/type-provider-typebox';
import { AnyObject, Id } from '../../http/schemas.js';

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
/** Field definitions are validated by the field registry, which names the bad key. */
export const FieldDefinition = AnyObject;
export const TableCreateBody = Type.Object(
  { name: Type.String({ maxLength: 200 }), fields: Type.Optional(Type.Array(FieldDefinition, { maxItems: 500 })), title_field: Type.Optional(Type.Union([Type.String(), Type.Null()])) },
  { additionalProperties: false },
);
export const TableUpdateBody = Type.Object(
  { name: Type.Optional(Type.String({ maxLength: 200 })), title_field: Type.Optional(Type.Union([Type.String(), Type.Null()])) },
  { additionalProperties: false },
);
