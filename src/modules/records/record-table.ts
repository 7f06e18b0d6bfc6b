import type { Kysely } from 'kysely';
import type { MetadataReads } from '../../db/metadata-cache.js';
import type { SystemSchema } from '../../db/schema.js';
import { ErrorCode, ValidationError } from '../../shared/errors.js';
import type { Actor, Role } from '../auth/actor.js';
import type { Field } from '../fields/field.js';
import { resolveTitleField } from '../fields/title.js';
import { peekTableAccess, resolveTableAccess, type TableAccess } from '../tables/table-access.js';
import type { TableSchemaCache } from './table-schema-cache.js';

/** Everything a record call needs to know about its table, loaded once per request. */
export interface RecordTable {
  id: number;
  spaceId: number;
  /** Bumped by every field change: part of any cache key that depends on the fields. */
  schemaVersion: number;
  role: Role;
  fields: Field[];
  fieldsBySlug: Map<string, Field>;
  titleField: Field | null;
}

/** A table the caller cannot see answers `400 Invalid Table`, exactly like one that does not exist. */
function visible(access: TableAccess | null): TableAccess {
  if (!access) throw new ValidationError('Invalid Table', ErrorCode.invalidTable);
  return access;
}

/** While the table row stays cached (same object), its description is reused, not rebuilt per request. */
function describeOnce({ row, role }: TableAccess, fields: Field[]): RecordTable {
  let byRole = described.get(row);
  if (!byRole) described.set(row, (byRole = new Map()));
  let table = byRole.get(role);
  if (!table || table.fields !== fields) byRole.set(role, (table = describeRecordTable(row, role, fields)));
  return table;
}

export async function loadRecordTable(db: Kysely<SystemSchema>, cache: TableSchemaCache, reads: MetadataReads, actor: Actor, tableId: number): Promise<RecordTable> {
  const access = visible(await resolveTableAccess(db, actor, tableId, reads));
  return describeOnce(access, await cache.fields(db, tableId, access.row.schema_version));
}

/**
 * The same, synchronously, when the table row and its fields are cached: the common case of a
 * records call, which then waits for no promise here. Undefined when something must be read.
 */
export function cachedRecordTable(cache: TableSchemaCache, reads: MetadataReads, actor: Actor, tableId: number): RecordTable | undefined {
  const found = peekTableAccess(reads, actor, tableId);
  if (found === undefined) return undefined;
  const access = visible(found);
  const fields = cache.peek(tableId, access.row.schema_version);
  return fields && describeOnce(access, fields);
}

/**
 * The table as the caller sees it, or undefined when it cannot see it (or it does not exist):
 * how a lookup reaches its target, through the same cached row and role as a record call on it.
 */
export async function findRecordTable(db: Kysely<SystemSchema>, cache: TableSchemaCache, reads: MetadataReads, actor: Actor, tableId: number): Promise<RecordTable | undefined> {
  const access = await resolveTableAccess(db, actor, tableId, reads);
  return access ? describeOnce(access, await cache.fields(db, tableId, access.row.schema_version)) : undefined;
}

/**
 * What, besides the metadata, decides which tables a caller sees (so which lookup targets show
 * titles): its user, whose memberships count, and its key's space restriction. A number in the
 * common unrestricted case, so the hot path builds no string.
 */
export function visibilityScope(actor: Actor): number | string {
  return actor.spaceIds === null ? actor.userId : `${actor.userId}:${actor.spaceIds.join(',')}`;
}

const described = new WeakMap<object, Map<Role, RecordTable>>();

export function describeRecordTable(
  row: { id: number; space_id: number; title_field_id: number | null; schema_version: number },
  role: Role,
  fields: Field[],
): RecordTable {
  return {
    id: row.id,
    spaceId: row.space_id,
    schemaVersion: row.schema_version,
    role,
    fields,
    fieldsBySlug: new Map(fields.map((f) => [f.slug, f])),
    titleField: resolveTitleField(fields, row.title_field_id),
  };
}
