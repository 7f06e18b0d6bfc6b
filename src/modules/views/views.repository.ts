import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../db/dialect.js';
import type { SystemSchema } from '../../db/schema.js';

type Db = Kysely<SystemSchema>;
export type ViewRow = Omit<SystemSchema['views'], 'id'> & { id: number };
export type NewView = Omit<ViewRow, 'id'>;

/**
 * A table's views by name as record queries sort text (lower-cased, in code-point order), then
 * by id: the same on both engines whatever the database's locale.
 */
export async function listTableViews(db: Db, dialect: Dialect, tableId: number): Promise<ViewRow[]> {
  return (await db
    .selectFrom('views')
    .selectAll()
    .where('table_id', '=', tableId)
    .orderBy(dialect.sortableText(sql.ref('name')))
    .orderBy('id')
    .execute()) as ViewRow[];
}

export async function findView(db: Db, viewId: number): Promise<ViewRow | undefined> {
  return (await db.selectFrom('views').selectAll().where('id', '=', viewId).executeTakeFirst()) as ViewRow | undefined;
}

/** The view with the metadata version the statement saw (for the per-process cache). */
export async function findViewWithVersion(db: Db, viewId: number): Promise<{ row: ViewRow | undefined; version: number }> {
  const found = await db
    .selectFrom('metadata_version as v')
    .leftJoin('views', (join) => join.on('views.id', '=', viewId))
    .select(['v.version as metadata_version', 'views.id', 'views.table_id', 'views.filters_json', 'views.order_by', 'views.order_dir'])
    .where('v.id', '=', 1)
    .executeTakeFirstOrThrow();
  const row = found.id === null ? undefined : (found as unknown as ViewRow);
  return { row, version: Number(found.metadata_version) };
}

export async function insertView(db: Db, view: NewView): Promise<number> {
  const row = await db.insertInto('views').values(view).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateView(db: Db, viewId: number, changes: Partial<NewView>): Promise<void> {
  await db.updateTable('views').set(changes).where('id', '=', viewId).execute();
}

export async function deleteView(db: Db, viewId: number): Promise<boolean> {
  const result = await db.deleteFrom('views').where('id', '=', viewId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** At most one table default: set on one view, cleared on the others. */
export async function clearTableDefault(db: Db, tableId: number, exceptViewId: number): Promise<void> {
  await db.updateTable('views').set({ is_table_default: 0 }).where('table_id', '=', tableId).where('id', '!=', exceptViewId).where('is_table_default', '=', 1).execute();
}
