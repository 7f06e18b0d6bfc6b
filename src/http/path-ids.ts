import type { FastifyInstance } from 'fastify';
import { maxId, noSuchId } from '../shared/ids.js';

/** Canonical decimal integers only: `0x10`, `1e3`, ` 1`, `1.0` or `007` in a path are not ids, whatever Number() makes of them. */
export const decimalInteger = /^-?(0|[1-9][0-9]*)$/;

interface ParamSchema {
  type?: unknown;
  minimum?: number;
}

/**
 * One rule for every id in a path (`{sid}`, `{tid}`, `{rid}`, `{vid}`, `{cid}`, a notification's
 * `{id}`; every integer path parameter is an id): an integer no row can have — past the
 * `integer` column's range, or below the parameter's minimum — answers exactly as an id that
 * does not exist. It becomes `noSuchId` before any hook or handler reads it, so each route answers
 * its own "missing" (400 `Invalid Table`, 404 `View not found`, …) rather than the validator's
 * range message or, on PostgreSQL, a failed look-up (500). What is not an integer at all
 * (`1e3`, `abc`) is left to the validator: 400 `Invalid parameters`.
 */
export function registerPathIdRule(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const properties = (request.routeOptions.schema?.params as { properties?: Record<string, ParamSchema> } | undefined)?.properties;
    if (!properties) return;
    const params = request.params as Record<string, unknown>;
    for (const [name, schema] of Object.entries(properties)) {
      const raw = params[name];
      if (schema.type !== 'integer' || typeof raw !== 'string' || !decimalInteger.test(raw)) continue;
      const id = Number(raw);
      if (id < (schema.minimum ?? 1) || id > maxId) params[name] = String(noSuchId);
    }
  });
}

/** The schema the validator checks path parameters against: ids without their range, which the rule above has settled. */
export function withoutIdRanges(schema: Record<string, any>): Record<string, any> {
  const properties: Record<string, ParamSchema> = schema.properties ?? {};
  const unranged = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => {
      if (property.type !== 'integer') return [name, property];
      const rest: Record<string, unknown> = { ...property };
      delete rest.minimum;
      delete rest.maximum;
      return [name, rest];
    }),
  );
  return { ...schema, properties: unranged };
}
