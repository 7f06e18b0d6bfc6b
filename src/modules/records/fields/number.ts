import { ValidationError } from '../../../shared/errors.js';
import type { FieldType } from './field-type.js';

export const numberField: FieldType = {
  name: 'number',
  multiplicity: 'single',
  settingKeys: ['decimals'],
  parseSettings(raw) {
    const decimals = raw.decimals ?? null;
    if (decimals !== null && (!Number.isInteger(decimals) || (decimals as number) < 0 || (decimals as number) > 10)) {
      throw new ValidationError('Invalid field definition: decimals must be an integer from 0 to 10, or null');
    }
    return { decimals };
  },
  columnType: (dialect) => (dialect.name === 'postgres' ? 'double precision' : 'real'),
  titleCapable: true,
};
