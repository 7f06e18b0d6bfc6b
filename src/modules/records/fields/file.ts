import { ValidationError } from '../../../shared/errors.js';
import type { FieldType } from './field-type.js';

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
  titleCapable: false,
};
