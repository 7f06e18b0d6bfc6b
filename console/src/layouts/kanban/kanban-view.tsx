import { useState } from 'react';
import type { Table } from '../../api/types';
import { ApiError } from '../../api/client';
import { useSpaceRole } from '../../api/space-role';
import { sortName, type SavedView } from '../../views-toolbar/view-state';
import { useAddRecord, useOpenRecord, useRecordWrite } from '../layout-data';
import type { Lane } from './kanban-card';
import { KanbanLane } from './kanban-lane';
import { laneOrder, laneSort } from './lane-order';

interface KanbanViewProps {
  table: Table;
  view: SavedView;
  body: Record<string, unknown>;
}

/**
 * A kanban: one lane per option of the view's single-select field (and one for records without
 * one). Cards move between lanes for those who may write that field, and up and down for those
 * who may write the order's; for anyone else (a reader) the board is read-only: nothing drags.
 */
export function KanbanView({ table, view, body }: KanbanViewProps) {
  const openRecord = useOpenRecord();
  const write = useRecordWrite(table.id);
  const access = useSpaceRole(table.space_id);
  const adder = useAddRecord(table.id);
  const [moveError, setMoveError] = useState<string | null>(null);
  const [moving, setMoving] = useState<string | null>(null);
  const config = view.config ?? {};
  const categoryField = table.fields.find((field) => field.id === config.categoryField);
  if (!categoryField) return <p className="form-error" role="alert">This kanban&apos;s lane field no longer exists: choose another in its layout settings.</p>;
  const lanes: Lane[] = [...(categoryField.options ?? []).map((option) => ({ value: option.value, label: option.value })), { value: null, label: `No ${categoryField.name}` }];
  const shownFields = table.fields.filter((field) => field.id === config.secondaryField);
  const imageFields = table.fields.filter((field) => field.type === 'file' && field.hidden !== 'always');
  const numberOrder = laneOrder(table.fields, body, view);
  // Cards are placed by hand only by a user who may write the order field.
  const order = numberOrder && access.canEditField(numberOrder.field) ? numberOrder : null;
  const sortedBy = laneSort(body, view).orderBy;
  const canMove = access.canEditField(categoryField);

  /** Writes a card's new lane (undefined: it stays in its lane) and its place in the lane's order (when the view sorts by a number field). */
  const move = async (rid: number, lane: string | null | undefined, orderValue?: number) => {
    const data: Record<string, unknown> = {};
    if (lane !== undefined) data[categoryField.id] = lane;
    if (order && orderValue !== undefined) data[order.field.id] = orderValue;
    if (!Object.keys(data).length) return;
    setMoveError(null);
    setMoving(lane === undefined ? `Reordering record ${rid}…` : `Moving record ${rid} to ${lane ?? `no ${categoryField.name}`}…`);
    try {
      await write(rid, data);
      setMoving(null);
    } catch (error) {
      setMoving(null);
      setMoveError(error instanceof ApiError ? error.message : String(error));
    }
  };

  return (
    <div className="kanban">
      <p className="visually-hidden" aria-live="polite">
        {moving ?? ''}
      </p>
      {(moveError || adder.error) && (
        <p className="form-error" role="alert">
          {moveError ?? adder.error}
        </p>
      )}
      {!numberOrder && canMove && (
        // Cards keep the view's order: say so, rather than offer a drag within a lane that could not stick.
        <p className="layout-note">
          {sortedBy ? `Ordered by ${sortName(table.fields, sortedBy)}` : 'In record order'}; sort by a number field to reorder cards by hand.
        </p>
      )}
      <div className="kanban-lanes">
        {lanes.map((lane) => (
          <KanbanLane
            key={lane.value ?? ''}
            tid={table.id}
            viewId={view.id}
            categoryField={categoryField}
            lane={lane}
            lanes={lanes}
            order={order}
            canMove={canMove}
            body={body}
            imageFields={imageFields}
            shownFields={shownFields}
            onOpen={openRecord}
            onMove={move}
            onAdd={access.canWriteRecords ? (lane) => void adder.add(lane === null ? {} : { [categoryField.id]: lane }) : undefined}
            adding={adder.busy}
          />
        ))}
      </div>
    </div>
  );
}
