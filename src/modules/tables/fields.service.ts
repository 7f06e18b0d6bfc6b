import type { FileLedger } from '../fields/value-context.js';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { ErrorCode, NotFoundError, ValidationError } from '../../shared/errors.js';
import type { Actor } from '../auth/actor.js';
import { assertSpaceAdmin } from '../spaces/space-access.js';
import type { Field } from '../fields/field.js';
import { parseFieldDefinition, parseFieldUpdate } from '../fields/field-definition.js';
import { getFieldType } from '../fields/registry.js';
import { rebuildSearchText } from '../records/search-text.js';
import type { IndexesService } from './indexes.service.js';
import * as physical from './physical-schema.js';
import { maxFieldsPerTable, type TablesService } from './tables.service.js';
import * as tables from './tables.repository.js';

type Db = Database['db'];

/** Field create/update/delete: metadata and DDL change together in one transaction. */
export function createFieldsService(deps: { database: Database; clock: Clock; tables: TablesService; files: FileLedger; indexes: Pick<IndexesService, 'dropFieldIndexes'> }) {
  const { db, dialect } = deps.database;

  async function loadAdminTable(actor: Actor, tableId: number) {
    const { role } = await deps.tables.loadTable(actor, tableId);
    assertSpaceAdmin(actor, role);
  }

  /**
   * Runs one field change in a transaction that first locks the table (see
   * lockTableForSchemaChange) and then reads its fields: concurrent changes queue up instead of
   * racing to the same slug or dropping the same column twice.
   */
  function changeFields<T>(tableId: number, change: (trx: Db, fields: Field[]) => Promise<T>): Promise<T> {
    return db.transaction().execute(async (trx) => {
      if (!(await tables.lockTableForSchemaChange(trx, tableId))) throw new NotFoundError('Table not found', ErrorCode.tableNotFound);
      return change(trx, await tables.listFields(trx, tableId));
    });
  }

  function findField(fields: readonly Field[], slug: string): Field {
    const field = fields.find((f) => f.slug === slug);
    if (!field) throw new NotFoundError(`Field not found: ${slug}`, ErrorCode.fieldNotFound);
    return field;
  }

  return {
    async createField(actor: Actor, tableId: number, definition: unknown) {
      await loadAdminTable(actor, tableId);
      await changeFields(tableId, async (trx, fields) => {
        if (fields.length >= maxFieldsPerTable) throw new ValidationError(`Invalid fields: at most ${maxFieldsPerTable} fields per table`);
        const draft = await parseFieldDefinition(definition, new Set(fields.map((f) => f.slug)), deps.tables.settingsContext(actor, trx));
        const position = fields.reduce((max, f) => Math.max(max, f.position + 1), 0);
        const id = await tables.insertField(trx, tableId, draft, position);
        await physical.addFieldColumn(trx, dialect, { ...draft, id, tableId, position });
      });
      return deps.tables.describeTable(tableId);
    },

    /** Metadata only: the column is named after the field id, so a slug rename keeps the data where it is. */
    async updateField(actor: Actor, tableId: number, slug: string, changes: unknown) {
      await loadAdminTable(actor, tableId);
      await changeFields(tableId, async (trx, fields) => {
        const field = findField(fields, slug);
        const taken = new Set(fields.filter((f) => f.id !== field.id).map((f) => f.slug));
        const draft = await parseFieldUpdate(changes, field, taken, deps.tables.settingsContext(actor, trx));
        await tables.updateField(trx, field.id, draft);
      });
      return deps.tables.describeTable(tableId);
    },

    async deleteField(actor: Actor, tableId: number, slug: string) {
      await loadAdminTable(actor, tableId);
      await changeFields(tableId, async (trx, fields) => {
        const field = findField(fields, slug);
        await tables.deleteField(trx, field.id);
        // The column still holds every value: the type records what it leaves to clean up.
        await getFieldType(field.type).onFieldDeleted?.(field, { db: trx, dialect, files: deps.files });
        await deps.indexes.dropFieldIndexes(trx, field, fields);
        await physical.dropFieldColumn(trx, field);
        if (getFieldType(field.type).searchable) await rebuildSearchText(trx, dialect.name, tableId, fields.filter((f) => f.id !== field.id));
      });
      return deps.tables.describeTable(tableId);
    },
  };
}

export type FieldsService = ReturnType<typeof createFieldsService>;
