import type { FieldType, FieldTypeName } from './field-type.js';

/** Dates, datetimes and times are stored as fixed-width ISO text on both engines: they sort and compare as strings. */
function temporal(name: FieldTypeName): FieldType {
  return {
    name,
    multiplicity: 'single',
    settingKeys: [],
    parseSettings: () => ({}),
    columnType: () => 'text',
    titleCapable: true,
  };
}

export const dateField = temporal('date');
export const datetimeField = temporal('datetime');
export const timeField = temporal('time');
