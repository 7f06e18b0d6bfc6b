import type { Field } from '../../fields/field.js';
import { getFieldType } from '../../fields/registry.js';
import type { ConditionGroups } from './parse-conditions.js';

/**
 * What an index could serve in a query: the fields it compares by equality, the fields it
 * bounds (`<`, `>=`, …) and the field it sorts by. Conditions joined by OR, patterns, search and
 * emptiness tests are left out: an index on them would not narrow the query.
 */
export interface QueryShape {
  /** Ordered by field id, so the same query written two ways has one shape. */
  equal: readonly Field[];
  range: readonly Field[];
  sort: { field: Field; direction: 'asc' | 'desc' } | null;
}

/** Told the shape of every record query that ran (the automatic indexes listen); never slows it. */
export interface QueryShapeObserver {
  observe(tableId: number, shape: QueryShape): void;
}

const rangeOperators = new Set(['lt', 'lte', 'gt', 'gte']);

/**
 * The shape of a query whose parts are AND-ed: each part a list of OR-ed groups. A part of
 * several groups adds nothing; null when nothing in the query is indexable.
 */
export function shapeOfQuery(parts: readonly ConditionGroups[], orderBy: string | null, orderDir: 'asc' | 'desc', fields: ReadonlyMap<string, Field>): QueryShape | null {
  const equal = new Map<number, Field>();
  const range = new Map<number, Field>();
  for (const part of parts) {
    if (part.length !== 1) continue;
    for (const condition of part[0]) {
      const field = fields.get(condition.field);
      if (!field || field.multiple) continue;
      const value = condition.value;
      if (condition.op === 'eq' && value !== null && value !== '' && !Array.isArray(value)) equal.set(field.id, field);
      // A range on a type with a sort key compares that key, not the stored column.
      else if (rangeOperators.has(condition.op) && !getFieldType(field.type).orderKey) range.set(field.id, field);
    }
  }
  const sortField = orderBy === null ? undefined : fields.get(orderBy);
  const sort = sortField && !sortField.multiple && getFieldType(sortField.type).sortable ? { field: sortField, direction: orderDir } : null;
  if (equal.size === 0 && range.size === 0 && !sort) return null;
  const byId = (a: Field, b: Field) => a.id - b.id;
  return { equal: [...equal.values()].sort(byId), range: [...range.values()].filter((f) => !equal.has(f.id)).sort(byId), sort };
}
