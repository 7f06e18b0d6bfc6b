import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useId, useMemo, useRef } from 'react';
import { isTextDropItem } from 'react-aria-components';
import type { Field } from '../../api/types';
import { DropTarget } from '../drop-target';
import { Button } from '../../ui/button';
import { countRecords, layoutKey, recordDragType, useRecordPages, withFilters } from '../layout-data';
import { fromLaneType, KanbanCard, laneDragType, type Lane } from './kanban-card';
import { orderValueAt, type LaneOrder } from './lane-order';

/** Cards fetched per request as a lane scrolls. */
const lanePageSize = 50;

interface KanbanLaneProps {
  tid: number;
  viewId: number;
  categoryField: Field;
  lane: Lane;
  lanes: Lane[];
  /** Set when the view sorts by a number field the user may write: cards are then placed where they are dropped. */
  order: LaneOrder | null;
  /** May the user move cards to another lane (write the lane field)? */
  canMove: boolean;
  /** The toolbar's query body (the view, its filters and search). */
  body: Record<string, unknown>;
  imageFields: Field[];
  shownFields: Field[];
  onOpen(rid: number): void;
  /** A card's new lane (undefined: same lane) and its new order value. */
  onMove(rid: number, lane: string | null | undefined, orderValue?: number): void;
  /** Creates a record in this lane (with its option) and opens it; disabled while one is being created. Absent for a user who may not create records. */
  onAdd?(lane: string | null): void;
  adding: boolean;
}

/**
 * One lane: its records (the view's query narrowed to the lane's option) fetched page by page as
 * it scrolls, only the cards in sight rendered (TanStack Virtual), its count from records/count.
 */
export function KanbanLane({ tid, viewId, categoryField, lane, lanes, order, canMove, body, imageFields, shownFields, onOpen, onMove, onAdd, adding }: KanbanLaneProps) {
  const headingId = useId();
  const laneIndex = lanes.findIndex((candidate) => candidate.value === lane.value);
  const laneBody = useMemo(() => withFilters(body, [lane.value === null ? { column: categoryField.id, compare: 'is_empty' } : { column: categoryField.id, compare: '=', value: lane.value }]), [body, lane.value, categoryField.id]);
  const bodyJson = JSON.stringify(laneBody);
  const pages = useRecordPages(tid, layoutKey(tid, 'kanban', viewId, bodyJson), laneBody, lanePageSize);
  // Counted once the lane's first cards are in: the cards come first on a busy server.
  const count = useQuery({ queryKey: layoutKey(tid, 'kanban-count', viewId, bodyJson), queryFn: () => countRecords(tid, laneBody), enabled: pages.isSuccess });
  const records = useMemo(() => pages.data?.pages.flat() ?? [], [pages.data]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: records.length + (pages.hasNextPage ? 1 : 0), getScrollElement: () => scrollRef.current, estimateSize: () => 96, overscan: 6, getItemKey: (index) => records[index]?.id ?? `more-${index}` });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (lastIndex >= records.length - 1 && pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
  }, [lastIndex, records.length, pages]);

  return (
    <section className="kanban-lane" aria-labelledby={headingId}>
      <h2 id={headingId} className="kanban-lane-title">
        {lane.label}
        {count.data !== undefined && (
          <span className="kanban-lane-count">
            <span className="visually-hidden">, </span>
            {count.data.toLocaleString('en')}
            <span className="visually-hidden"> cards</span>
          </span>
        )}
      </h2>
      {onAdd && (
        <Button variant="quiet" className="kanban-add" aria-label={`Add record to ${lane.label}`} isDisabled={adding} onPress={() => onAdd(lane.value)}>
          <span aria-hidden="true">+ </span>Add record
        </Button>
      )}
      <DropTarget
        droppable={canMove || !!order}
        className="kanban-drop"
        aria-label={`Drop a card on ${lane.label}`}
        // Without a number sort a lane's own cards have nowhere else to go in it: it refuses them.
        getDropOperation={(types) => (!types.has(recordDragType) || (!order && types.has(fromLaneType(laneIndex))) ? 'cancel' : 'move')}
        onDrop={async (event) => {
          const item = event.items.find(isTextDropItem);
          if (!item) return;
          const rid = Number(await item.getText(recordDragType));
          if (!Number.isInteger(rid) || rid <= 0) return;
          const fromLane = item.types.has(laneDragType) ? await item.getText(laneDragType) : null;
          const sameLane = fromLane === (lane.value ?? '');
          if (!sameLane && !canMove) return;
          if (!order) {
            if (!sameLane) onMove(rid, lane.value);
            return;
          }
          // Where in the lane it was dropped: before or after the card under the pointer (the drop's y is the zone's, whose top is the list's).
          const offset = event.y + (scrollRef.current?.scrollTop ?? 0);
          const under = virtualizer.getVirtualItemForOffset(offset);
          const index = under && under.index < records.length ? (offset < under.start + under.size / 2 ? under.index : under.index + 1) : records.length;
          onMove(rid, sameLane ? undefined : lane.value, orderValueAt(records, index, rid, order));
        }}
      >
        <div ref={scrollRef} className="kanban-scroll">
          {pages.isError && (
            <p className="form-error" role="alert">
              {pages.error.message}
            </p>
          )}
          {pages.isSuccess && records.length === 0 && <p className="kanban-empty">No cards</p>}
          <div role="list" aria-labelledby={headingId} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const record = records[item.index];
              return (
                <div key={item.key} role="listitem" data-index={item.index} ref={virtualizer.measureElement} className="kanban-slot" style={{ transform: `translateY(${item.start}px)` }}>
                  {record ? <KanbanCard
                      tid={tid}
                      record={record}
                      lane={lane}
                      lanes={lanes}
                      imageFields={imageFields}
                      shownFields={shownFields}
                      onOpen={onOpen}
                      onMove={onMove}
                      canMove={canMove}
                      canDrag={canMove || !!order}
                      onMoveUp={order && item.index > 0 ? () => onMove(record.id, undefined, orderValueAt(records, item.index - 1, record.id, order)) : undefined}
                      onMoveDown={order && item.index < records.length - 1 ? () => onMove(record.id, undefined, orderValueAt(records, item.index + 2, record.id, order)) : undefined}
                    /> : <p className="kanban-empty">Loading more…</p>}
                </div>
              );
            })}
          </div>
        </div>
      </DropTarget>
    </section>
  );
}
