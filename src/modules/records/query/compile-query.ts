import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../../../db/dialect.js';
import { ValidationError } from '../../../shared/errors.js';
import type { Field } from '../../tables/field-definition.js';
import { fieldColumnName } from '../../tables/physical-schema.js';
import { getFieldType } from '../fields/registry.js';
import type { FilterContext } from '../fields/value-context.js';
import type { ConditionGroups } from './parse-conditions.js';
import { systemFields } from './system-fields.js';

export type FilterEnvironment = Omit<FilterContext, 'column'>;

/** A field's column; system pseudo-fields use their own column names. */
export function columnOf(field: Field): RawBuilder<unknown> {
  return sql.ref(field.id === 0 ? field.slug : fieldColumnName(field.id));
}

function findField(fields: ReadonlyMap<string, Field>, slug: string): Field | undefined {
  return fields.get(slug) ?? systemFields.get(slug);
}

/** OR of AND-groups → one SQL condition; null when nothing restricts. */
export async function compileConditions(groups: ConditionGroups, fields: ReadonlyMap<string, Field>, env: FilterEnvironment): Promise<RawBuilder<boolean> | null> {
  if (groups.length === 0) return null;
  const compiledGroups: RawBuilder<boolean>[] = [];
  for (const group of groups) {
    const parts: RawBuilder<boolean>[] = [];
    for (const condition of group) {
      const field = findField(fields, condition.field);
      if (!field) throw new ValidationError(`Invalid filter: unknown field "${condition.field}"`, 'invalid_filter');
      parts.push(await getFieldType(field.type).compileFilter(condition.op, condition.value, field, { ...env, column: columnOf(field) }));
    }
    compiledGroups.push(parts.length === 1 ? parts[0] : sql<boolean>`(${sql.join(parts, sql` and `)})`);
  }
  return compiledGroups.length === 1 ? compiledGroups[0] : sql<boolean>`(${sql.join(compiledGroups, sql` or `)})`;
}

/** Whitespace-separated terms, lower-cased like the stored search text. */
export function compileSearch(search: string | null, table: string, dialect: Dialect): RawBuilder<boolean> | null {
  const terms = (search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return terms.length === 0 ? null : dialect.searchCondition(table, terms);
}

const textLikeTypes = new Set(['text', 'longtext', 'email', 'url', 'select']);

/**
 * ORDER BY with empties smallest (first ascending, last descending), text by its lower-cased
 * value in byte order, and `id` ascending as the tie-breaker so paging is stable.
 */
export function compileOrder(orderBy: string | null, direction: 'asc' | 'desc', fields: ReadonlyMap<string, Field>, dialect: Dialect): RawBuilder<unknown>[] {
  const tieBreaker = sql`id asc`;
  if (orderBy === null || (orderBy === 'id' && direction === 'asc')) return [tieBreaker];
  const field = findField(fields, orderBy);
  if (!field || !getFieldType(field.type).sortable || field.multiple) throw new ValidationError(`Invalid order_by: ${orderBy}`, 'invalid_order_by');
  if (field.slug === 'id' && field.id === 0) return [sql`id desc`];
  const column = textLikeTypes.has(field.type) ? dialect.sortableText(columnOf(field)) : columnOf(field);
  const key = field.type === 'checkbox' ? sql`coalesce(${column}, ${dialect.name === 'sqlite' ? sql`0` : sql`false`})` : column;
  return [direction === 'asc' ? sql`${key} asc nulls first` : sql`${key} desc nulls last`, tieBreaker];
}
