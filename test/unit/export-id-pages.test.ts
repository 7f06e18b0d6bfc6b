import { describe, expect, it } from 'vitest';
import { countIds, idPages } from '../../src/modules/records/record-export.js';

describe('records/export id pages', () => {
  it('counts the ids of a comma-separated list; none in an empty one', () => {
    expect(countIds('')).toBe(0);
    expect(countIds('7')).toBe(1);
    expect(countIds('3,1,2')).toBe(3);
  });

  it('pages a list in order, the last page short, every id once', () => {
    const ids = Array.from({ length: 2501 }, (_, n) => (n * 7919) % 100_003);
    const pages = [...idPages(ids.join(','), 1000)];
    expect(pages.map((page) => page.length)).toEqual([1000, 1000, 501]);
    expect(pages.flat()).toEqual(ids);
    expect([...idPages('', 1000)]).toEqual([]);
    expect([...idPages('42', 1000)]).toEqual([[42]]);
  });
});
