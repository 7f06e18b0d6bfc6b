import type { Kysely } from 'kysely';
import { metadataVersionColumn, readMetadataVersion, type MetadataReads } from '../../db/metadata-cache.js';
import { prepareQuery } from '../../db/prepared-query.js';
import type { SystemSchema } from '../../db/schema.js';
import { ValidationError } from '../../shared/errors.js';
import type { Actor, Role } from '../auth/actor.js';
import { impliedSpaceRole } from '../spaces/space-access.js';
import type { Field } from '../tables/field-definition.js';
import { resolveTitleField } from '../tables/tables.service.js';
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

/**
 * The table, its space's account and the caller's membership in one query: it runs on every
 * record call. The role is a scalar subquery: as a left join, SQLite's planner scanned tables.
 */
const selectTableWithMembership = prepareQuery((db: Kysely<SystemSchema>, tableId: number, userId: number) =>
  db
    .selectFrom('tables as t')
    .select((eb) => [
      't.id',
      't.account_id',
      't.space_id',
      't.title_field_id',
      't.schema_version',
      eb.selectFrom('members as m').select('m.role').whereRef('m.space_id', '=', 't.space_id').where('m.user_id', '=', userId).as('role'),
      metadataVersionColumn.as('metadata_version'),
    ])
    .where('t.id', '=', tableId),
);

type TableRow = Awaited<ReturnType<typeof selectTableWithMembership>>[number];

const tableKey = (tableId: number, actor: Actor) => `table:${tableId}:${actor.userId}`;

/** The table row with the user's role, through the metadata cache. */
async function findTableWithMembership(db: Kysely<SystemSchema>, reads: MetadataReads, actor: Actor, tableId: number) {
  const found = await reads.load(tableKey(tableId, actor), async () => {
    const [row] = await selectTableWithMembership(db, tableId, actor.userId);
    return { version: row ? Number(row.metadata_version) : await readMetadataVersion(db), value: { row } };
  });
  return found.row;
}

/** The caller's role in the table's space; null when the table is missing or invisible to it. */
function roleIn(row: TableRow | undefined, actor: Actor): Role | null {
  const implied = row ? impliedSpaceRole(actor, { id: row.space_id, account_id: row.account_id }) : null;
  return implied === undefined ? ((row?.role as Role | null) ?? null) : implied;
}

/** A table the caller cannot see answers `400 Invalid Table`, exactly like one that does not exist. */
function visibleRole(row: TableRow | undefined, actor: Actor): Role {
  const role = roleIn(row, actor);
  if (!row || !role) throw new ValidationError('Invalid Table', 'invalid_table');
  return role;
}

/** While the table row stays cached (same object), its description is reused, not rebuilt per request. */
function describeOnce(row: TableRow, role: Role, fields: Field[]): RecordTable {
  let byRole = described.get(row);
  if (!byRole) described.set(row, (byRole = new Map()));
  let table = byRole.get(role);
  if (!table || table.fields !== fields) byRole.set(role, (table = describeRecordTable(row, role, fields)));
  return table;
}

export async function loadRecordTable(db: Kysely<SystemSchema>, cache: TableSchemaCache, reads: MetadataReads, actor: Actor, tableId: number): Promise<RecordTable> {
  const row = await findTableWithMembership(db, reads, actor, tableId);
  const role = visibleRole(row, actor);
  return describeOnce(row!, role, await cache.fields(db, tableId, row!.schema_version));
}

/**
 * The same, synchronously, when the table row and its fields are cached: the common case of a
 * records call, which then waits for no promise here. Undefined when something must be read.
 */
export function cachedRecordTable(cache: TableSchemaCache, reads: MetadataReads, actor: Actor, tableId: number): RecordTable | undefined {
  const found = reads.peek<{ row: TableRow | undefined }>(tableKey(tableId, actor));
  if (!found) return undefined;
  const role = visibleRole(found.row, actor);
  const fields = cache.peek(tableId, found.row!.schema_version);
  return fields && describeOnce(found.row!, role, fields);
}

/**
 * The table as the caller sees it, or undefined when it cannot see it (or it does not exist):
 * how a lookup reaches its target, through the same cached row and role as a record call on it.
 */
export async function findRecordTable(db: Kysely<SystemSchema>, cache: TableSchemaCache, reads: MetadataReads, actor: Actor, tableId: number): Promise<RecordTable | undefined> {
  const row = await findTableWithMembership(db, reads, actor, tableId);
  const role = roleIn(row, actor);
  return row && role ? describeOnce(row, role, await cache.fields(db, tableId, row.schema_version)) : undefined;
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
