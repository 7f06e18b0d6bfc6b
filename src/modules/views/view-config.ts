import { ValidationError } from '../../shared/errors.js';
import type { Field } from '../fields/field.js';

export const viewTypes = ['grid', 'calendar', 'gallery', 'kanban'] as const;
export type ViewType = (typeof viewTypes)[number];

const invalid = (key: string, problem: string) => new ValidationError(`Invalid config.${key}: ${problem}`);

type Rule = (value: unknown, fields: ReadonlyMap<string, Field>) => unknown;

/** A field of the table whose type is one of `types` (and single-valued when `single`). */
const fieldOf =
  (key: string, types: readonly string[], single = false): Rule =>
  (value, fields) => {
    const field = typeof value === 'string' ? fields.get(value) : undefined;
    const wanted = `${single ? 'a single-value ' : 'a '}${types.join(' or ')} field of the table`;
    if (!field) throw invalid(key, `must be ${wanted}`);
    if (!types.includes(field.type)) throw invalid(key, `must be ${wanted}, ${field.slug} is a ${field.multiple ? 'multiple ' : ''}${field.type} field`);
    if (single && field.multiple) throw invalid(key, `must be ${wanted}, ${field.slug} takes several values`);
    return field.slug;
  };

const anyField =
  (key: string): Rule =>
  (value, fields) => {
    if (typeof value !== 'string' || !fields.has(value)) throw invalid(key, 'must be a field of the table');
    return value;
  };

const oneOf =
  (key: string, choices: readonly unknown[]): Rule =>
  (value) => {
    if (!choices.includes(value)) throw invalid(key, `must be one of ${choices.map((c) => JSON.stringify(c)).join(', ')}`);
    return value;
  };

const dayNames = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/**
 * A calendar's first day of the week: its number 0–6 (0 = Sunday), or its English name in any
 * case (CONTRACT §6). Stored in the form given, a name lower-cased: `"Monday"` reads back
 * `"monday"`, `1` reads back `1` (docs/decisions.md).
 */
const weekStart: Rule = (value) => {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 6) return value;
  if (typeof value === 'string' && dayNames.includes(value.toLowerCase())) return value.toLowerCase();
  throw invalid('weekStart', 'must be a day name (sunday to saturday, any case) or its number 0-6 (0 = Sunday)');
};

/** Per layout: its keys, each with its rule, and which are required. */
const layouts: Record<Exclude<ViewType, 'grid'>, { rules: Record<string, Rule>; required: readonly string[] }> = {
  calendar: {
    rules: {
      startField: fieldOf('startField', ['date', 'datetime']),
      endField: fieldOf('endField', ['date', 'datetime']),
      colorField: fieldOf('colorField', ['select']),
      mode: oneOf('mode', ['month', 'week', 'day']),
      weekStart,
    },
    required: ['startField'],
  },
  gallery: { rules: { imageField: fieldOf('imageField', ['file']), secondaryField: anyField('secondaryField') }, required: ['imageField'] },
  kanban: { rules: { categoryField: fieldOf('categoryField', ['select'], true), secondaryField: anyField('secondaryField') }, required: ['categoryField'] },
};

/**
 * A grid's `columns`: the visible field ids in order. Never an error: anything that is not a
 * field the grid can show (unknown, deleted, always hidden, repeated, not a string) is dropped.
 */
function gridConfig(raw: unknown, fields: readonly Field[]): { columns: string[] } {
  const columns = typeof raw === 'object' && raw !== null && Array.isArray((raw as { columns?: unknown }).columns) ? (raw as { columns: unknown[] }).columns : [];
  const shown = new Set(fields.filter((field) => field.hidden !== 'always').map((field) => field.slug));
  return { columns: [...new Set(columns.filter((id): id is string => typeof id === 'string' && shown.has(id)))] };
}

/** A view's config checked against its type and the table's fields: 400 naming the bad key (never for grid). */
export function parseViewConfig(type: ViewType, raw: unknown, fields: readonly Field[]): Record<string, unknown> {
  if (type === 'grid') return gridConfig(raw, fields);
  const layout = layouts[type];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ValidationError(`Invalid config: a ${type} view needs an object with ${layout.required.join(', ')}`);
  const bySlug = new Map(fields.map((field) => [field.slug, field]));
  const config: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const rule = Object.hasOwn(layout.rules, key) ? layout.rules[key] : undefined;
    if (!rule) throw invalid(key, `unknown key for a ${type} view (use ${Object.keys(layout.rules).join(', ')})`);
    if (value !== null) config[key] = rule(value, bySlug);
  }
  for (const key of layout.required) if (config[key] === undefined) throw invalid(key, `is required for a ${type} view`);
  return config;
}
