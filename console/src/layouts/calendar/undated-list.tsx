import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Field, Table, TableRecord } from '../../api/types';
import { Button } from '../../ui/button';
import { countRecords, layoutKey, useRecordPages, withFilters } from '../layout-data';
import { CalendarEvent } from './calendar-event';

const undatedPageSize = 50;

interface UndatedListProps {
  table: Table;
  viewId: number;
  startField: Field;
  body: Record<string, unknown>;
  /** The day a "Move" from this list starts on (the calendar's current day). */
  defaultDay: string;
  onOpen(rid: number): void;
  /** Absent for a user who may not change the dates. */
  onReschedule?(record: TableRecord, toDay: string): Promise<void>;
}

/** The view's records without a date, beside the calendar: dragged onto a day (or moved from the keyboard) they get one, where the user may change dates. */
export function UndatedList({ table, viewId, startField, body, defaultDay, onOpen, onReschedule }: UndatedListProps) {
  const undatedBody = useMemo(() => withFilters(body, [{ column: startField.id, compare: 'is_empty' }]), [body, startField.id]);
  const bodyJson = JSON.stringify(undatedBody);
  const count = useQuery({ queryKey: layoutKey(table.id, 'undated-count', viewId, bodyJson), queryFn: () => countRecords(table.id, undatedBody) });
  const pages = useRecordPages(table.id, layoutKey(table.id, 'undated', viewId, bodyJson), undatedBody, undatedPageSize);
  const records = pages.data?.pages.flat() ?? [];
  return (
    <aside className="calendar-undated" aria-labelledby="calendar-undated-title">
      <h2 id="calendar-undated-title" className="calendar-undated-title">
        Without {startField.name} {count.data !== undefined && <span className="kanban-lane-count">{count.data.toLocaleString('en')}</span>}
      </h2>
      {pages.isError && (
        <p className="form-error" role="alert">
          {pages.error.message}
        </p>
      )}
      {pages.isSuccess && records.length === 0 && <p className="kanban-empty">Every record has a date.</p>}
      {records.length > 0 && (
        <ul className="calendar-events" aria-labelledby="calendar-undated-title">
          {records.map((record) => (
            <CalendarEvent key={record.id} record={record} day={defaultDay} onOpen={onOpen} onReschedule={onReschedule} />
          ))}
        </ul>
      )}
      {pages.hasNextPage && (
        <Button isDisabled={pages.isFetchingNextPage} onPress={() => void pages.fetchNextPage()}>
          Show more
        </Button>
      )}
    </aside>
  );
}
