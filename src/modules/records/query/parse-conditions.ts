import { ErrorCode, ValidationError } from '../../../shared/errors.js';
import { normalizeOperator, operatorTakesValue, type Operator } from '../../fields/operators.js';

/** One comparison on one field; the value is still raw (a later compiler types and resolves it). */
export interface Condition {
  field: string;
  op: Operator;
  value: unknown;
}

/** Disjunctive normal form: an OR of AND-groups. `[]` means "no condition" (matches everything). */
export type ConditionGroups = Condition[][];

type Connector = 'AND' | 'OR';

const FILTER_KEYS: ReadonlySet<string> = new Set(['column', 'field', 'compare', 'value', 'connector']);

export function createFilterError(detail: string): ValidationError {
  return new ValidationError(`Invalid filter: ${detail}`, ErrorCode.invalidFilter);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Short JSON rendering of a client value for error messages (strings keep their quotes). */
export function describeValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = typeof value;
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Parses the `where` shorthand: `{slug: value}` (equality) or `{slug: [operator, value]}`. */
export function parseWhere(raw: unknown): Condition[] {
  if (raw === undefined) return [];
  if (!isPlainObject(raw)) throw new ValidationError('Invalid parameters: where');
  return Object.entries(raw).map(([field, spec]) => parseWhereEntry(field, spec));
}

function parseWhereEntry(field: string, spec: unknown): Condition {
  if (!Array.isArray(spec)) return { field, op: 'eq', value: spec };
  if (spec.length === 0) throw createFilterError(`${field}: expected [operator, value]`);
  const op = normalizeOperator(spec[0]);
  if (op === null) {
    throw createFilterError(`${field}: unknown operator ${describeValue(spec[0])} (an array must be [operator, value])`);
  }
  if (!operatorTakesValue(op)) {
    // `[op]` and `[op, ignored]` are both fine for empty/not-empty.
    if (spec.length > 2) throw createFilterError(`${field}: expected [operator] or [operator, value]`);
    return { field, op, value: null };
  }
  if (spec.length === 1) throw createFilterError(`${field}: missing value for operator ${describeValue(spec[0])}`);
  if (spec.length > 2) throw createFilterError(`${field}: expected [operator, value]`);
  return { field, op, value: spec[1] };
}

/**
 * Parses the verbose `filters` array (also the stored filters of a view). Connectors are applied
 * with SQL precedence, AND over OR, so each OR starts a new AND-group.
 */
export function parseFilterList(raw: unknown): ConditionGroups {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new ValidationError('Invalid parameters: filters');
  const groups: ConditionGroups = [];
  raw.forEach((item, index) => {
    const { condition, connector } = parseFilter(item, index);
    // The first filter has nothing to join to, so its connector counts as AND whatever it says.
    if (index === 0 || connector === 'OR') groups.push([condition]);
    else groups[groups.length - 1].push(condition);
  });
  return groups;
}

function parseFilter(item: unknown, index: number): { condition: Condition; connector: Connector } {
  if (!isPlainObject(item)) throw createFilterError(`filters[${index}] must be an object`);
  const unknownKey = Object.keys(item).find((key) => !FILTER_KEYS.has(key));
  if (unknownKey !== undefined) throw createFilterError(`filters[${index}]: unknown property "${unknownKey}"`);
  const field = readFilterField(item, index);
  if (item.compare === undefined) throw createFilterError(`${field}: missing compare`);
  const op = normalizeOperator(item.compare);
  if (op === null) throw createFilterError(`unknown operator ${describeValue(item.compare)}`);
  const connector = readConnector(item.connector, field);
  if (!operatorTakesValue(op)) return { condition: { field, op, value: null }, connector };
  if (!Object.hasOwn(item, 'value')) throw createFilterError(`${field}: missing value`);
  return { condition: { field, op, value: item.value }, connector };
}

function readFilterField(item: Record<string, unknown>, index: number): string {
  const { column, field } = item;
  if (column !== undefined && field !== undefined && column !== field) {
    throw createFilterError(`filters[${index}]: column and field disagree`);
  }
  const slug = column ?? field;
  if (slug === undefined) throw createFilterError(`filters[${index}]: missing column`);
  if (typeof slug !== 'string' || slug === '') {
    throw createFilterError(`filters[${index}]: column must be a non-empty string`);
  }
  return slug;
}

function readConnector(raw: unknown, field: string): Connector {
  if (raw === undefined || raw === 'AND' || raw === 'and') return 'AND';
  if (raw === 'OR' || raw === 'or') return 'OR';
  throw createFilterError(`${field}: connector must be AND or OR, got ${describeValue(raw)}`);
}

/** ANDs two DNF expressions by distributing one over the other; `[]` is the neutral element. */
export function combineGroups(left: ConditionGroups, right: ConditionGroups): ConditionGroups {
  if (left.length === 0) return right;
  if (right.length === 0) return left;
  return left.flatMap((l) => right.map((r) => [...l, ...r]));
}
