import { Type } from '@fastify/type-provider-typebox';
import { AnyObject, documentedAs, Id } from '../../http/schemas.js';
import { Filter } from '../records/records.schemas.js';

export const ViewParams = Type.Object({ tid: Id, vid: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }) });

export const View = Type.Object({
  id: Type.Integer(),
  account_id: Type.Integer(),
  table_id: Type.Integer(),
  name: Type.String(),
  type: Type.Union([Type.Literal('grid'), Type.Literal('calendar'), Type.Literal('gallery'), Type.Literal('kanban')]),
  config: Type.Union([AnyObject, Type.Null()]),
  filters: Type.Array(Type.Unknown()),
  order_by: Type.Union([Type.String(), Type.Null()]),
  order_dir: Type.Union([Type.String(), Type.Null()]),
  created_by: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
  is_default: Type.Boolean(),
  is_table_default: Type.Boolean(),
});

/** Checked by the views service, which names the exact problem; Fastify checks only the loose shape, the document shows the strict one. */
const LooseViewBody = Type.Object(
  {
    name: Type.Optional(Type.String()),
    type: Type.Optional(Type.String({ description: 'grid, calendar, gallery or kanban' })),
    config: Type.Optional(Type.Unknown()),
    filters: Type.Optional(Type.Unknown({ description: 'filter objects, as in records/query' })),
    order_by: Type.Optional(Type.Unknown()),
    order_dir: Type.Optional(Type.Unknown()),
    is_table_default: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: true },
);
const viewKeys = {
  name: Type.String({ minLength: 1 }),
  type: Type.Union([Type.Literal('grid'), Type.Literal('calendar'), Type.Literal('gallery'), Type.Literal('kanban')], { default: 'grid' }),
  config: Type.Union([AnyObject, Type.Null()], {
    description:
      'grid: {columns: [slug]}; calendar: {startField, endField?, colorField?, mode?: month|week|day, weekStart?: 0-6 or a day name such as monday}; gallery: {imageField, secondaryField?}; kanban: {categoryField, secondaryField?}',
  }),
  filters: Type.Union([Type.Array(Filter), Type.Null()]),
  order_by: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
  order_dir: Type.Union([Type.Literal('A'), Type.Literal('D'), Type.Null()]),
  is_table_default: Type.Boolean({ description: "true clears it on the table's other views" }),
};
const { name, ...settings } = viewKeys;
export const ViewBody = documentedAs(LooseViewBody, Type.Object({ name, ...Type.Partial(Type.Object(settings)).properties }, { additionalProperties: false }));
export const ViewChanges = documentedAs(LooseViewBody, Type.Partial(Type.Object(viewKeys), { additionalProperties: false }));
