import type { FieldType } from './field-type.js';

export const userField: FieldType = {
  name: 'user',
  multiplicity: 'optional',
  settingKeys: [],
  parseSettings: () => ({}),
  columnType: () => 'integer',
  titleCapable: false,
};
