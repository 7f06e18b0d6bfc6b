import type { Clock } from '../../shared/clock.js';
import { formatDateTime } from '../../shared/clock.js';
import type { Field } from '../fields/field.js';
import { getFieldType } from '../fields/registry.js';
import type { QueryShape, QueryShapeObserver } from '../records/query/query-shape.js';
import { describeIndexFields, maxIndexFields, normalizedDirection, unindexableReason, type IndexDefinition } from './index-definition.js';
import * as indexes from './indexes.repository.js';
import type { IndexesService } from './indexes.service.js';
import type { Database } from '../../db/database.js';

export interface AutomaticIndexSettings {
  /** Off: nothing is observed, built or dropped (`TABULA_AUTO_INDEXES=off`). */
  enabled: boolean;
  /** An ad-hoc shape no index serves gets one after this many queries (`TABULA_AUTO_INDEX_AFTER`). */
  threshold: number;
  /** Tables with fewer records are scanned fast enough (`TABULA_AUTO_INDEX_MIN_ROWS`). */
  minRows: number;
  /** Automatic and view indexes per table (`TABULA_AUTO_INDEX_BUDGET`). */
  budget: number;
  /** Automatic and view indexes no query used for this long are dropped, in ms (`TABULA_AUTO_INDEX_UNUSED`). */
  unusedMs: number;
}

/** A table's index definitions, re-read this often: another process may have made or dropped one. */
const indexListTtlMs = 60_000;
/** A shape declined (budget, small table) is not weighed again for this long. */
const declineTtlMs = 10 * 60_000;

interface KnownIndex {
  id: number;
  fields: Field[];
  direction: string | null;
  /** Made by the service (automatic, for a view): what the budget counts. */
  serviceMade: boolean;
}

/** The index a shape asks for: its equalities (at most three), then its sort field, or else one bounded field. */
export function indexForShape(tableId: number, shape: QueryShape, engine: Database['dialect']['name']): IndexDefinition | null {
  const usable = (f: Field) => unindexableReason(f, engine) === null;
  const sortField = shape.sort && usable(shape.sort.field) ? shape.sort.field : null;
  const equal = shape.equal.filter((f) => usable(f) && f.id !== sortField?.id).slice(0, maxIndexFields - 1);
  const last = sortField ?? shape.range.find(usable) ?? null;
  const fields = last ? [...equal, last] : equal;
  if (fields.length === 0) return null;
  return { tableId, fields, direction: normalizedDirection(fields, sortField ? shape.sort!.direction : null) };
}

/**
 * Whether an index serves a shape as well as the one it asks for (`wanted`, from
 * indexForShape). A sort needs that very index: the same equality fields in front, in any
 * order, then the sort field in the sort's direction (a lone field stored as it sorts serves
 * either). Without a sort, any index starting with the wanted fields serves (its next columns
 * only narrow further), provided its last wanted column is not keyed for sorting.
 */
function isWanted(index: KnownIndex, wanted: IndexDefinition): boolean {
  const n = wanted.fields.length;
  const wantedLast = wanted.fields[n - 1];
  const leading = new Set(index.fields.slice(0, n - 1).map((f) => f.id));
  if (index.fields.length < n || index.fields[n - 1].id !== wantedLast.id || !wanted.fields.slice(0, -1).every((f) => leading.has(f.id))) return false;
  const plainLast = !getFieldType(wantedLast.type).orderKey;
  if (wanted.direction === null) return index.fields.length > n || index.direction === null || plainLast;
  if (index.fields.length !== n) return false;
  if (n === 1 && plainLast) return true;
  return index.direction === wanted.direction;
}

/** Whether a query with this shape reads through the index at all (for the disuse clock). */
function isUsedBy(index: KnownIndex, shape: QueryShape): boolean {
  const first = index.fields[0].id;
  return shape.equal.some((f) => f.id === first) || shape.range.some((f) => f.id === first) || shape.sort?.field.id === first;
}

const shapeKey = (tableId: number, shape: QueryShape) =>
  `${tableId}|${shape.equal.map((f) => f.id).join(',')}|${shape.range.map((f) => f.id).join(',')}|${shape.sort ? `${shape.sort.field.id} ${shape.sort.direction}` : ''}`;

function describeShape(shape: QueryShape): string {
  const parts = [
    ...shape.equal.map((f) => `${f.slug} =`),
    ...shape.range.map((f) => `${f.slug} range`),
    ...(shape.sort ? [`order by ${shape.sort.field.slug} ${shape.sort.direction}`] : []),
  ];
  return parts.join(', ');
}

/**
 * The automatic indexes. Every record query tells its shape (in memory, no statement); a
 * shape no index serves, repeated `threshold` times on a table of at least `minRows` records,
 * gets the index it asks for, within the table's budget, once. A saved view gets its index at
 * once. Each process counts on its own; one process at a time builds on a table (a job lease),
 * and two asking for the same index build it once (its name is unique per table). Indexes no query used for `unusedMs` are dropped.
 * Every decision goes to the log.
 */
export function createAutomaticIndexes(deps: {
  database: Database;
  clock: Clock;
  indexes: IndexesService;
  settings: AutomaticIndexSettings;
  /** Builds and drops go out at `warn` (the service changed a schema), other decisions at `info`. */
  log?: (level: 'info' | 'warn', message: string) => void;
  /** Runs a build unless another process builds on the same table now (the job leases); undefined if so. */
  exclusive: <T>(name: string, work: () => Promise<T>) => Promise<T | undefined>;
}) {
  const { db, dialect } = deps.database;
  const { settings } = deps;
  const log = deps.log ?? (() => undefined);
  const known = new Map<number, { indexes: KnownIndex[]; loadedAt: number }>();
  const loading = new Map<number, Promise<void>>();
  const counts = new Map<string, number>();
  const declined = new Map<string, number>();
  const building = new Set<string>();
  const used = new Set<number>();

  async function refresh(tableId: number): Promise<KnownIndex[]> {
    const { fields, rows } = await deps.indexes.loadIndexes(tableId);
    const list: KnownIndex[] = [];
    for (const row of rows) {
      const definition = deps.indexes.definitionOf(row, fields);
      if (definition) list.push({ id: row.id, fields: [...definition.fields], direction: definition.direction, serviceMade: row.origin === 'automatic' || row.origin === 'view' });
    }
    known.set(tableId, { indexes: list, loadedAt: Date.now() });
    return list;
  }

  function cachedIndexes(tableId: number): KnownIndex[] | null {
    const entry = known.get(tableId);
    if (entry && Date.now() - entry.loadedAt < indexListTtlMs) return entry.indexes;
    if (!loading.has(tableId)) {
      loading.set(tableId, refresh(tableId).then(
        () => void loading.delete(tableId),
        () => void loading.delete(tableId),
      ));
    }
    return entry?.indexes ?? null;
  }

  /**
   * Builds the index a shape asks for, unless one serves it, the table is small or the budget
   * is spent. Returns what it decided, for the log and the tests.
   */
  async function decide(tableId: number, shape: QueryShape, origin: 'automatic' | 'view', why: string): Promise<string> {
    const definition = indexForShape(tableId, shape, dialect.name);
    if (!definition) return 'nothing to index';
    const current = await refresh(tableId);
    if (current.some((index) => isWanted(index, definition))) return 'already served';
    const rows = await indexes.readTableRowCount(db, tableId);
    if (rows < settings.minRows) return `declined: ${rows} records, below ${settings.minRows}`;
    const made = current.filter((index) => index.serviceMade).length;
    if (made >= settings.budget) return `declined: the table has ${made} automatic indexes, its budget`;
    const name = `${origin === 'view' ? 'view' : 'auto'}_${definition.fields.map((f) => f.slug).join('_')}${definition.direction ? `_${definition.direction}` : ''}`.slice(0, 63);
    const started = Date.now();
    const built = await deps.exclusive(`index-build:${tableId}`, () => deps.indexes.ensureIndex(definition, { name, origin, reason: `${why}: ${describeShape(shape)}` }));
    if (built === undefined) return 'declined: another process is building an index on this table';
    await refresh(tableId);
    return built ? `built ${name} on ${describeIndexFields(definition.fields, definition.direction)} in ${Date.now() - started} ms` : `${name} exists`;
  }

  async function decideAndLog(tableId: number, shape: QueryShape, origin: 'automatic' | 'view', why: string): Promise<string> {
    try {
      const decision = await decide(tableId, shape, origin, why);
      log(decision.startsWith('built') ? 'warn' : 'info', `automatic index, table ${tableId}, ${describeShape(shape)}: ${decision}`);
      return decision;
    } catch (error) {
      log('warn', `automatic index, table ${tableId}, ${describeShape(shape)}: failed: ${(error as Error).message}`);
      return `failed: ${(error as Error).message}`;
    }
  }

  const observer: QueryShapeObserver = {
    observe(tableId, shape) {
      if (!settings.enabled) return;
      // Until the table's list is loaded the shape still counts: decide() checks it afresh.
      const current = cachedIndexes(tableId) ?? [];
      for (const index of current) if (isUsedBy(index, shape)) used.add(index.id);
      const wanted = indexForShape(tableId, shape, dialect.name);
      if (wanted === null || current.some((index) => isWanted(index, wanted))) return;
      const key = shapeKey(tableId, shape);
      const declinedAt = declined.get(key);
      if (building.has(key) || (declinedAt !== undefined && Date.now() - declinedAt < declineTtlMs)) return;
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      if (count < settings.threshold) return;
      counts.delete(key);
      building.add(key);
      void decideAndLog(tableId, shape, 'automatic', `${count} queries`).then((decision) => {
        building.delete(key);
        if (!decision.startsWith('built')) declined.set(key, Date.now());
      });
    },
  };

  /** Writes which indexes served queries since the last time (`last_used_at`). */
  async function recordUse(): Promise<void> {
    const ids = [...used];
    used.clear();
    await indexes.markIndexesUsed(db, ids, formatDateTime(deps.clock.now()));
  }

  return {
    observer,
    recordUse,

    /** A saved view's shape gets its index when the view is saved. */
    async indexForView(tableId: number, shape: QueryShape | null): Promise<string> {
      if (!settings.enabled || !shape) return 'off';
      return decideAndLog(tableId, shape, 'view', 'a saved view');
    },

    /**
     * Records which indexes served queries since the last pass, then drops the automatic and
     * view indexes no query used for `unusedMs` (a new one counts from its creation).
     */
    async maintain(): Promise<string[]> {
      const now = deps.clock.now();
      await recordUse();
      if (!settings.enabled) return [];
      const cutoff = formatDateTime(new Date(now.getTime() - settings.unusedMs));
      const dropped: string[] = [];
      for (const row of await indexes.listServiceMadeIndexes(db)) {
        const lastUse = row.last_used_at ?? row.created_at ?? '';
        if (lastUse >= cutoff) continue;
        await deps.indexes.dropIndex(row.table_id, row.name);
        known.delete(row.table_id);
        dropped.push(`${row.table_id}:${row.name}`);
        log('warn', `automatic index, table ${row.table_id}: dropped ${row.name}, unused since ${lastUse}`);
      }
      return dropped;
    },
  };
}

export type AutomaticIndexes = ReturnType<typeof createAutomaticIndexes>;
