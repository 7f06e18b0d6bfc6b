/**
 * The field model, on its own so that field types, the registry and definition parsing can
 * all name it without importing one another.
 */
export type FieldTypeName =
  | 'text' | 'longtext' | 'number' | 'checkbox' | 'email' | 'url' | 'select'
  | 'user' | 'lookup' | 'date' | 'datetime' | 'time' | 'file';

/** Type-specific settings of a field definition, in their API spelling. */
export type FieldSettings = Record<string, unknown>;

/** A field as the service works with it; `id` is the database id, `slug` the API id. */
export interface Field {
  id: number;
  tableId: number;
  slug: string;
  name: string;
  type: FieldTypeName;
  multiple: boolean;
  required: boolean;
  editableBy: 'members' | 'admins' | 'none';
  hidden: 'always' | null;
  settings: FieldSettings;
  position: number;
}

export type FieldDraft = Omit<Field, 'id' | 'tableId' | 'position'>;
