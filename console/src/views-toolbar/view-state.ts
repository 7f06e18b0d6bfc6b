import type { Field } from '../api/types';

/** One condition of the toolbar: the specification's filter object (conditions are joined with AND). */
export interface FilterCondition {
  column: string;
  compare: string;
  value?: unknown;
}

/** What the toolbar sets: what a saved grid view holds, plus the search (never saved: it is typed on top of a view). */
export interface ViewState {
  filters: FilterCondition[];
  orderBy: string | null;
  orderDir: 'A' | 'D';
  search: string;
  /** Visible field ids in order; [] shows every field in the table's order (the view config's meaning). */
  columns: string[];
  /** Column widths in pixels by field id (kept in the browser: docs/decisions.md, "Console views"). */
  widths: Record<string, number>;
}

export const emptyViewState: ViewState = { filters: [], orderBy: null, orderDir: 'A', search: '', columns: [], widths: {} };

/** A saved view as `views/list` answers it. */
export interface SavedView {
  id: number;
  name: string;
  type: string;
  config: ({ columns?: string[] } & Record<string, unknown>) | null;
  filters: FilterCondition[];
  order_by: string | null;
  order_dir: 'A' | 'D' | null;
  is_default: boolean;
  is_table_default: boolean;
}

export function stateOfView(view: SavedView | undefined, widths: Record<string, number>): ViewState {
  if (!view || view.id === 0) return { ...emptyViewState, widths };
  return { filters: view.filters ?? [], orderBy: view.order_by, orderDir: view.order_dir ?? 'A', search: '', columns: view.config?.columns ?? [], widths };
}

/** The record's own columns a view may sort by, as the sort select names them. */
export const systemSorts = [
  { id: 'id', name: 'Record id' },
  { id: 'created_at', name: 'Created at' },
  { id: 'updated_at', name: 'Updated at' },
];

/** The name the sort select shows for a sort column (a field's name, or a system column's). */
export function sortName(fields: Field[], orderBy: string): string {
  return fields.find((field) => field.id === orderBy)?.name ?? systemSorts.find((sort) => sort.id === orderBy)?.name ?? orderBy;
}

/** The operators each field type accepts in a filter (src/modules/fields/*: others are 400 `invalid_filter`). */
const textOperators = ['=', '!=', 'contains', 'starts_with', 'ends_with', 'is_empty', 'is_not_empty'];
const orderedOperators = ['=', '!=', '<', '<=', '>', '>=', 'is_empty', 'is_not_empty'];
const equalityOperators = ['=', '!=', 'is_empty', 'is_not_empty'];

export function operatorsFor(field: Field): string[] {
  switch (field.type) {
    case 'text':
    case 'longtext':
    case 'email':
    case 'url':
      return textOperators;
    case 'number':
    case 'date':
    case 'datetime':
    case 'time':
      return orderedOperators;
    case 'select':
      return field.multiple ? equalityOperators : textOperators;
    case 'file':
      return ['is_empty', 'is_not_empty'];
    default:
      return equalityOperators;
  }
}

export const operatorLabels: Record<string, string> = {
  '=': 'is',
  '!=': 'is not',
  '<': 'before / less than',
  '<=': 'on or before / at most',
  '>': 'after / more than',
  '>=': 'on or after / at least',
  contains: 'contains',
  starts_with: 'starts with',
  ends_with: 'ends with',
  is_empty: 'is empty',
  is_not_empty: 'is not empty',
};

export const takesValue = (compare: string) => compare !== 'is_empty' && compare !== 'is_not_empty';

/** Date tokens the API resolves at each query (record-service-interface, "Date tokens"); -Nd/+Nd etc. are typed. */
export const dateTokens = ['today', 'now', 'yesterday', 'start_of_week', 'start_of_month', 'start_of_year', 'start_of_last_week', 'start_of_last_month', 'start_of_last_year', '-7d', '+7d', '-1w', '-1m', '-1y'];

/** The value the API expects from what was typed: numbers as numbers, checkboxes as booleans. */
export function filterValue(field: Field | undefined, text: string): unknown {
  if (field?.type === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (field?.type === 'checkbox') return text === 'true';
  return text;
}

/** The query keys of a state: what records/query and records/count are sent (with the search). */
export function queryBody(state: ViewState, viewId: number, savedUnchanged: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  // A saved view that is shown as saved is queried through its id; a changed one through its settings.
  if (viewId && savedUnchanged) body.view_id = viewId;
  else {
    if (state.filters.length) body.filters = state.filters.map(({ column, compare, value }) => (takesValue(compare) ? { column, compare, value } : { column, compare }));
    if (state.orderBy) {
      body.order_by = state.orderBy;
      body.order_dir = state.orderDir;
    }
  }
  if (state.search.trim()) body.search = state.search.trim();
  return body;
}

/** Are the saved parts of two states the same (filters, sort, columns)? */
export function sameSavedParts(a: ViewState, b: ViewState): boolean {
  return JSON.stringify([a.filters, a.orderBy, a.orderBy ? a.orderDir : null, a.columns]) === JSON.stringify([b.filters, b.orderBy, b.orderBy ? b.orderDir : null, b.columns]);
}

/** The fields shown, in order: the state's columns, or every field when it names none. */
export function visibleFields(fields: Field[], columns: string[]): Field[] {
  if (!columns.length) return fields;
  const byId = new Map(fields.map((field) => [field.id, field]));
  return columns.map((id) => byId.get(id)).filter((field): field is Field => !!field);
}
