import type { Database } from '../../db/database.js';
import { formatDateTime, type Clock } from '../../shared/clock.js';
import { checkObjectBody } from '../../shared/body-checks.js';
import { describeNameProblem } from '../../shared/display-name.js';
import { ErrorCode, ForbiddenError, NotFoundError, ValidationError } from '../../shared/errors.js';
import { lookupIdOf } from '../../shared/ids.js';
import type { Actor } from '../auth/actor.js';
import type { RecordsService } from '../records/records.service.js';
import type { SavedViewReader } from '../records/query/saved-view.js';
import { listTableFields, type TablesService } from '../tables/tables.service.js';
import type { IndexesService } from '../tables/indexes.service.js';
import type { AutomaticIndexes } from '../tables/automatic-indexes.js';
import { parseFilterList } from '../records/query/parse-conditions.js';
import { shapeOfQuery } from '../records/query/query-shape.js';
import { parseViewConfig, viewTypes, type ViewType } from './view-config.js';
import * as views from './views.repository.js';

const viewNotFound = () => new NotFoundError('View not found', ErrorCode.unknownView);
/** The specification's answer to a view call on a table the caller cannot see (or that does not exist). */
const notAuthorized = () => new NotFoundError('Not Authorized', ErrorCode.viewNotAuthorized);
const bodyKeys = ['name', 'type', 'config', 'filters', 'order_by', 'order_dir', 'is_table_default'];

/** The view object of the specification. */
export interface ViewObject {
  id: number;
  account_id: number;
  table_id: number;
  name: string;
  type: ViewType;
  config: Record<string, unknown> | null;
  filters: unknown[];
  order_by: string | null;
  order_dir: string | null;
  created_by: number;
  created_at: string;
  updated_at: string;
  is_default: boolean;
  is_table_default: boolean;
}

/** The synthesised Default view (id 0): the table unfiltered, in its natural order. */
function defaultView(accountId: number, tableId: number): ViewObject {
  return { id: 0, account_id: accountId, table_id: tableId, name: 'Default', type: 'grid', config: null, filters: [], order_by: null, order_dir: null, created_by: 0, created_at: '', updated_at: '', is_default: true, is_table_default: false };
}

function present(row: views.ViewRow): ViewObject {
  return {
    id: row.id,
    account_id: row.account_id,
    table_id: row.table_id,
    name: row.name,
    type: row.type as ViewType,
    config: JSON.parse(row.config_json) as Record<string, unknown>,
    filters: JSON.parse(row.filters_json) as unknown[],
    order_by: row.order_by,
    order_dir: row.order_dir,
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
    is_default: false,
    is_table_default: Boolean(row.is_table_default),
  };
}

/** How records read a saved view for a query: cached with the metadata, like the table itself. */
export function createSavedViewReader(database: Database): SavedViewReader {
  return {
    async find(reads, tableId, viewId) {
      const { row } = await reads.load(`view:${viewId}`, async () => {
        // A `view_id` no view can have (shared/ids.ts) is looked up as one that does not exist.
        const found = await views.findViewWithVersion(database.db, lookupIdOf(viewId));
        return { version: found.version, value: { row: found.row } };
      });
      if (!row || row.table_id !== tableId) return undefined;
      return { filters: JSON.parse(row.filters_json) as unknown[], orderBy: row.order_by, orderDir: row.order_dir === 'D' ? 'desc' : 'asc' };
    },
  };
}

/**
 * Saved views: listed and read by everyone who sees the table; created, changed and deleted by
 * its space's admins in a logged-in session only (API keys get 403, as the specification says).
 */
export function createViewsService(deps: {
  database: Database;
  clock: Clock;
  tables: TablesService;
  records: RecordsService;
  indexes: IndexesService;
  automaticIndexes: AutomaticIndexes;
}) {
  const { db } = deps.database;
  const now = () => formatDateTime(deps.clock.now());

  async function loadTable(actor: Actor, tableId: number) {
    try {
      return await deps.tables.loadTable(actor, tableId);
    } catch (error) {
      if (error instanceof NotFoundError) throw notAuthorized();
      throw error;
    }
  }

  /** Session-only, space admins only; a bearer key is refused before anything else is looked at. */
  async function loadForChange(actor: Actor, tableId: number) {
    if (actor.via !== 'session') throw new ForbiddenError('API endpoint not available to API keys', ErrorCode.apiKeysNotAllowed);
    const access = await loadTable(actor, tableId);
    if (access.role !== 'admin') throw new ForbiddenError('Only space admins can change views', ErrorCode.adminRequired);
    return access;
  }

  async function findTableView(tableId: number, viewId: number): Promise<views.ViewRow> {
    const row = await views.findView(db, viewId);
    if (!row || row.table_id !== tableId) throw viewNotFound();
    return row;
  }

  /** Checks a create or update body against the table; answers the columns to write. */
  async function parseBody(actor: Actor, tableId: number, body: unknown, current?: views.ViewRow): Promise<Partial<views.NewView>> {
    const input = checkObjectBody(body, bodyKeys);
    const changes: Partial<views.NewView> = {};
    if (input.name !== undefined || !current) {
      const name = typeof input.name === 'string' ? input.name.trim() : '';
      const problem = describeNameProblem(name);
      if (problem) throw new ValidationError(`Invalid name: ${problem}`);
      changes.name = name;
    }
    const type = (input.type ?? current?.type ?? 'grid') as ViewType;
    if (!viewTypes.includes(type)) throw new ValidationError(`Invalid type: must be one of ${viewTypes.join(', ')}`);
    changes.type = type;
    const fields = await listTableFields(db, tableId);
    const config = input.config !== undefined ? input.config : current ? JSON.parse(current.config_json) : null;
    const parsedConfig = parseViewConfig(type, config, fields);
    changes.config_json = JSON.stringify(parsedConfig);
    if (input.filters !== undefined || input.order_by !== undefined || input.order_dir !== undefined || !current) {
      const query = {
        filters: input.filters !== undefined ? input.filters : current ? JSON.parse(current.filters_json) : [],
        order_by: input.order_by !== undefined ? input.order_by : current?.order_by,
        order_dir: input.order_dir !== undefined ? input.order_dir : current?.order_dir,
      };
      if (query.filters !== null && !Array.isArray(query.filters)) throw new ValidationError('Invalid parameters: filters must be an array of filter objects');
      const checked = await deps.records.checkViewQuery(actor, tableId, query);
      changes.filters_json = JSON.stringify(checked.filters);
      changes.order_by = checked.orderBy;
      changes.order_dir = checked.orderBy === null ? null : checked.orderDir === 'desc' ? 'D' : 'A';
    }
    if (input.is_table_default !== undefined) {
      if (typeof input.is_table_default !== 'boolean') throw new ValidationError('Invalid parameters: is_table_default must be a boolean');
      changes.is_table_default = input.is_table_default ? 1 : 0;
    }
    return changes;
  }

  /**
   * A calendar view's start field gets an index (`idx_layout_<startField>`), as the
   * specification says; any view's filters and sort get the index they ask for from the
   * automatic indexes (on a large table, within its budget). Both listed in the table's `indexes`.
   */
  async function indexView(tableId: number, row: views.ViewRow): Promise<void> {
    const fields = await listTableFields(db, tableId);
    const startField = row.type === 'calendar' ? (JSON.parse(row.config_json) as { startField?: string }).startField : undefined;
    const start = fields.find((f) => f.slug === startField);
    if (start) await deps.indexes.ensureIndex({ tableId, fields: [start], direction: null }, { name: `idx_layout_${start.slug}`, origin: 'calendar' });
    const bySlug = new Map(fields.map((f) => [f.slug, f]));
    const shape = shapeOfQuery([parseFilterList(JSON.parse(row.filters_json))], row.order_by, row.order_dir === 'D' ? 'desc' : 'asc', bySlug);
    await deps.automaticIndexes.indexForView(tableId, shape);
  }

  return {
    /** The calendar view that still needs an index, described, or null (an index deletion asks). */
    async calendarNeeding(tableId: number, index: { name: string; fields: string[] }): Promise<string | null> {
      for (const row of await views.listTableViews(db, deps.database.dialect, tableId)) {
        if (row.type !== 'calendar') continue;
        const startField = (JSON.parse(row.config_json) as { startField?: string }).startField;
        if (index.name === `idx_layout_${startField}`) return `calendar view ${row.id} (${row.name})`;
      }
      return null;
    },

    async listViews(actor: Actor, tableId: number): Promise<ViewObject[]> {
      const { row } = await loadTable(actor, tableId);
      return [defaultView(row.account_id, tableId), ...(await views.listTableViews(db, deps.database.dialect, tableId)).map(present)];
    },

    async getView(actor: Actor, tableId: number, viewId: number): Promise<ViewObject> {
      const { row } = await loadTable(actor, tableId);
      if (viewId === 0) return defaultView(row.account_id, tableId);
      return present(await findTableView(tableId, viewId));
    },

    async createView(actor: Actor, tableId: number, body: unknown): Promise<ViewObject> {
      const { row } = await loadForChange(actor, tableId);
      const changes = await parseBody(actor, tableId, body);
      const stamp = now();
      const id = await db.transaction().execute(async (trx) => {
        const created = await views.insertView(trx, {
          account_id: row.account_id,
          table_id: tableId,
          name: changes.name!,
          type: changes.type!,
          config_json: changes.config_json!,
          filters_json: changes.filters_json!,
          order_by: changes.order_by ?? null,
          order_dir: changes.order_dir ?? null,
          is_table_default: changes.is_table_default ?? 0,
          created_by: actor.userId,
          created_at: stamp,
          updated_at: stamp,
        });
        if (changes.is_table_default === 1) await views.clearTableDefault(trx, tableId, created);
        return created;
      });
      const created = (await views.findView(db, id))!;
      await indexView(tableId, created);
      return present(created);
    },

    async updateView(actor: Actor, tableId: number, viewId: number, body: unknown): Promise<ViewObject> {
      await loadForChange(actor, tableId);
      const current = await findTableView(tableId, viewId);
      const changes = await parseBody(actor, tableId, body, current);
      await db.transaction().execute(async (trx) => {
        await views.updateView(trx, viewId, { ...changes, updated_at: now() });
        if (changes.is_table_default === 1) await views.clearTableDefault(trx, tableId, viewId);
      });
      const updated = (await views.findView(db, viewId))!;
      await indexView(tableId, updated);
      return present(updated);
    },

    async deleteView(actor: Actor, tableId: number, viewId: number) {
      await loadForChange(actor, tableId);
      await findTableView(tableId, viewId);
      if (!(await views.deleteView(db, viewId))) throw viewNotFound();
      return { id: viewId, deleted: true as const };
    },
  };
}

export type ViewsService = ReturnType<typeof createViewsService>;
