import type { Kysely } from 'kysely';
import { readMetadataVersion, type MetadataReads } from '../../db/metadata-cache.js';
import type { SystemSchema } from '../../db/schema.js';
import type { Actor, Role } from '../auth/actor.js';
import { impliedSpaceRole } from '../spaces/space-access.js';
import { findTableAccessRow, type TableAccessRow } from './tables.repository.js';

/** A table the caller may see, and its role in the table's space. */
export interface TableAccess {
  row: TableAccessRow;
  role: Role;
}

const accessKey = (tableId: number, actor: Actor) => `table:${tableId}:${actor.userId}`;

function accessOf(row: TableAccessRow | undefined, actor: Actor): TableAccess | null {
  if (!row) return null;
  const implied = impliedSpaceRole(actor, { id: row.space_id, account_id: row.account_id });
  const role = implied === undefined ? ((row.role as Role | null) ?? null) : implied;
  return role ? { row, role } : null;
}

/**
 * May this caller see table `tableId`, and with which role: the one answer every module uses.
 * Null for a table that does not exist and for one the caller may not see alike (another
 * account's, outside a restricted key's spaces, in a space the user is no member of); each
 * caller maps null to its own error (records `Invalid Table`, tables 404 `Table not found`),
 * so nothing tells the two apart.
 *
 * With `reads` (records calls), the row comes from the per-process metadata cache and the
 * call's own statement confirms it; without, it is read afresh.
 */
export async function resolveTableAccess(db: Kysely<SystemSchema>, actor: Actor, tableId: number, reads?: MetadataReads): Promise<TableAccess | null> {
  if (!reads) return accessOf(await findTableAccessRow(db, tableId, actor.userId), actor);
  const found = await reads.load(accessKey(tableId, actor), async () => {
    const row = await findTableAccessRow(db, tableId, actor.userId);
    return { version: row ? Number(row.metadata_version) : await readMetadataVersion(db), value: { row } };
  });
  return accessOf(found.row, actor);
}

/** The same from the cache alone, synchronously; undefined when it must be read. */
export function peekTableAccess(reads: MetadataReads, actor: Actor, tableId: number): TableAccess | null | undefined {
  const found = reads.peek<{ row: TableAccessRow | undefined }>(accessKey(tableId, actor));
  return found && accessOf(found.row, actor);
}
