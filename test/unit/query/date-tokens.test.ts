import { describe, it, expect } from 'vitest';
import { fixedClock } from '../../../src/shared/clock.js';
import { ValidationError } from '../../../src/shared/errors.js';
import { isDateToken, resolveDateToken } from '../../../src/modules/fields/date-tokens.js';

// Wednesday 2024-05-15 14:30:45 UTC.
const clock = fixedClock('2024-05-15T14:30:45.678Z');

function resolveBoth(token: string, at = clock): [string, string] {
  return [resolveDateToken(token, 'date', at), resolveDateToken(token, 'datetime', at)];
}

describe('isDateToken', () => {
  it.each([
    'today', 'now', 'yesterday', 'start_of_week', 'start_of_month', 'start_of_year',
    'start_of_last_week', 'start_of_last_month', 'start_of_last_year',
    '-1d', '+1d', '-0d', '+10w', '-3m', '+2y', '-007d',
  ])('recognises %s', (token) => {
    expect(isDateToken(token)).toBe(true);
  });

  it.each([
    'Today', 'NOW', 'tomorrow', 'start_of_day', '1d', 'd', '+d', '-1.5d', '-1 d', ' -1d', '-1D',
    '-1h', '+1q', '2024-05-15', '', 'start_of_last_day',
  ])('rejects %j', (value) => {
    expect(isDateToken(value)).toBe(false);
  });

  it('rejects non-strings', () => {
    expect(isDateToken(5)).toBe(false);
    expect(isDateToken(null)).toBe(false);
  });
});

describe('resolveDateToken on date and datetime fields', () => {
  it.each([
    ['today', '2024-05-15', '2024-05-15 00:00:00'],
    ['now', '2024-05-15', '2024-05-15 14:30:45'],
    ['yesterday', '2024-05-14', '2024-05-14 00:00:00'],
    ['start_of_week', '2024-05-13', '2024-05-13 00:00:00'],
    ['start_of_month', '2024-05-01', '2024-05-01 00:00:00'],
    ['start_of_year', '2024-01-01', '2024-01-01 00:00:00'],
    ['start_of_last_week', '2024-05-06', '2024-05-06 00:00:00'],
    ['start_of_last_month', '2024-04-01', '2024-04-01 00:00:00'],
    ['start_of_last_year', '2023-01-01', '2023-01-01 00:00:00'],
    ['-1d', '2024-05-14', '2024-05-14 14:30:45'],
    ['+1d', '2024-05-16', '2024-05-16 14:30:45'],
    ['+0d', '2024-05-15', '2024-05-15 14:30:45'],
    ['-20d', '2024-04-25', '2024-04-25 14:30:45'],
    ['-2w', '2024-05-01', '2024-05-01 14:30:45'],
    ['+1w', '2024-05-22', '2024-05-22 14:30:45'],
    ['-1m', '2024-04-15', '2024-04-15 14:30:45'],
    ['+8m', '2025-01-15', '2025-01-15 14:30:45'],
    ['-5m', '2023-12-15', '2023-12-15 14:30:45'],
    ['-1y', '2023-05-15', '2023-05-15 14:30:45'],
    ['+3y', '2027-05-15', '2027-05-15 14:30:45'],
  ])('%s → %s / %s', (token, date, datetime) => {
    expect(resolveBoth(token)).toEqual([date, datetime]);
  });

  it('clamps month arithmetic at month end', () => {
    expect(resolveBoth('-1m', fixedClock('2024-03-31T08:00:00Z'))).toEqual(['2024-02-29', '2024-02-29 08:00:00']);
    expect(resolveBoth('-1m', fixedClock('2023-03-31T08:00:00Z'))).toEqual(['2023-02-28', '2023-02-28 08:00:00']);
    expect(resolveBoth('+1m', fixedClock('2024-01-31T00:00:00Z'))).toEqual(['2024-02-29', '2024-02-29 00:00:00']);
    expect(resolveBoth('+2m', fixedClock('2024-12-31T23:59:59Z'))).toEqual(['2025-02-28', '2025-02-28 23:59:59']);
    expect(resolveDateToken('-1m', 'date', fixedClock('2024-05-31T00:00:00Z'))).toBe('2024-04-30');
  });

  it('clamps a leap day plus a year to Feb 28', () => {
    const leapDay = fixedClock('2024-02-29T12:00:00Z');
    expect(resolveBoth('+1y', leapDay)).toEqual(['2025-02-28', '2025-02-28 12:00:00']);
    expect(resolveBoth('-1y', leapDay)).toEqual(['2023-02-28', '2023-02-28 12:00:00']);
    expect(resolveBoth('+4y', leapDay)).toEqual(['2028-02-29', '2028-02-29 12:00:00']);
  });

  it('takes Monday as start_of_week on a Monday and on a Sunday', () => {
    const monday = fixedClock('2024-05-13T09:00:00Z');
    const sunday = fixedClock('2024-05-19T23:59:59Z');
    expect(resolveBoth('start_of_week', monday)).toEqual(['2024-05-13', '2024-05-13 00:00:00']);
    expect(resolveBoth('start_of_week', sunday)).toEqual(['2024-05-13', '2024-05-13 00:00:00']);
    expect(resolveBoth('start_of_last_week', monday)).toEqual(['2024-05-06', '2024-05-06 00:00:00']);
    expect(resolveBoth('start_of_last_week', sunday)).toEqual(['2024-05-06', '2024-05-06 00:00:00']);
  });

  it('crosses a year boundary for start_of_last_* (Friday 2025-01-03)', () => {
    const early = fixedClock('2025-01-03T10:00:00Z');
    expect(resolveBoth('start_of_week', early)).toEqual(['2024-12-30', '2024-12-30 00:00:00']);
    expect(resolveBoth('start_of_last_week', early)).toEqual(['2024-12-23', '2024-12-23 00:00:00']);
    expect(resolveBoth('start_of_last_month', early)).toEqual(['2024-12-01', '2024-12-01 00:00:00']);
    expect(resolveBoth('start_of_last_year', early)).toEqual(['2024-01-01', '2024-01-01 00:00:00']);
    expect(resolveBoth('yesterday', fixedClock('2025-01-01T00:00:00Z'))).toEqual(['2024-12-31', '2024-12-31 00:00:00']);
  });

  it('rejects unknown tokens and out-of-range offsets with Invalid filter', () => {
    expect(() => resolveDateToken('tomorrow', 'date', clock)).toThrow('Invalid filter: unknown date token "tomorrow"');
    for (const token of ['+8000y', '-2024y', '+99999999999999999999d', '-99999999999999999999m', '+9'.padEnd(400, '9') + 'y']) {
      expect(() => resolveDateToken(token, 'datetime', clock)).toThrow(ValidationError);
      expect(() => resolveDateToken(token, 'datetime', clock)).toThrow(/^Invalid filter: /);
    }
  });
});

describe('resolveDateToken on time fields', () => {
  it('resolves now to the current time of day', () => {
    expect(resolveDateToken('now', 'time', clock)).toBe('14:30:45');
  });

  it.each(['today', 'yesterday', 'start_of_week', '-1d', '+0d', '-1m'])('rejects %s', (token) => {
    const run = () => resolveDateToken(token, 'time', clock, 'opens_at');
    expect(run).toThrow(ValidationError);
    expect(run).toThrow(`Invalid filter: opens_at: date token "${token}" is not valid on a time field`);
  });

  it('uses the invalid_filter code', () => {
    try {
      resolveDateToken('today', 'time', clock);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).code).toBe('invalid_filter');
      expect((error as ValidationError).status).toBe(400);
    }
  });
});
