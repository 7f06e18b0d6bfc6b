import type { Database } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { formatDateTime } from '../../shared/clock.js';
import { ErrorCode, NotFoundError, ValidationError } from '../../shared/errors.js';
import type { Actor } from '../auth/actor.js';
import type { DeletionContext, SettingsContext } from '../fields/field-type.js';
import type { FileLedger } from '../fields/value-context.js';
import { canBeTitle, resolveTitleField } from '../fields/title.js';
import { hooksOf, someTypeHas } from '../fields/lifecycle.js';
import { getFieldType } from '../fields/registry.js';
import { assertSpaceAdmin, loadVisibleSpace } from '../spaces/space-access.js';
import { describeNameProblem } from '../../shared/display-name.js';
import type { Field } from '../fields/field.js';
import { parseFieldDefinition, presentField } from '../fields/field-definition.js';
import * as physical from './physical-schema.js';
import { resolveTableAccess } from './table-access.js';
import * as tables from './tables.repository.js';
import { presentIndex } from './index-objects.js';
import { listTableIndexes } from './indexes.repository.js';

type Db = Database['db'];

/** At most this many fields per table (PostgreSQL caps a table at 1600 columns, SQLite at 2000). */
export const maxFieldsPerTable = 500;

function checkTableName(raw: unknown): string {
  const name = typeof raw === 'string' ? raw.trim() : '';
  const problem = describeNameProblem(name);
  if (problem) throw new ValidationError(`Invalid name: ${problem}`);
  return name;
}

/** Explicit ids in a create request, so that slugs generated for earlier fields step around them. */
function explicitIds(definitions: readonly unknown[]): Set<string> {
  const ids = definitions.map((d) => (typeof d === 'object' && d !== null ? (d as { id?: unknown }).id : undefined));
  return new Set(ids.filter((id): id is string => typeof id === 'string'));
}

function findTitleFieldId(fields: readonly Field[], slug: unknown): number | null {
  if (slug === undefined || slug === null) return null;
  const field = fields.find((f) => f.slug === slug);
  if (!field) throw new ValidationError(`Invalid title_field: no field "${String(slug)}"`);
  if (!canBeTitle(field)) throw new ValidationError(`Invalid title_field: a ${field.type} field cannot be a title`);
  return field.id;
}

/**
 * Lets the types of a table's fields that have onFieldDeleted record what they leave behind,
 * inside the transaction deleting the table, before its metadata or record table goes.
 */
async function releaseTableFields(ctx: DeletionContext, tableId: number): Promise<void> {
  const trx = ctx.db as Db;
  if (!someTypeHas('onFieldDeleted')) return;
  // The schema lock makes a concurrent field change wait, so no field escapes the list.
  if (!(await tables.lockTableForSchemaChange(trx, tableId))) return;
  for (const field of hooksOf(await tables.listFields(trx, tableId)).onFieldDeleted) await getFieldType(field.type).onFieldDeleted!(field, ctx);
  // Files of no field (comments') go with the table too.
  await ctx.files.releaseTable(trx, tableId);
}

/** Drops a table's record table inside the caller's transaction, its fields released first. */
async function dropTableRecords(ctx: DeletionContext, tableId: number): Promise<void> {
  await releaseTableFields(ctx, tableId);
  await physical.dropRecordTable(ctx.db as Db, ctx.dialect, tableId);
}

/** Drops the record tables of every table of a space, inside the caller's transaction (a space deletion). */
export async function dropSpaceTables(ctx: DeletionContext, spaceId: number): Promise<void> {
  for (const tableId of await tables.listSpaceTableIds(ctx.db as Db, spaceId)) await dropTableRecords(ctx, tableId);
}

/** A table's fields in order, as stored now: how records learn a table's schema. */
export function listTableFields(db: Db, tableId: number) {
  return tables.listFields(db, tableId);
}

export function createTablesService(deps: { database: Database; clock: Clock; files: FileLedger }) {
  const { db, dialect } = deps.database;
  const now = () => formatDateTime(deps.clock.now());

  function settingsContext(actor: Actor, executor: Db): SettingsContext {
    return { accountId: actor.accountId, isVisibleTable: async (tableId) => (await resolveTableAccess(executor, actor, tableId)) !== null };
  }

  /** 404 `Table not found` for tables the caller cannot see, whatever the reason. */
  async function loadTable(actor: Actor, tableId: number) {
    const access = await resolveTableAccess(db, actor, tableId);
    if (!access) throw new NotFoundError('Table not found', ErrorCode.tableNotFound);
    return access;
  }

  async function describeTable(executor: Db, tableId: number) {
    const table = (await tables.findTable(executor, tableId))!;
    const fields = await tables.listFields(executor, tableId);
    const indexes = await listTableIndexes(executor, tableId);
    return {
      id: table.id,
      name: table.name,
      space_id: table.space_id,
      title_field: resolveTitleField(fields, table.title_field_id)?.slug ?? null,
      fields: fields.map(presentField),
      indexes: indexes.map((index) => presentIndex(index, fields)),
    };
  }

  return {
    loadTable,
    describeTable: (tableId: number) => describeTable(db, tableId),

    async listTables(actor: Actor, spaceId: number) {
      await loadVisibleSpace(db, actor, spaceId);
      return tables.listSpaceTables(db, spaceId);
    },

    /** Metadata and the physical table in one transaction: a failed DDL leaves nothing behind. */
    async createTable(actor: Actor, spaceId: number, input: { name: unknown; fields?: unknown; title_field?: unknown }) {
      const { role } = await loadVisibleSpace(db, actor, spaceId);
      assertSpaceAdmin(actor, role);
      const name = checkTableName(input.name);
      const definitions = input.fields ?? [];
      if (!Array.isArray(definitions)) throw new ValidationError('Invalid fields: must be an array of field definitions');
      if (definitions.length > maxFieldsPerTable) throw new ValidationError(`Invalid fields: at most ${maxFieldsPerTable} fields per table`);
      const claimed = explicitIds(definitions);
      const tableId = await db.transaction().execute(async (trx) => {
        const id = await tables.insertTable(trx, { accountId: actor.accountId, spaceId, name, now: now() });
        const taken = new Set<string>();
        for (const [position, definition] of definitions.entries()) {
          const draft = await parseFieldDefinition(definition, taken, settingsContext(actor, trx), claimed);
          taken.add(draft.slug);
          await tables.insertField(trx, id, draft, position);
        }
        const fields = await tables.listFields(trx, id);
        await tables.updateTable(trx, id, { title_field_id: findTitleFieldId(fields, input.title_field), updated_at: now() });
        await physical.createRecordTable(trx, dialect, id, fields);
        await tables.insertTableCounter(trx, id);
        return id;
      });
      return describeTable(db, tableId);
    },

    async getTable(actor: Actor, tableId: number) {
      await loadTable(actor, tableId);
      return describeTable(db, tableId);
    },

    async updateTable(actor: Actor, tableId: number, input: { name?: unknown; title_field?: unknown }) {
      const { role } = await loadTable(actor, tableId);
      assertSpaceAdmin(actor, role);
      const changes: { name?: string; title_field_id?: number | null; updated_at: string } = { updated_at: now() };
      if (input.name !== undefined) changes.name = checkTableName(input.name);
      if (input.title_field !== undefined) changes.title_field_id = findTitleFieldId(await tables.listFields(db, tableId), input.title_field);
      await tables.updateTable(db, tableId, changes);
      return describeTable(db, tableId);
    },

    async deleteTable(actor: Actor, tableId: number) {
      const { role } = await loadTable(actor, tableId);
      assertSpaceAdmin(actor, role);
      await db.transaction().execute(async (trx) => {
        await releaseTableFields({ db: trx, dialect, files: deps.files }, tableId);
        // A concurrent delete got there first: answer as if the table had never been seen.
        if (!(await tables.deleteTable(trx, tableId))) throw new NotFoundError('Table not found', ErrorCode.tableNotFound);
        await physical.dropRecordTable(trx, dialect, tableId);
      });
      return { id: tableId, deleted: true as const };
    },

    settingsContext,
  };
}

export type TablesService = ReturnType<typeof createTablesService>;
