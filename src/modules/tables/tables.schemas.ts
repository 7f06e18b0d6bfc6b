import { Type } from '@fastify/type-provider-typebox';
import { AnyObject, Id } from '../../http/schemas.js';

export const TableParams = Type.Object({ tid: Id });
export const FieldParams = Type.Object({ tid: Id, slug: Type.String({ maxLength: 63 }) });
export const TableSummary = Type.Object({ id: Type.Integer(), name: Type.String(), space_id: Type.Integer() });
export const Table = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  space_id: Type.Integer(),
  title_field: Type.Union([Type.String(), Type.Null()]),
  fields: Type.Array(AnyObject),
  indexes: Type.Array(Type.Object({ name: Type.String(), fields: Type.Array(Type.String()) })),
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
