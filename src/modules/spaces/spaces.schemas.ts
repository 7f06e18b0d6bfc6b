import { Type } from '@fastify/type-provider-typebox';
import { AnyObject, Id } from '../../http/schemas.js';

export const SpaceParams = Type.Object({ sid: Id });
export const SpaceSummary = Type.Object({ id: Type.Integer(), name: Type.String(), account_id: Type.Integer() });
export const Space = Type.Object({ id: Type.Integer(), name: Type.String(), account_id: Type.Integer(), storage: AnyObject, created_at: Type.String() });
export const SpaceCreateBody = Type.Object({ name: Type.String({ maxLength: 200 }), storage: Type.Optional(AnyObject) }, { additionalProperties: false });
export const SpaceUpdateBody = Type.Object({ name: Type.Optional(Type.String({ maxLength: 200 })), storage: Type.Optional(AnyObject) }, { additionalProperties: false });
export const Member = Type.Object({ user_id: Type.Integer(), email: Type.String(), name: Type.String(), role: Type.String() });
/** An enum rather than a union of literals, so a bad role fails with "must be equal to one of the allowed values". */
export const Role = Type.Unsafe<'admin' | 'editor' | 'reader'>({ enum: ['admin', 'editor', 'reader'] });
export const MemberAddBody = Type.Object(
  { user_id: Type.Optional(Id), email: Type.Optional(Type.String({ maxLength: 320 })), role: Role },
  { additionalProperties: false },
);
export const MemberRemoveBody = Type.Object({ user_id: Id }, { additionalProperties: false });
