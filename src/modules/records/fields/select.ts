import { ValidationError } from '../../../shared/errors.js';
import type { FieldType } from './field-type.js';

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
  titleCapable: true,
};
