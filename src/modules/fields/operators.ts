/** Comparison operators of record filters, after alias normalisation. */
export type Operator =
  | 'eq'
  | 'ne'
  | 'lt'
  | 'lte'
  | 'gt'
  | 'gte'
  | 'contains'
  | 'starts_with'
  | 'ends_with'
  | 'empty'
  | 'not_empty';

// The seed lists aliases "case as given": lookups are exact, so `eq` or `Contains` stay unknown.
// A Map (not an object literal) so that names like `constructor` or `__proto__` never match.
const OPERATOR_ALIASES: ReadonlyMap<string, Operator> = new Map<string, Operator>([
  ['=', 'eq'],
  ['EQ', 'eq'],
  ['!=', 'ne'],
  ['NE', 'ne'],
  ['NEQ', 'ne'],
  ['<', 'lt'],
  ['LT', 'lt'],
  ['<=', 'lte'],
  ['LTE', 'lte'],
  ['>', 'gt'],
  ['GT', 'gt'],
  ['>=', 'gte'],
  ['GTE', 'gte'],
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
]);

/** Every spelling a client may send, for documentation and tests. */
export const OPERATOR_SPELLINGS: readonly string[] = [...OPERATOR_ALIASES.keys()];

/** Maps an operator or alias to its canonical name; null when it is not one. */
export function normalizeOperator(raw: unknown): Operator | null {
  if (typeof raw !== 'string') return null;
  return OPERATOR_ALIASES.get(raw) ?? null;
}

/** Empty / not-empty ignore any value; every other operator compares against one. */
export function operatorTakesValue(op: Operator): boolean {
  return op !== 'empty' && op !== 'not_empty';
}
