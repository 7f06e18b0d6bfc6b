import type { Field } from '../fields/field.js';
import { systemFieldById } from '../fields/system-fields.js';
import type { IndexDirection, IndexOrigin } from './index-definition.js';
import type { IndexRow } from './indexes.repository.js';

/** An index as the API shows it, in the table object's `indexes` and from the indexes calls. */
export interface IndexObject {
  name: string;
  fields: string[];
  /** The sort direction of the last field; null when every field is indexed as stored. */
  direction: IndexDirection | null;
  origin: IndexOrigin;
  /** Why the service made it (automatic and view indexes): the query shape that asked. */
  reason: string | null;
  created_at: string | null;
  last_used_at: string | null;
}

export function fieldIdsOf(row: Pick<IndexRow, 'field_ids_json'>): number[] {
  return JSON.parse(row.field_ids_json) as number[];
}

/** A field of an index definition by id: one of the table's, or `created_at` / `updated_at`. */
export function indexedField(id: number, fields: readonly Field[]): Field | undefined {
  return id < 0 ? systemFieldById(id) : fields.find((f) => f.id === id);
}

export function presentIndex(row: IndexRow, fields: readonly Field[]): IndexObject {
  return {
    name: row.name,
    fields: fieldIdsOf(row).map((id) => indexedField(id, fields)?.slug ?? `#${id}`),
    direction: row.direction as IndexDirection | null,
    origin: row.origin as IndexOrigin,
    reason: row.reason,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
  };
}
