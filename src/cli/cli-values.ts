import { UsageError } from './cli-context.js';

const isoInstant = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An ISO 8601 date-time (`2024-06-01T00:00:00Z`; without a zone: UTC, as every datetime of the
 * service; with an offset: that instant), or a date alone (its midnight UTC). Undefined for
 * text of another shape; a UsageError for a date that does not exist (2024-02-31).
 */
export function parseInstant(raw: string, flag: string): Date | undefined {
  const match = isoInstant.exec(raw.trim());
  if (!match) return undefined;
  const [, date, time = '00:00:00', zone = 'Z'] = match;
  const parsed = new Date(`${date}T${time}${zone}`);
  // Date accepts 2024-02-31 and rolls it over; an operator typing that meant something else.
  if (Number.isNaN(parsed.getTime()) || new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date) {
    throw new UsageError(`${flag} is not a real date-time: ${JSON.stringify(raw)}`);
  }
  return parsed;
}

const expiryUnits: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * `--expires`: a lifetime from now (`12h`, `30d`, `90d`, `2w`), or the moment itself as an ISO
 * date (`2025-12-31`: its midnight UTC, so the key works until the end of 2025-12-30) or
 * date-time (`2025-12-31T18:00:00Z`).
 */
export function parseExpiry(raw: string, now: Date): Date {
  const lifetime = /^(\d{1,5})([hdw])$/.exec(raw.trim());
  if (lifetime) {
    if (Number(lifetime[1]) === 0) throw new UsageError(`--expires must be a lifetime longer than 0, got ${JSON.stringify(raw)}`);
    return new Date(now.getTime() + Number(lifetime[1]) * expiryUnits[lifetime[2]]);
  }
  const instant = parseInstant(raw, '--expires');
  if (!instant) throw new UsageError(`--expires must be a lifetime such as 12h, 30d or 2w, or an ISO date or date-time such as 2025-12-31 or 2025-12-31T18:00:00Z, got ${JSON.stringify(raw)}`);
  return instant;
}
