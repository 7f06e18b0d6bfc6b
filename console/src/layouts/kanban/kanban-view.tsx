import { useState } from 'react';
import type { Table } from '../../api/types';
import { ApiError } from '../../api/client';
import type { SavedView } from '../../views-toolbar/view-state';
import { useOpenRecord, useRecordWrite } from '../layout-data';
import type { Lane } from './kanban-card';
import { KanbanLane } from './kanban-lane';

interface KanbanViewProps {
  table: Table;
  view: SavedView;
  body: Record<string, unknown>;
}

/** A kanban: one lane per option of the view's single-select field (and one for records without one). */
export function KanbanView({ table, view, body }: KanbanViewProps) {
  const openRecord = useOpenRecord();
  const write = useRecordWrite(table.id);
  const [moveError, setMoveError] = useState<string | null>(null);
  const [moving, setMoving] = useState<string | null>(null);
  const config = view.config ?? {};
  const categoryField = table.fields.find((field) => field.id === config.categoryField);
  if (!categoryField) return <p className="form-error" role="alert">This kanban&apos;s lane field no longer exists: choose another in its layout settings.</p>;
  const lanes: Lane[] = [...(categoryField.options ?? []).map((option) => ({ value: option.value, label: option.value })), { value: null, label: `No ${categoryField.name}` }];
  const shownFields = table.fields.filter((field) => field.id === config.secondaryField);
  const imageFields = table.fields.filter((field) => field.type === 'file' && field.hidden !== 'always');

  const move = async (rid: number, lane: string | null) => {
    setMoveError(null);
    setMoving(`Moving record ${rid} to ${lane ?? `no ${categoryField.name}`}…`);
    try {
      await write(rid, { [categoryField.id]: lane });
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
      {moveError && (
        <p className="form-error" role="alert">
          {moveError}
        </p>
      )}
      <div className="kanban-lanes">
        {lanes.map((lane) => (
          <KanbanLane key={lane.value ?? ''} tid={table.id} viewId={view.id} categoryField={categoryField} lane={lane} lanes={lanes} body={body} imageFields={imageFields} shownFields={shownFields} onOpen={openRecord} onMove={move} />
        ))}
      </div>
    </div>
  );
}
