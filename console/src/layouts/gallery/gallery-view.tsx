import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSpaceRole } from '../../api/space-role';
import type { Table } from '../../api/types';
import { Button } from '../../ui/button';
import type { SavedView } from '../../views-toolbar/view-state';
import { layoutKey, useAddRecord, useOpenRecord, useRecordPages } from '../layout-data';
import { RecordCardBody } from '../record-card';

const galleryPageSize = 100;
const cardWidth = 220;
const rowHeight = 270;

interface GalleryViewProps {
  table: Table;
  view: SavedView;
  body: Record<string, unknown>;
}

/**
 * A gallery: a card per record with the first image of the view's file field, its title and
 * field. Rows of cards are virtualised, so only the images of cards in sight are requested.
 */
export function GalleryView({ table, view, body }: GalleryViewProps) {
  const config = view.config ?? {};
  const imageField = table.fields.find((field) => field.id === config.imageField);
  const shownFields = table.fields.filter((field) => field.id === config.secondaryField);
  const openRecord = useOpenRecord();
  const adder = useAddRecord(table.id);
  const { canWriteRecords } = useSpaceRole(table.space_id);
  const pages = useRecordPages(table.id, layoutKey(table.id, 'gallery', view.id, JSON.stringify(body)), body, galleryPageSize);
  const records = useMemo(() => pages.data?.pages.flat() ?? [], [pages.data]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [columns, setColumns] = useState(4);
  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setColumns(Math.max(1, Math.floor(element.clientWidth / cardWidth))));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const rowCount = Math.ceil(records.length / columns) + (pages.hasNextPage ? 1 : 0);
  const virtualizer = useVirtualizer({ count: rowCount, getScrollElement: () => scrollRef.current, estimateSize: () => rowHeight, overscan: 2 });
  const rows = virtualizer.getVirtualItems();
  const lastRow = rows.at(-1)?.index ?? -1;
  useEffect(() => {
    if ((lastRow + 1) * columns >= records.length && pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
  }, [lastRow, columns, records.length, pages]);

  if (!imageField) return <p className="form-error" role="alert">This gallery&apos;s image field no longer exists: choose another in its layout settings.</p>;
  return (
    <>
      {canWriteRecords && (
        <div className="layout-actions">
          <Button variant="primary" isDisabled={adder.busy} onPress={() => void adder.add({})}>
            Add record
          </Button>
        </div>
      )}
      {(pages.isError || adder.error) && (
        <p className="form-error" role="alert">
          {adder.error ?? pages.error?.message}
        </p>
      )}
      <div ref={scrollRef} className="gallery-scroll">
        {pages.isSuccess && records.length === 0 && <p className="kanban-empty">No records</p>}
        <div role="list" aria-label={`${view.name} cards`} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {rows.flatMap((row) =>
            Array.from({ length: columns }, (_, column) => {
              const record = records[row.index * columns + column];
              if (!record) return null;
              return (
                <div key={record.id} role="listitem" className="gallery-card" data-record-id={record.id} style={{ transform: `translate(${column * cardWidth}px, ${row.start}px)`, width: cardWidth - 12, height: rowHeight - 12 }}>
                  <RecordCardBody tid={table.id} record={record} imageFields={[imageField]} shownFields={shownFields} onOpen={openRecord} imageClass="gallery-image" />
                </div>
              );
            }),
          )}
        </div>
      </div>
    </>
  );
}
