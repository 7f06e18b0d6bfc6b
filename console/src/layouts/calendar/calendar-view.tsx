import { useQuery } from '@tanstack/react-query';
import { addMonths, addWeeks, format, isSameMonth, parseISO } from 'date-fns';
import { useMemo, useState } from 'react';
import { isTextDropItem } from 'react-aria-components';
import { ApiError } from '../../api/client';
import { useSpaceRole } from '../../api/space-role';
import type { Table, TableRecord } from '../../api/types';
import { Button } from '../../ui/button';
import type { SavedView } from '../../views-toolbar/view-state';
import { DropTarget } from '../drop-target';
import { layoutKey, queryRecords, readRecord, recordDragType, useAddRecord, useOpenRecord, useRecordWrite, withFilters, withFiltersSorted } from '../layout-data';
import { CalendarEvent } from './calendar-event';
import { dayKey, dayOf, eventDays, rangeFilters, rescheduleData, spillFilters, visibleDays, weekStartsOn, type CalendarMode } from './calendar-range';
import { UndatedList } from './undated-list';

/** A range's records are read in pages of the API's largest limit, up to this many in all. */
const rangePage = 1000;
const rangeCap = 10_000;
/**
 * Events that began before the range and run into it (a view with an end field) come from a
 * second request: a start at most this many days before the range, latest first, one page of
 * at most this many events. Sorted by the start field, the scan walks its index back from the
 * range and stops at the bound (docs/decisions.md, "Console layouts", has the figures).
 */
const spillLookbackDays = 92;
const spillLimit = 1000;
/** A month's day shows this many events, then "+ N more" (the week shows them all). */
const perDayInMonth = 3;

interface CalendarViewProps {
  table: Table;
  view: SavedView;
  body: Record<string, unknown>;
}

/** A calendar by the view's date or datetime field: a month or a week, only that range fetched; undated records aside. Events move for those who may write the dates. */
export function CalendarView({ table, view, body }: CalendarViewProps) {
  const config = view.config ?? {};
  const startField = table.fields.find((field) => field.id === config.startField);
  const endField = table.fields.find((field) => field.id === config.endField);
  const colorField = table.fields.find((field) => field.id === config.colorField);
  const [mode, setMode] = useState<CalendarMode>(config.mode === 'week' || config.mode === 'day' ? 'week' : 'month');
  const [cursor, setCursor] = useState(() => new Date());
  const [writeError, setWriteError] = useState<string | null>(null);
  const openRecord = useOpenRecord();
  const adder = useAddRecord(table.id);
  const write = useRecordWrite(table.id);
  const access = useSpaceRole(table.space_id);
  const startsOn = weekStartsOn(config.weekStart);
  const days = useMemo(() => visibleDays(mode, cursor, startsOn), [mode, cursor, startsOn]);
  const firstDay = dayKey(days[0]);
  const lastDay = dayKey(days[days.length - 1]);
  const rangeBody = useMemo(() => (startField ? withFilters(body, rangeFilters(startField, firstDay, lastDay)) : null), [body, startField, firstDay, lastDay]);
  const spillBody = useMemo(
    () => (startField && endField ? withFiltersSorted(body, view, spillFilters(startField, endField, firstDay, spillLookbackDays), startField.id, 'D') : null),
    [body, view, startField, endField, firstDay],
  );
  const events = useQuery({
    queryKey: layoutKey(table.id, 'calendar', view.id, JSON.stringify([rangeBody, spillBody])),
    enabled: !!rangeBody,
    queryFn: async () => {
      const inRange = async () => {
        const records: TableRecord[] = [];
        for (let offset = 0; offset < rangeCap; offset += rangePage) {
          const page = await queryRecords(table.id, { ...rangeBody, limit: rangePage, offset });
          records.push(...page);
          if (page.length < rangePage) break;
        }
        return records;
      };
      const [records, spilled] = await Promise.all([inRange(), spillBody ? queryRecords(table.id, { ...spillBody, limit: spillLimit }) : []]);
      // The two sets cannot overlap (the start is in the range or before it); on a day, events that began earlier come first.
      return [...spilled.reverse(), ...records];
    },
  });
  const byDay = useMemo(() => {
    const map = new Map<string, TableRecord[]>();
    if (!startField) return map;
    for (const record of events.data ?? []) {
      const start = dayOf(record.data[startField.id]);
      if (!start) continue;
      for (const day of eventDays(start, endField ? dayOf(record.data[endField.id]) : null, firstDay, lastDay)) {
        const list = map.get(day);
        if (list) list.push(record);
        else map.set(day, [record]);
      }
    }
    return map;
  }, [events.data, startField, endField, firstDay, lastDay]);

  if (!startField) return <p className="form-error" role="alert">This calendar&apos;s date field no longer exists: choose another in its layout settings.</p>;
  const canReschedule = access.canEditField(startField) && (!endField || access.canEditField(endField));

  const reschedule = async (record: TableRecord, toDay: string) => {
    setWriteError(null);
    try {
      await write(record.id, rescheduleData(record.data, startField.id, endField?.id, toDay));
    } catch (error) {
      setWriteError(error instanceof ApiError ? error.message : String(error));
    }
  };
  const colorOf = (record: TableRecord) => (colorField ? colorField.options?.find((option) => option.value === record.data[colorField.id])?.color : undefined);
  const title = mode === 'month' ? format(cursor, 'MMMM yyyy') : `Week of ${format(days[0], 'd MMMM yyyy')}`;
  const step = (direction: 1 | -1) => setCursor((current) => (mode === 'month' ? addMonths(current, direction) : addWeeks(current, direction)));
  const weeks = Array.from({ length: days.length / 7 }, (_, index) => days.slice(index * 7, index * 7 + 7));
  const today = dayKey(new Date());

  return (
    <div className="calendar-layout">
      <div className="calendar">
        <div className="calendar-header">
          <h2 className="calendar-title" aria-live="polite">
            {title}
          </h2>
          <div className="calendar-nav" role="group" aria-label="Calendar range">
            <button type="button" className="button button-secondary" onClick={() => step(-1)}>
              Previous {mode}
            </button>
            <button type="button" className="button button-secondary" onClick={() => setCursor(new Date())}>
              Today
            </button>
            <button type="button" className="button button-secondary" onClick={() => step(1)}>
              Next {mode}
            </button>
          </div>
          <div className="calendar-nav" role="group" aria-label="Calendar mode">
            {(['month', 'week'] as const).map((option) => (
              <button key={option} type="button" className={`button ${mode === option ? 'button-primary' : 'button-secondary'}`} aria-pressed={mode === option} onClick={() => setMode(option)}>
                {option === 'month' ? 'Month' : 'Week'}
              </button>
            ))}
          </div>
          {events.isFetching && <span className="calendar-loading">Loading…</span>}
        </div>
        {(writeError || adder.error || events.isError) && (
          <p className="form-error" role="alert">
            {writeError ?? adder.error ?? events.error?.message}
          </p>
        )}
        <table className={`calendar-table calendar-${mode}`} aria-label={title}>
          <thead>
            <tr>
              {weeks[0].map((day) => (
                <th key={day.getDay()} scope="col">
                  {format(day, 'EEE')}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {weeks.map((week) => (
              <tr key={dayKey(week[0])}>
                {week.map((day) => {
                  const key = dayKey(day);
                  const dayEvents = byDay.get(key) ?? [];
                  const shown = mode === 'month' ? dayEvents.slice(0, perDayInMonth) : dayEvents;
                  const outside = mode === 'month' && !isSameMonth(day, cursor);
                  return (
                    <td key={key} className={`calendar-day${outside ? ' is-outside' : ''}${key === today ? ' is-today' : ''}`} data-day={key}>
                      <DropTarget
                        droppable={canReschedule}
                        className="calendar-drop"
                        aria-label={`Drop an event on ${format(day, 'd MMMM yyyy')}`}
                        getDropOperation={(types) => (types.has(recordDragType) ? 'move' : 'cancel')}
                        onDrop={async (event) => {
                          const item = event.items.find(isTextDropItem);
                          const rid = item ? Number(await item.getText(recordDragType)) : NaN;
                          if (!Number.isInteger(rid) || rid <= 0) return;
                          // An undated record (the list aside) is not among the range's: it is read.
                          const record = events.data?.find((candidate) => candidate.id === rid) ?? (await readRecord(table.id, rid).catch((error: unknown) => void setWriteError(error instanceof Error ? error.message : String(error))));
                          if (record && dayOf(record.data[startField.id]) !== key) await reschedule(record, key);
                        }}
                      >
                        <span className="calendar-day-head">
                          <span className="calendar-date" aria-hidden="true">
                            {format(day, 'd')}
                          </span>
                          {access.canWriteRecords && access.canEditField(startField) && (
                            <Button variant="quiet" className="calendar-add" aria-label={`Add record on ${format(day, 'd MMMM yyyy')}`} isDisabled={adder.busy} onPress={() => void adder.add({ [startField.id]: startField.type === 'datetime' ? `${key} 00:00:00` : key })}>
                              +
                            </Button>
                          )}
                        </span>
                        <span className="visually-hidden">{format(day, 'EEEE d MMMM yyyy')}</span>
                        {shown.length > 0 && (
                          <ul className="calendar-events" aria-label={`Events on ${format(day, 'd MMMM')}`}>
                            {shown.map((record) => (
                              <CalendarEvent key={record.id} record={record} day={dayOf(record.data[startField.id]) ?? key} color={colorOf(record)} onOpen={openRecord} onReschedule={canReschedule ? reschedule : undefined} />
                            ))}
                          </ul>
                        )}
                        {dayEvents.length > shown.length && (
                          <button
                            type="button"
                            className="calendar-more"
                            onClick={() => {
                              setCursor(parseISO(key));
                              setMode('week');
                            }}
                          >
                            + {dayEvents.length - shown.length} more
                          </button>
                        )}
                      </DropTarget>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <UndatedList table={table} viewId={view.id} startField={startField} body={body} onOpen={openRecord} onReschedule={canReschedule ? reschedule : undefined} defaultDay={dayKey(cursor)} />
    </div>
  );
}
