import { sql } from 'kysely';
import type { Database, DdlProgress } from '../../db/database.js';
import { checkObjectBody } from '../../shared/body-checks.js';
import { formatDateTime, type Clock } from '../../shared/clock.js';
import { ConflictError, ErrorCode, NotFoundError, ValidationError } from '../../shared/errors.js';
import type { Actor } from '../auth/actor.js';
import type { Field } from '../fields/field.js';
import { indexableSystemFields } from '../fields/system-fields.js';
import { assertSpaceAdmin } from '../spaces/space-access.js';
import {
  createIndexStatement,
  describeIndexFields,
  maxIndexFields,
  normalizedDirection,
  physicalIndexName,
  unindexableReason,
  type IndexDefinition,
  type IndexDirection,
  type IndexOrigin,
} from './index-definition.js';
import { fieldIdsOf, indexedField, presentIndex, type IndexObject } from './index-objects.js';
import * as indexes from './indexes.repository.js';
import type { IndexRow } from './indexes.repository.js';
import { findTable, listFields } from './tables.repository.js';
import type { Role } from '../auth/actor.js';

const namePattern = /^[a-z][a-z0-9_]{0,62}$/;
/** Names the service gives its own indexes. */
const reservedPrefixes = ['idx_layout_', 'auto_', 'view_'];

const invalidIndex = (detail: string) => new ValidationError(`Invalid index: ${detail}`, ErrorCode.invalidIndex);

export interface EnsureIndexOptions {
  name: string;
  origin: IndexOrigin;
  reason?: string;
  onProgress?: (progress: DdlProgress) => void;
}

/**
 * Indexes on user tables as a public capability: listed with the table, made and dropped by
 * space admins, made by calendar views (`idx_layout_<field>`) and by the automatic indexes.
 * Metadata lives in `table_indexes`; each definition has one physical index, shared by every
 * logical index of that definition and dropped with the last of them.
 */
export function createIndexesService(deps: {
  database: Database;
  clock: Clock;
  /** The table the caller may see, with its role: 404 `Table not found` otherwise. */
  tables: { loadTable(actor: Actor, tableId: number): Promise<{ role: Role }> };
  /** What still needs an index (a calendar view on its start field): the views module answers. */
  neededBy?: { find?: (tableId: number, index: { name: string; fields: string[] }) => Promise<string | null> };
}) {
  const { db, dialect } = deps.database;
  const now = () => formatDateTime(deps.clock.now());

  function definitionOf(row: IndexRow, fields: readonly Field[]): IndexDefinition | null {
    const defined = fieldIdsOf(row).map((id) => indexedField(id, fields));
    if (defined.some((f) => f === undefined)) return null;
    return { tableId: row.table_id, fields: defined as Field[], direction: row.direction as IndexDirection | null };
  }

  /** The fields and direction a create body asks for, each checked against the table. */
  function parseDefinition(tableId: number, fields: readonly Field[], body: Record<string, unknown>): IndexDefinition {
    const slugs = body.fields;
    if (!Array.isArray(slugs) || slugs.length === 0) throw invalidIndex('fields must be a non-empty array of field slugs');
    if (slugs.length > maxIndexFields) throw invalidIndex(`at most ${maxIndexFields} fields, got ${slugs.length}`);
    const chosen: Field[] = [];
    for (const slug of slugs) {
      if (typeof slug !== 'string') throw invalidIndex('fields must be a non-empty array of field slugs');
      if (slug === 'id') throw invalidIndex("id is the record's key, indexed already");
      const field = fields.find((f) => f.slug === slug) ?? indexableSystemFields.get(slug);
      if (!field) throw new ValidationError(`Invalid field: ${slug}`, ErrorCode.invalidField);
      if (chosen.includes(field)) throw invalidIndex(`${slug} is listed twice`);
      const reason = unindexableReason(field, dialect.name, slugs.length === 1);
      if (reason) throw invalidIndex(`${reason} and cannot be indexed`);
      chosen.push(field);
    }
    const direction = body.direction ?? null;
    if (direction !== null && direction !== 'asc' && direction !== 'desc') throw invalidIndex('direction must be "asc" or "desc"');
    return { tableId, fields: chosen, direction: normalizedDirection(chosen, direction) };
  }

  function parseName(raw: unknown, definition: IndexDefinition): string {
    if (raw === undefined) return `idx_${definition.fields.map((f) => f.slug).join('_')}${definition.direction ? `_${definition.direction}` : ''}`.slice(0, 63);
    if (typeof raw !== 'string' || !namePattern.test(raw)) throw invalidIndex('name must be 1 to 63 lower-case letters, digits or underscores, starting with a letter');
    if (reservedPrefixes.some((prefix) => raw.startsWith(prefix))) throw invalidIndex(`names starting with ${reservedPrefixes.join(', ')} are the service's own`);
    return raw;
  }

  /**
   * Builds the physical index if no other logical index has it, then records this one. On
   * PostgreSQL the build runs `concurrently`; one that failed half way leaves an invalid index,
   * dropped before a new attempt and after a failure.
   */
  async function build(definition: IndexDefinition, options: EnsureIndexOptions): Promise<boolean> {
    const physical = physicalIndexName(definition);
    if (dialect.name === 'postgres') await dropInvalidIndex(physical);
    const statement = createIndexStatement(definition, dialect, dialect.name === 'postgres').compile(db);
    try {
      await deps.database.runLongDdl(statement.sql, options.onProgress);
    } catch (error) {
      if (dialect.name === 'postgres') await dropInvalidIndex(physical).catch(() => undefined);
      throw error;
    }
    const inserted = await indexes.insertTableIndex(db, {
      table_id: definition.tableId,
      name: options.name,
      field_ids_json: JSON.stringify(definition.fields.map((f) => f.id)),
      origin: options.origin,
      direction: definition.direction,
      reason: options.reason ?? null,
      created_at: now(),
    });
    return inserted;
  }

  async function dropInvalidIndex(physical: string): Promise<void> {
    const { rows } = await sql<{ valid: boolean }>`select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = ${physical}`.execute(db);
    if (rows[0] && !rows[0].valid) await deps.database.runLongDdl(`drop index concurrently if exists "${physical}"`);
  }

  /** Drops the physical index unless another logical index still has it. */
  async function dropPhysical(definition: IndexDefinition, remaining: readonly IndexRow[], fields: readonly Field[]): Promise<void> {
    const physical = physicalIndexName(definition);
    const shared = remaining.some((row) => {
      const other = definitionOf(row, fields);
      return other !== null && physicalIndexName(other) === physical;
    });
    if (shared) return;
    if (dialect.name === 'postgres') await deps.database.runLongDdl(`drop index concurrently if exists "${physical}"`);
    else await sql`drop index if exists ${sql.id(physical)}`.execute(db);
  }

  /**
   * Makes an index of `definition` under `options.name` unless the table has that name
   * already; false when it did nothing. The calendar's, the views' and the automatic ones come here.
   */
  async function ensureIndex(definition: IndexDefinition, options: EnsureIndexOptions): Promise<boolean> {
    if (await indexes.findTableIndex(db, definition.tableId, options.name)) return false;
    return build(definition, options);
  }

  async function loadIndexes(tableId: number) {
    const fields = await listFields(db, tableId);
    return { fields, rows: await indexes.listTableIndexes(db, tableId) };
  }

  async function loadForChange(actor: Actor, tableId: number) {
    const { role } = await deps.tables.loadTable(actor, tableId);
    assertSpaceAdmin(actor, role);
    return loadIndexes(tableId);
  }

  /** The table as the command line names it: 404 `Table not found` when it does not exist. */
  async function loadExistingTable(tableId: number) {
    if (!(await findTable(db, tableId))) throw new NotFoundError('Table not found', ErrorCode.tableNotFound);
    return loadIndexes(tableId);
  }

  async function createIndexOn(tableId: number, loaded: { fields: Field[]; rows: IndexRow[] }, body: unknown, onProgress?: (progress: DdlProgress) => void): Promise<IndexObject> {
    const input = checkObjectBody(body, ['fields', 'direction', 'name']);
    const { fields, rows } = loaded;
    const definition = parseDefinition(tableId, fields, input);
    const name = parseName(input.name, definition);
    if (rows.some((row) => row.name === name)) throw new ConflictError(`Index ${name} already exists`, ErrorCode.indexExists);
    const physical = physicalIndexName(definition);
    const twin = rows.find((row) => {
      const other = definitionOf(row, fields);
      return other !== null && physicalIndexName(other) === physical;
    });
    if (twin) throw new ConflictError(`An index on ${describeIndexFields(definition.fields, definition.direction)} already exists: ${twin.name}`, ErrorCode.indexExists);
    if (!(await build(definition, { name, origin: 'manual', onProgress }))) throw new ConflictError(`Index ${name} already exists`, ErrorCode.indexExists);
    const created = (await indexes.findTableIndex(db, tableId, name))!;
    return presentIndex(created, fields);
  }

  /** Drops a logical index, and its physical one unless another logical index has it. */
  async function deleteIndexOf(tableId: number, loaded: { fields: Field[]; rows: IndexRow[] }, name: string): Promise<{ name: string; deleted: true }> {
    const { fields, rows } = loaded;
    const row = rows.find((r) => r.name === name);
    if (!row) throw new NotFoundError(`Index not found: ${name}`, ErrorCode.indexNotFound);
    const user = await deps.neededBy?.find?.(tableId, presentIndex(row, fields));
    if (user) throw new ConflictError(`Index ${name} is needed by ${user}`, ErrorCode.indexInUse);
    await indexes.deleteTableIndex(db, row.id);
    const definition = definitionOf(row, fields);
    if (definition) await dropPhysical(definition, rows.filter((r) => r.id !== row.id), fields);
    return { name, deleted: true };
  }

  return {
    ensureIndex,
    definitionOf,
    loadIndexes,

    async listIndexes(actor: Actor, tableId: number): Promise<IndexObject[]> {
      await deps.tables.loadTable(actor, tableId);
      const { fields, rows } = await loadIndexes(tableId);
      return rows.map((row) => presentIndex(row, fields));
    },

    async createIndex(actor: Actor, tableId: number, body: unknown): Promise<IndexObject> {
      return createIndexOn(tableId, await loadForChange(actor, tableId), body);
    },

    async deleteIndex(actor: Actor, tableId: number, name: string): Promise<{ name: string; deleted: true }> {
      return deleteIndexOf(tableId, await loadForChange(actor, tableId), name);
    },

    /** The command line's calls: the operator may change any table, and hears how a long build goes. */
    operator: {
      async listIndexes(tableId: number): Promise<IndexObject[]> {
        const { fields, rows } = await loadExistingTable(tableId);
        return rows.map((row) => presentIndex(row, fields));
      },
      async createIndex(tableId: number, body: unknown, onProgress?: (progress: DdlProgress) => void): Promise<IndexObject> {
        return createIndexOn(tableId, await loadExistingTable(tableId), body, onProgress);
      },
      async deleteIndex(tableId: number, name: string): Promise<{ name: string; deleted: true }> {
        return deleteIndexOf(tableId, await loadExistingTable(tableId), name);
      },
    },

    /** Drops an index the service made (automatic or for a view), as a deletion would, without a caller. */
    async dropIndex(tableId: number, name: string): Promise<void> {
      await deleteIndexOf(tableId, await loadIndexes(tableId), name).catch((error: unknown) => {
        if (!(error instanceof NotFoundError)) throw error;
      });
    },

    /**
     * Drops every index holding a field (`fields`: the table's, that one included), inside the
     * field deletion's transaction: SQLite refuses to drop an indexed column, and PostgreSQL
     * would drop the index with it but leave its metadata.
     */
    async dropFieldIndexes(trx: Database['db'], field: Field, fields: readonly Field[]): Promise<void> {
      for (const row of await indexes.listTableIndexes(trx, field.tableId)) {
        if (!fieldIdsOf(row).includes(field.id)) continue;
        await indexes.deleteTableIndex(trx, row.id);
        const definition = definitionOf(row, fields);
        if (definition) await sql`drop index if exists ${sql.id(physicalIndexName(definition))}`.execute(trx);
      }
    },

  };
}

export type IndexesService = ReturnType<typeof createIndexesService>;
