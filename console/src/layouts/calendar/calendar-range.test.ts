import { describe, expect, it } from 'vitest';
import { eventDays, rangeFilters, rescheduleData, spillFilters, visibleDays, weekStartsOn } from './calendar-range';
import { dayKey } from './calendar-range';

describe('calendar range', () => {
  it('reads weekStart as a day name or its number, Monday when unset', () => {
    expect(weekStartsOn('Sunday')).toBe(0);
    expect(weekStartsOn(3)).toBe(3);
    expect(weekStartsOn(undefined)).toBe(1);
  });

  it('shows whole weeks of a month and one week', () => {
    const month = visibleDays('month', new Date(2026, 10, 15), 1).map(dayKey);
    expect(month[0]).toBe('2026-10-26');
    expect(month.at(-1)).toBe('2026-12-06');
    expect(month.length % 7).toBe(0);
    expect(visibleDays('week', new Date(2026, 10, 26), 0).map(dayKey)).toEqual(['2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28']);
  });

  it('filters a datetime field by whole days', () => {
    expect(rangeFilters({ id: 'at', type: 'datetime' }, '2026-11-01', '2026-11-30')).toEqual([
      { column: 'at', compare: '>=', value: '2026-11-01 00:00:00' },
      { column: 'at', compare: '<=', value: '2026-11-30 23:59:59' },
    ]);
  });

  it('asks for events that began before the range, within the lookback, and end in or after it', () => {
    expect(spillFilters({ id: 'on', type: 'date' }, { id: 'until', type: 'datetime' }, '2026-11-01', 92)).toEqual([
      { column: 'on', compare: '>=', value: '2026-08-01' },
      { column: 'on', compare: '<', value: '2026-11-01' },
      { column: 'until', compare: '>=', value: '2026-11-01 00:00:00' },
    ]);
  });

  it('spreads an event over its days, clipped to the range', () => {
    expect(eventDays('2026-11-29', '2026-12-02', '2026-11-01', '2026-11-30')).toEqual(['2026-11-29', '2026-11-30']);
    expect(eventDays('2026-11-05', null, '2026-11-01', '2026-11-30')).toEqual(['2026-11-05']);
    expect(eventDays('2026-12-05', null, '2026-11-01', '2026-11-30')).toEqual([]);
    // One-day events (no end, or an end not after the start) are placed without parsing: the range's bounds included.
    expect(eventDays('2026-11-01', '2026-11-01', '2026-11-01', '2026-11-30')).toEqual(['2026-11-01']);
    expect(eventDays('2026-11-30', '2026-11-20', '2026-11-01', '2026-11-30')).toEqual(['2026-11-30']);
    expect(eventDays('2026-10-31', null, '2026-11-01', '2026-11-30')).toEqual([]);
  });

  it('moves the start (keeping its time) and the end by as many days', () => {
    expect(rescheduleData({ at: '2026-11-05 09:30:00', until: '2026-11-06 10:00:00' }, 'at', 'until', '2026-11-10')).toEqual({ at: '2026-11-10 09:30:00', until: '2026-11-11 10:00:00' });
    expect(rescheduleData({ on: '2026-11-05', end: null }, 'on', 'end', '2026-11-01')).toEqual({ on: '2026-11-01' });
  });
});
