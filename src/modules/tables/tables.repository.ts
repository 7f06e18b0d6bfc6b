import type { Kysely } from 'kysely';
import { metadataVersionColumn } from '../../db/metadata-cache.js';
import { prepareQuery } from '../../db/prepared-query.js';
import type { SystemSchema } from '../../db/schema.js';
import type { Field, FieldDraft } from '../fields/field.js';

type Db = Kysely<SystemSchema>;

export type TableRow = Awaited<ReturnType<typeof findTable>> & {};

export async function insertTable(db: Db, table: { accountId: number; spaceId: number; name: string; now: string }): Promise<number> {
  const row = await db
    .insertInto('tables')
    .values({ account_id: table.accountId, space_id: table.spaceId, name: table.name, title_field_id: null, created_at: table.now, updated_at: table.now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findTable(db: Db, tableId: number) {
  return db.selectFrom('tables').selectAll().where('id', '=', tableId).executeTakeFirst();
}

export async function listSpaceTables(db: Db, spaceId: number) {
  return db.selectFrom('tables').select(['id', 'name', 'space_id']).where('space_id', '=', spaceId).orderBy('id').execute();
}

export async function listSpaceTableIds(db: Db, spaceId: number): Promise<number[]> {
  return (await listSpaceTables(db, spaceId)).map((t) => t.id);
}

export async function updateTable(db: Db, tableId: number, changes: { name?: string; title_field_id?: number | null; updated_at: string }): Promise<void> {
  await db.updateTable('tables').set(changes).where('id', '=', tableId).execute();
}

/** The table's first counter row; the record table's triggers keep the counters from then on. */
export async function insertTableCounter(db: Db, tableId: number): Promise<void> {
  await db.insertInto('table_counters').values({ table_id: tableId, shard: 0, row_count: 0, change_count: 0 }).execute();
}

/** Every field change bumps it, in the same transaction, so cached field lists are never stale. */
export async function bumpSchemaVersion(db: Db, tableId: number): Promise<void> {
  await lockTableForSchemaChange(db, tableId);
}

/**
 * Bumps `schema_version` first thing in a field change's transaction: the row lock it takes
 * (PostgreSQL) makes concurrent changes to one table's fields wait for each other, so each
 * sees the fields the previous one committed. False when the table is gone.
 */
export async function lockTableForSchemaChange(db: Db, tableId: number): Promise<boolean> {
  const result = await db.updateTable('tables').set((eb) => ({ schema_version: eb('schema_version', '+', 1) })).where('id', '=', tableId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** False when the table was already gone. */
export async function deleteTable(db: Db, tableId: number): Promise<boolean> {
  const result = await db.deleteFrom('tables').where('id', '=', tableId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

function toStoredSettings(field: FieldDraft): string {
  return JSON.stringify({ multiple: field.multiple, required: field.required, editable_by: field.editableBy, hidden: field.hidden, ...field.settings });
}

export async function insertField(db: Db, tableId: number, field: FieldDraft, position: number): Promise<number> {
  const row = await db
    .insertInto('fields')
    .values({ table_id: tableId, slug: field.slug, name: field.name, type: field.type, settings_json: toStoredSettings(field), position })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateField(db: Db, fieldId: number, field: FieldDraft): Promise<void> {
  await db.updateTable('fields').set({ slug: field.slug, name: field.name, settings_json: toStoredSettings(field) }).where('id', '=', fieldId).execute();
}

export async function deleteField(db: Db, fieldId: number): Promise<void> {
  await db.deleteFrom('fields').where('id', '=', fieldId).execute();
}

export async function listFields(db: Db, tableId: number): Promise<Field[]> {
  const rows = await db.selectFrom('fields').selectAll().where('table_id', '=', tableId).orderBy('position').orderBy('id').execute();
  return rows.map((row) => {
    const { multiple, required, editable_by, hidden, ...settings } = JSON.parse(row.settings_json);
    return {
      id: row.id,
      tableId: row.table_id,
      slug: row.slug,
      name: row.name,
      type: row.type as Field['type'],
      multiple,
      required,
      editableBy: editable_by,
      hidden,
      settings,
      position: row.position,
    };
  });
}

/**
 * The table, its space's account and the user's membership role in one query, with the
 * metadata version it was read at: it runs on every uncached access check. The role is a
 * scalar subquery: as a left join, SQLite's planner scanned tables.
 */
const selectTableAccessRow = prepareQuery((db: Kysely<SystemSchema>, tableId: number, userId: number) =>
  db
    .selectFrom('tables as t')
    .select((eb) => [
      't.id',
      't.account_id',
      't.space_id',
      't.title_field_id',
      't.schema_version',
      eb.selectFrom('members as m').select('m.role').whereRef('m.space_id', '=', 't.space_id').where('m.user_id', '=', userId).as('role'),
      metadataVersionColumn.as('metadata_version'),
    ])
    .where('t.id', '=', tableId),
);

export type TableAccessRow = Awaited<ReturnType<typeof selectTableAccessRow>>[number];

export async function findTableAccessRow(db: Kysely<SystemSchema>, tableId: number, userId: number): Promise<TableAccessRow | undefined> {
  return (await selectTableAccessRow(db, tableId, userId))[0];
}
