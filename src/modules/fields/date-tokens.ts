import { formatDate, formatDateTime, type Clock } from '../../shared/clock.js';
import { ErrorCode, ValidationError } from '../../shared/errors.js';

/** The field types a date token can be compared with. */
export type TemporalKind = 'date' | 'datetime' | 'time';

const DAY_MS = 86_400_000;

const NAMED_TOKENS: ReadonlySet<string> = new Set([
  'today',
  'now',
  'yesterday',
  'start_of_week',
  'start_of_month',
  'start_of_year',
  'start_of_last_week',
  'start_of_last_month',
  'start_of_last_year',
]);

// The sign is required so that plain values such as `5d` or `2024` are never taken for tokens.
const OFFSET_TOKEN = /^([+-])(\d+)([dwmy])$/;

/** True when the value is one of the query date tokens (valid or not for a given field kind). */
export function isDateToken(value: unknown): value is string {
  return typeof value === 'string' && (NAMED_TOKENS.has(value) || OFFSET_TOKEN.test(value));
}

/**
 * Resolves a token against the clock in UTC to the literal format of the field kind.
 * `field` only makes the error message name the filtered field.
 */
export function resolveDateToken(token: string, kind: TemporalKind, clock: Clock, field?: string): string {
  const prefix = field === undefined ? 'Invalid filter: ' : `Invalid filter: ${field}: `;
  if (!isDateToken(token)) {
    throw new ValidationError(`${prefix}unknown date token "${token}"`, ErrorCode.invalidFilter);
  }
  const now = clock.now();
  if (kind === 'time') {
    // A time of day has no calendar, so only the current time is meaningful.
    if (token !== 'now') {
      throw new ValidationError(`${prefix}date token "${token}" is not valid on a time field`, ErrorCode.invalidFilter);
    }
    return formatDateTime(now).slice(11);
  }
  const at = computeInstant(token, now);
  const year = at.getUTCFullYear();
  // Huge offsets would otherwise overflow Date or print years the databases cannot store.
  if (Number.isNaN(at.getTime()) || year < 1 || year > 9999) {
    throw new ValidationError(`${prefix}date token "${token}" is out of range`, ErrorCode.invalidFilter);
  }
  return kind === 'date' ? formatDate(at) : formatDateTime(at);
}

function computeInstant(token: string, now: Date): Date {
  const offset = OFFSET_TOKEN.exec(token);
  if (offset) {
    const amount = Number(offset[2]) * (offset[1] === '-' ? -1 : 1);
    if (offset[3] === 'd') return addDays(now, amount);
    if (offset[3] === 'w') return addDays(now, 7 * amount);
    return addMonths(now, offset[3] === 'm' ? amount : 12 * amount);
  }
  const today = buildUtc(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 0);
  const startOfWeek = addDays(today, -((today.getUTCDay() + 6) % 7)); // Monday-based weeks
  const startOfMonth = buildUtc(today.getUTCFullYear(), today.getUTCMonth(), 1, 0);
  switch (token) {
    case 'now':
      return now;
    case 'today':
      return today;
    case 'yesterday':
      return addDays(today, -1);
    case 'start_of_week':
      return startOfWeek;
    case 'start_of_last_week':
      return addDays(startOfWeek, -7);
    case 'start_of_month':
      return startOfMonth;
    case 'start_of_last_month':
      return addMonths(startOfMonth, -1);
    case 'start_of_year':
      return buildUtc(today.getUTCFullYear(), 0, 1, 0);
    case 'start_of_last_year':
      return buildUtc(today.getUTCFullYear() - 1, 0, 1, 0);
    default:
      throw new Error(`unhandled date token ${token}`);
  }
}

function addDays(at: Date, days: number): Date {
  return new Date(at.getTime() + days * DAY_MS);
}

/** Calendar month arithmetic that clamps to the month end (Mar 31 − 1m = Feb 28/29). */
function addMonths(at: Date, months: number): Date {
  const total = at.getUTCFullYear() * 12 + at.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  if (!Number.isFinite(year) || year < 1 || year > 9999) return new Date(Number.NaN);
  const month = total - year * 12;
  const lastDay = buildUtc(year, month + 1, 0, 0).getUTCDate();
  const timeOfDay = ((at.getTime() % DAY_MS) + DAY_MS) % DAY_MS;
  return buildUtc(year, month, Math.min(at.getUTCDate(), lastDay), timeOfDay);
}

// setUTCFullYear, unlike Date.UTC, does not map years 0–99 onto 1900–1999.
function buildUtc(year: number, month: number, day: number, timeOfDayMs: number): Date {
  const at = new Date(timeOfDayMs);
  at.setUTCFullYear(year, month, day);
  return at;
}
