import type { Field } from '../src/modules/fields/field.js';

/**
 * A field as the tables module hands it to field types and the query compiler, for tests that
 * need one without a database: a plain, optional text field unless `overrides` say otherwise.
 */
export function buildField(overrides: Partial<Field> = {}): Field {
  return {
    id: 1,
    tableId: 1,
    slug: 'field',
    name: 'Field',
    multiple: false,
    required: false,
    editableBy: 'members',
    hidden: null,
    settings: {},
    position: 0,
    // Last, where a `type` override used to land: test names that print a field stay as they were.
    type: 'text',
    ...overrides,
  };
}
