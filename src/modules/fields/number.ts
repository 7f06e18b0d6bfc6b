import { sql } from 'kysely';
import { ValidationError } from '../../shared/errors.js';
import type { FieldType } from './field-type.js';
import { compareEmptiness, compareScalar, describe, FieldValueError, filterError, plainTitleText, unsupportedOperator } from './value-helpers.js';

function parseFilterNumber(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

/**
 * Half away from zero at `decimals` places, on the number as written rather than its binary
 * value: 1.005 → 1.01 (`toFixed` gives 1.00, since the double nearest 1.005 is just below it).
 */
function roundDecimals(value: number, decimals: number): number {
  const text = String(Math.abs(value));
  // Exponent notation: below 1e-6 or at least 1e21, where toFixed is exact enough.
  if (text.includes('e')) return Number(value.toFixed(decimals)) + 0;
  // Written with no more places than kept (the usual input): already the number it rounds to.
  const point = text.indexOf('.');
  if (point === -1 || text.length - point - 1 <= decimals) return value + 0;
  return (Math.sign(value) * Math.round(Number(`${text}e${decimals}`))) / 10 ** decimals + 0;
}

export const numberField: FieldType = {
  name: 'number',
  multiplicity: 'single',
  settingKeys: ['decimals'],
  parseSettings(raw) {
    const decimals = raw.decimals ?? null;
    if (decimals !== null && (!Number.isInteger(decimals) || (decimals as number) < 0 || (decimals as number) > 10)) {
      throw new ValidationError('Invalid field definition: decimals must be an integer from 0 to 10, or null');
    }
    return { decimals };
  },
  columnType: (dialect) => (dialect.name === 'postgres' ? 'double precision' : 'real'),
  titleText: plainTitleText,
  sortable: true,
  searchable: false,
  matchable: true,
  toStored(input, field) {
    if (input === null || input === undefined || input === '') return null;
    if (typeof input !== 'number' || !Number.isFinite(input)) throw new FieldValueError(field, `expected a number, got ${describe(input)}`);
    const decimals = field.settings.decimals as number | null;
    return decimals === null || decimals === undefined ? input : roundDecimals(input, decimals);
  },
  // double precision: PostgreSQL writes its JSON shortest round-trip, as JavaScript does.
  columnReadForm: (column) => sql`coalesce(to_jsonb(${column}), 'null'::jsonb)`,
  readMany: (stored) => stored.map((value) => (value === null || value === undefined ? null : Number(value))),
  compileFilter(op, value, field, ctx) {
    if (op === 'empty' || op === 'not_empty') return compareEmptiness(op, ctx.column);
    if (op === 'contains' || op === 'starts_with' || op === 'ends_with') throw unsupportedOperator(field, op);
    if ((op === 'eq' || op === 'ne') && (value === null || value === '')) return compareEmptiness(op === 'eq' ? 'empty' : 'not_empty', ctx.column);
    const number = parseFilterNumber(value);
    if (number === null) throw filterError(field, `expected a number, got ${describe(value)}`);
    // The system `id` column is a PostgreSQL integer: a fraction or a value beyond its range
    // would fail as an integer parameter, so such values compare as double precision.
    const int32 = Number.isInteger(number) && Math.abs(number) <= 2_147_483_647;
    return compareScalar(op, ctx.column, ctx.dialect.name === 'postgres' && !int32 ? sql`cast(${number} as double precision)` : number);
  },
};
