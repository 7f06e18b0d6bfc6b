import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { decimalInteger, registerPathIdRule, withoutIdRanges } from './path-ids.js';

/**
 * Path parameters arrive as text. Numeric ones are converted only when written as plain decimal
 * digits, then validated strictly; anything else fails as "must be integer" instead of being
 * coerced into some other id. An integer outside an id's range was made `noSuchId` before (path-ids.ts).
 */
function compilePathValidator(ajv: Ajv, schema: Record<string, any>) {
  const validate = ajv.compile(withoutIdRanges(schema));
  const properties: Record<string, { type?: unknown }> = schema.properties ?? {};
  const numericKeys = Object.keys(properties).filter((key) => properties[key].type === 'integer' || properties[key].type === 'number');
  const check = ((data: unknown) => {
    if (typeof data === 'object' && data !== null) {
      const params = data as Record<string, unknown>;
      for (const key of numericKeys) {
        const value = params[key];
        if (typeof value === 'string' && decimalInteger.test(value)) params[key] = Number(value);
      }
    }
    const valid = validate(data);
    check.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  return check;
}

/**
 * Bodies and paths are validated strictly (no type coercion, unknown properties rejected, nothing
 * silently removed); query strings are coerced, since they only ever arrive as text.
 */
export function registerValidators(app: FastifyInstance): void {
  const strict = new Ajv({ allErrors: false, coerceTypes: false, removeAdditional: false, useDefaults: false, strict: false });
  const coercing = new Ajv({ allErrors: false, coerceTypes: true, removeAdditional: false, useDefaults: true, strict: false });
  // ajv-formats is CommonJS; its default export arrives wrapped under ESM.
  const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (ajv: Ajv) => void;
  for (const ajv of [strict, coercing]) addFormats(ajv);
  app.setValidatorCompiler(({ schema, httpPart }) => {
    if (httpPart === 'body') return strict.compile(schema);
    if (httpPart === 'params') return compilePathValidator(strict, schema as Record<string, any>);
    return coercing.compile(schema);
  });
  registerPathIdRule(app);
}
