import { Type } from '@fastify/type-provider-typebox';

export const PublicUser = Type.Object({ id: Type.Integer(), email: Type.String(), name: Type.String() });

export const UserCreateBody = Type.Object(
  {
    email: Type.String({ maxLength: 320 }),
    name: Type.String({ maxLength: 200 }),
    password: Type.Optional(Type.String({ maxLength: 1024, description: 'At least 8 characters; when absent one is generated and answered once' })),
  },
  { additionalProperties: false },
);

export const CreatedUser = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  name: Type.String(),
  password: Type.Optional(Type.String({ description: 'The generated password, shown once (absent when the request gave one)' })),
});
