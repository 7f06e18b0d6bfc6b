import type { Field, TableRecord } from '../../api/types';

/** A lane's order when the view sorts by a number field: cards can then be placed between others. */
export interface LaneOrder {
  field: Field;
  dir: 'A' | 'D';
}

/** The order a kanban's lanes follow: the saved view's sort, or the toolbar's when it changed it; only a number field can be written between two cards. */
export function laneOrder(fields: Field[], body: Record<string, unknown>, view: { order_by: string | null; order_dir: 'A' | 'D' | null }): LaneOrder | null {
  const orderBy = body.view_id !== undefined ? view.order_by : (body.order_by as string | undefined);
  const field = fields.find((candidate) => candidate.id === orderBy);
  if (!field || field.type !== 'number') return null;
  const dir = (body.view_id !== undefined ? view.order_dir : (body.order_dir as 'A' | 'D' | undefined)) ?? 'A';
  return { field, dir };
}

const numberOf = (record: TableRecord | undefined, field: Field) => {
  const value = record?.data[field.id];
  return typeof value === 'number' ? value : undefined;
};

/**
 * The value that puts a card between the card above and the card below it (either may be absent:
 * the lane's top or end): halfway between them, or one step past the only neighbour.
 */
export function orderValueBetween(above: number | undefined, below: number | undefined, dir: 'A' | 'D'): number {
  const step = dir === 'A' ? 1 : -1;
  if (above !== undefined && below !== undefined) return (above + below) / 2;
  if (above !== undefined) return above + step;
  if (below !== undefined) return below - step;
  return 0;
}

/** The order value for record `rid` placed at `index` of the lane's records (an index as before the move: 0 = top, length = end). */
export function orderValueAt(records: TableRecord[], index: number, rid: number, order: LaneOrder): number {
  const above = records.slice(0, index).filter((record) => record.id !== rid).at(-1);
  const below = records.slice(index).find((record) => record.id !== rid);
  return orderValueBetween(numberOf(above, order.field), numberOf(below, order.field), order.dir);
}
