import { ValidationError } from '../../shared/errors.js';

const isoInstant = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * `expires_at` of POST /api/keys/create: an ISO 8601 date-time (without a zone: UTC, as every
 * datetime of the service, so `2030-01-01 00:00:00` as the service writes it works too), or a
 * date alone (its midnight UTC). A date that does not exist (2030-02-31) is refused, not rolled over.
 */
export function parseKeyExpiry(raw: string): Date {
  const match = isoInstant.exec(raw.trim());
  const [, date, time = '00:00:00', zone = 'Z'] = match ?? [];
  const parsed = match ? new Date(`${date}T${time}${zone}`) : new Date(Number.NaN);
  if (Number.isNaN(parsed.getTime()) || new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date) {
    throw new ValidationError(`Invalid expires_at: ${JSON.stringify(raw)} is not an ISO date or date-time (2030-12-31T18:00:00Z)`);
  }
  return parsed;
}
