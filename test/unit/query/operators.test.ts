import { describe, it, expect } from 'vitest';
import {
  normalizeOperator,
  operatorTakesValue,
  OPERATOR_SPELLINGS,
  type Operator,
} from '../../../src/modules/fields/operators.js';

const ALIASES: Array<[string, Operator]> = [
  ['=', 'eq'],
  ['!=', 'ne'],
  ['<', 'lt'],
  ['<=', 'lte'],
  ['>', 'gt'],
  ['>=', 'gte'],
  ['EQ', 'eq'],
  ['NE', 'ne'],
  ['NEQ', 'ne'],
  ['GT', 'gt'],
  ['GTE', 'gte'],
  ['LT', 'lt'],
  ['LTE', 'lte'],
  ['C', 'contains'],
  ['CONTAINS', 'contains'],
  ['contains', 'contains'],
  ['SW', 'starts_with'],
  ['STARTS_WITH', 'starts_with'],
  ['starts_with', 'starts_with'],
  ['EW', 'ends_with'],
  ['ENDS_WITH', 'ends_with'],
  ['ends_with', 'ends_with'],
  ['EMPTY', 'empty'],
  ['IS_EMPTY', 'empty'],
  ['is_empty', 'empty'],
  ['NEMPTY', 'not_empty'],
  ['IS_NOT_EMPTY', 'not_empty'],
  ['is_not_empty', 'not_empty'],
];

const NEAR_MISSES: unknown[] = [
  'eq', 'ne', 'neq', 'gt', 'gte', 'lt', 'lte', 'c', 'Contains', 'Starts_With', 'sw', 'ew',
  'empty', 'nempty', 'IS_Empty', 'Is_Not_Empty', '==', '<>', '=>', '=<', ' =', '= ', '', 'LIKE',
  'not_empty', 'NOT_EMPTY', 'constructor', '__proto__', 'toString',
  null, undefined, 1, true, ['='], { op: '=' },
];

describe('normalizeOperator', () => {
  it.each(ALIASES)('accepts %s as %s', (raw, op) => {
    expect(normalizeOperator(raw)).toBe(op);
  });

  it('lists exactly the accepted spellings', () => {
    expect([...OPERATOR_SPELLINGS].sort()).toEqual(ALIASES.map(([raw]) => raw).sort());
  });

  it.each(NEAR_MISSES.map((raw) => [raw]))('rejects %j', (raw) => {
    expect(normalizeOperator(raw)).toBeNull();
  });
});

describe('operatorTakesValue', () => {
  it('is false only for empty and not_empty', () => {
    const ops = [...new Set(ALIASES.map(([, op]) => op))];
    const valueless = ops.filter((op) => !operatorTakesValue(op));
    expect(valueless.sort()).toEqual(['empty', 'not_empty']);
  });
});
