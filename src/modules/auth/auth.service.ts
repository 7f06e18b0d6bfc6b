import type { Database } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { formatDateTime } from '../../shared/clock.js';
import { decoyPasswordHash, generateSessionToken, hashToken, verifyPassword } from '../../shared/credentials.js';
import { ErrorCode, ForbiddenError, UnauthorizedError, ValidationError } from '../../shared/errors.js';
import type { UsersService } from '../users/users.service.js';
import type { Actor } from './actor.js';
import { assertNotReadOnly } from './owner-authority.js';
import * as sessions from './sessions.repository.js';

const sessionLifetimeMs = 30 * 24 * 3600 * 1000;

export interface PublicUser {
  id: number;
  email: string;
  name: string;
}

export function createAuthService(deps: { database: Database; clock: Clock; users: UsersService }) {
  const { db } = deps.database;

  return {
    /** Always one scrypt, found or not, so timing does not tell whether an email exists. */
    async login(email: unknown, password: unknown): Promise<{ user: PublicUser; token: string; expiresAt: Date }> {
      const normalised = typeof email === 'string' ? email.trim().toLowerCase() : '';
      const user = normalised ? await deps.users.findUserByEmail(normalised) : undefined;
      const valid = await verifyPassword(typeof password === 'string' ? password : '', user?.password_hash ?? decoyPasswordHash);
      if (!user || !valid) throw new UnauthorizedError('Invalid email or password', ErrorCode.invalidCredentials);
      const token = generateSessionToken();
      const now = deps.clock.now();
      const expiresAt = new Date(now.getTime() + sessionLifetimeMs);
      // Logins are rare next to requests: a good moment to clear out expired sessions.
      await sessions.deleteExpiredSessions(db, formatDateTime(now));
      await sessions.insertSession(db, { tokenHash: hashToken(token), userId: user.id, now: formatDateTime(now), expiresAt: formatDateTime(expiresAt) });
      return { user: { id: user.id, email: user.email, name: user.name }, token, expiresAt };
    },

    async logout(token: string): Promise<void> {
      await sessions.deleteSession(db, hashToken(token));
    },

    async authenticateSession(token: string): Promise<Actor | null> {
      const row = await sessions.findLiveSession(db, hashToken(token), formatDateTime(deps.clock.now()));
      if (!row || row.owner_user_id === null) return null;
      return {
        accountId: row.account_id,
        userId: row.user_id,
        userEmail: row.email,
        ownerUserId: row.owner_user_id,
        via: 'session',
        keyId: null,
        keyName: null,
        readOnly: false,
        spaceIds: null,
      };
    },

    /**
     * POST /api/auth/password: a session's user sets a new password, proving the current one;
     * every other session of the user ends (the user's API keys stay). A wrong current password
     * is a 400, not a 401: the session itself is fine, and a console must not take it for a
     * sign-out.
     */
    async changePassword(actor: Actor, sessionToken: string, current: string, next: string): Promise<{ ok: true }> {
      assertNotReadOnly(actor);
      if (actor.via !== 'session') throw new ForbiddenError('API endpoint not available to API keys', ErrorCode.apiKeysNotAllowed);
      const user = await deps.users.findUser(actor.userId);
      if (!user) throw new UnauthorizedError('Not logged in', ErrorCode.notLoggedIn);
      if (!(await verifyPassword(current, user.password_hash))) throw new ValidationError('Current password is incorrect', ErrorCode.invalidCurrentPassword);
      await deps.users.updateUser(user.id, { password: next }, hashToken(sessionToken));
      return { ok: true };
    },

    async describeUser(userId: number): Promise<PublicUser> {
      const user = await deps.users.findUser(userId);
      if (!user) throw new UnauthorizedError('Not logged in', ErrorCode.notLoggedIn);
      return { id: user.id, email: user.email, name: user.name };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
