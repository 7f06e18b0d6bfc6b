import { ErrorCode, ValidationError } from '../../../shared/errors.js';
import {
  combineGroups,
  isPlainObject,
  parseFilterList,
  parseWhere,
  type Condition,
  type ConditionGroups,
} from './parse-conditions.js';

export type { Condition, ConditionGroups } from './parse-conditions.js';

/** `query` lists records; `count` and `ids` ignore pagination. */
export type QueryMode = 'query' | 'count' | 'ids';

export interface ParsedQuery {
  /** Column whitelist, or null for every field. */
  fields: string[] | null;
  /** `where` AND-ed with the `filters` expression, in DNF. `[]` matches everything. */
  where: ConditionGroups;
  /** Only the `filters` expression: kept apart because a view's filters replace it. */
  filters: ConditionGroups;
  /** Only the `where` conditions (all AND-ed). */
  whereConditions: Condition[];
  orderBy: string | null;
  orderDir: 'asc' | 'desc';
  /** Null in `count` and `ids` mode. */
  limit: number | null;
  /** Null in `count` and `ids` mode. */
  offset: number | null;
  viewId: number | null;
  appendFilters: boolean;
  /** Trimmed; null when absent or blank. */
  search: string | null;
}

const QUERY_KEYS: ReadonlySet<string> = new Set([
  'fields',
  'where',
  'filters',
  'order_by',
  'order_dir',
  'limit',
  'offset',
  'view_id',
  'append_filters',
  'search',
]);

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
/** `where` entries plus `filters` items. */
export const MAX_CONDITIONS = 1000;
/** Distinct whitespace-separated terms of `search`. */
export const MAX_SEARCH_TERMS = 100;

/**
 * Validates the shape of a records query/count/ids body. Field existence, value types and date
 * tokens need the table schema and are checked later by the compiler.
 */
export function parseQueryBody(body: unknown, mode: QueryMode): ParsedQuery {
  const input = readBody(body);
  const fields = parseFields(input.fields);
  const whereConditions = parseWhere(input.where);
  const filters = parseFilterList(input.filters);
  const orderBy = parseOrderBy(input.order_by);
  const orderDir = parseOrderDir(input.order_dir);
  // The seed says count and ids ignore pagination, so a bad limit there is not an error.
  const paginated = mode === 'query';
  const limit = paginated ? parseInteger(input.limit, 'limit', 1, MAX_LIMIT, DEFAULT_LIMIT) : null;
  const offset = paginated ? parseInteger(input.offset, 'offset', 0, Number.MAX_SAFE_INTEGER, 0) : null;
  const viewId = parseViewId(input.view_id);
  const appendFilters = parseBoolean(input.append_filters, 'append_filters');
  const search = parseSearch(input.search);
  // Bounds the SQL a body can produce (statement depth and parameter limits of the engines).
  if (whereConditions.length + filters.reduce((n, group) => n + group.length, 0) > MAX_CONDITIONS) {
    throw new ValidationError(`Invalid filter: too many conditions (at most ${MAX_CONDITIONS})`, ErrorCode.invalidFilter);
  }
  const where = combineGroups(whereConditions.length > 0 ? [whereConditions] : [], filters);
  return { fields, where, filters, whereConditions, orderBy, orderDir, limit, offset, viewId, appendFilters, search };
}

function readBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (!isPlainObject(body)) throw invalidParameter('body must be a JSON object');
  const unknownKey = Object.keys(body).find((key) => !QUERY_KEYS.has(key));
  if (unknownKey !== undefined) throw invalidParameter(`unknown property "${unknownKey}"`);
  return body;
}

function invalidParameter(detail: string): ValidationError {
  return new ValidationError(`Invalid parameters: ${detail}`);
}

function parseFields(raw: unknown): string[] | null {
  if (raw === undefined) return null;
  if (!Array.isArray(raw) || !raw.every((item) => typeof item === 'string')) throw invalidParameter('fields');
  return [...raw];
}

function parseOrderBy(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string' || raw === '') throw invalidParameter('order_by');
  return raw;
}

function parseOrderDir(raw: unknown): 'asc' | 'desc' {
  if (raw === undefined || raw === null || raw === 'A') return 'asc';
  if (raw === 'D') return 'desc';
  throw invalidParameter('order_dir');
}

// Never clamps: an out-of-range value is the client's mistake and is reported (CONTRACT §4).
/** 0 (no view) or a view's id; an integer no view can have is simply a view that does not exist (shared/ids.ts). */
function parseViewId(raw: unknown): number | null {
  if (raw === undefined) return null;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 0) throw invalidParameter('view_id');
  return raw;
}

function parseInteger(raw: unknown, key: string, min: number, max: number, fallback: number): number {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw < min || raw > max) throw invalidParameter(key);
  return raw;
}

function parseBoolean(raw: unknown, key: string): boolean {
  if (raw === undefined) return false;
  if (typeof raw !== 'boolean') throw invalidParameter(key);
  return raw;
}

function parseSearch(raw: unknown): string | null {
  if (raw === undefined) return null;
  if (typeof raw !== 'string') throw invalidParameter('search');
  // Stored text never holds NUL (PostgreSQL text cannot), so such a term could never match.
  if (raw.includes('\u0000')) throw invalidParameter('search must not contain NUL characters');
  const trimmed = raw.trim();
  if (new Set(trimmed.toLowerCase().split(/\s+/)).size > MAX_SEARCH_TERMS) throw invalidParameter(`search has more than ${MAX_SEARCH_TERMS} terms`);
  return trimmed === '' ? null : trimmed;
}
