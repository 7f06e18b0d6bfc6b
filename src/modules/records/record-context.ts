import type { Database } from '../../db/database.js';
import { metadataVersionColumn, readMetadataVersion, versionOfRows, type MetadataReads } from '../../db/metadata-cache.js';
import type { Clock } from '../../shared/clock.js';
import type { Actor } from '../auth/actor.js';
import { listAccountUsers } from '../users/users.repository.js';
import { fieldColumnName } from '../tables/physical-schema.js';
import { findTableMeta } from '../tables/tables.repository.js';
import { resolveTitleField } from '../tables/tables.service.js';
import type { ReadContext, UserSummary, WriteContext } from './fields/value-context.js';
import type { FilterEnvironment } from './query/compile-query.js';
import { findExistingIds, selectColumnValues } from './records.repository.js';
import { titleText } from './record-reader.js';
import type { RecordTable } from './record-table.js';
import type { TableSchemaCache } from './table-schema-cache.js';

interface UserDirectory {
  byId: Map<number, UserSummary>;
  byEmail: Map<string, UserSummary>;
}

function directory(rows: readonly UserSummary[]): UserDirectory {
  const users = rows.map(({ id, email, name }) => ({ id, email, name }));
  return { byId: new Map(users.map((u) => [u.id, u])), byEmail: new Map(users.map((u) => [u.email, u])) };
}

/**
 * Request-scoped look-ups for field types. Metadata (members, the account's users, lookup
 * targets' title columns) comes through the request's metadata reads, so usually from the
 * per-process cache; record titles are data and are asked once per request per target.
 */
export function createRecordContexts(database: Database, clock: Clock, schemaCache: TableSchemaCache, reads: MetadataReads, actor: Actor, table: RecordTable) {
  const { db, dialect } = database;
  // Per target table: id → title; undefined marks a record known not to exist.
  const knownTitles = new Map<number, Map<number, string | null | undefined>>();

  /** Current members of the table's space, the account's owner included. */
  const spaceMembers = () =>
    reads.load(`members:${table.spaceId}:${actor.accountId}:${actor.ownerUserId}`, async () => {
      const rows = await db
        .selectFrom('users as u')
        .leftJoin('members as m', (join) => join.onRef('m.user_id', '=', 'u.id').on('m.space_id', '=', table.spaceId))
        .select(['u.id', 'u.email', 'u.name', metadataVersionColumn.as('metadata_version')])
        .where('u.account_id', '=', actor.accountId)
        .where((eb) => eb.or([eb('m.user_id', 'is not', null), eb('u.id', '=', actor.ownerUserId)]))
        .execute();
      return { version: await versionOfRows(db, rows), value: directory(rows) };
    });

  /** Every user of the account: user values show any of them, members or not, with their current email. */
  const accountUsers = () =>
    reads.load(`users:${actor.accountId}`, async () => {
      const rows = await listAccountUsers(db, actor.accountId);
      return { version: await versionOfRows(db, rows), value: directory(rows) };
    });

  /** A lookup target's title column (null: no title field); undefined when the caller cannot see the table. */
  async function titleColumn(tableId: number): Promise<string | null | undefined> {
    const found = await reads.load(`title:${tableId}:${actor.accountId}`, async (): Promise<{ version: number; value: { column: string | null | undefined } }> => {
      const target = await findTableMeta(db, tableId);
      const version = target ? Number(target.metadata_version) : await readMetadataVersion(db);
      if (!target || target.account_id !== actor.accountId) return { version, value: { column: undefined } };
      const titleField = resolveTitleField(await schemaCache.fields(db, tableId, target.schema_version), target.title_field_id);
      return { version, value: { column: titleField ? fieldColumnName(titleField.id) : null } };
    });
    return found.column;
  }

  function titlesOf(tableId: number): Map<number, string | null | undefined> {
    let known = knownTitles.get(tableId);
    if (!known) knownTitles.set(tableId, (known = new Map()));
    return known;
  }

  /** Titles of the records of `ids` that exist; ids seen are remembered, so a bulk import asks once per target. */
  async function recordTitles(tableId: number, ids: readonly number[]): Promise<Map<number, string | null>> {
    const known = titlesOf(tableId);
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      const column = await titleColumn(tableId);
      if (column === undefined) return new Map();
      const found = column ? await selectColumnValues(db, tableId, column, unknown) : new Map([...(await findExistingIds(db, tableId, unknown))].map((id) => [id, null]));
      for (const id of unknown) known.set(id, found.has(id) ? titleText(found.get(id)) : undefined);
    }
    const titles = new Map<number, string | null>();
    for (const id of ids) {
      const title = known.get(id);
      if (title !== undefined) titles.set(id, title);
    }
    return titles;
  }

  const write: WriteContext = {
    actor,
    spaceMembers,
    existingRecordIds: async (tableId, ids) => new Set((await recordTitles(tableId, ids)).keys()),
  };

  const read: ReadContext = {
    async usersByIds(ids) {
      const users = (await accountUsers()).byId;
      return new Map(ids.flatMap((id) => (users.has(id) ? [[id, users.get(id)!] as const] : [])));
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
      return (await accountUsers()).byEmail.get(value.trim().toLowerCase())?.id ?? null;
    },
  };

  /**
   * Titles the main statement already read (single lookups): remembered so that presenting the
   * records asks nothing more. A title of undefined means the target record does not exist.
   */
  function rememberTitles(tableId: number, entries: Iterable<[number, string | null | undefined]>): void {
    const known = titlesOf(tableId);
    for (const [id, title] of entries) known.set(id, title);
  }

  return { write, read, filter, titleColumn, rememberTitles };
}

export type RecordContexts = ReturnType<typeof createRecordContexts>;
