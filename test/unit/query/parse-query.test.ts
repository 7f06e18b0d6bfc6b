import { describe, it, expect } from 'vitest';
import { ValidationError } from '../../../src/shared/errors.js';
import { parseQueryBody, type Condition } from '../../../src/modules/records/query/parse-query.js';

function expectError(body: unknown, message: string, code = 'invalid_parameters', mode: 'query' | 'count' | 'ids' = 'query'): void {
  try {
    parseQueryBody(body, mode);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toBe(message);
    expect((error as ValidationError).code).toBe(code);
    return;
  }
  expect.unreachable(`expected ${JSON.stringify(body)} to fail with ${message}`);
}

const cond = (field: string, op: Condition['op'], value: unknown = null): Condition => ({ field, op, value });

describe('parseQueryBody: top level', () => {
  it('gives defaults for an empty, undefined or null body', () => {
    const expected = {
      fields: null, where: [], filters: [], whereConditions: [], orderBy: null, orderDir: 'asc',
      limit: 100, offset: 0, viewId: null, appendFilters: false, search: null,
    };
    expect(parseQueryBody({}, 'query')).toEqual(expected);
    expect(parseQueryBody(undefined, 'query')).toEqual(expected);
    expect(parseQueryBody(null, 'query')).toEqual(expected);
  });

  it.each([[[]], ['x'], [3], [true]])('rejects a non-object body %j', (body) => {
    expectError(body, 'Invalid parameters: body must be a JSON object');
  });

  it('rejects unknown keys, naming them', () => {
    expectError({ limit: 5, sort: 'x' }, 'Invalid parameters: unknown property "sort"');
    expectError(JSON.parse('{"__proto__": {}}'), 'Invalid parameters: unknown property "__proto__"');
  });

  it('reads every known key', () => {
    const parsed = parseQueryBody({
      fields: ['name', 'age'], order_by: 'age', order_dir: 'D', limit: 1000, offset: 20,
      view_id: 0, append_filters: true, search: '  hello world ',
    }, 'query');
    expect(parsed).toMatchObject({
      fields: ['name', 'age'], orderBy: 'age', orderDir: 'desc', limit: 1000, offset: 20,
      viewId: 0, appendFilters: true, search: 'hello world',
    });
  });
});

describe('parseQueryBody: pagination', () => {
  it.each([1, 100, 1000])('accepts limit %d', (limit) => {
    expect(parseQueryBody({ limit }, 'query').limit).toBe(limit);
  });

  it.each([0, 1001, -1, 1.5, '10', null, true, [], {}, Number.NaN])('rejects limit %j', (limit) => {
    expectError({ limit }, 'Invalid parameters: limit');
  });

  it.each([-1, 1.5, '0', null, 1e300])('rejects offset %j', (offset) => {
    expectError({ offset }, 'Invalid parameters: offset');
  });

  it('accepts offset 0 and large offsets', () => {
    expect(parseQueryBody({ offset: 0 }, 'query').offset).toBe(0);
    expect(parseQueryBody({ offset: 5_000_000 }, 'query').offset).toBe(5_000_000);
  });

  it.each(['count', 'ids'] as const)('ignores bad pagination in %s mode', (mode) => {
    const parsed = parseQueryBody({ limit: 0, offset: 'x', order_by: 'name' }, mode);
    expect(parsed.limit).toBeNull();
    expect(parsed.offset).toBeNull();
    expect(parsed.orderBy).toBe('name');
  });

  it('still validates everything else in count mode', () => {
    expectError({ limit: 0, order_dir: 'X' }, 'Invalid parameters: order_dir', 'invalid_parameters', 'count');
  });
});

describe('parseQueryBody: scalar options', () => {
  it('treats null order_dir and order_by as defaults', () => {
    expect(parseQueryBody({ order_dir: null, order_by: null }, 'query')).toMatchObject({ orderDir: 'asc', orderBy: null });
    expect(parseQueryBody({ order_dir: 'A' }, 'query').orderDir).toBe('asc');
  });

  it.each(['a', 'd', 'ASC', 'desc', '', 1])('rejects order_dir %j', (order_dir) => {
    expectError({ order_dir }, 'Invalid parameters: order_dir');
  });

  it.each(['', 5, ['name'], {}])('rejects order_by %j', (order_by) => {
    expectError({ order_by }, 'Invalid parameters: order_by');
  });

  it('keeps a fields whitelist as given', () => {
    expect(parseQueryBody({ fields: ['name', 'id'] }, 'query').fields).toEqual(['name', 'id']);
    expect(parseQueryBody({ fields: [] }, 'query').fields).toEqual([]);
  });

  it.each([[[1]], ['name'], [null], [{}], [['a', 2]]])('rejects fields %j', (fields) => {
    expectError({ fields }, 'Invalid parameters: fields');
  });

  it.each([-1, 1.5, '3', null, true])('rejects view_id %j', (view_id) => {
    expectError({ view_id }, 'Invalid parameters: view_id');
  });

  it.each(['true', 1, null])('rejects append_filters %j', (append_filters) => {
    expectError({ append_filters }, 'Invalid parameters: append_filters');
  });

  it.each([5, null, ['x']])('rejects search %j', (search) => {
    expectError({ search }, 'Invalid parameters: search');
  });

  it('turns a blank search into null', () => {
    expect(parseQueryBody({ search: '   ' }, 'query').search).toBeNull();
  });
});

describe('parseQueryBody: where', () => {
  it('reads equality and comparison forms', () => {
    const parsed = parseQueryBody({
      where: { name: 'Ann', age: ['>=', 18], note: null, tags: ['C', 'x'], due: ['EMPTY'], done: ['NEMPTY', 'ignored'] },
    }, 'query');
    const expected = [
      cond('name', 'eq', 'Ann'), cond('age', 'gte', 18), cond('note', 'eq', null),
      cond('tags', 'contains', 'x'), cond('due', 'empty'), cond('done', 'not_empty'),
    ];
    expect(parsed.whereConditions).toEqual(expected);
    expect(parsed.where).toEqual([expected]);
    expect(parsed.filters).toEqual([]);
  });

  it.each([[[]], ['x'], [5], [null]])('rejects a non-object where %j', (where) => {
    expectError({ where }, 'Invalid parameters: where');
  });

  it('rejects arrays that are not [operator, value]', () => {
    expectError({ where: { tags: ['a', 'b'] } }, 'Invalid filter: tags: unknown operator "a" (an array must be [operator, value])', 'invalid_filter');
    expectError({ where: { tags: ['eq', 'b'] } }, 'Invalid filter: tags: unknown operator "eq" (an array must be [operator, value])', 'invalid_filter');
    expectError({ where: { tags: [] } }, 'Invalid filter: tags: expected [operator, value]', 'invalid_filter');
    expectError({ where: { age: ['>'] } }, 'Invalid filter: age: missing value for operator ">"', 'invalid_filter');
    expectError({ where: { age: ['>', 1, 2] } }, 'Invalid filter: age: expected [operator, value]', 'invalid_filter');
    expectError({ where: { age: ['EMPTY', 1, 2] } }, 'Invalid filter: age: expected [operator] or [operator, value]', 'invalid_filter');
  });
});
