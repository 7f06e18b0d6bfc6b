import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/**
 * Bodies are validated strictly (no type coercion, unknown properties rejected, nothing
 * silently removed); path and query strings are coerced, since they only ever arrive as text.
 */
export function registerValidators(app: FastifyInstance): void {
  const strict = new Ajv({ allErrors: false, coerceTypes: false, removeAdditional: false, useDefaults: false, strict: false });
  const coercing = new Ajv({ allErrors: false, coerceTypes: true, removeAdditional: false, useDefaults: true, strict: false });
  // ajv-formats is CommonJS; its default export arrives wrapped under ESM.
  const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (ajv: Ajv) => void;
  for (const ajv of [strict, coercing]) addFormats(ajv);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema));
}
