import type { Database } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { NotFoundError, ValidationError } from '../../shared/errors.js';
import type { Actor } from '../auth/actor.js';
import { assertSpaceAdmin } from '../spaces/space-access.js';
import { parseFieldDefinition, parseFieldUpdate } from './field-definition.js';
import * as physical from './physical-schema.js';
import { maxFieldsPerTable, type TablesService } from './tables.service.js';
import * as tables from './tables.repository.js';

/** Field create/update/delete: metadata and DDL change together in one transaction. */
export function createFieldsService(deps: { database: Database; clock: Clock; tables: TablesService }) {
  const { db, dialect } = deps.database;

  async function loadAdminTable(actor: Actor, tableId: number) {
    const { role } = await deps.tables.loadTable(actor, tableId);
    assertSpaceAdmin(actor, role);
  }

  async function findField(tableId: number, slug: string) {
    const fields = await tables.listFields(db, tableId);
    const field = fields.find((f) => f.slug === slug);
    if (!field) throw new NotFoundError(`Field not found: ${slug}`, 'field_not_found');
    return { field, fields };
  }

  return {
    async createField(actor: Actor, tableId: number, definition: unknown) {
      await loadAdminTable(actor, tableId);
      await db.transaction().execute(async (trx) => {
        const fields = await tables.listFields(trx, tableId);
        if (fields.length >= maxFieldsPerTable) throw new ValidationError(`Invalid fields: at most ${maxFieldsPerTable} fields per table`);
        const draft = await parseFieldDefinition(definition, new Set(fields.map((f) => f.slug)), deps.tables.settingsContext(actor, trx));
        const position = fields.reduce((max, f) => Math.max(max, f.position + 1), 0);
        const id = await tables.insertField(trx, tableId, draft, position);
        await physical.addFieldColumn(trx, dialect, { ...draft, id, tableId, position });
        await tables.bumpSchemaVersion(trx, tableId);
      });
      return deps.tables.describeTable(tableId);
    },

    async updateField(actor: Actor, tableId: number, slug: string, changes: unknown) {
      await loadAdminTable(actor, tableId);
      const { field, fields } = await findField(tableId, slug);
      const taken = new Set(fields.filter((f) => f.id !== field.id).map((f) => f.slug));
      const draft = await parseFieldUpdate(changes, field, taken, deps.tables.settingsContext(actor, db));
      await db.transaction().execute(async (trx) => {
        await tables.updateField(trx, field.id, draft);
        await tables.bumpSchemaVersion(trx, tableId);
      });
      return deps.tables.describeTable(tableId);
    },

    async deleteField(actor: Actor, tableId: number, slug: string) {
      await loadAdminTable(actor, tableId);
      const { field } = await findField(tableId, slug);
      await db.transaction().execute(async (trx) => {
        await tables.deleteField(trx, field.id);
        await physical.dropFieldColumn(trx, field);
        await tables.bumpSchemaVersion(trx, tableId);
      });
      return deps.tables.describeTable(tableId);
    },
  };
}

export type FieldsService = ReturnType<typeof createFieldsService>;
