import { describe, it, expect } from 'vitest';
import { ValidationError } from '../../../src/shared/errors.js';
import { parseQueryBody, type Condition } from '../../../src/modules/records/query/parse-query.js';
import { combineGroups } from '../../../src/modules/records/query/parse-conditions.js';

const eq = (field: string, value: unknown = field): Condition => ({ field, op: 'eq', value });
const filter = (column: string, connector?: string) => ({ column, compare: '=', value: column, ...(connector ? { connector } : {}) });

function expectFilterError(filters: unknown, message: string): void {
  const run = () => parseQueryBody({ filters }, 'query');
  expect(run).toThrow(ValidationError);
  expect(run).toThrow(message);
  try {
    run();
  } catch (error) {
    expect((error as ValidationError).message).toBe(message);
    expect((error as ValidationError).code).toBe(message.startsWith('Invalid filter') ? 'invalid_filter' : 'invalid_parameters');
  }
}

describe('parseQueryBody: filters', () => {
  it('reads column or field, every operator spelling and the value', () => {
    const parsed = parseQueryBody({
      filters: [
        { column: 'age', compare: 'GT', value: 3 },
        { field: 'name', compare: 'starts_with', value: 'A', connector: 'and' },
        { column: 'due', compare: 'IS_EMPTY' },
        { column: 'x', field: 'x', compare: 'is_not_empty', value: 'ignored' },
      ],
    }, 'query');
    expect(parsed.filters).toEqual([[
      { field: 'age', op: 'gt', value: 3 },
      { field: 'name', op: 'starts_with', value: 'A' },
      { field: 'due', op: 'empty', value: null },
      { field: 'x', op: 'not_empty', value: null },
    ]]);
    expect(parsed.whereConditions).toEqual([]);
    expect(parsed.where).toEqual(parsed.filters);
  });

  it('gives AND precedence over OR: A OR B AND C', () => {
    const parsed = parseQueryBody({ filters: [filter('a'), filter('b', 'OR'), filter('c', 'AND')] }, 'query');
    expect(parsed.filters).toEqual([[eq('a')], [eq('b'), eq('c')]]);
  });

  it('gives AND precedence over OR: A AND B OR C AND D', () => {
    const parsed = parseQueryBody({ filters: [filter('a'), filter('b'), filter('c', 'or'), filter('d', 'and')] }, 'query');
    expect(parsed.filters).toEqual([[eq('a'), eq('b')], [eq('c'), eq('d')]]);
  });

  it('treats the first connector as AND', () => {
    const parsed = parseQueryBody({ filters: [filter('a', 'OR'), filter('b')] }, 'query');
    expect(parsed.filters).toEqual([[eq('a'), eq('b')]]);
  });

  it('distributes where over every OR group', () => {
    const parsed = parseQueryBody({ where: { w: 'w' }, filters: [filter('a'), filter('b', 'OR'), filter('c')] }, 'query');
    expect(parsed.whereConditions).toEqual([eq('w')]);
    expect(parsed.filters).toEqual([[eq('a')], [eq('b'), eq('c')]]);
    expect(parsed.where).toEqual([[eq('w'), eq('a')], [eq('w'), eq('b'), eq('c')]]);
  });

  it('accepts an explicit null value for value-taking operators', () => {
    expect(parseQueryBody({ filters: [{ column: 'a', compare: '=', value: null }] }, 'query').filters).toEqual([[eq('a', null)]]);
  });

  it('rejects bad filter lists and items', () => {
    expectFilterError({}, 'Invalid parameters: filters');
    expectFilterError(null, 'Invalid parameters: filters');
    expectFilterError(['x'], 'Invalid filter: filters[0] must be an object');
    expectFilterError([filter('a'), []], 'Invalid filter: filters[1] must be an object');
    expectFilterError([{ compare: '=', value: 1 }], 'Invalid filter: filters[0]: missing column');
    expectFilterError([{ column: '', compare: '=', value: 1 }], 'Invalid filter: filters[0]: column must be a non-empty string');
    expectFilterError([{ column: 5, compare: '=', value: 1 }], 'Invalid filter: filters[0]: column must be a non-empty string');
    expectFilterError([{ column: 'a', field: 'b', compare: '=', value: 1 }], 'Invalid filter: filters[0]: column and field disagree');
    expectFilterError([{ column: 'a', compare: '=', value: 1, op: 'x' }], 'Invalid filter: filters[0]: unknown property "op"');
    expectFilterError([{ column: 'a', value: 1 }], 'Invalid filter: a: missing compare');
    expectFilterError([{ column: 'a', compare: 'LIKE', value: 1 }], 'Invalid filter: unknown operator "LIKE"');
    expectFilterError([{ column: 'a', compare: 'eq', value: 1 }], 'Invalid filter: unknown operator "eq"');
    expectFilterError([{ column: 'a', compare: 7, value: 1 }], 'Invalid filter: unknown operator 7');
    expectFilterError([{ column: 'a', compare: '=' }], 'Invalid filter: a: missing value');
    expectFilterError([filter('a'), filter('b', 'XOR')], 'Invalid filter: b: connector must be AND or OR, got "XOR"');
    expectFilterError([filter('a', 'Or')], 'Invalid filter: a: connector must be AND or OR, got "Or"');
  });
});

describe('combineGroups', () => {
  it('treats [] as neutral and distributes otherwise', () => {
    const a = [[eq('a')], [eq('b')]];
    const c = [[eq('c')], [eq('d'), eq('e')]];
    expect(combineGroups([], a)).toEqual(a);
    expect(combineGroups(a, [])).toEqual(a);
    expect(combineGroups(a, c)).toEqual([
      [eq('a'), eq('c')], [eq('a'), eq('d'), eq('e')], [eq('b'), eq('c')], [eq('b'), eq('d'), eq('e')],
    ]);
  });
});
