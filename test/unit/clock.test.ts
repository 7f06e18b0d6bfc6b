import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../src/shared/clock.js';
import { testEngine } from '../test-database.js';

/**
 * formatDateTime keeps the last second's text (src/shared/clock.ts). Risks guarded against: a
 * kept text answered for another second (a moment later, earlier, or before 1970, whose
 * milliseconds count down), and an invalid date formatted as the kept second instead of refused.
 */
describe(`formatDateTime (${testEngine})`, () => {
  const cases: Array<[string, string]> = [
    ['2026-12-06T10:00:00.000Z', '2026-12-06 10:00:00'],
    ['2026-12-06T10:00:00.999Z', '2026-12-06 10:00:00'],
    ['2026-12-06T10:00:01.000Z', '2026-12-06 10:00:01'],
    ['2026-12-06T10:00:00.500Z', '2026-12-06 10:00:00'],
    ['2026-12-06T10:00:00.500Z', '2026-12-06 10:00:00'],
    ['1969-12-31T23:59:59.500Z', '1969-12-31 23:59:59'],
    ['1970-01-01T00:00:00.000Z', '1970-01-01 00:00:00'],
    ['1969-12-31T23:59:59.999Z', '1969-12-31 23:59:59'],
    ['2000-02-29T12:34:56.789Z', '2000-02-29 12:34:56'],
  ];

  it('formats each moment as its own second, whatever came before it', () => {
    for (const [iso, text] of cases) expect(formatDateTime(new Date(iso))).toBe(text);
  });

  it('answers the same text as the date itself gives, over random moments', () => {
    let at = Date.parse('2026-01-01T00:00:00Z');
    for (let n = 0; n < 5000; n += 1) {
      // Mostly steps within a second, now and then a jump either way.
      at += n % 97 === 0 ? Math.floor((Math.random() - 0.5) * 1e9) : Math.floor(Math.random() * 400);
      const date = new Date(at);
      expect(formatDateTime(date)).toBe(date.toISOString().slice(0, 19).replace('T', ' '));
    }
  });

  it('refuses an invalid date, as toISOString does', () => {
    formatDateTime(new Date('2026-12-06T10:00:00Z'));
    expect(() => formatDateTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
