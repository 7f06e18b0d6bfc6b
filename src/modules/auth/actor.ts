/**
 * Who is calling: resolved once per request by the auth plugin from a key or a session,
 * then passed to every service call. Services decide with it; they never see HTTP.
 */
export interface Actor {
  readonly accountId: number;
  /** The acting user: a personal key's or session's user; the owner for an account key. */
  readonly userId: number;
  readonly userEmail: string;
  readonly ownerUserId: number;
  readonly via: 'account_key' | 'personal_key' | 'session';
  /** Null for sessions. */
  readonly keyId: number | null;
  readonly keyName: string | null;
  readonly readOnly: boolean;
  /** Spaces an account key is restricted to; null means unrestricted. */
  readonly spaceIds: readonly number[] | null;
  /** The metadata version the identity was read at (API keys): records routes confirm it. */
  readonly metadataVersion?: number;
  /** Reads the identity again from the database, bypassing every cache (401 when it is gone). */
  readonly refresh?: () => Promise<Actor>;
}

export type Role = 'admin' | 'editor' | 'reader';

export function isOwner(actor: Actor): boolean {
  return actor.userId === actor.ownerUserId;
}

/** Rate limits: an account key spends the account's budget, everything else the user's. */
export function rateLimitBucket(actor: Actor): string {
  return actor.via === 'account_key' ? `account:${actor.accountId}` : `user:${actor.userId}`;
}

/**
 * Whom a record query runs for in the query slots (db/query-gate.ts): shared fairly between
 * accounts, then between the keys of an account (a session counts as its user's).
 */
export function queryCallerOf(actor: Actor): { account: string; key: string } {
  return { account: String(actor.accountId), key: actor.keyId === null ? `session:${actor.userId}` : `key:${actor.keyId}` };
}

/**
 * The authority of an account key (CONTRACT §3): an account key, or the owner's own session,
 * so that everything the management API offers can be done from the console. A personal key
 * of the owner is not one: it acts as a user, with that user's roles.
 */
export function hasAccountAuthority(actor: Actor): boolean {
  return actor.via === 'account_key' || (actor.via === 'session' && isOwner(actor));
}

/** The same, unrestricted: an account key with no space list, or the owner's session. */
export function hasWholeAccountAuthority(actor: Actor): boolean {
  return hasAccountAuthority(actor) && actor.spaceIds === null;
}
