import { useDrag } from 'react-aria-components';
import type { Field, TableRecord } from '../../api/types';
import { Button } from '../../ui/button';
import { recordDragType, recordTitle } from '../layout-data';
import { RecordCardBody } from '../record-card';

/** The drag also carries the card's lane (its option, '' for none): a drop on the same lane only reorders. */
export const laneDragType = 'application/x-tabula-lane';

/**
 * A type naming the card's lane by its position: a drop zone sees a drag's types (not its data)
 * while it hovers, so a lane that cannot reorder refuses its own cards before they are dropped.
 */
export const fromLaneType = (laneIndex: number) => `application/x-tabula-from-lane-${laneIndex}`;

export interface Lane {
  /** The option's value; null for the lane of records without one. */
  value: string | null;
  label: string;
}

interface KanbanCardProps {
  tid: number;
  record: TableRecord;
  lane: Lane;
  lanes: Lane[];
  imageFields: Field[];
  shownFields: Field[];
  onOpen(rid: number): void;
  onMove(rid: number, lane: string | null): void;
  /** May the user move it to another lane (its "Move to" select)? */
  canMove: boolean;
  /** May it be dragged at all (to another lane, or within its ordered lane)? */
  canDrag: boolean;
  /** Set when the lane is ordered by a number field and there is a card above (below). */
  onMoveUp?(): void;
  onMoveDown?(): void;
}

/** A card: dragged with the mouse onto another lane, or moved with its "Move to" select from the keyboard; neither for those who may not move it. */
export function KanbanCard({ tid, record, lane, lanes, imageFields, shownFields, onOpen, onMove, canMove, canDrag, onMoveUp, onMoveDown }: KanbanCardProps) {
  const title = recordTitle(record);
  // The drag carries the record id. Keyboard users have the select below (hasDragButton keeps
  // react-aria's keyboard drag off the card, whose title button and select take the keys).
  const laneIndex = lanes.findIndex((candidate) => candidate.value === lane.value);
  const { dragProps, isDragging } = useDrag({ getItems: () => [{ [recordDragType]: String(record.id), [laneDragType]: lane.value ?? '', [fromLaneType(laneIndex)]: String(laneIndex), 'text/plain': title }], hasDragButton: true, isDisabled: !canDrag });
  return (
    <div {...dragProps} className={`kanban-card${isDragging ? ' is-dragging' : ''}`} data-record-id={record.id}>
      <RecordCardBody tid={tid} record={record} imageFields={imageFields} shownFields={shownFields} onOpen={onOpen} imageClass="kanban-image" />
      {canMove && (
        <label className="card-move">
          <span className="visually-hidden">Move {title} to lane</span>
          <select
            className="input input-small"
            value={lane.value ?? ''}
            onChange={(event) => {
              const target = lanes.find((candidate) => (candidate.value ?? '') === event.target.value);
              if (target && target.value !== lane.value) onMove(record.id, target.value);
            }}
          >
            {lanes.map((option) => (
              <option key={option.value ?? ''} value={option.value ?? ''}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
      )}
      {(onMoveUp || onMoveDown) && (
        <div className="card-reorder">
          <Button variant="quiet" isDisabled={!onMoveUp} onPress={onMoveUp} aria-label={`Move ${title} up`}>
            ↑
          </Button>
          <Button variant="quiet" isDisabled={!onMoveDown} onPress={onMoveDown} aria-label={`Move ${title} down`}>
            ↓
          </Button>
        </div>
      )}
    </div>
  );
}
