import { describe, expect, it } from 'vitest';
import { recordBuilderOf } from '../../src/modules/records/record-reader.js';
import { testEngine } from '../test-database.js';

/**
 * Record objects are built by a function compiled once per list of slugs (record-reader.ts).
 * Risks guarded against: a builder compiled again for every request whose field list is a new
 * array of the same slugs (an update's written fields: compiling costs far more than building),
 * builders of different lists shared, and a key that is not a slug written into the code.
 */
describe(`recordBuilderOf (${testEngine})`, () => {
  const row = { id: 7, created_at: '2026-12-07 10:00:00', updated_at: '2026-12-07 11:00:00' };

  it('answers the builder compiled before for the same slugs in a new array', () => {
    expect(recordBuilderOf(['name', 'qty'])).toBe(recordBuilderOf(['name', 'qty'].slice()));
    expect(recordBuilderOf(['qty', 'name'])).not.toBe(recordBuilderOf(['name', 'qty']));
    expect(recordBuilderOf(['name'])).not.toBe(recordBuilderOf(['name', 'qty']));
  });

  it('builds the record object with data in the slugs order, values taken by field and row', () => {
    const values = [
      ['a', 'b'],
      [1, 2],
      [null, ['x']],
    ];
    const build = recordBuilderOf(['zeta', 'constructor', 'alpha']);
    const record = build(row, 'Title', values, 1);
    expect(record).toStrictEqual({ id: 7, title: 'Title', created_at: row.created_at, updated_at: row.updated_at, data: { zeta: 'b', constructor: 2, alpha: ['x'] } });
    expect(Object.keys(record.data)).toEqual(['zeta', 'constructor', 'alpha']);
    expect(JSON.stringify(build(row, null, values, 0))).toBe(`{"id":7,"title":null,"created_at":"${row.created_at}","updated_at":"${row.updated_at}","data":{"zeta":"a","constructor":1,"alpha":null}}`);
  });

  it('builds an empty data object for no fields', () => {
    expect(recordBuilderOf([])(row, null, [], 0).data).toStrictEqual({});
  });

  it.each(['__proto__', 'Name', 'a"b', 'a,b', '1a', "x'}; process.exit(1); ({'"])('refuses %j, which is not a slug, rather than compile it', (slug) => {
    expect(() => recordBuilderOf([slug])).toThrow(/not a slug/);
  });
});
