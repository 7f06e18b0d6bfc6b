import type { Kysely } from 'kysely';
import type { SystemSchema } from '../../db/schema.js';
import { ValidationError } from '../../shared/errors.js';
import type { Actor, Role } from '../auth/actor.js';
import type { Field } from '../tables/field-definition.js';
import { findVisibleTable } from '../tables/table-access.js';
import { listFields } from '../tables/tables.repository.js';
import { resolveTitleField } from '../tables/tables.service.js';

/** Everything a record call needs to know about its table, loaded once per request. */
export interface RecordTable {
  id: number;
  spaceId: number;
  role: Role;
  fields: Field[];
  fieldsBySlug: Map<string, Field>;
  titleField: Field | null;
}

/** A table the caller cannot see answers `400 Invalid Table`, exactly like one that does not exist. */
export async function loadRecordTable(db: Kysely<SystemSchema>, actor: Actor, tableId: number): Promise<RecordTable> {
  const found = await findVisibleTable(db, actor, tableId);
  if (!found) throw new ValidationError('Invalid Table', 'invalid_table');
  const fields = await listFields(db, tableId);
  return {
    id: tableId,
    spaceId: found.table.space_id,
    role: found.role,
    fields,
    fieldsBySlug: new Map(fields.map((f) => [f.slug, f])),
    titleField: resolveTitleField(fields, found.table.title_field_id),
  };
}
