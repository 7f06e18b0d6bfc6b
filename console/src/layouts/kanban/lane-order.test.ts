import { describe, expect, it } from 'vitest';
import type { Field, TableRecord } from '../../api/types';
import { laneOrder, orderValueAt, orderValueBetween } from './lane-order';

const rank = { id: 'rank', name: 'Rank', type: 'number' } as Field;
const card = (id: number, value: number) => ({ id, title: null, data: { rank: value } }) as unknown as TableRecord;

describe('kanban lane order', () => {
  it('places a card halfway between its neighbours, or a step past the only one', () => {
    expect(orderValueBetween(1, 2, 'A')).toBe(1.5);
    expect(orderValueBetween(3, undefined, 'A')).toBe(4);
    expect(orderValueBetween(undefined, 3, 'A')).toBe(2);
    expect(orderValueBetween(3, undefined, 'D')).toBe(2);
  });

  it('computes the value for a position, leaving out the moved card', () => {
    const lane = [card(1, 1), card(2, 2), card(3, 3)];
    expect(orderValueAt(lane, 1, 3, { field: rank, dir: 'A' })).toBe(1.5);
    expect(orderValueAt(lane, 3, 1, { field: rank, dir: 'A' })).toBe(4);
    expect(orderValueAt(lane, 0, 3, { field: rank, dir: 'A' })).toBe(0);
  });

  it('follows the saved sort through a view and the toolbar sort otherwise; only number fields', () => {
    const name = { id: 'name', name: 'Name', type: 'text' } as Field;
    expect(laneOrder([rank, name], { view_id: 3 }, { order_by: 'rank', order_dir: 'D' })).toEqual({ field: rank, dir: 'D' });
    expect(laneOrder([rank, name], { order_by: 'rank' }, { order_by: null, order_dir: null })).toEqual({ field: rank, dir: 'A' });
    expect(laneOrder([rank, name], { view_id: 3 }, { order_by: 'name', order_dir: 'A' })).toBeNull();
  });
});
