import { Type } from '@fastify/type-provider-typebox';
import { documentedAs, Id } from '../../http/schemas.js';
import { changeKinds } from '../changes/change.js';

/** Bodies are checked by the webhooks service, which names the exact problem; the document shows what it accepts. */
const AnyBody = Type.Object({}, { additionalProperties: true });
const Kind = Type.String({ enum: [...changeKinds] });

export const WebhookParams = Type.Object({ wid: Id });
export const DeliveryParams = Type.Object({ wid: Id, did: Id });

export const Webhook = Type.Object({
  id: Type.Integer(),
  table_id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Kind, { description: 'the kinds of change sent' }),
  fields: Type.Array(Type.String(), { description: 'only changes touching one of these slugs; empty: any' }),
  active: Type.Boolean({ description: 'false once turned off, answered 410, or failing for 24 hours' }),
});
export const CreatedWebhook = Type.Object({ ...Webhook.properties, secret: Type.String({ description: 'whsec_…, shown here only' }) });
export const RotatedSecret = Type.Object({ id: Type.Integer(), secret: Type.String() });

export const CreateWebhookBody = documentedAs(
  AnyBody,
  Type.Object(
    {
      url: Type.String({ description: 'where changes are POSTed (http or https)' }),
      events: Type.Optional(Type.Array(Kind, { minItems: 1, description: 'default: every kind' })),
      fields: Type.Optional(Type.Array(Type.String(), { description: 'field slugs; default: any field' })),
    },
    { additionalProperties: false },
  ),
);
export const UpdateWebhookBody = documentedAs(
  AnyBody,
  Type.Object(
    {
      url: Type.Optional(Type.String()),
      events: Type.Optional(Type.Array(Kind, { minItems: 1 })),
      fields: Type.Optional(Type.Array(Type.String())),
      active: Type.Optional(Type.Boolean({ description: 'true turns a disabled webhook back on, at the change it stopped at' })),
    },
    { additionalProperties: false },
  ),
);
export const DeliveriesBody = documentedAs(AnyBody, Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })), offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })) }, { additionalProperties: false }));

const Nullable = <T extends ReturnType<typeof Type.Integer> | ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
export const Delivery = Type.Object({
  id: Type.Integer(),
  seq: Type.Integer(),
  kind: Kind,
  attempt: Type.Integer({ description: 'the attempt at this change, from 1' }),
  status: Type.String({ enum: ['succeeded', 'failed'] }),
  response_code: Nullable(Type.Integer()),
  duration_ms: Type.Integer(),
  error: Nullable(Type.String()),
  at: Type.String(),
  next_attempt_at: Nullable(Type.String()),
  response_body: Nullable(Type.String({ description: 'the first 4 KB of the answer' })),
});
