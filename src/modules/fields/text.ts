import { sql } from 'kysely';
import type { Field } from './field.js';
import type { FieldType } from './field-type.js';
import { checkStoredText, compareEmptiness, compareLike, compareScalar, describe, FieldValueError, filterError, foldedOrderKey, isEmptyInput, plainTitleText } from './value-helpers.js';

const emailPattern = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;

type Check = (field: Field, value: string) => string;

const checks: Record<'text' | 'longtext' | 'email' | 'url', Check> = {
  text: (field, value) => checkStoredText(field, value, 100_000),
  longtext: (field, value) => checkStoredText(field, value, 1_000_000),
  email: (field, value) => {
    const email = checkStoredText(field, value.trim(), 254);
    if (!emailPattern.test(email)) throw new FieldValueError(field, `${describe(value)} is not an email address`);
    return email;
  },
  url: (field, value) => {
    const url = checkStoredText(field, value.trim(), 2048);
    if (!/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(url) || !URL.canParse(url)) throw new FieldValueError(field, `${describe(value)} is not an absolute URL`);
    return url;
  },
};

function textLike(name: 'text' | 'longtext' | 'email' | 'url'): FieldType {
  const check = checks[name];
  return {
    name,
    multiplicity: 'single',
    settingKeys: [],
    parseSettings: () => ({}),
    columnType: () => 'text',
    titleText: plainTitleText,
    sortable: true,
    orderKey: foldedOrderKey,
    searchable: true,
    matchable: true,
    toStored(input, field) {
      if (isEmptyInput(input)) return null;
      if (typeof input !== 'string') throw new FieldValueError(field, `expected a string, got ${describe(input)}`);
      return check(field, input);
    },
    readMany: (stored) => stored.map((value) => (value === undefined ? null : value)),
    compileFilter(op, value, field, ctx) {
      if (op === 'empty' || op === 'not_empty') return compareEmptiness(op, ctx.column);
      if (value === null || value === '') {
        if (op === 'eq') return compareEmptiness('empty', ctx.column);
        if (op === 'ne') return compareEmptiness('not_empty', ctx.column);
      }
      if (typeof value !== 'string') throw filterError(field, `expected a string value, got ${describe(value)}`);
      if (op === 'contains' || op === 'starts_with' || op === 'ends_with') return compareLike(op, ctx, value);
      if (op === 'eq' || op === 'ne') return compareScalar(op, ctx.column, value);
      // Ordering comparisons follow the sort order: lower-cased (by the database, like the column), byte order.
      return compareScalar(op, ctx.dialect.sortableText(ctx.column), ctx.dialect.sortableText(sql`${value}`));
    },
  };
}

export const textField = textLike('text');
export const longtextField = textLike('longtext');
export const emailField = textLike('email');
export const urlField = textLike('url');
