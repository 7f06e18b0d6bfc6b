import type { Database } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import type { Actor } from '../auth/actor.js';
import { findUsersByIds } from '../users/users.repository.js';
import { fieldColumnName } from '../tables/physical-schema.js';
import { findTableMeta } from '../tables/tables.repository.js';
import { resolveTitleField } from '../tables/tables.service.js';
import type { ReadContext, UserSummary, WriteContext } from './fields/value-context.js';
import type { FilterEnvironment } from './query/compile-query.js';
import { findExistingIds, selectColumnValues } from './records.repository.js';
import type { RecordTable } from './record-table.js';
import type { TableSchemaCache } from './table-schema-cache.js';

/**
 * Request-scoped look-ups for field types, each memoised so a request asks at most once; what
 * a write looked up (members, lookup targets with their titles) also serves presenting its answer.
 */
export function createRecordContexts(database: Database, clock: Clock, schemaCache: TableSchemaCache, actor: Actor, table: RecordTable) {
  const { db, dialect } = database;
  const titleColumns = new Map<number, Promise<string | null | undefined>>();
  const knownTitles = new Map<number, Map<number, string | null>>();
  let members: Promise<{ byId: Map<number, UserSummary>; byEmail: Map<string, UserSummary> }> | undefined;

  async function loadMembers() {
    const rows = await db
      .selectFrom('users as u')
      .leftJoin('members as m', (join) => join.onRef('m.user_id', '=', 'u.id').on('m.space_id', '=', table.spaceId))
      .select(['u.id', 'u.email', 'u.name'])
      .where('u.account_id', '=', actor.accountId)
      .where((eb) => eb.or([eb('m.user_id', 'is not', null), eb('u.id', '=', actor.ownerUserId)]))
      .execute();
    return { byId: new Map(rows.map((u) => [u.id, u])), byEmail: new Map(rows.map((u) => [u.email, u])) };
  }

  /** A lookup target's title column (null: no title field); undefined when the caller cannot see the table. */
  async function loadTitleColumn(tableId: number): Promise<string | null | undefined> {
    const target = await findTableMeta(db, tableId);
    if (!target || target.account_id !== actor.accountId) return undefined;
    const titleField = resolveTitleField(await schemaCache.fields(db, tableId, target.schema_version), target.title_field_id);
    return titleField ? fieldColumnName(titleField.id) : null;
  }

  /** Titles of the records of `ids` that exist; ids seen are remembered, so a bulk import asks once per target. */
  async function recordTitles(tableId: number, ids: readonly number[]): Promise<Map<number, string | null>> {
    let known = knownTitles.get(tableId);
    if (!known) knownTitles.set(tableId, (known = new Map()));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      if (!titleColumns.has(tableId)) titleColumns.set(tableId, loadTitleColumn(tableId));
      const column = await titleColumns.get(tableId);
      if (column === undefined) return new Map();
      const found = column ? await selectColumnValues(db, tableId, column, unknown) : new Map([...(await findExistingIds(db, tableId, unknown))].map((id) => [id, null]));
      for (const [id, value] of found) known.set(id, value === null || value === undefined ? null : String(value));
    }
    return new Map(ids.filter((id) => known.has(id)).map((id) => [id, known.get(id)!]));
  }

  const write: WriteContext = {
    actor,
    spaceMembers: () => (members ??= loadMembers()),
    existingRecordIds: async (tableId, ids) => new Set((await recordTitles(tableId, ids)).keys()),
  };

  const read: ReadContext = {
    /** Members this request already loaded are current; only the others are asked for. */
    async usersByIds(ids) {
      const loaded = members ? await members : undefined;
      const found = new Map<number, UserSummary>();
      const missing = ids.filter((id) => {
        const member = loaded?.byId.get(id);
        if (member) found.set(id, member);
        return !member;
      });
      for (const user of await findUsersByIds(db, actor.accountId, missing)) found.set(user.id, user);
      return found;
    },
    recordTitles,
  };

  const filter: FilterEnvironment = {
    actor,
    dialect,
    clock,
    async resolveUserReference(value) {
      if (value === '@me') return actor.userId;
      if (typeof value === 'number' && Number.isInteger(value)) return value;
      if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
      if (typeof value === 'object' && value !== null && 'id' in value) return this.resolveUserReference((value as { id: unknown }).id);
      if (typeof value !== 'string') return null;
      const user = await db.selectFrom('users').select('id').where('email', '=', value.trim().toLowerCase()).where('account_id', '=', actor.accountId).executeTakeFirst();
      return user?.id ?? null;
    },
  };

  return { write, read, filter };
}
