import { ValidationError } from '../../shared/errors.js';
import { checkboxField } from './checkbox.js';
import type { FieldType, FieldTypeName } from './field-type.js';
import { fileField } from './file.js';
import { lookupField } from './lookup.js';
import { numberField } from './number.js';
import { selectField } from './select.js';
import { dateField, datetimeField, timeField } from './temporal.js';
import { emailField, longtextField, textField, urlField } from './text.js';
import { userField } from './user.js';

const fieldTypes = new Map<string, FieldType>(
  [textField, longtextField, numberField, checkboxField, emailField, urlField, selectField, userField, lookupField, dateField, datetimeField, timeField, fileField].map((t) => [t.name, t]),
);

export const fieldTypeNames = [...fieldTypes.keys()] as FieldTypeName[];

export function getFieldType(name: string): FieldType {
  const type = fieldTypes.get(name);
  if (!type) throw new ValidationError(`Invalid field type: ${JSON.stringify(name)} (use one of ${fieldTypeNames.join(', ')})`);
  return type;
}
