import type { FieldType, FieldTypeName } from './field-type.js';

function textLike(name: FieldTypeName): FieldType {
  return {
    name,
    multiplicity: 'single',
    settingKeys: [],
    parseSettings: () => ({}),
    columnType: () => 'text',
    titleCapable: true,
  };
}

export const textField = textLike('text');
export const longtextField = textLike('longtext');
export const emailField = textLike('email');
export const urlField = textLike('url');
