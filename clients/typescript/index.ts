/**
 * A typed client of the Tabula HTTP API: `openapi-fetch` over the types openapi-typescript
 * generates from the service's OpenAPI document (schema.d.ts, regenerated with
 * `npm run client:generate` at the repository root). Paths, path parameters, bodies and answers
 * are checked by the compiler; nothing is generated at run time.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };

export type TabulaClient = Client<paths>;

/** Every error answer: `{error: {code, message}}`; the codes are listed in docs/errors.md. */
export type ErrorBody = components['schemas']['ErrorBody'];

/**
 * A client of the service at `baseUrl` (e.g. `http://127.0.0.1:8080`), sending `apiKey` as
 * `Authorization: Bearer …` on every call. Without a key only the public operations answer
 * (health, login, the OpenAPI document). `options` go to openapi-fetch (a custom `fetch`, headers…).
 */
export function createTabulaClient(baseUrl: string, apiKey?: string, options: Omit<ClientOptions, 'baseUrl'> = {}): TabulaClient {
  const headers = { ...(options.headers as Record<string, string> | undefined), ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}) };
  return createClient<paths>({ ...options, baseUrl: baseUrl.replace(/\/+$/, ''), headers });
}
