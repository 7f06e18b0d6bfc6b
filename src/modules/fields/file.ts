import { ValidationError } from '../../shared/errors.js';
import type { FieldType } from './field-type.js';
import { compareEmptiness, FieldValueError, isEmptyInput, unsupportedOperator } from './value-helpers.js';

export const fileField: FieldType = {
  name: 'file',
  multiplicity: 'always',
  settingKeys: ['image_only'],
  parseSettings(raw) {
    const imageOnly = raw.image_only ?? false;
    if (typeof imageOnly !== 'boolean') throw new ValidationError('Invalid field definition: image_only must be a boolean');
    return { image_only: imageOnly };
  },
  columnType: (dialect) => dialect.jsonType,
  sortable: false,
  searchable: false,
  // Attachments arrive with the files capability; until then a file field can only be cleared.
  toStored(input, field) {
    if (isEmptyInput(input)) return null;
    throw new FieldValueError(field, 'file attachments are not available yet');
  },
  readMany: (stored) => stored.map((value) => value ?? []),
  compileFilter(op, _value, field, ctx) {
    if (op === 'empty' || op === 'not_empty') return compareEmptiness(op, ctx.column);
    throw unsupportedOperator(field, op);
  },
};
