import { describe, expect, it } from 'vitest';
import type { Field } from '../api/types';
import { copyText, formatTsv, inRange, parseTsv, pasteValue, PasteValueError, rangeBetween } from './clipboard';
import { describeBatchError } from './batch-error';

const field = (type: Field['type'], extra: Partial<Field> = {}): Field => ({ id: type, name: type, type, multiple: false, required: false, editable_by: 'members', hidden: null, ...extra });

describe('TSV', () => {
  it('parses rows and cells, without an extra row for the trailing line break (Windows line ends too)', () => {
    expect(parseTsv('a\tb\r\nc\td\r\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });
  it('keeps empty cells', () => {
    expect(parseTsv('\tb\t\n')).toEqual([['', 'b', '']]);
  });
  it('reads quoted cells with tabs, line breaks and doubled quotes as spreadsheets write them', () => {
    expect(parseTsv('"one\ttwo"\t"line\nline"\t"say ""hi"""')).toEqual([['one\ttwo', 'line\nline', 'say "hi"']]);
  });
  it('formats what it parses back', () => {
    const rows = [
      ['plain', 'with\ttab'],
      ['with "quote"', 'two\nlines'],
    ];
    expect(parseTsv(formatTsv(rows))).toEqual(rows);
  });
});

describe('paste values per field type', () => {
  it('numbers: spaces and thousands commas dropped; text that is no number refused naming the field', () => {
    expect(pasteValue(field('number'), ' 1,234.5 ')).toBe(1234.5);
    expect(pasteValue(field('number'), '')).toBeNull();
    expect(() => pasteValue(field('number'), 'ten')).toThrow(PasteValueError);
    expect(() => pasteValue(field('number'), 'ten')).toThrow('number: "ten" is not a number');
  });
  it('checkboxes: true/false, 1/0, yes/no', () => {
    for (const text of ['true', 'TRUE', '1', 'yes']) expect(pasteValue(field('checkbox'), text)).toBe(true);
    for (const text of ['false', '0', 'no', '']) expect(pasteValue(field('checkbox'), text)).toBe(false);
    expect(() => pasteValue(field('checkbox'), 'maybe')).toThrow(PasteValueError);
  });
  it('selects by option value (any case), several when multiple', () => {
    const options = [{ value: 'lead' }, { value: 'customer' }];
    expect(pasteValue(field('select', { options }), 'Lead')).toBe('lead');
    expect(pasteValue(field('select', { options, multiple: true }), 'lead, customer')).toEqual(['lead', 'customer']);
    expect(pasteValue(field('select', { options }), '')).toBeNull();
    expect(() => pasteValue(field('select', { options }), 'partner')).toThrow('"partner" is not one of its options');
  });
  it('dates and times in the stored form', () => {
    expect(pasteValue(field('date'), '2026-03-01')).toBe('2026-03-01');
    expect(pasteValue(field('date'), '1 Mar 2026')).toBe('2026-03-01');
    expect(pasteValue(field('datetime'), '2026-03-01T09:30')).toBe('2026-03-01 09:30:00');
    expect(pasteValue(field('datetime'), '1 Mar 2026, 09:30:15 UTC')).toBe('2026-03-01 09:30:15');
    expect(pasteValue(field('time'), '9:05')).toBe('09:05:00');
    expect(() => pasteValue(field('date'), 'soon')).toThrow('is not a date');
  });
  it('users by e-mail or id and lookups by record id; files refused', () => {
    expect(pasteValue(field('user'), 'ada@example.com')).toBe('ada@example.com');
    expect(pasteValue(field('lookup', { multiple: true }), '3, 4')).toEqual([3, 4]);
    expect(() => pasteValue(field('file'), 'a.png')).toThrow('files cannot be pasted');
  });
  it('text trimmed (empty is null); long text as given', () => {
    expect(pasteValue(field('text'), '  Ada ')).toBe('Ada');
    expect(pasteValue(field('text'), '')).toBeNull();
    expect(pasteValue(field('longtext'), ' two\nlines ')).toBe(' two\nlines ');
  });
});

describe('copy values', () => {
  it('copies what a paste reads back', () => {
    expect(copyText(field('checkbox'), true)).toBe('true');
    expect(copyText(field('select', { multiple: true }), ['a', 'b'])).toBe('a, b');
    expect(copyText(field('lookup'), [{ id: 3, title: 'Ada' }])).toBe('3');
    expect(copyText(field('user'), [{ id: 1, email: 'ada@example.com', name: 'Ada' }])).toBe('ada@example.com');
    expect(copyText(field('number'), null)).toBe('');
  });
});

describe('ranges and batch errors', () => {
  it('a range between two corners in either order', () => {
    const range = rangeBetween({ row: 4, column: 1 }, { row: 2, column: 3 });
    expect(range).toEqual({ top: 2, bottom: 4, left: 1, right: 3 });
    expect(inRange(range, 3, 2)).toBe(true);
    expect(inRange(range, 5, 2)).toBe(false);
  });
  it("names the refused record by its row and title in the server's records[i] message", () => {
    expect(describeBatchError('records[1]: Invalid field value: email', 4, ['row 5 (Ada)', 'row 6 (Grace)'])).toBe('row 6 (Grace): Invalid field value: email');
    expect(describeBatchError('Rate limit', 4, [])).toBe('Rate limit');
  });
});
