import { createTabulaClient, type ErrorBody, type paths } from '@tabula/client';

/**
 * The one client of the console: same origin, the session cookie (never a key). Session
 * requests that are not GET must say they are JSON (docs/api.md, Sessions), bodiless ones too.
 */
export const api = createTabulaClient(window.location.origin, undefined, { credentials: 'include' });
api.use({
  onRequest({ request }) {
    if (request.method !== 'GET' && !request.headers.has('content-type')) request.headers.set('content-type', 'application/json');
    return request;
  },
});

/** An error answer of the API, with its status and code (docs/errors.md). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** `data` of an openapi-fetch answer, or throws its error body as an ApiError. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const body = error as Partial<ErrorBody> | undefined;
  throw new ApiError(response.status, body?.error?.code ?? 'http_error', body?.error?.message ?? `${response.status} ${response.statusText}`);
}

type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : never;
/** The JSON of a GET route's 200 answer. */
export type GetResult<P extends keyof paths> = paths[P] extends { get: { responses: { 200: infer R } } } ? JsonOf<R> : never;
/** The JSON of a POST route's 200 answer. */
export type PostResult<P extends keyof paths> = paths[P] extends { post: { responses: { 200: infer R } } } ? JsonOf<R> : never;
