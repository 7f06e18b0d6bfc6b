import { sql } from 'kysely';
import { ValidationError } from '../../shared/errors.js';
import type { Field } from './field.js';
import type { FieldType } from './field-type.js';
import { compareEmptiness, compareLike, compareScalar, describe, FieldValueError, filterError, foldedOrderKey, isEmptyInput, likePattern, plainTitleText, unsupportedOperator } from './value-helpers.js';

const colorPattern = /^[A-Za-z0-9#(),.% -]{1,40}$/;

export const selectField: FieldType = {
  name: 'select',
  multiplicity: 'optional',
  settingKeys: ['options'],
  parseSettings(raw) {
    const options = raw.options ?? [];
    if (!Array.isArray(options)) throw new ValidationError('Invalid field definition: options must be an array of {value, color?}');
    const seen = new Set<string>();
    const parsed = options.map((option, index) => {
      if (typeof option !== 'object' || option === null || Array.isArray(option)) {
        throw new ValidationError(`Invalid field definition: options[${index}] must be an object {value, color?}`);
      }
      const { value, color, ...rest } = option as Record<string, unknown>;
      const unknown = Object.keys(rest)[0];
      if (unknown) throw new ValidationError(`Invalid field definition: options[${index}] has unknown property "${unknown}"`);
      if (typeof value !== 'string' || value.trim() === '' || value.length > 200) {
        throw new ValidationError(`Invalid field definition: options[${index}].value must be a non-empty string of at most 200 characters`);
      }
      // A comma-separated string is a write form of select values, so a comma inside a value would be ambiguous.
      if (value.includes(',')) throw new ValidationError(`Invalid field definition: options[${index}].value must not contain a comma`);
      // Record values are refused with NUL (PostgreSQL text cannot hold it), so such an option could never be chosen.
      if (value.includes('\u0000')) throw new ValidationError(`Invalid field definition: options[${index}].value must not contain NUL characters`);
      if (value !== value.trim()) throw new ValidationError(`Invalid field definition: options[${index}].value must not start or end with spaces`);
      if (seen.has(value)) throw new ValidationError(`Invalid field definition: duplicate option "${value}"`);
      seen.add(value);
      if (color !== undefined && color !== null && (typeof color !== 'string' || !colorPattern.test(color))) {
        throw new ValidationError(`Invalid field definition: options[${index}].color must be a color string`);
      }
      return color === undefined || color === null ? { value } : { value, color };
    });
    return { options: parsed };
  },
  columnType: () => 'text',
  titleText: plainTitleText,
  sortable: true,
  orderKey: foldedOrderKey,
  searchable: true,
  matchable: true,
  toStored(input, field) {
    if (isEmptyInput(input)) return null;
    const values = splitSelectInput(input, field);
    const allowed = allowedValuesOf(field.settings.options as Array<{ value: string }>);
    const unknown = values.find((value) => !allowed.has(value));
    if (unknown !== undefined) throw new FieldValueError(field, `${describe(unknown)} is not one of the options`);
    if (!field.multiple) {
      if (values.length > 1) throw new FieldValueError(field, 'only one value is allowed');
      return values[0] ?? null;
    }
    const unique = [...new Set(values)];
    return unique.length === 0 ? null : unique;
  },
  columnReadForm: (column, field) => (field.multiple ? null : sql`coalesce(to_jsonb(${column}), 'null'::jsonb)`),
  readMany: (stored, field) => stored.map((value) => (field.multiple ? (value ?? []) : (value ?? null))),
  compileFilter(op, value, field, ctx) {
    if (op === 'empty' || op === 'not_empty') return compareEmptiness(op, ctx.column);
    if ((op === 'eq' || op === 'ne') && (value === null || value === '')) return compareEmptiness(op === 'eq' ? 'empty' : 'not_empty', ctx.column);
    if (typeof value !== 'string') throw filterError(field, `expected a string value, got ${describe(value)}`);
    const substring = op === 'contains' || op === 'starts_with' || op === 'ends_with';
    if (!field.multiple) {
      if (substring) return compareLike(op, ctx, value);
      if (op === 'eq' || op === 'ne') return compareScalar(op, ctx.column, value);
      throw unsupportedOperator(field, op);
    }
    if (substring) return ctx.dialect.jsonArrayAnyLike(ctx.column, likePattern(op, value));
    const includes = ctx.dialect.jsonArrayIncludes(ctx.column, value);
    if (op === 'eq') return includes;
    if (op === 'ne') return sql<boolean>`(${ctx.column} is null or not ${includes})`;
    throw unsupportedOperator(field, op);
  },
};

/** Option values by a field's options list: a definition's list is replaced, never changed, when the field is. */
const allowedByOptions = new WeakMap<object, ReadonlySet<string>>();

/** The values a field's options allow: made once per options list, not on every value written. */
function allowedValuesOf(options: Array<{ value: string }>): ReadonlySet<string> {
  let allowed = allowedByOptions.get(options);
  if (!allowed) allowedByOptions.set(options, (allowed = new Set(options.map((o) => o.value))));
  return allowed;
}

/** The write forms: a value, an array of values, or a comma-separated string. */
function splitSelectInput(input: unknown, field: Field): string[] {
  const items = Array.isArray(input) ? input : [input];
  return items.flatMap((item) => {
    if (typeof item !== 'string') throw new FieldValueError(field, `expected option values as strings, got ${describe(item)}`);
    return item.split(',').map((part) => part.trim()).filter((part) => part !== '');
  });
}
