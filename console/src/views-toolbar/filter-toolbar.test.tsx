// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeField } from '../test-support/fields';
import { FilterToolbar, type SettingErrors } from './filter-toolbar';
import { emptyViewState, queryBody, type ViewState } from './view-state';

const fields = [
  makeField('name', 'text'),
  makeField('amount', 'number'),
  makeField('due', 'date'),
  makeField('owner', 'user'),
  makeField('won', 'checkbox'),
  makeField('stage', 'select', { options: [{ value: 'lead' }, { value: 'won' }] }),
  makeField('notes', 'longtext'),
];

/** The toolbar as the table page holds it: its state in the parent, the last one kept for the test. */
function renderToolbar(initial: ViewState = emptyViewState, errors: SettingErrors = { filters: new Map() }) {
  const seen: { state: ViewState } = { state: initial };
  function Holder() {
    const [state, setState] = useState(initial);
    seen.state = state;
    return <FilterToolbar fields={fields} state={state} errors={errors} onChange={setState} />;
  }
  render(<Holder />);
  return seen;
}

afterEach(cleanup);

describe('the filter builder', () => {
  it('adds a filter on the first field with its first operator, and builds the filter object from what is typed', async () => {
    const user = userEvent.setup();
    const seen = renderToolbar();
    await user.click(screen.getByRole('button', { name: 'Add filter' }));
    expect(seen.state.filters).toEqual([{ column: 'name', compare: '=', value: '' }]);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter 1 operator' }), 'contains');
    await user.type(screen.getByRole('textbox', { name: 'Filter 1 value' }), 'acme');
    expect(queryBody(seen.state, 0, false)).toEqual({ filters: [{ column: 'name', compare: 'contains', value: 'acme' }] });
  });

  it('offers only the operators of the chosen field and sends numbers as numbers', async () => {
    const user = userEvent.setup();
    const seen = renderToolbar({ ...emptyViewState, filters: [{ column: 'name', compare: 'contains', value: 'x' }] });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter 1 field' }), 'amount');
    // "contains" is no number operator: the first of the number's takes its place, the value is cleared.
    expect(seen.state.filters[0]).toEqual({ column: 'amount', compare: '=', value: '' });
    const operators = Array.from((screen.getByRole('combobox', { name: 'Filter 1 operator' }) as HTMLSelectElement).options).map((option) => option.value);
    expect(operators).toEqual(['=', '!=', '<', '<=', '>', '>=', 'is_empty', 'is_not_empty']);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter 1 operator' }), '>=');
    await user.type(screen.getByRole('textbox', { name: 'Filter 1 value' }), '250.5');
    expect(seen.state.filters[0]).toEqual({ column: 'amount', compare: '>=', value: 250.5 });
  });

  it('has no value for "is empty" and leaves it out of the filter object', async () => {
    const user = userEvent.setup();
    const seen = renderToolbar({ ...emptyViewState, filters: [{ column: 'notes', compare: '=', value: 'old' }] });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter 1 operator' }), 'is_empty');
    expect(screen.queryByRole('textbox', { name: 'Filter 1 value' })).toBeNull();
    expect(queryBody(seen.state, 0, false)).toEqual({ filters: [{ column: 'notes', compare: 'is_empty' }] });
  });

  it('suggests the date tokens for a date, @me for a user and the options of a select', () => {
    const { container } = render(
      <FilterToolbar
        fields={fields}
        errors={{ filters: new Map() }}
        onChange={() => undefined}
        state={{
          ...emptyViewState,
          filters: [
            { column: 'due', compare: '>=', value: 'start_of_month' },
            { column: 'owner', compare: '=', value: '@me' },
            { column: 'stage', compare: '=', value: 'lead' },
          ],
        }}
      />,
    );
    const suggestions = (index: number) => Array.from(container.querySelectorAll(`#filter-suggestions-${index} option`)).map((option) => option.getAttribute('value'));
    expect(suggestions(0)).toEqual(expect.arrayContaining(['today', 'yesterday', 'start_of_week', 'start_of_month', 'start_of_year', '-7d']));
    expect(suggestions(1)).toEqual(['@me']);
    expect(suggestions(2)).toEqual(['lead', 'won']);
    expect((screen.getByRole('combobox', { name: 'Filter 1 value' }) as HTMLInputElement).value).toBe('start_of_month');
  });

  it('picks checked or unchecked for a checkbox, as a boolean', async () => {
    const user = userEvent.setup();
    const seen = renderToolbar({ ...emptyViewState, filters: [{ column: 'won', compare: '=', value: false }] });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter 1 value' }), 'true');
    expect(seen.state.filters[0]).toEqual({ column: 'won', compare: '=', value: true });
  });

  it('joins filters with "and" and removes the one asked', async () => {
    const user = userEvent.setup();
    const seen = renderToolbar({
      ...emptyViewState,
      filters: [
        { column: 'name', compare: '=', value: 'a' },
        { column: 'amount', compare: '>', value: 3 },
      ],
    });
    const list = screen.getByRole('list', { name: 'Filters (all must match)' });
    expect(list.textContent).toContain('Where');
    expect(list.textContent).toContain('and');
    await user.click(screen.getByRole('button', { name: 'Remove filter 1' }));
    expect(seen.state.filters).toEqual([{ column: 'amount', compare: '>', value: 3 }]);
  });

  it('shows a server error on the filter it is about', () => {
    renderToolbar({ ...emptyViewState, filters: [{ column: 'due', compare: '>', value: 'soon' }] }, { filters: new Map([[0, 'Invalid filter: Due: "soon" is no date']]) });
    const value = screen.getByRole('combobox', { name: 'Filter 1 value' });
    expect(value.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('Invalid filter: Due: "soon" is no date');
    expect(value.getAttribute('aria-describedby')).toBe('filter-error-0');
  });

  it('sorts by a field or a system column, with a direction only once sorted', async () => {
    const user = userEvent.setup();
    const seen = renderToolbar();
    expect((screen.getByRole('combobox', { name: 'Direction' }) as HTMLSelectElement).disabled).toBe(true);
    const sortable = Array.from((screen.getByRole('combobox', { name: 'Sort by' }) as HTMLSelectElement).options).map((option) => option.value);
    expect(sortable).not.toContain('notes');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'created_at');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Direction' }), 'D');
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), ' acme ');
    expect(queryBody(seen.state, 0, false)).toEqual({ order_by: 'created_at', order_dir: 'D', search: 'acme' });
  });
});
