import { Type, type TSchema } from '@fastify/type-provider-typebox';

/** Shared TypeBox pieces: ids in paths, the error body, and the response map every route shares. */
export const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const ErrorBody = Type.Object(
  { error: Type.Object({ code: Type.String(), message: Type.String(), request_id: Type.Optional(Type.String()) }) },
  { $id: 'ErrorBody' },
);

const errorRef = Type.Ref('ErrorBody');

/** `{200: ok}` plus the error statuses every authenticated route may answer. */
export function responses(ok: TSchema) {
  return { 200: ok, 400: errorRef, 401: errorRef, 403: errorRef, 404: errorRef, 413: errorRef, 415: errorRef, 429: errorRef, 500: errorRef };
}

export const Deleted = Type.Object({ id: Type.Integer(), deleted: Type.Literal(true) });

/** Dynamic objects (field settings, storage, record data) pass through serialisation untouched. */
export const AnyObject = Type.Object({}, { additionalProperties: true });
