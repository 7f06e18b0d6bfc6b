import type { Field } from '../api/types';

/** A field of `type` as the API describes it, for component tests. */
export function makeField(id: string, type: Field['type'], settings: Partial<Field> = {}): Field {
  return { id, name: id.charAt(0).toUpperCase() + id.slice(1), type, multiple: false, required: false, editable_by: 'members', hidden: null, ...settings };
}
