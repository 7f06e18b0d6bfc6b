import type { Kysely } from 'kysely';
import type { SystemSchema } from '../../db/schema.js';
import { ErrorCode, ForbiddenError, NotFoundError } from '../../shared/errors.js';
import { hasAccountAuthority, hasWholeAccountAuthority, isOwner, type Actor, type Role } from '../auth/actor.js';
import { findMemberRole, findSpace } from './spaces.repository.js';

/**
 * The caller's role in a space, or null when the space is invisible to it: another account's,
 * outside a restricted key's list, or one the user is no member of. Callers answer null as
 * "does not exist" so nothing leaks across accounts.
 */
export async function resolveSpaceRole(db: Kysely<SystemSchema>, actor: Actor, space: { id: number; account_id: number }): Promise<Role | null> {
  const implied = impliedSpaceRole(actor, space);
  if (implied !== undefined) return implied;
  return ((await findMemberRole(db, space.id, actor.userId)) as Role | undefined) ?? null;
}

/** The caller's role in the space with this id, or null when it is missing or invisible to the caller. */
export async function resolveRoleInSpace(db: Kysely<SystemSchema>, actor: Actor, spaceId: number): Promise<Role | null> {
  const space = await findSpace(db, spaceId);
  return space ? resolveSpaceRole(db, actor, space) : null;
}

/**
 * The role that follows from the caller alone: null (invisible), `admin` (account key or
 * owner), or undefined when the membership row decides.
 */
export function impliedSpaceRole(actor: Actor, space: { id: number; account_id: number }): Role | null | undefined {
  if (space.account_id !== actor.accountId) return null;
  if (actor.spaceIds && !actor.spaceIds.includes(space.id)) return null;
  if (actor.via === 'account_key' || isOwner(actor)) return 'admin';
  return undefined;
}

/**
 * Loads a space the caller can see, with its role; 404 `Space not found` otherwise.
 * Every service loads first and checks permissions second: a caller that cannot see a space
 * gets the 404 of a missing one, never a 403 that would confirm the space exists.
 */
export async function loadVisibleSpace(db: Kysely<SystemSchema>, actor: Actor, spaceId: number) {
  const space = await findSpace(db, spaceId);
  const role = space ? await resolveSpaceRole(db, actor, space) : null;
  if (!space || !role) throw new NotFoundError('Space not found', ErrorCode.spaceNotFound);
  return { space, role };
}

export function assertWritable(actor: Actor): void {
  if (actor.readOnly) throw new ForbiddenError('Read-only API key', ErrorCode.readOnlyKey);
}

/** An unrestricted account key, or the owner's session (CONTRACT §3). */
export function assertUnrestrictedAccountKey(actor: Actor): void {
  assertWritable(actor);
  if (!hasWholeAccountAuthority(actor)) {
    throw new ForbiddenError('Only an unrestricted account key can manage spaces', ErrorCode.accountKeyRequired);
  }
}

/** An account key (a restricted one in its spaces), or the owner's session (CONTRACT §3). */
export function assertAccountKey(actor: Actor): void {
  assertWritable(actor);
  if (!hasAccountAuthority(actor)) throw new ForbiddenError('Only an account key can manage members', ErrorCode.accountKeyRequired);
}

/** Schema changes: an account key, or a space admin. */
export function assertSpaceAdmin(actor: Actor, role: Role): void {
  assertWritable(actor);
  if (!hasAccountAuthority(actor) && role !== 'admin') throw new ForbiddenError('Only space admins can change tables', ErrorCode.adminRequired);
}
