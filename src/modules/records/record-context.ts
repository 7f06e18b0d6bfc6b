import type { Database } from '../../db/database.js';
import { readMetadataVersion, versionOfRows, type MetadataReads } from '../../db/metadata-cache.js';
import type { Clock } from '../../shared/clock.js';
import type { Actor } from '../auth/actor.js';
import { listAccountUsers } from '../users/users.service.js';
import { fieldColumnName } from '../fields/physical-names.js';
import type { Field } from '../fields/field.js';
import { titleReader } from '../fields/title.js';
import type { FileLedger, ReadContext, UserSummary, WriteContext } from '../fields/value-context.js';
import { fromColumnValue } from '../fields/column-values.js';
import type { FilterEnvironment } from './query/compile-query.js';
import { findExistingIds, selectColumnValues, selectSpaceMemberUsers } from './records.repository.js';
import { findRecordTable, type RecordTable } from './record-table.js';
import type { TableSchemaCache } from './table-schema-cache.js';

const usersKey = (accountId: number) => `users:${accountId}`;

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
 *
 * A class rather than a set of closures: one is made for every record call, and methods on
 * the prototype cost nothing per call. It is itself the read and write context of the field
 * types; the filter environment is a plain object, because filters copy it.
 */
export class RecordContexts implements ReadContext, WriteContext {
  // Per target table: id → title; undefined marks a record known not to exist.
  private readonly titlesByTable = new Map<number, Map<number, string | null | undefined>>();
  private filterEnvironment: FilterEnvironment | undefined;
  /** The record an update writes to: its current file attachments are kept, not copied. */
  recordId: number | undefined;

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly schemaCache: TableSchemaCache,
    private readonly reads: MetadataReads,
    readonly actor: Actor,
    private readonly table: RecordTable,
    readonly files: FileLedger,
  ) {}

  get target(): WriteContext['target'] {
    return { tableId: this.table.id, spaceId: this.table.spaceId, recordId: this.recordId };
  }

  async currentValue(field: Field): Promise<unknown> {
    if (this.recordId === undefined) return null;
    const values = await selectColumnValues(this.database.db, this.table.id, fieldColumnName(field.id), [this.recordId]);
    return values.has(this.recordId) ? fromColumnValue(field, values.get(this.recordId)) : null;
  }

  async confirmMetadata(): Promise<void> {
    if (!this.reads.confirmed) this.reads.confirm(await readMetadataVersion(this.database.db));
  }

  get read(): ReadContext {
    return this;
  }

  get write(): WriteContext {
    return this;
  }

  get filter(): FilterEnvironment {
    if (!this.filterEnvironment) {
      const { actor } = this;
      const accountUsers = () => this.accountUsers();
      this.filterEnvironment = {
        actor,
        dialect: this.database.dialect,
        clock: this.clock,
        isVisibleTable: async (tableId) => (await this.titleField(tableId)) !== undefined,
        async resolveUserReference(value) {
          if (value === '@me') return actor.userId;
          if (typeof value === 'number' && Number.isInteger(value)) return value;
          if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
          if (typeof value === 'object' && value !== null && 'id' in value) return this.resolveUserReference((value as { id: unknown }).id);
          if (typeof value !== 'string') return null;
          return (await accountUsers()).byEmail.get(value.trim().toLowerCase())?.id ?? null;
        },
      };
    }
    return this.filterEnvironment;
  }

  /** Current members of the table's space, the account's owner included. */
  spaceMembers(): Promise<UserDirectory> {
    const { actor, table } = this;
    const { db } = this.database;
    return this.reads.load(`members:${table.spaceId}:${actor.accountId}:${actor.ownerUserId}`, async () => {
      const rows = await selectSpaceMemberUsers(db, table.spaceId, actor.accountId, actor.ownerUserId);
      return { version: await versionOfRows(db, rows), value: directory(rows) };
    });
  }

  /** Every user of the account: user values show any of them, members or not, with their current email. */
  private accountUsers(): Promise<UserDirectory> {
    const { db } = this.database;
    const accountId = this.actor.accountId;
    return this.reads.load(usersKey(accountId), async () => {
      const rows = await listAccountUsers(db, accountId);
      return { version: await versionOfRows(db, rows), value: directory(rows) };
    });
  }

  async users(): Promise<ReadonlyMap<number, UserSummary>> {
    return (await this.accountUsers()).byId;
  }

  knownUsers(): ReadonlyMap<number, UserSummary> | undefined {
    return this.reads.peek<UserDirectory>(usersKey(this.actor.accountId))?.byId;
  }

  /**
   * A lookup target's title field (null: none); undefined when the table does not
   * exist or the caller cannot see it (another account's, a space it may not see): the lookup
   * then reads and filters as empty and refuses every record id alike, so nothing of the
   * target shows, not even which records exist. Decided per caller, from the same cached
   * table row and role as a record call on the target.
   */
  async titleField(tableId: number): Promise<Field | null | undefined> {
    const target = await findRecordTable(this.database.db, this.schemaCache, this.reads, this.actor, tableId);
    return target ? target.titleField : undefined;
  }

  private titlesOf(tableId: number): Map<number, string | null | undefined> {
    let known = this.titlesByTable.get(tableId);
    if (!known) this.titlesByTable.set(tableId, (known = new Map()));
    return known;
  }

  /** Titles of the records of `ids` that exist; ids seen are remembered, so a bulk import asks once per target. */
  async recordTitles(tableId: number, ids: readonly number[]): Promise<Map<number, string | null>> {
    const { db } = this.database;
    const known = this.titlesOf(tableId);
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      const titleField = await this.titleField(tableId);
      if (titleField === undefined) return new Map();
      const found = titleField
        ? await selectColumnValues(db, tableId, fieldColumnName(titleField.id), unknown, this.database.dialect.gathersReadsByTurn)
        : new Map([...(await findExistingIds(db, tableId, unknown))].map((id) => [id, null]));
      const titleText = titleField ? titleReader(titleField) : () => null;
      for (const id of unknown) known.set(id, found.has(id) ? titleText(found.get(id)) : undefined);
    }
    return this.knownTitles(tableId, ids)!;
  }

  knownTitles(tableId: number, ids: readonly number[]): Map<number, string | null> | undefined {
    const known = this.titlesOf(tableId);
    const titles = new Map<number, string | null>();
    for (const id of ids) {
      if (!known.has(id)) return undefined;
      const title = known.get(id);
      if (title !== undefined) titles.set(id, title);
    }
    return titles;
  }

  async existingRecordIds(tableId: number, ids: readonly number[]): Promise<Set<number>> {
    return new Set((await this.recordTitles(tableId, ids)).keys());
  }

  /**
   * Titles the main statement already read (single lookups): remembered so that presenting the
   * records asks nothing more. A title of undefined means the target record does not exist.
   */
  rememberTitles(tableId: number, entries: Iterable<[number, string | null | undefined]>): void {
    const known = this.titlesOf(tableId);
    for (const [id, title] of entries) known.set(id, title);
  }
}
