import { describe, expect, it } from 'vitest';
import { neutraliseFormula, restoreFormula } from '../../src/modules/records/csv-formulas.js';

describe('CSV formula neutralising', () => {
  it("puts a ' before a formula trigger, and before quotes that precede one", () => {
    expect(['=1+1', '+x', '-x', '@x', '\tx', '\rx', "'=x", "''-x"].map(neutraliseFormula)).toEqual(["'=1+1", "'+x", "'-x", "'@x", "'\tx", "'\rx", "''=x", "'''-x"]);
    expect(['', 'x', 'a=b', "'x", "'", "''", ' =x', '\nx'].map(neutraliseFormula)).toEqual(['', 'x', 'a=b', "'x", "'", "''", ' =x', '\nx']);
  });

  it('gives back every text exactly: restore(neutralise(text)) is text', () => {
    const pieces = ["'", '=', '+', '-', '@', '\t', '\r', 'x', ' ', '\n'];
    const texts = [''];
    for (let length = 1; length <= 4; length++) {
      for (let n = 0; n < pieces.length ** length; n++) {
        let text = '';
        for (let rest = n, i = 0; i < length; i++, rest = Math.floor(rest / pieces.length)) text += pieces[rest % pieces.length];
        texts.push(text);
      }
    }
    for (const text of texts) expect(restoreFormula(neutraliseFormula(text)), JSON.stringify(text)).toBe(text);
  });
});
