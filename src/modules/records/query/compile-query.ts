import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../../../db/dialect.js';
import { ErrorCode, ValidationError } from '../../../shared/errors.js';
import type { Field } from '../../fields/field.js';
import { fieldIndexName } from '../../fields/physical-names.js';
import { getFieldType } from '../../fields/registry.js';
import { recordSearchOf, searchTextTable } from '../search/index.js';
import type { FilterContext } from '../../fields/value-context.js';
import type { ConditionGroups } from './parse-conditions.js';
import { columnNameOf, isSystemField, systemFields } from '../../fields/system-fields.js';

export type FilterEnvironment = Omit<FilterContext, 'column'>;

/** A field's column; system pseudo-fields use their own column names. */
export function columnOf(field: Field): RawBuilder<unknown> {
  return sql.ref(columnNameOf(field));
}

function findField(fields: ReadonlyMap<string, Field>, slug: string): Field | undefined {
  return fields.get(slug) ?? systemFields.get(slug);
}

/**
 * Longest value of a contains / starts with / ends with filter, in characters. SQLite refuses
 * LIKE patterns over 50,000 bytes, and a longer pattern is no real search; a fixed cap answers
 * alike on both engines, whatever the characters' UTF-8 length or escaping.
 */
export const maxPatternLength = 1000;

function isOverPatternLength(value: string): boolean {
  return value.length > maxPatternLength && [...value].length > maxPatternLength;
}

/**
 * `a and b and c …` nested as a balanced tree: SQLite limits expression depth (1000), and a
 * flat chain of many conditions parses as one level per condition.
 */
function joinBalanced(parts: readonly RawBuilder<boolean>[], connector: 'and' | 'or'): RawBuilder<boolean> {
  if (parts.length === 1) return parts[0];
  const middle = Math.floor(parts.length / 2);
  return sql<boolean>`(${joinBalanced(parts.slice(0, middle), connector)} ${sql.raw(connector)} ${joinBalanced(parts.slice(middle), connector)})`;
}

/**
 * Whether a compile consulted anything besides the conditions, the fields and the dialect: the
 * clock (a date token), the caller (`@me`), the account's users (a user filter) or the tables
 * the caller sees (a lookup). One that consulted none of them makes the same SQL for the same
 * conditions on the same fields, so it may be kept (record-queries.ts).
 */
export interface CompileReads {
  environment: boolean;
}

/** A field's filter context, which notes in `reads` whatever of the environment the field type consults. */
function watchedContext(env: FilterEnvironment, column: RawBuilder<unknown>, reads: CompileReads): FilterContext {
  return {
    dialect: env.dialect,
    column,
    get actor() {
      reads.environment = true;
      return env.actor;
    },
    get clock() {
      reads.environment = true;
      return env.clock;
    },
    resolveUserReference(value) {
      reads.environment = true;
      return env.resolveUserReference(value);
    },
    isVisibleTable(tableId) {
      reads.environment = true;
      return env.isVisibleTable(tableId);
    },
  };
}

/** OR of AND-groups → one SQL condition; null when nothing restricts. */
export async function compileConditions(
  groups: ConditionGroups,
  fields: ReadonlyMap<string, Field>,
  env: FilterEnvironment,
  reads: CompileReads = { environment: false },
): Promise<RawBuilder<boolean> | null> {
  if (groups.length === 0) return null;
  const compiledGroups: RawBuilder<boolean>[] = [];
  for (const group of groups) {
    const parts: RawBuilder<boolean>[] = [];
    for (const condition of group) {
      const field = findField(fields, condition.field);
      if (!field) throw new ValidationError(`Invalid filter: unknown field "${condition.field}"`, ErrorCode.invalidFilter);
      // Empty means null, "" or [] (CONTRACT §4): `= []` is "is empty" on every type, like `= null`.
      let { op } = condition;
      if ((op === 'eq' || op === 'ne') && Array.isArray(condition.value) && condition.value.length === 0) op = op === 'eq' ? 'empty' : 'not_empty';
      if ((op === 'contains' || op === 'starts_with' || op === 'ends_with') && typeof condition.value === 'string' && isOverPatternLength(condition.value)) {
        throw new ValidationError(`Invalid filter: ${field.slug}: a ${op.replace('_', ' ')} value must be at most ${maxPatternLength} characters`, ErrorCode.invalidFilter);
      }
      parts.push(await getFieldType(field.type).compileFilter(op, condition.value, field, watchedContext(env, columnOf(field), reads)));
    }
    compiledGroups.push(joinBalanced(parts, 'and'));
  }
  return joinBalanced(compiledGroups, 'or');
}

/**
 * Whitespace-separated terms, lower-cased like the stored search text. `firstMatches`: see
 * RecordSearch.condition (only for a page whose only condition is the search, in id order).
 */
export function compileSearch(search: string | null, table: string, dialect: Dialect, firstMatches?: number): RawBuilder<boolean> | null {
  const terms = searchTermsOf(search);
  return terms.length === 0 ? null : recordSearchOf(dialect.name).condition(table, terms, firstMatches);
}

/**
 * The same search as a condition on the rows of record table `table`'s search table
 * (RecordSearch.textCondition), for a count whose only condition is the search.
 */
export function compileSearchText(search: string | null, table: string, dialect: Dialect): { table: string; where: RawBuilder<boolean> } | null {
  const terms = searchTermsOf(search);
  return terms.length === 0 ? null : { table: searchTextTable(table), where: recordSearchOf(dialect.name).textCondition(table, terms) };
}

const searchTermsOf = (search: string | null) => [...new Set((search ?? '').toLowerCase().split(/\s+/).filter(Boolean))];

/**
 * ORDER BY with empties smallest (first ascending, last descending), text by its lower-cased
 * value in byte order, and `id` ascending as the tie-breaker so paging is stable.
 */
export function compileOrder(orderBy: string | null, direction: 'asc' | 'desc', fields: ReadonlyMap<string, Field>, dialect: Dialect): RawBuilder<unknown>[] {
  const tieBreaker = sql`id asc`;
  if (orderBy === null || (orderBy === 'id' && direction === 'asc')) return [tieBreaker];
  const field = findField(fields, orderBy);
  if (!field || !getFieldType(field.type).sortable || field.multiple) throw new ValidationError(`Invalid order_by: ${orderBy}`, ErrorCode.invalidOrderBy);
  if (field.slug === 'id' && isSystemField(field)) return [sql`id desc`];
  const { orderKey } = getFieldType(field.type);
  const key = orderKey ? orderKey(columnOf(field), dialect) : columnOf(field);
  return [direction === 'asc' ? sql`${key} asc nulls first` : sql`${key} desc nulls last`, tieBreaker];
}

/**
 * The field index SQLite can walk in a page's order, if the field has one: field indexes are
 * on the plain column, so only an order by the column itself (a type without an orderKey, not
 * folded text or a checkbox's coalesce) follows one. PostgreSQL's planner weighs a LIMIT by itself.
 */
export function sortIndexOf(orderBy: string | null, fields: ReadonlyMap<string, Field>, dialect: Dialect): string | null {
  if (dialect.name !== 'sqlite' || orderBy === null) return null;
  const field = fields.get(orderBy);
  if (!field || field.multiple || getFieldType(field.type).orderKey) return null;
  return fieldIndexName(field);
}
