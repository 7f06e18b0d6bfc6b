import { describe, expect, it } from 'vitest';
import { arrayBound } from '../../src/db/postgres-arrays.js';

/**
 * A statement's array parameter is planned for at most `arrayBound(length)` elements, written
 * into its text as a `limit` (src/db/postgres-arrays.ts): a bound below the length would drop
 * elements, and every length must share a handful of texts.
 */
describe('arrayBound', () => {
  it('is never below the length, at most twice it, and a power of two', () => {
    for (let length = 1; length <= 5000; length += 1) {
      const bound = arrayBound(length);
      expect(bound).toBeGreaterThanOrEqual(length);
      expect(bound).toBeLessThan(2 * length);
      expect(Number.isInteger(Math.log2(bound))).toBe(true);
    }
    expect(arrayBound(0)).toBe(1);
  });

  it('gives the lengths of a turn a handful of texts', () => {
    expect(new Set(Array.from({ length: 1000 }, (_, n) => arrayBound(n + 1))).size).toBe(11);
  });
});
