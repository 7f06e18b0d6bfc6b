import type { FieldType } from './field-type.js';

export const checkboxField: FieldType = {
  name: 'checkbox',
  multiplicity: 'single',
  settingKeys: [],
  parseSettings: () => ({}),
  columnType: (dialect) => dialect.booleanType,
  titleCapable: false,
};
