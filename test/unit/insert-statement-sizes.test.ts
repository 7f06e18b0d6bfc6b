import { describe, expect, it } from 'vitest';
import { insertStatementSizes } from '../../src/db/prepared-query.js';

describe('insertStatementSizes: how a batch of new records is cut into insert statements', () => {
  it('cuts 1,000 records of a narrow table into statements of 128 rows and a few powers of two', () => {
    expect(insertStatementSizes(1000, 14)).toEqual([128, 128, 128, 128, 128, 128, 128, 64, 32, 8]);
    expect(insertStatementSizes(1, 14)).toEqual([1]);
    expect(insertStatementSizes(0, 14)).toEqual([]);
  });

  it('covers every record exactly, in a handful of sizes, for any count', () => {
    const shapes = new Set<number>();
    for (let count = 0; count <= 1000; count += 1) {
      const sizes = insertStatementSizes(count, 14);
      expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(count);
      for (const size of sizes) shapes.add(size);
    }
    expect([...shapes].sort((a, b) => a - b)).toEqual([1, 2, 4, 8, 16, 32, 64, 128]);
  });

  it("keeps a wide table's statements within SQLite's 32,766 parameters", () => {
    for (const columns of [204, 504, 2004, 40_000]) {
      const sizes = insertStatementSizes(1000, columns);
      expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(1000);
      // One row always goes alone, even when it alone is past the bound (the engine then refuses it).
      for (const size of sizes) expect(size === 1 || size * columns <= 32_766).toBe(true);
    }
    expect(insertStatementSizes(1000, 504)[0]).toBe(64);
  });
});
