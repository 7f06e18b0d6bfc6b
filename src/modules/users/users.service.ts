import type { Database } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { formatDateTime } from '../../shared/clock.js';
import { generatePassword, hashPassword } from '../../shared/credentials.js';
import { ConflictError, ErrorCode, NotFoundError, ValidationError } from '../../shared/errors.js';
import { stripControlCharacters } from '../../shared/display-name.js';
import { isUniqueViolation } from '../../db/db-errors.js';
import type { Actor } from '../auth/actor.js';
import { assertOwnerWrite } from '../auth/owner-authority.js';
import * as users from './users.repository.js';

/** Every user of the account, with the metadata version: how records show user values. */
export function listAccountUsers(db: Database['db'], accountId: number) {
  return users.listAccountUsers(db, accountId);
}

export interface UserInput {
  email: string;
  name?: string;
  password?: string;
}

export interface CreatedUser {
  id: number;
  email: string;
  name: string;
  /** Present only when the password was generated. */
  password?: string;
}

const emailPattern = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+$/;

export function normaliseEmail(raw: unknown): string {
  if (typeof raw !== 'string') throw new ValidationError('Invalid email: must be a string');
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !emailPattern.test(email)) throw new ValidationError(`Invalid email: ${JSON.stringify(raw)}`);
  return email;
}

function checkName(name: string): string {
  const trimmed = stripControlCharacters(name);
  if (trimmed.length === 0 || trimmed.length > 200) throw new ValidationError('Invalid name: must be 1 to 200 characters');
  return trimmed;
}

function checkPassword(password: string): string {
  if (password.length < 8) throw new ValidationError('Invalid password: must be at least 8 characters');
  return password;
}

export function createUsersService(deps: { database: Database; clock: Clock }) {
  const { db } = deps.database;
  const dialect = deps.database.dialect.name;

  /** Adds a user to an account. `executor` lets account creation run it inside its transaction. */
  async function createUser(accountId: number, input: UserInput, executor = db): Promise<CreatedUser> {
    const email = normaliseEmail(input.email);
    const name = checkName(input.name ?? email.split('@')[0]);
    const generated = input.password === undefined ? generatePassword() : undefined;
    const passwordHash = await hashPassword(checkPassword(input.password ?? generated!));
    if (await users.findUserByEmail(executor, email)) throw new ConflictError(`Email already in use: ${email}`, ErrorCode.emailTaken);
    const id = await users
      .insertUser(executor, { accountId, email, name, passwordHash, now: formatDateTime(deps.clock.now()) })
      .catch((error: unknown) => {
        if (isUniqueViolation(error, dialect)) throw new ConflictError(`Email already in use: ${email}`, ErrorCode.emailTaken);
        throw error;
      });
    return generated ? { id, email, name, password: generated } : { id, email, name };
  }

  return {
    createUser,

    /** A new password ends the user's sessions, all but `keepSessionHash` (the one that changed it) when given. */
    async updateUser(userId: number, changes: { email?: string; name?: string; password?: string }, keepSessionHash?: string): Promise<{ id: number; email: string; name: string }> {
      const existing = await users.findUserById(db, userId);
      if (!existing) throw new NotFoundError(`User not found: ${userId}`, ErrorCode.userNotFound);
      const update: { email?: string; name?: string; password_hash?: string; updated_at: string } = { updated_at: formatDateTime(deps.clock.now()) };
      if (changes.email !== undefined) {
        update.email = normaliseEmail(changes.email);
        const holder = await users.findUserByEmail(db, update.email);
        if (holder && holder.id !== userId) throw new ConflictError(`Email already in use: ${update.email}`, ErrorCode.emailTaken);
      }
      if (changes.name !== undefined) update.name = checkName(changes.name);
      if (changes.password !== undefined) update.password_hash = await hashPassword(checkPassword(changes.password));
      await db
        .transaction()
        .execute(async (trx) => {
          await users.updateUser(trx, userId, update);
          if (update.password_hash) await users.deleteUserSessions(trx, userId, keepSessionHash);
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error, dialect)) throw new ConflictError(`Email already in use: ${update.email}`, ErrorCode.emailTaken);
          throw error;
        });
      return { id: userId, email: update.email ?? existing.email, name: update.name ?? existing.name };
    },

    /** The caller's account's users, in id order (GET /api/users/list: any caller of the account). */
    async listUsersOf(actor: Actor): Promise<Array<{ id: number; email: string; name: string }>> {
      return (await users.listUsers(db, actor.accountId)).map(({ id, email, name }) => ({ id, email, name }));
    },

    /** POST /api/users/create: the owner's session or an unrestricted account key; `tabula users create`'s rules. */
    async createUserAs(actor: Actor, input: UserInput): Promise<CreatedUser> {
      assertOwnerWrite(actor, 'create users');
      return createUser(actor.accountId, input);
    },

    /** For `tabula users list`: id, account, email, name and creation, in id order. */
    async listUsers(accountId?: number) {
      return users.listUsers(db, accountId);
    },

    /** `executor`: a caller's transaction, when the user must be read inside it. */
    async findUser(userId: number, executor = db) {
      return users.findUserById(executor, userId);
    },

    /** By its normalised (trimmed, lower-cased) e-mail. */
    async findUserByEmail(email: string, executor = db) {
      return users.findUserByEmail(executor, email);
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
