import { useState } from 'react';
import type { Field } from '../api/types';
import { Button } from '../ui/button';
import { dateTokens, filterValue, operatorLabels, operatorsFor, systemSorts, takesValue, type FilterCondition, type ViewState } from './view-state';

/** Where a server error belongs: a filter (by index), the sort, the view's name, or the whole toolbar. */
export interface SettingErrors {
  filters: Map<number, string>;
  sort?: string;
  search?: string;
  name?: string;
  /** A refused layout config (`Invalid config…`), shown on the new view's setting it names. */
  config?: string;
  other?: string;
}

interface FilterToolbarProps {
  fields: Field[];
  state: ViewState;
  onChange(state: ViewState): void;
  errors: SettingErrors;
  /** The grid's columns (a kanban, calendar or gallery has none); shown unless false. */
  showColumns?: boolean;
}

const unsortable = new Set(['file', 'longtext']);

/**
 * The grid's filters (joined with AND), sort, search and columns, as the specification's
 * filter objects and the view config's columns. Every change is applied at once.
 */
export function FilterToolbar({ fields, state, onChange, errors, showColumns = true }: FilterToolbarProps) {
  const [columnsOpen, setColumnsOpen] = useState(false);
  const byId = new Map(fields.map((field) => [field.id, field]));
  const setFilter = (index: number, next: FilterCondition) => onChange({ ...state, filters: state.filters.map((filter, at) => (at === index ? next : filter)) });
  const addFilter = () => {
    const field = fields[0];
    if (field) onChange({ ...state, filters: [...state.filters, { column: field.id, compare: operatorsFor(field)[0], value: '' }] });
  };
  const shown = state.columns.length ? state.columns : fields.map((field) => field.id);
  const setColumns = (columns: string[]) => onChange({ ...state, columns: columns.length === fields.length && columns.every((id, index) => id === fields[index].id) ? [] : columns });

  return (
    <div className="view-toolbar">
      <div className="view-toolbar-row">
        <label className="view-control">
          <span>Search</span>
          <input className="input" type="search" aria-label="Search" value={state.search} aria-invalid={!!errors.search || undefined} onChange={(event) => onChange({ ...state, search: event.target.value })} placeholder="Search records" />
        </label>
        <label className="view-control">
          <span>Sort by</span>
          <select className="input" aria-label="Sort by" value={state.orderBy ?? ''} aria-invalid={!!errors.sort || undefined} aria-describedby={errors.sort ? 'sort-error' : undefined} onChange={(event) => onChange({ ...state, orderBy: event.target.value || null })}>
            <option value="">Record order</option>
            {fields
              .filter((field) => !unsortable.has(field.type) && !field.multiple)
              .map((field) => (
                <option key={field.id} value={field.id}>
                  {field.name}
                </option>
              ))}
            {systemSorts.map((sort) => (
              <option key={sort.id} value={sort.id}>
                {sort.name}
              </option>
            ))}
          </select>
        </label>
        <label className="view-control">
          <span>Direction</span>
          <select className="input" aria-label="Direction" value={state.orderDir} disabled={!state.orderBy} onChange={(event) => onChange({ ...state, orderDir: event.target.value as 'A' | 'D' })}>
            <option value="A">Ascending</option>
            <option value="D">Descending</option>
          </select>
        </label>
        <Button onPress={addFilter}>Add filter</Button>
        {showColumns && (
          <Button onPress={() => setColumnsOpen(!columnsOpen)} aria-expanded={columnsOpen}>
            Columns
          </Button>
        )}
      </div>
      {errors.sort && (
        <p id="sort-error" className="form-error" role="alert">
          {errors.sort}
        </p>
      )}
      {errors.search && (
        <p className="form-error" role="alert">
          {errors.search}
        </p>
      )}
      {state.filters.length > 0 && (
        <ul className="filter-list" aria-label="Filters (all must match)">
          {state.filters.map((filter, index) => {
            const field = byId.get(filter.column);
            const operators = field ? operatorsFor(field) : [filter.compare];
            const error = errors.filters.get(index);
            return (
              <li key={index} className="filter-row">
                <span className="filter-joiner">{index === 0 ? 'Where' : 'and'}</span>
                <select
                  className="input"
                  aria-label={`Filter ${index + 1} field`}
                  value={filter.column}
                  onChange={(event) => {
                    const next = byId.get(event.target.value)!;
                    const compare = operatorsFor(next).includes(filter.compare) ? filter.compare : operatorsFor(next)[0];
                    setFilter(index, { column: next.id, compare, value: '' });
                  }}
                >
                  {fields.map((option) => (
                    <option key={option.id} value={option.id}>
                      {option.name}
                    </option>
                  ))}
                  {!field && <option value={filter.column}>{filter.column} (deleted)</option>}
                </select>
                <select className="input" aria-label={`Filter ${index + 1} operator`} value={filter.compare} onChange={(event) => setFilter(index, { ...filter, compare: event.target.value })}>
                  {operators.map((operator) => (
                    <option key={operator} value={operator}>
                      {operatorLabels[operator] ?? operator}
                    </option>
                  ))}
                </select>
                {takesValue(filter.compare) && <FilterValueInput index={index} field={field} filter={filter} error={error} onChange={(value) => setFilter(index, { ...filter, value })} />}
                <Button variant="quiet" aria-label={`Remove filter ${index + 1}`} onPress={() => onChange({ ...state, filters: state.filters.filter((_, at) => at !== index) })}>
                  ✕
                </Button>
                {error && (
                  <p id={`filter-error-${index}`} className="form-error filter-error" role="alert">
                    {error}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {showColumns && columnsOpen && (
        <ul className="column-list" aria-label="Columns">
          {fields.map((field) => {
            const position = shown.indexOf(field.id);
            return { field, position };
          })
            .sort((a, b) => (a.position < 0 ? 1e9 : a.position) - (b.position < 0 ? 1e9 : b.position))
            .map(({ field, position }) => (
              <li key={field.id} className="column-row">
                <label className="checkbox-field">
                  <input
                    type="checkbox"
                    checked={position >= 0}
                    onChange={(event) => setColumns(event.target.checked ? [...shown, field.id] : shown.filter((id) => id !== field.id))}
                    disabled={position >= 0 && shown.length === 1}
                  />
                  {field.name}
                </label>
                <Button variant="quiet" aria-label={`Move ${field.name} left`} isDisabled={position <= 0} onPress={() => setColumns(swap(shown, position, position - 1))}>
                  ←
                </Button>
                <Button variant="quiet" aria-label={`Move ${field.name} right`} isDisabled={position < 0 || position >= shown.length - 1} onPress={() => setColumns(swap(shown, position, position + 1))}>
                  →
                </Button>
              </li>
            ))}
        </ul>
      )}
    </div>
  );
}

function swap(list: string[], from: number, to: number): string[] {
  const next = [...list];
  [next[from], next[to]] = [next[to], next[from]];
  return next;
}

/** The value of one filter: a picker of the options or tokens that fit the field, free text beside them. */
function FilterValueInput({ index, field, filter, error, onChange }: { index: number; field: Field | undefined; filter: FilterCondition; error?: string; onChange(value: unknown): void }) {
  const label = `Filter ${index + 1} value`;
  const common = { className: 'input', 'aria-label': label, 'aria-invalid': !!error || undefined, 'aria-describedby': error ? `filter-error-${index}` : undefined };
  if (field?.type === 'checkbox') {
    return (
      <select {...common} value={String(filter.value === true)} onChange={(event) => onChange(filterValue(field, event.target.value))}>
        <option value="true">checked</option>
        <option value="false">unchecked</option>
      </select>
    );
  }
  // Suggestions: date tokens for dates, @me for users, the options of a select (free text is still accepted: -3d, an e-mail…).
  // What was typed, while it still means the filter's value: "250." stays as typed (its value is 250) so that "250.5" can follow.
  const [draft, setDraft] = useState<string | null>(null);
  const shown = draft !== null && filterValue(field, draft) === filter.value ? draft : filter.value === undefined || filter.value === null ? '' : String(filter.value);
  const suggestions =
    field?.type === 'date' || field?.type === 'datetime' ? dateTokens : field?.type === 'user' ? ['@me'] : field?.type === 'select' ? (field.options ?? []).map((option) => option.value) : [];
  const listId = suggestions.length ? `filter-suggestions-${index}` : undefined;
  return (
    <>
      <input
        {...common}
        list={listId}
        value={shown}
        placeholder={field?.type === 'date' ? 'YYYY-MM-DD, today, -7d…' : field?.type === 'user' ? '@me or an e-mail' : 'Value'}
        onChange={(event) => {
          setDraft(event.target.value);
          onChange(filterValue(field, event.target.value));
        }}
      />
      {listId && (
        <datalist id={listId}>
          {suggestions.map((suggestion) => (
            <option key={suggestion} value={suggestion} />
          ))}
        </datalist>
      )}
    </>
  );
}
