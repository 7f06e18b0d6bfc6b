import { describe, expect, it } from 'vitest';
import { spaceAccess } from '../api/space-access';
import type { Field } from '../api/types';
import { CellRefused, convertCell, convertRow, guessTargets, mappingProblem } from './csv-cells';

const field = (id: string, type: Field['type'], extra: Partial<Field> = {}): Field => ({ id, name: id[0].toUpperCase() + id.slice(1), type, multiple: false, required: false, editable_by: 'members', hidden: null, ...extra });
const fields = [field('name', 'text'), field('amount', 'number'), field('tags', 'select', { multiple: true, options: [{ value: 'red' }, { value: 'blue' }] }), field('files', 'file')];

describe('guessTargets and mappingProblem', () => {
  it('maps columns by slug or name, skips the export’s own columns, offers new fields for the rest', () => {
    expect(guessTargets(['id', 'NAME', 'Amount', 'Colour', 'files'], fields, spaceAccess('admin'))).toEqual([{ kind: 'ignore' }, { kind: 'field', slug: 'name' }, { kind: 'field', slug: 'amount' }, { kind: 'new' }, { kind: 'ignore' }]);
  });
  it('offers an editor no new field (only admins create fields) and none of the fields only admins may write', () => {
    const guarded = [...fields, field('score', 'number', { editable_by: 'admins' }), field('code', 'text', { editable_by: 'none' })];
    expect(guessTargets(['Name', 'Colour', 'score', 'code'], guarded, spaceAccess('editor'))).toEqual([{ kind: 'field', slug: 'name' }, { kind: 'ignore' }, { kind: 'ignore' }, { kind: 'ignore' }]);
    expect(guessTargets(['score', 'code'], guarded, spaceAccess('admin'))).toEqual([{ kind: 'field', slug: 'score' }, { kind: 'new' }]);
  });
  it('refuses two columns for one field and a mapping of nothing', () => {
    expect(mappingProblem(['a', 'b'], [{ kind: 'field', slug: 'name' }, { kind: 'field', slug: 'name' }])).toMatch(/"a" and "b" both go to field name/);
    expect(mappingProblem(['a'], [{ kind: 'ignore' }])).toMatch(/No column goes to a field/);
    expect(mappingProblem(['a'], [{ kind: 'new' }])).toBeNull();
  });
});

describe('convertCell and convertRow', () => {
  it('converts as tabula import does', () => {
    expect(convertCell(' 12.5 ', fields[1])).toBe(12.5);
    expect(convertCell('', fields[1])).toBeNull();
    expect(convertCell('red, blue', fields[2])).toEqual(['red', 'blue']);
    expect(convertCell('yes', field('done', 'checkbox'))).toBe(true);
    expect(convertCell("'=SUM(A1)", fields[0])).toBe('=SUM(A1)');
    expect(convertCell('3, 4', field('person', 'lookup', { multiple: true }))).toEqual([3, 4]);
  });
  it('refuses what a field cannot take, naming the field and the value', () => {
    expect(() => convertCell('ten', fields[1])).toThrow(new CellRefused('Amount: "ten" is not a number'));
    expect(() => convertCell('green', fields[2])).toThrow(/Tags: "green" is not one of its options/);
    expect(() => convertRow(['a'], 2, [fields[0], fields[1]])).toThrow('1 cell where the header has 2');
  });
});
