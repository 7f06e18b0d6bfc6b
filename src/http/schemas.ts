import { Type, type TSchema } from '@fastify/type-provider-typebox';
import { maxId } from '../shared/ids.js';

/**
 * Shared TypeBox pieces: ids in paths, the error body, and the response map every route shares.
 * An id's range is what the document shows; an integer outside it answers as a missing object
 * (http/path-ids.ts), not as invalid.
 */
export const Id = Type.Integer({ minimum: 1, maximum: maxId });

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

/** The keyword under which a schema carries what the OpenAPI document shows in its place (http/openapi.ts). */
export const documentedKeyword = 'x-documented';

/**
 * A schema Fastify applies as `checked` (validation or serialisation unchanged) while the OpenAPI
 * document shows `documented`. For bodies the service checks itself, so that a bad value gets
 * the specification's own message rather than the validator's: `documented` is the strict shape
 * the service accepts; the handler's static type stays `checked`'s, since that is all Fastify
 * guarantees.
 */
export function documentedAs<T extends TSchema>(checked: T, documented: TSchema): T {
  return { ...checked, [documentedKeyword]: documented };
}

/**
 * An id in a body: any integer passes validation, and one no row can have (2^31, -1) names
 * nothing, answered as a missing object would be (shared/ids.ts). The document shows the range.
 */
export const BodyId = documentedAs(Type.Integer(), Id);
