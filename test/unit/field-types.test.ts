import { describe, expect, it } from 'vitest';
import { checkboxField } from '../../src/modules/fields/checkbox.js';
import { fromColumnValue } from '../../src/modules/fields/column-values.js';
import type { FieldType } from '../../src/modules/fields/field-type.js';
import { numberField } from '../../src/modules/fields/number.js';
import { getFieldType } from '../../src/modules/fields/registry.js';
import { selectField } from '../../src/modules/fields/select.js';
import { dateField, datetimeField, isValidTemporal, timeField } from '../../src/modules/fields/temporal.js';
import { emailField, longtextField, textField, urlField } from '../../src/modules/fields/text.js';
import type { ReadContext, WriteContext } from '../../src/modules/fields/value-context.js';
import { FieldValueError } from '../../src/modules/fields/value-helpers.js';
import type { Field } from '../../src/modules/fields/field.js';
import { ValidationError } from '../../src/shared/errors.js';
import { buildField } from '../field-builder.js';

/**
 * The pure half of the field types: write value → stored value (`toStored`) and stored column
 * values → API values (`readMany`), for the types that never ask the database.
 */

/** One field of `type`, with the slug and name its messages show. */
const field = (overrides: Partial<Field> & Pick<Field, 'type'>): Field =>
  buildField({ slug: overrides.type === 'select' ? 'status' : `my_${overrides.type}`, name: 'A field', ...overrides });

/** These types never look anything up: any use of the context is a bug. */
const unusable = (): never => {
  throw new Error('the context must not be used');
};
const writeCtx: WriteContext = {
  actor: undefined as never,
  spaceMembers: unusable,
  existingRecordIds: unusable,
  target: { tableId: 1, spaceId: 1, recordId: undefined },
  currentValue: unusable,
  files: { store: unusable, settle: unusable, releaseAttachments: unusable, releaseField: unusable, releaseTable: unusable },
  confirmMetadata: unusable,
};
const readCtx: ReadContext = { users: unusable, knownUsers: () => undefined, recordTitles: unusable, knownTitles: () => undefined };

const store = (type: FieldType, f: Field, input: unknown) => type.toStored(input, f, writeCtx);
/** Column values as either driver returns them, decoded as the record reader does, then read by the type. */
const read = (type: FieldType, f: Field, columns: unknown[]) => type.readMany(columns.map((column) => fromColumnValue(f, column)), f, readCtx);

/** The thrown error: a 400 FieldValueError naming the field's slug. */
function rejection(type: FieldType, f: Field, input: unknown): FieldValueError {
  try {
    store(type, f, input);
  } catch (error) {
    expect(error).toBeInstanceOf(FieldValueError);
    expect(error).toBeInstanceOf(ValidationError);
    const e = error as FieldValueError;
    expect(e.status).toBe(400);
    expect(e.code).toBe('invalid_field_value');
    expect(e.message).toContain(`Invalid value for field ${f.slug}: `);
    return e;
  }
  throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
}

describe('registry', () => {
  it('knows every field type of the contract by name', () => {
    for (const name of ['text', 'longtext', 'number', 'checkbox', 'email', 'url', 'select', 'user', 'lookup', 'date', 'datetime', 'time', 'file']) {
      expect(getFieldType(name).name).toBe(name);
    }
  });

  it('refuses an unknown type with a ValidationError', () => {
    expect(() => getFieldType('rating')).toThrow(ValidationError);
  });
});

describe('text-like types', () => {
  const text = field({ type: 'text' });

  it.each([['hello'], ['  spaced  '], ['multi\nline'], ['😀 ünïcödé']])('stores the string %j unchanged', (value) => {
    expect(store(textField, text, value)).toBe(value);
  });

  it.each([[null], [undefined], [''], [[]]])('stores the empty value %j as null', (value) => {
    expect(store(textField, text, value)).toBeNull();
  });

  it.each([[1], [true], [{}], [['a']]])('refuses the non-string %j', (value) => {
    expect(rejection(textField, text, value).message).toMatch(/expected a string/);
  });

  it('refuses a NUL character', () => {
    expect(rejection(textField, text, 'a\u0000b').message).toMatch(/NUL/);
    expect(rejection(longtextField, field({ type: 'longtext' }), '\u0000').message).toMatch(/NUL/);
  });

  it('refuses an unpaired surrogate (no UTF-8 form) and keeps a surrogate pair', () => {
    expect(rejection(textField, text, 'a\uD800b').message).toMatch(/unpaired surrogate/);
    expect(rejection(textField, text, '\uDC00').message).toMatch(/unpaired surrogate/);
    expect(store(textField, text, 'a\uD83D\uDE00b')).toBe('a😀b');
  });

  it('caps text at 100 000 characters and longtext at 1 000 000', () => {
    expect(store(textField, text, 'x'.repeat(100_000))).toHaveLength(100_000);
    rejection(textField, text, 'x'.repeat(100_001));
    const longtext = field({ type: 'longtext' });
    expect(store(longtextField, longtext, 'x'.repeat(1_000_000))).toHaveLength(1_000_000);
    rejection(longtextField, longtext, 'x'.repeat(1_000_001));
  });

  it('stores a trimmed email and refuses what is not an address', () => {
    const email = field({ type: 'email' });
    expect(store(emailField, email, ' Ada@Example.COM ')).toBe('Ada@Example.COM');
    for (const bad of ['ada', 'ada@example', 'a da@example.com', '<a@b.co>', 'a@b.co,c@d.co']) {
      expect(rejection(emailField, email, bad).message).toMatch(/not an email address/);
    }
  });

  it('stores a trimmed absolute URL and refuses a relative or schemeless one', () => {
    const url = field({ type: 'url' });
    expect(store(urlField, url, ' https://example.com/x?y=1 ')).toBe('https://example.com/x?y=1');
    expect(store(urlField, url, 'mailto://a@b.co')).toBe('mailto://a@b.co');
    for (const bad of ['example.com', '/relative/path', 'https://', 'http://exa mple.com', 'javascript:alert(1)']) {
      expect(rejection(urlField, url, bad).message).toMatch(/not an absolute URL/);
    }
  });

  it('reads stored strings as they are and missing values as null', () => {
    expect(read(textField, text, ['a', null, undefined, ''])).toEqual(['a', null, null, '']);
  });
});

describe('number', () => {
  const plain = field({ type: 'number', settings: { decimals: null } });
  const unset = field({ type: 'number' });
  const two = field({ type: 'number', settings: { decimals: 2 } });
  const zero = field({ type: 'number', settings: { decimals: 0 } });

  it.each([
    [plain, 3.14159265, 3.14159265],
    [unset, 3.14159265, 3.14159265],
    [plain, -0.5, -0.5],
    [plain, 1e21, 1e21],
    [two, 3.14159, 3.14],
    [two, -1.239, -1.24],
    [two, 7, 7],
    [two, 41091.64, 41091.64],
    [two, 0.3, 0.3],
    [two, -12.5, -12.5],
    [zero, 2.5, 3],
    [zero, 2.4, 2],
    [zero, 1e21, 1e21],
    [two, 1.005, 1.01],
    [two, 2.675, 2.68],
    [two, -1.005, -1.01],
    [two, 1.5e-7, 0],
    [two, 123456789.125, 123456789.13],
    [field({ type: 'number', settings: { decimals: 1 } }), 1.45, 1.5],
    [field({ type: 'number', settings: { decimals: 10 } }), 1e-7, 1e-7],
    [field({ type: 'number', settings: { decimals: 10 } }), 0.12345678915, 0.1234567892],
  ])('stores %#: %j as %j (decimals round, unset keeps the value as given)', (f, value, expected) => {
    expect(store(numberField, f, value)).toBe(expected);
  });

  it.each([[null], [undefined], ['']])('stores the empty value %j as null', (value) => {
    expect(store(numberField, plain, value)).toBeNull();
  });

  it('never stores a negative zero from rounding', () => {
    expect(Object.is(store(numberField, two, -0.001), 0)).toBe(true);
    expect(Object.is(store(numberField, two, -0), 0)).toBe(true);
  });

  it('rounds 20,000 random numbers as their written decimals say, whether or not they have places to drop', () => {
    // The rule written out longhand: the decimal text shifted, rounded half away from zero, shifted back.
    const longhand = (value: number, decimals: number) => (Math.sign(value) * Math.round(Number(`${Math.abs(value)}e${decimals}`))) / 10 ** decimals + 0;
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const fields = [0, 1, 2, 3, 4].map((decimals) => field({ type: 'number', settings: { decimals } }));
    for (let n = 0; n < 20_000; n++) {
      const decimals = n % 5;
      const value = Number((random() * 2e6 - 1e6).toFixed(Math.floor(random() * 7)));
      expect(store(numberField, fields[decimals], value), `${value} at ${decimals} places`).toBe(longhand(value, decimals));
    }
  });

  it.each([['5'], ['1e3'], [true], [[1]], [{}], [Number.NaN], [Number.POSITIVE_INFINITY]])('refuses %j', (value) => {
    expect(rejection(numberField, plain, value).message).toMatch(/expected a number/);
  });

  it('reads numbers (and numeric text from a driver) as numbers, empty as null', () => {
    expect(read(numberField, plain, [1.5, '2.25', 0, null, undefined])).toEqual([1.5, 2.25, 0, null, null]);
  });
});

describe('checkbox', () => {
  const checkbox = field({ type: 'checkbox' });

  it('stores true and false, and an empty value as false', () => {
    expect(store(checkboxField, checkbox, true)).toBe(true);
    expect(store(checkboxField, checkbox, false)).toBe(false);
    expect(store(checkboxField, checkbox, null)).toBe(false);
    expect(store(checkboxField, checkbox, undefined)).toBe(false);
  });

  it.each([[1], [0], ['true'], ['yes'], [[]], [{}]])('refuses the non-boolean %j', (value) => {
    expect(rejection(checkboxField, checkbox, value).message).toMatch(/true or false/);
  });

  it('reads PostgreSQL booleans and SQLite 0/1 alike; NULL reads as unchecked', () => {
    expect(read(checkboxField, checkbox, [true, false, 1, 0, null, undefined])).toEqual([true, false, true, false, false, false]);
  });
});

describe('select', () => {
  const options = { options: [{ value: 'red' }, { value: 'green', color: '#0f0' }, { value: 'blue' }] };
  const single = field({ type: 'select', settings: options });
  const multiple = field({ type: 'select', multiple: true, settings: options, slug: 'tags' });

  it.each([
    ['red', 'red'],
    [['green'], 'green'],
    [' blue ', 'blue'],
    ['red,', 'red'],
    [[''], null],
    [',', null],
  ])('stores %j on a single select as %j', (value, expected) => {
    expect(store(selectField, single, value)).toBe(expected);
  });

  it.each([[null], [''], [[]]])('stores the empty value %j as null', (value) => {
    expect(store(selectField, single, value)).toBeNull();
    expect(store(selectField, multiple, value)).toBeNull();
  });

  it.each([['red,green'], [['red', 'blue']], [['red', 'red']]])('refuses two values %j on a single select', (value) => {
    expect(rejection(selectField, single, value).message).toMatch(/only one value/);
  });

  it.each([['purple'], ['Red'], [['red', 'purple']], ['red,purple']])('refuses %j: not one of the options', (value) => {
    expect(rejection(selectField, multiple, value).message).toMatch(/not one of the options/);
  });

  it.each([[1], [[true]], [{ value: 'red' }], [['red', null]]])('refuses the non-string %j', (value) => {
    expect(rejection(selectField, multiple, value).message).toMatch(/as strings/);
  });

  it.each([
    [['red', 'green'], ['red', 'green']],
    [['blue', 'red'], ['blue', 'red']],
    ['green, red', ['green', 'red']],
    ['blue', ['blue']],
    [['red,blue', 'green'], ['red', 'blue', 'green']],
    [['red', 'red', 'blue', 'red'], ['red', 'blue']],
    [['', ' '], null],
  ])('stores %j on a multiple select as %j (order kept, duplicates dropped)', (value, expected) => {
    expect(store(selectField, multiple, value)).toEqual(expected);
  });

  it('reads a single select as a string or null', () => {
    expect(read(selectField, single, ['red', null, undefined])).toEqual(['red', null, null]);
  });

  it('reads a multiple select from JSON text (SQLite) or an array (PostgreSQL), empty as []', () => {
    expect(read(selectField, multiple, ['["red","blue"]', ['green'], null, undefined])).toEqual([['red', 'blue'], ['green'], [], []]);
  });
});

describe('date, datetime, time', () => {
  const date = field({ type: 'date' });
  const datetime = field({ type: 'datetime' });
  const time = field({ type: 'time' });

  it.each([
    [dateField, date, '2024-02-29'],
    [dateField, date, '1999-12-31'],
    [dateField, date, '0001-01-01'],
    [dateField, date, '0099-06-15'],
    [dateField, date, '9999-12-31'],
    [datetimeField, datetime, '2024-03-31 23:59:59'],
    [datetimeField, datetime, '0050-01-01 00:00:00'],
    [timeField, time, '00:00:00'],
    [timeField, time, '23:59:59'],
  ])('stores %#: %j exactly as given', (type, f, value) => {
    expect(store(type, f, value)).toBe(value);
  });

  it.each([
    [dateField, date, '2023-02-29'],
    [dateField, date, '1900-02-29'],
    [dateField, date, '2024-04-31'],
    [dateField, date, '2024-13-01'],
    [dateField, date, '2024-00-01'],
    [dateField, date, '2024-01-00'],
    [dateField, date, '0000-01-01'],
    [dateField, date, '2024-1-1'],
    [dateField, date, '2024-01-01T00:00:00Z'],
    [dateField, date, '2024-01-01 00:00:00'],
    [dateField, date, ' 2024-01-01'],
    [dateField, date, 20240101],
    [datetimeField, datetime, '2024-01-01T10:00'],
    [datetimeField, datetime, '2024-01-01 10:00'],
    [datetimeField, datetime, '2024-02-30T10:00:00Z'],
    [datetimeField, datetime, '2024-01-01t10:00:00z'],
    [datetimeField, datetime, '2024-01-01 24:00:00'],
    [datetimeField, datetime, '2024-02-30 10:00:00'],
    [datetimeField, datetime, '2024-01-01'],
    [timeField, time, '24:00:00'],
    [timeField, time, '12:60:00'],
    [timeField, time, '12:00:60'],
    [timeField, time, '7:00:00'],
    [timeField, time, '12:00'],
    [timeField, time, '2024-01-01 12:00:00'],
  ])('refuses %#: %j', (type, f, value) => {
    expect(rejection(type, f, value).message).toMatch(/expected (YYYY-MM-DD|HH:MM:SS)/);
  });

  it.each([
    [dateField, date, 'today'],
    [dateField, date, 'yesterday'],
    [dateField, date, 'start_of_week'],
    [dateField, date, '-1d'],
    [dateField, date, '+3m'],
    [datetimeField, datetime, 'now'],
    [datetimeField, datetime, '-2y'],
    [timeField, time, 'now'],
  ])('refuses the date token %#: %j on a write', (type, f, value) => {
    expect(rejection(type, f, value).message).toMatch(/date tokens .* not accepted on writes/);
  });

  it.each([
    ['2024-01-01T10:00:00Z', '2024-01-01 10:00:00'],
    ['2024-01-01T10:00:00', '2024-01-01 10:00:00'],
    ['2024-01-01T10:00:00+00:00', '2024-01-01 10:00:00'],
    ['2024-01-01T10:00:00.000Z', '2024-01-01 10:00:00'],
    ['2024-01-01 10:00:00Z', '2024-01-01 10:00:00'],
    ['2024-12-31T23:59:59.000000000', '2024-12-31 23:59:59'],
  ])('stores the ISO 8601 UTC datetime %j as %j', (value, stored) => {
    expect(store(datetimeField, datetime, value)).toBe(stored);
  });

  it.each([
    ['2024-01-01T10:00:00+02:00', /^Invalid value for field \w+: "2024-01-01T10:00:00\+02:00" \(offsets other than Z and \+00:00 are refused; values are never converted\)$/],
    ['2024-01-01T10:00:00-05:00', /offsets other than Z and \+00:00 are refused/],
    ['2024-01-01T10:00:00-00:00', /offsets other than Z and \+00:00 are refused/],
    ['2024-01-01T10:00:00.500Z', /^Invalid value for field \w+: "2024-01-01T10:00:00.500Z" \(fractions of a second are refused; values are stored to the second and never rounded\)$/],
  ])('refuses the ISO datetime %j that would need converting', (value, message) => {
    expect(rejection(datetimeField, datetime, value).message).toMatch(message);
  });

  it('accepts ISO datetimes on datetime fields only: date and time fields keep their own format', () => {
    expect(rejection(dateField, date, '2024-01-01T00:00:00Z').message).toMatch(/expected YYYY-MM-DD/);
    expect(rejection(timeField, time, '10:00:00Z').message).toMatch(/expected HH:MM:SS/);
  });

  it.each([[null], [undefined], ['']])('stores the empty value %j as null', (value) => {
    expect(store(dateField, date, value)).toBeNull();
    expect(store(datetimeField, datetime, value)).toBeNull();
    expect(store(timeField, time, value)).toBeNull();
  });

  it('reads stored text as it is, empty as null', () => {
    expect(read(dateField, date, ['2024-01-01', null, undefined])).toEqual(['2024-01-01', null, null]);
  });

  it('validates literals with isValidTemporal independently of the field', () => {
    expect(isValidTemporal('date', '2000-02-29')).toBe(true);
    expect(isValidTemporal('date', '2100-02-29')).toBe(false);
    expect(isValidTemporal('datetime', '2000-02-29 12:34:56')).toBe(true);
    expect(isValidTemporal('time', '12:34:56')).toBe(true);
    expect(isValidTemporal('time', '2000-02-29')).toBe(false);
  });

  it('takes exactly the days the calendar of JavaScript dates has, years 0001 to 9999', () => {
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    // What the calendar says: the day a Date lands on is the day asked for (setUTCFullYear: no 1900 offset for years below 100).
    const onCalendar = (year: number, month: number, day: number) => {
      const at = new Date(0);
      at.setUTCFullYear(year, month - 1, day);
      return year >= 1 && at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === day;
    };
    const years = [0, 1, 4, 99, 100, 200, 400, 1600, 1700, 1900, 2000, 2024, 2100, 2400, 9996, 9999];
    for (let n = 0; n < 3000; n += 1) years.push(Math.floor(Math.random() * 10000));
    for (const year of years) {
      const month = Math.floor(Math.random() * 14);
      for (const [m, day] of [[month, Math.floor(Math.random() * 33)], [2, 28], [2, 29], [2, 30], [12, 31], [4, 31], [1, 0], [13, 1]]) {
        const text = `${pad(year, 4)}-${pad(m, 2)}-${pad(day, 2)}`;
        expect(isValidTemporal('date', text), text).toBe(onCalendar(year, m, day));
        expect(isValidTemporal('datetime', `${text} 23:59:59`), text).toBe(onCalendar(year, m, day));
      }
    }
  });
});
