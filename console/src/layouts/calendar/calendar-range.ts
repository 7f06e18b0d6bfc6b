import { addDays, differenceInCalendarDays, eachDayOfInterval, endOfMonth, endOfWeek, format, max, min, parseISO, startOfMonth, startOfWeek } from 'date-fns';
import type { LayoutFilter } from '../layout-data';

export type CalendarMode = 'month' | 'week';
type Day = 0 | 1 | 2 | 3 | 4 | 5 | 6;
const dayNames = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** A calendar config's `weekStart` (a day name or 0–6, 0 = Sunday) as date-fns's weekStartsOn; Monday when unset. */
export function weekStartsOn(value: unknown): Day {
  if (typeof value === 'number' && value >= 0 && value <= 6) return value as Day;
  const index = typeof value === 'string' ? dayNames.indexOf(value.toLowerCase()) : -1;
  return (index >= 0 ? index : 1) as Day;
}

export const dayKey = (date: Date) => format(date, 'yyyy-MM-dd');

/** The days a month (its whole weeks) or a week shows. */
export function visibleDays(mode: CalendarMode, cursor: Date, startsOn: Day): Date[] {
  const options = { weekStartsOn: startsOn };
  const first = mode === 'month' ? startOfWeek(startOfMonth(cursor), options) : startOfWeek(cursor, options);
  const last = mode === 'month' ? endOfWeek(endOfMonth(cursor), options) : endOfWeek(cursor, options);
  return eachDayOfInterval({ start: first, end: last });
}

/**
 * The filters that fetch a range's records: the start field between the range's first and last
 * day, so that the calendar's index on that field (`idx_layout_<startField>`) serves the query.
 * Dates and datetimes are compared as stored (UTC, never shifted).
 */
export function rangeFilters(startField: { id: string; type: string }, firstDay: string, lastDay: string): LayoutFilter[] {
  const withTime = startField.type === 'datetime';
  return [
    { column: startField.id, compare: '>=', value: withTime ? `${firstDay} 00:00:00` : firstDay },
    { column: startField.id, compare: '<=', value: withTime ? `${lastDay} 23:59:59` : lastDay },
  ];
}

/** A filter's value for a whole day: a datetime field's day starts at 00:00:00 (UTC, as stored). */
const dayStart = (field: { type: string }, day: string) => (field.type === 'datetime' ? `${day} 00:00:00` : day);

/**
 * The filters of the second, bounded request: events that start before the range (at most
 * `lookbackDays` before it, so that the start field's index bounds the scan) and end on or after
 * its first day. The range's own request keeps to the start field alone: an OR across the two
 * fields would not use the index.
 */
export function spillFilters(startField: { id: string; type: string }, endField: { id: string; type: string }, firstDay: string, lookbackDays: number): LayoutFilter[] {
  const from = dayKey(addDays(parseISO(firstDay), -lookbackDays));
  return [
    { column: startField.id, compare: '>=', value: dayStart(startField, from) },
    { column: startField.id, compare: '<', value: dayStart(startField, firstDay) },
    { column: endField.id, compare: '>=', value: dayStart(endField, firstDay) },
  ];
}

/** The calendar day of a date or datetime value (`YYYY-MM-DD…`), or null when it has none. */
export function dayOf(value: unknown): string | null {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null;
}

/** The days of the range an event covers: its start day to its end day (when later), clipped to the range. */
export function eventDays(start: string, end: string | null, firstDay: string, lastDay: string): string[] {
  // Most events last one day: `YYYY-MM-DD` strings compare as dates, so nothing is parsed (a month of 5,000 events spent ~50 ms in parseISO).
  if (!end || end <= start) return start >= firstDay && start <= lastDay ? [start] : [];
  const from = max([parseISO(start), parseISO(firstDay)]);
  const to = min([parseISO(end && end > start ? end : start), parseISO(lastDay)]);
  if (from > to) return [];
  return eachDayOfInterval({ start: from, end: to }).map(dayKey);
}

/**
 * The write that moves an event to another day: the start field's date changes (a datetime keeps
 * its time), and the end field, when set, moves by as many days (the event keeps its length).
 */
export function rescheduleData(data: Record<string, unknown>, startField: string, endField: string | undefined, toDay: string): Record<string, unknown> {
  const start = data[startField];
  const fromDay = dayOf(start);
  const changes: Record<string, unknown> = { [startField]: typeof start === 'string' && start.length > 10 ? `${toDay}${start.slice(10)}` : toDay };
  const end = endField ? data[endField] : undefined;
  const endDay = dayOf(end);
  if (endField && fromDay && endDay && typeof end === 'string') {
    const moved = dayKey(addDays(parseISO(endDay), differenceInCalendarDays(parseISO(toDay), parseISO(fromDay))));
    changes[endField] = `${moved}${end.slice(10)}`;
  }
  return changes;
}
