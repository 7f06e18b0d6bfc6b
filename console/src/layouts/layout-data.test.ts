// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { withFilters, withFiltersSorted } from './layout-data';

const spill = [{ column: 'on', compare: '<', value: '2026-11-01' }];

describe('layout queries', () => {
  it('puts a layout filter on top of a saved view through append_filters, next to the toolbar filters otherwise', () => {
    expect(withFilters({ view_id: 4, search: 'x' }, spill)).toEqual({ view_id: 4, search: 'x', append_filters: true, filters: spill });
    expect(withFilters({ filters: [{ column: 'a', compare: '=', value: 1 }] }, spill)).toEqual({ filters: [{ column: 'a', compare: '=', value: 1 }, ...spill] });
  });

  it("sorts by the layout's field: a saved view's filters are sent as filters, the toolbar's kept, the search kept", () => {
    const view = { filters: [{ column: 'owner', compare: '=', value: '@me' }] };
    expect(withFiltersSorted({ view_id: 4, search: 'x' }, view, spill, 'on', 'D')).toEqual({ search: 'x', filters: [...view.filters, ...spill], order_by: 'on', order_dir: 'D' });
    expect(withFiltersSorted({ filters: [{ column: 'a', compare: '>', value: 2 }], order_by: 'a', order_dir: 'A' }, view, spill, 'on', 'D')).toEqual({ filters: [{ column: 'a', compare: '>', value: 2 }, ...spill], order_by: 'on', order_dir: 'D' });
  });

  it('keeps a view whose filters use OR as a view (a filter added after an OR would join its last group)', () => {
    const view = { filters: [{ column: 'a', compare: '=', value: 1 }, { column: 'b', compare: '=', value: 2, connector: 'or' }] };
    expect(withFiltersSorted({ view_id: 4 }, view, spill, 'on', 'D')).toEqual({ view_id: 4, append_filters: true, filters: spill });
  });
});
