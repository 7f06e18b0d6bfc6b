import type { Field } from '../../fields/field.js';
import { getFieldType } from '../../fields/registry.js';
import { indexableSystemFields } from '../../fields/system-fields.js';
import type { Condition, ConditionGroups } from './parse-conditions.js';

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

/** The field an index could hold for a slug: the table's, or `created_at` / `updated_at` (`id` is the key, served already). */
function indexedFieldOf(slug: string, fields: ReadonlyMap<string, Field>): Field | undefined {
  return fields.get(slug) ?? indexableSystemFields.get(slug);
}

/** How an index on the condition's column would serve it: equality, a range, or not at all. */
function indexableAs(condition: Condition, fields: ReadonlyMap<string, Field>): { kind: 'equal' | 'range'; field: Field } | null {
  const field = indexedFieldOf(condition.field, fields);
  if (!field || field.multiple) return null;
  const value = condition.value;
  if (condition.op === 'eq' && value !== null && value !== '' && !Array.isArray(value)) return { kind: 'equal', field };
  // A range on a type with a sort key compares that key, not the stored column.
  if (rangeOperators.has(condition.op) && !getFieldType(field.type).orderKey) return { kind: 'range', field };
  return null;
}

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
      const indexable = indexableAs(condition, fields);
      if (indexable?.kind === 'equal') equal.set(indexable.field.id, indexable.field);
      else if (indexable?.kind === 'range') range.set(indexable.field.id, indexable.field);
    }
  }
  const sortField = orderBy === null ? undefined : indexedFieldOf(orderBy, fields);
  const sort = sortField && !sortField.multiple && getFieldType(sortField.type).sortable ? { field: sortField, direction: orderDir } : null;
  if (equal.size === 0 && range.size === 0 && !sort) return null;
  const byId = (a: Field, b: Field) => a.id - b.id;
  return { equal: [...equal.values()].sort(byId), range: [...range.values()].filter((f) => !equal.has(f.id)).sort(byId), sort };
}

/** More conditions than this, and a query is not called cheap per row, however simple each is. */
const cheapConditionLimit = 8;
const systemOrders = new Set(['id', 'created_at', 'updated_at']);

/**
 * Whether each row costs the query only a few comparisons of stored values: its conditions
 * AND-ed, each one an index on its column would serve (equality or a range, as the shape
 * takes them), at most eight, and its order by a stored value (not a folded text). Such a
 * statement takes time bounded by the table's size, so SQLite's per-row budget guard, which
 * about doubles its cost, is left out of it (records.repository `guarded`). Searches, patterns,
 * OR groups and emptiness tests are not cheap: a row may take them long to judge.
 */
export function isCheapPerRow(parts: readonly ConditionGroups[], orderBy: string | null, fields: ReadonlyMap<string, Field>): boolean {
  let conditions = 0;
  for (const part of parts) {
    if (part.length === 0) continue;
    if (part.length !== 1) return false;
    for (const condition of part[0]) {
      if (!indexableAs(condition, fields)) return false;
      conditions += 1;
    }
  }
  if (conditions > cheapConditionLimit) return false;
  if (orderBy === null || systemOrders.has(orderBy)) return true;
  const sortField = fields.get(orderBy);
  return sortField !== undefined && !sortField.multiple && !getFieldType(sortField.type).orderKey;
}
