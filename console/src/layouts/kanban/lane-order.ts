import type { Field, TableRecord } from '../../api/types';

/** A lane's order when the view sorts by a number field: cards can then be placed between others. */
export interface LaneOrder {
  field: Field;
  dir: 'A' | 'D';
}

type ViewSort = { order_by: string | null; order_dir: 'A' | 'D' | null };

/** The sort the lanes follow: the saved view's while it is shown as saved, or the toolbar's once it changed it. */
export function laneSort(body: Record<string, unknown>, view: ViewSort): { orderBy: string | null; dir: 'A' | 'D' } {
  const saved = body.view_id !== undefined;
  const orderBy = (saved ? view.order_by : (body.order_by as string | undefined)) ?? null;
  const dir = (saved ? view.order_dir : (body.order_dir as 'A' | 'D' | undefined)) ?? 'A';
  return { orderBy, dir };
}

/** The lanes' order when cards can be placed by hand: only a number field can be written between two cards. */
export function laneOrder(fields: Field[], body: Record<string, unknown>, view: ViewSort): LaneOrder | null {
  const { orderBy, dir } = laneSort(body, view);
  const field = fields.find((candidate) => candidate.id === orderBy);
  if (!field || field.type !== 'number') return null;
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
