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

/** Request-scoped look-ups for field types, each memoised so a request asks at most once. */
export function createRecordContexts(database: Database, clock: Clock, schemaCache: TableSchemaCache, actor: Actor, table: RecordTable) {
  const { db, dialect } = database;
  const knownRecordIds: Record<number, Set<number>> = {};
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

  const write: WriteContext = {
    actor,
    spaceMembers: () => (members ??= loadMembers()),
    // Ids seen to exist are remembered, so a bulk import asks once per distinct target.
    async existingRecordIds(tableId, ids) {
      const known = (knownRecordIds[tableId] ??= new Set());
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length > 0) {
        const target = await findTableMeta(db, tableId);
        if (!target || target.account_id !== actor.accountId) return new Set();
        for (const id of await findExistingIds(db, tableId, unknown)) known.add(id);
      }
      return new Set(ids.filter((id) => known.has(id)));
    },
  };

  const read: ReadContext = {
    async usersByIds(ids) {
      const rows = await findUsersByIds(db, actor.accountId, ids);
      return new Map(rows.map((u) => [u.id, u]));
    },
    async recordTitles(tableId, ids) {
      const target = await findTableMeta(db, tableId);
      if (!target || target.account_id !== actor.accountId || ids.length === 0) return new Map();
      const titleField = resolveTitleField(await schemaCache.fields(db, tableId, target.schema_version), target.title_field_id);
      if (!titleField) return new Map([...(await findExistingIds(db, tableId, ids))].map((id) => [id, null]));
      const values = await selectColumnValues(db, tableId, fieldColumnName(titleField.id), ids);
      return new Map([...values].map(([id, value]) => [id, value === null || value === undefined ? null : String(value)]));
    },
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
