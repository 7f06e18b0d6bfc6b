/**
 * ISO 8601 / RFC 3339 spellings of a UTC datetime, accepted on writes and in filters beside the
 * service's own `YYYY-MM-DD HH:MM:SS`: `2024-01-01T10:00:00Z`, `…T10:00:00`, `…T10:00:00+00:00`
 * and `…T10:00:00.000Z` (what `Date.prototype.toISOString` prints for a whole second) all mean
 * `2024-01-01 10:00:00`. Values are never converted: another offset, or a fraction of a second
 * that storing to the second would drop, is refused rather than shifted or rounded.
 */
const isoDateTime = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})?$/;

export type IsoDateTimeReading =
  /** Not an ISO spelling at all: the caller answers with its usual "expected …" message. */
  | { kind: 'other' }
  | { kind: 'utc'; value: string }
  | { kind: 'refused'; reason: string };

export function readIsoDateTime(raw: string): IsoDateTimeReading {
  const match = isoDateTime.exec(raw);
  if (!match) return { kind: 'other' };
  const [, date, time, fraction, zone] = match;
  if (zone !== undefined && zone !== 'Z' && zone !== '+00:00') {
    return { kind: 'refused', reason: 'offsets other than Z and +00:00 are refused; values are never converted' };
  }
  if (fraction !== undefined && /[1-9]/.test(fraction)) {
    return { kind: 'refused', reason: 'fractions of a second are refused; values are stored to the second and never rounded' };
  }
  return { kind: 'utc', value: `${date} ${time}` };
}
