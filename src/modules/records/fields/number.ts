import { ValidationError } from '../../../shared/errors.js';
import type { FieldType } from './field-type.js';
import { compareEmptiness, compareScalar, describe, FieldValueError, filterError, unsupportedOperator } from './value-helpers.js';

function parseFilterNumber(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
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
  titleCapable: true,
  sortable: true,
  searchable: false,
  toStored(input, field) {
    if (input === null || input === undefined || input === '') return null;
    if (typeof input !== 'number' || !Number.isFinite(input)) throw new FieldValueError(field, `expected a number, got ${describe(input)}`);
    const decimals = field.settings.decimals as number | null;
    return decimals === null || decimals === undefined ? input : Number(input.toFixed(decimals));
  },
  readMany: (stored) => stored.map((value) => (value === null || value === undefined ? null : Number(value))),
  compileFilter(op, value, field, ctx) {
    if (op === 'empty' || op === 'not_empty') return compareEmptiness(op, ctx.column);
    if (op === 'contains' || op === 'starts_with' || op === 'ends_with') throw unsupportedOperator(field, op);
    if ((op === 'eq' || op === 'ne') && (value === null || value === '')) return compareEmptiness(op === 'eq' ? 'empty' : 'not_empty', ctx.column);
    const number = parseFilterNumber(value);
    if (number === null) throw filterError(field, `expected a number, got ${describe(value)}`);
    return compareScalar(op, ctx.column, number);
  },
};
