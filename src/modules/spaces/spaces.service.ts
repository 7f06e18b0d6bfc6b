import type { FileLedger } from '../fields/value-context.js';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { formatDateTime } from '../../shared/clock.js';
import { ErrorCode, NotFoundError, ValidationError } from '../../shared/errors.js';
import { describeNameProblem } from '../../shared/display-name.js';
import { lookupIdOf } from '../../shared/ids.js';
import type { SecretBox } from '../../shared/secret-box.js';
import type { Actor } from '../auth/actor.js';
import { dropSpaceTables } from '../tables/tables.service.js';
import type { UsersService } from '../users/users.service.js';
import { assertAccountKey, assertUnrestrictedAccountKey, loadVisibleSpace, resolveSpaceRole } from './space-access.js';
import * as spaces from './spaces.repository.js';
import { describeStorage, deserialiseStorage, keepStoredSecrets, parseStorageSettings, serialiseStorage } from './storage-settings.js';

const roles = ['admin', 'editor', 'reader'];

function checkSpaceName(raw: unknown): string {
  const name = typeof raw === 'string' ? raw.trim() : '';
  const problem = describeNameProblem(name);
  if (problem) throw new ValidationError(`Invalid name: ${problem}`);
  return name;
}

/** A space's storage with its credentials opened: for the files capability only, never for an answer. */
export interface SpaceStorage {
  kind: string;
  settings: Record<string, unknown>;
  secrets: Record<string, unknown>;
  /** Changes whenever the settings change: a store opened for them is kept under it. */
  version: string;
}

export async function readSpaceStorage(db: Database['db'], secretBox: SecretBox, spaceId: number): Promise<SpaceStorage | undefined> {
  const space = await spaces.findSpace(db, spaceId);
  if (!space) return undefined;
  const storage = deserialiseStorage(space.storage_json);
  const secrets = storage.sealed ? (JSON.parse(secretBox.open(storage.sealed)) as Record<string, unknown>) : {};
  return { kind: storage.kind, settings: storage.settings, secrets, version: space.storage_json };
}

/** The users of a space's members table (the account owner, a member of every space, aside). */
export async function listSpaceMemberIds(db: Database['db'], spaceId: number): Promise<Set<number>> {
  return new Set((await spaces.listMembers(db, spaceId)).map((member) => member.user_id));
}

export function createSpacesService(deps: { database: Database; clock: Clock; secretBox: SecretBox; users: UsersService; files: FileLedger }) {
  const { db, dialect } = deps.database;
  const now = () => formatDateTime(deps.clock.now());

  function present(space: NonNullable<Awaited<ReturnType<typeof spaces.findSpace>>>) {
    return {
      id: space.id,
      name: space.name,
      account_id: space.account_id,
      storage: describeStorage(deserialiseStorage(space.storage_json)),
      created_at: space.created_at,
    };
  }

  async function loadSpaceForMembers(actor: Actor, spaceId: number) {
    const { space } = await loadVisibleSpace(db, actor, spaceId);
    return space;
  }

  return {
    async listSpaces(actor: Actor) {
      const all = await spaces.listAccountSpaces(db, actor.accountId);
      const visible = [];
      for (const space of all) if (await resolveSpaceRole(db, actor, space)) visible.push(space);
      return visible;
    },

    async createSpace(actor: Actor, input: { name: unknown; storage?: unknown }) {
      assertUnrestrictedAccountKey(actor);
      const name = checkSpaceName(input.name);
      const storage = await parseStorageSettings(input.storage, deps.secretBox);
      const id = await spaces.insertSpace(db, { accountId: actor.accountId, name, storageJson: serialiseStorage(storage), now: now() });
      return present((await spaces.findSpace(db, id))!);
    },

    async getSpace(actor: Actor, spaceId: number) {
      return present((await loadVisibleSpace(db, actor, spaceId)).space);
    },

    async updateSpace(actor: Actor, spaceId: number, input: { name?: unknown; storage?: unknown }) {
      const { space } = await loadVisibleSpace(db, actor, spaceId);
      assertUnrestrictedAccountKey(actor);
      const changes: { name?: string; storage_json?: string; updated_at: string } = { updated_at: now() };
      if (input.name !== undefined) changes.name = checkSpaceName(input.name);
      if (input.storage !== undefined) {
        const storage = keepStoredSecrets(input.storage, deserialiseStorage(space.storage_json), deps.secretBox);
        changes.storage_json = serialiseStorage(await parseStorageSettings(storage, deps.secretBox));
      }
      await spaces.updateSpace(db, spaceId, changes);
      return present((await spaces.findSpace(db, spaceId))!);
    },

    /** Drops the space's record tables with its metadata, in one transaction. */
    async deleteSpace(actor: Actor, spaceId: number) {
      await loadVisibleSpace(db, actor, spaceId);
      assertUnrestrictedAccountKey(actor);
      await db.transaction().execute(async (trx) => {
        await dropSpaceTables({ db: trx, dialect, files: deps.files }, spaceId);
        await spaces.deleteSpace(trx, spaceId);
      });
      return { id: spaceId, deleted: true as const };
    },

    async listMembers(actor: Actor, spaceId: number) {
      await loadSpaceForMembers(actor, spaceId);
      return spaces.listMembers(db, spaceId);
    },

    async addMember(actor: Actor, spaceId: number, input: { user_id?: unknown; email?: unknown; role: unknown }) {
      await loadSpaceForMembers(actor, spaceId);
      assertAccountKey(actor);
      if (typeof input.role !== 'string' || !roles.includes(input.role)) throw new ValidationError('Invalid role: must be admin, editor or reader');
      const user =
        typeof input.user_id === 'number'
          ? await deps.users.findUser(lookupIdOf(input.user_id))
          : typeof input.email === 'string'
            ? await deps.users.findUserByEmail(input.email.trim().toLowerCase())
            : undefined;
      if (input.user_id === undefined && input.email === undefined) throw new ValidationError('Invalid parameters: user_id or email is required');
      if (!user || user.account_id !== actor.accountId) throw new NotFoundError('User not found', ErrorCode.userNotFound);
      await spaces.upsertMember(db, { spaceId, userId: user.id, role: input.role, now: now() });
      return { user_id: user.id, email: user.email, name: user.name, role: input.role };
    },

    async removeMember(actor: Actor, spaceId: number, userId: number) {
      await loadSpaceForMembers(actor, spaceId);
      assertAccountKey(actor);
      if ((await spaces.deleteMember(db, spaceId, lookupIdOf(userId))) === 0) throw new NotFoundError('Member not found', ErrorCode.memberNotFound);
      return { user_id: userId, removed: true as const };
    },
  };
}

export type SpacesService = ReturnType<typeof createSpacesService>;
