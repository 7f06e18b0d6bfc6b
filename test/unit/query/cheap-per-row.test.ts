import { describe, expect, it } from 'vitest';
import { isCheapPerRow } from '../../../src/modules/records/query/query-shape.js';
import type { Condition, ConditionGroups } from '../../../src/modules/records/query/parse-conditions.js';
import type { Field } from '../../../src/modules/fields/field.js';
import { buildField } from '../../field-builder.js';

/**
 * Which record queries SQLite runs without its per-row budget guard (records.repository
 * `guarded`). Risks guarded against: a query whose rows can take long to judge (patterns, many
 * conditions, OR groups, emptiness tests, folded text) losing the guard, so that it could run
 * past the time budget unstopped; and the plain filter-and-sort a list page asks for keeping it
 * (it about doubles such a statement).
 */
const fields = new Map<string, Field>(
  [
    buildField({ id: 1, slug: 'stage', type: 'select' }),
    buildField({ id: 2, slug: 'amount', type: 'number' }),
    buildField({ id: 3, slug: 'name', type: 'text' }),
    buildField({ id: 4, slug: 'tags', type: 'select', multiple: true }),
    buildField({ id: 5, slug: 'due', type: 'date' }),
  ].map((field) => [field.slug, field]),
);
const and = (...conditions: Condition[]): ConditionGroups => [conditions];
const c = (field: string, op: Condition['op'], value: unknown): Condition => ({ field, op, value });

describe('isCheapPerRow', () => {
  it('takes AND-ed equalities and ranges on stored values, ordered by a stored value', () => {
    expect(isCheapPerRow([and(c('stage', 'eq', 'won'))], 'amount', fields)).toBe(true);
    expect(isCheapPerRow([and(c('stage', 'eq', 'won'), c('amount', 'gte', 10), c('due', 'lt', '2024-01-01'))], null, fields)).toBe(true);
    expect(isCheapPerRow([and(c('name', 'eq', 'Ann'))], 'created_at', fields)).toBe(true);
    expect(isCheapPerRow([[], and(c('amount', 'gt', 1)), []], 'id', fields)).toBe(true);
    expect(isCheapPerRow([], null, fields)).toBe(true);
    // The system datetimes are stored values too.
    expect(isCheapPerRow([and(c('created_at', 'gte', '2024-01-01 00:00:00'), c('updated_at', 'eq', '2024-01-02 10:00:00'))], 'updated_at', fields)).toBe(true);
  });

  it('refuses conditions a row may take long to judge', () => {
    expect(isCheapPerRow([and(c('name', 'contains', 'a'))], null, fields)).toBe(false);
    expect(isCheapPerRow([and(c('name', 'lt', 'm'))], null, fields)).toBe(false); // folded text
    expect(isCheapPerRow([and(c('stage', 'eq', null))], null, fields)).toBe(false); // emptiness
    expect(isCheapPerRow([and(c('tags', 'eq', 'x'))], null, fields)).toBe(false); // several values
    expect(isCheapPerRow([and(c('stage', 'ne', 'won'))], null, fields)).toBe(false);
    expect(isCheapPerRow([and(c('unknown', 'eq', 1))], null, fields)).toBe(false);
    expect(isCheapPerRow([[[c('stage', 'eq', 'won')], [c('stage', 'eq', 'lost')]]], null, fields)).toBe(false); // OR
  });

  it('refuses more than eight conditions, even on one field', () => {
    const eight = Array.from({ length: 8 }, () => c('stage', 'eq', 'won'));
    expect(isCheapPerRow([and(...eight)], null, fields)).toBe(true);
    expect(isCheapPerRow([and(...eight), and(c('amount', 'gt', 1))], null, fields)).toBe(false);
  });

  it('refuses an order by folded text or by several values', () => {
    expect(isCheapPerRow([and(c('stage', 'eq', 'won'))], 'name', fields)).toBe(false);
    expect(isCheapPerRow([], 'stage', fields)).toBe(false);
    expect(isCheapPerRow([], 'tags', fields)).toBe(false);
    expect(isCheapPerRow([], 'nothing', fields)).toBe(false);
  });
});
