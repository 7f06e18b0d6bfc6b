import { Type } from '@fastify/type-provider-typebox';
import { Id } from '../../http/schemas.js';

export const KeyParams = Type.Object({ id: Id });

/** A key as GET /api/keys/list shows it: never its secret or hash. `user_id` is null for account keys. */
export const ApiKey = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  kind: Type.Union([Type.Literal('account'), Type.Literal('personal')]),
  user_id: Type.Union([Type.Integer(), Type.Null()]),
  read_only: Type.Boolean(),
  spaces: Type.Union([Type.Array(Type.Integer()), Type.Null()]),
  ip_allow: Type.Union([Type.Array(Type.String()), Type.Null()]),
  created_at: Type.String(),
  last_used_at: Type.Union([Type.String(), Type.Null()]),
  expires_at: Type.Union([Type.String(), Type.Null()]),
});

/** The key just created, with its secret: shown here only. */
export const IssuedApiKey = Type.Object({ ...ApiKey.properties, key: Type.String({ description: 'The secret (tbk_…), shown once and stored hashed' }) });

export const KeyCreateBody = Type.Object(
  {
    name: Type.String({ maxLength: 200 }),
    kind: Type.Unsafe<'account' | 'personal'>({ enum: ['account', 'personal'] }),
    user_id: Type.Optional({ ...Id, description: "A personal key's user (the owner only; default: the caller's own user)" }),
    read_only: Type.Optional(Type.Boolean()),
    spaces: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 1000 })),
    ip_allow: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 100 })),
    expires_at: Type.Optional(Type.String({ maxLength: 40, description: 'ISO date or date-time, UTC unless it names a zone' })),
  },
  { additionalProperties: false },
);

export const KeyRevoked = Type.Object({ id: Type.Integer(), revoked: Type.Literal(true) });
