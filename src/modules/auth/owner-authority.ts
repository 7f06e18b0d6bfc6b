import { ErrorCode, ForbiddenError } from '../../shared/errors.js';
import { hasWholeAccountAuthority, type Actor } from './actor.js';

/** A write that only a read-write caller may make: 403 `read_only_key` for a read-only key. */
export function assertNotReadOnly(actor: Actor): void {
  if (actor.readOnly) throw new ForbiddenError('Read-only API key', ErrorCode.readOnlyKey);
}

/**
 * What only the account's owner may do (users, other people's keys): the owner's session or an
 * unrestricted account key (CONTRACT §3, §8). The read-only check comes first, as on every write.
 */
export function assertOwnerWrite(actor: Actor, action: string): void {
  assertNotReadOnly(actor);
  if (!hasWholeAccountAuthority(actor)) throw new ForbiddenError(`Only the account owner can ${action}`, ErrorCode.ownerRequired);
}
