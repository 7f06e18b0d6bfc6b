import type { Kysely } from 'kysely';
import type { SystemSchema } from '../../db/schema.js';
import type { Actor, Role } from '../auth/actor.js';
import { resolveSpaceRole } from '../spaces/space-access.js';
import { findSpace } from '../spaces/spaces.repository.js';
import { findTable } from './tables.repository.js';

/** A table the caller can see, with the caller's role in its space; null when invisible or missing. */
export async function findVisibleTable(db: Kysely<SystemSchema>, actor: Actor, tableId: number) {
  const table = await findTable(db, tableId);
  if (!table || table.account_id !== actor.accountId) return null;
  const space = await findSpace(db, table.space_id);
  const role: Role | null = space ? await resolveSpaceRole(db, actor, space) : null;
  return role ? { table, role } : null;
}
