import { sql } from 'kysely';
import { isDateToken, resolveDateToken, type TemporalKind } from './date-tokens.js';
import { readIsoDateTime } from './iso-datetime.js';
import type { Field } from './field.js';
import type { FieldType } from './field-type.js';
import type { FilterContext } from './value-context.js';
import { compareEmptiness, compareScalar, describe, FieldValueError, filterError, plainTitleText, unsupportedOperator } from './value-helpers.js';

const patterns: Record<TemporalKind, RegExp> = {
  date: /^(\d{4})-(\d{2})-(\d{2})$/,
  datetime: /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/,
  time: /^(\d{2}):(\d{2}):(\d{2})$/,
};

const formats: Record<TemporalKind, string> = { date: 'YYYY-MM-DD', datetime: 'YYYY-MM-DD HH:MM:SS', time: 'HH:MM:SS' };

function isValidTime(hours: number, minutes: number, seconds: number): boolean {
  return hours < 24 && minutes < 60 && seconds < 60;
}

const daysInMonth = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A day of the proleptic Gregorian calendar (JavaScript's Date's), years 1 to 9999. */
function isValidDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : daysInMonth[month - 1]);
}

/** A literal of the kind's format that names a real calendar date and time. Every record write checks each date it holds: no allocation beyond the match. */
export function isValidTemporal(kind: TemporalKind, value: string): boolean {
  const match = patterns[kind].exec(value);
  if (!match) return false;
  if (kind === 'time') return isValidTime(Number(match[1]), Number(match[2]), Number(match[3]));
  if (!isValidDate(Number(match[1]), Number(match[2]), Number(match[3]))) return false;
  return kind === 'date' || isValidTime(Number(match[4]), Number(match[5]), Number(match[6]));
}

/**
 * A datetime given in an ISO 8601 spelling of UTC (iso-datetime.ts), as the service's own
 * `YYYY-MM-DD HH:MM:SS`; the value as it came for anything else (checked by the caller).
 * `refuse` builds the error for an ISO spelling that would need converting.
 */
function normalizeDateTime(kind: TemporalKind, value: string, refuse: (reason: string) => Error): string {
  if (kind !== 'datetime') return value;
  const reading = readIsoDateTime(value);
  if (reading.kind === 'refused') throw refuse(reading.reason);
  return reading.kind === 'utc' ? reading.value : value;
}

/**
 * A filter value: a literal (a datetime field also takes a date, meaning 00:00:00) or a date
 * token. Only a token reads the clock: a query of literals compiles alike at any time, and may
 * be kept compiled (records/record-queries.ts).
 */
function resolveFilterValue(kind: TemporalKind, raw: unknown, field: Field, ctx: Pick<FilterContext, 'clock'>): string {
  if (typeof raw !== 'string') throw filterError(field, `expected a ${formats[kind]} value or a date token, got ${describe(raw)}`);
  const value = normalizeDateTime(kind, raw, (reason) => filterError(field, `${describe(raw)} (${reason})`));
  if (isValidTemporal(kind, value)) return value;
  if (kind === 'datetime' && isValidTemporal('date', value)) return `${value} 00:00:00`;
  if (isDateToken(value)) return resolveDateToken(value, kind, ctx.clock, field.slug);
  throw filterError(field, `expected a ${formats[kind]} value or a date token, got ${describe(raw)}`);
}

/** Stored as fixed-width ISO text on both engines: text order is time order, and values are never shifted. */
function temporal(kind: TemporalKind): FieldType {
  return {
    name: kind,
    multiplicity: 'single',
    settingKeys: [],
    parseSettings: () => ({}),
    columnType: () => 'text',
    titleText: plainTitleText,
    sortable: true,
    searchable: false,
    matchable: true,
    toStored(input, field) {
      if (input === null || input === undefined || input === '') return null;
      if (typeof input === 'string' && isDateToken(input)) throw new FieldValueError(field, `date tokens such as ${describe(input)} are not accepted on writes`);
      if (typeof input !== 'string') throw new FieldValueError(field, `expected ${formats[kind]}, got ${describe(input)}`);
      const value = normalizeDateTime(kind, input, (reason) => new FieldValueError(field, `${describe(input)} (${reason})`));
      if (!isValidTemporal(kind, value)) throw new FieldValueError(field, `expected ${formats[kind]}, got ${describe(input)}`);
      return value;
    },
    // ISO text in its column: its JSON is its read form.
    columnReadForm: (column) => sql`coalesce(to_jsonb(${column}), 'null'::jsonb)`,
    readMany: (stored) => stored.map((value) => value ?? null),
    compileFilter(op, value, field, ctx) {
      if (op === 'empty' || op === 'not_empty') return compareEmptiness(op, ctx.column);
      if (op === 'contains' || op === 'starts_with' || op === 'ends_with') throw unsupportedOperator(field, op);
      if ((op === 'eq' || op === 'ne') && (value === null || value === '')) return compareEmptiness(op === 'eq' ? 'empty' : 'not_empty', ctx.column);
      return compareScalar(op, ctx.column, resolveFilterValue(kind, value, field, ctx));
    },
  };
}

export const dateField = temporal('date');
export const datetimeField = temporal('datetime');
export const timeField = temporal('time');
