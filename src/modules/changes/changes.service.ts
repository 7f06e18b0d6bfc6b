import type { Database } from '../../db/database.js';
import { formatDateTime, type Clock } from '../../shared/clock.js';
import { checkObjectBody, invalidParameters } from '../../shared/body-checks.js';
import { ErrorCode, ValidationError } from '../../shared/errors.js';
import type { Actor } from '../auth/actor.js';
import { loadVisibleSpace } from '../spaces/space-access.js';
import type { StreamFilter } from './change-subscriber.js';
import { changeText } from './change.js';
import * as changes from './changes.repository.js';

/** What the change log's readers need of the records module: may this caller read the table? */
export interface TableReader {
  tableAccess(actor: Actor, tableId: number, access: 'read' | 'write'): Promise<{ tableId: number; spaceId: number; accountId: number }>;
  /** Whether the record is live or in the trash. */
  recordKnown(tableId: number, recordId: number): Promise<boolean>;
}

/**
 * Reading the change log: polling a table's changes and a record's history. Answers are JSON
 * text made of each change's stored text (change.ts `changeText`), never parsed again.
 */
export function createChangesService(deps: { database: Database; tables: TableReader; clock: Clock; /** TABULA_CHANGES_DAYS */ changesDays: number; /** Empties the write unit's queue into the log before a read (write-unit.ts). */ settleQueued(): Promise<void> }) {
  const { db } = deps.database;

  return {
    /**
     * May this caller read what a change stream carries: a table's changes (400 `Invalid Table`
     * as a record call answers) or every table's of a space (404 `Space not found`, as for a
     * missing space; a member reads every table of its space).
     */
    async streamAccess(actor: Actor, filter: StreamFilter): Promise<void> {
      if ('tableId' in filter) await deps.tables.tableAccess(actor, filter.tableId, 'read');
      else await loadVisibleSpace(db, actor, filter.spaceId);
    },

    /** `{after?, limit?}` → `{changes:[…], next_after}` in seq order; `next_after` is the cursor to send next. */
    async listChanges(actor: Actor, tableId: number, body: unknown): Promise<string> {
      await deps.tables.tableAccess(actor, tableId, 'read');
      const members = checkObjectBody(body ?? {}, ['after', 'limit']);
      const after = seqOf(members.after, 'after') ?? 0;
      const limit = limitOf(members.limit, 1000, 100);
      await deps.settleQueued();
      const rows = await changes.listChanges(db, { tableIds: [tableId] }, after, limit);
      const next = rows.length > 0 ? Number(rows[rows.length - 1].seq) : after;
      return `{"changes":[${rows.map(changeText).join(',')}],"next_after":${next}}`;
    },

    /** `{limit?, before?}` → the record's changes, newest first (its comments' included). */
    async recordHistory(actor: Actor, tableId: number, recordId: number, body: unknown): Promise<string> {
      await deps.tables.tableAccess(actor, tableId, 'read');
      const members = checkObjectBody(body ?? {}, ['before', 'limit']);
      const before = seqOf(members.before, 'before');
      const limit = limitOf(members.limit, 100, 50);
      await deps.settleQueued();
      const rows = await changes.listRecordChanges(db, tableId, recordId, before, limit);
      if (rows.length === 0 && before === null && !(await deps.tables.recordKnown(tableId, recordId))) throw new ValidationError('Record not found', ErrorCode.recordNotFound);
      return `[${rows.map(changeText).join(',')}]`;
    },

    /** The highest seq retention removed: a cursor below it has missed changes. */
    purgedThrough(): Promise<number> {
      return changes.purgedThrough(db);
    },

    /**
     * Retention: removes the changes made more than `changesDays` before `asOf` (now), oldest
     * first, `batchSize` at a time, each batch its own transaction (a long purge never holds the
     * log for long). Answers how many went and the purge mark after them. Safe in several
     * processes at once: each batch is removed by one of them (changes.repository.ts).
     */
    async purgeExpired(asOf?: Date, batchSize = purgeBatchSize): Promise<{ purged: number; purgedThrough: number }> {
      const before = formatDateTime(new Date((asOf ?? deps.clock.now()).getTime() - deps.changesDays * dayMs));
      let purged = 0;
      for (;;) {
        const removed = await changes.purgeChangesBefore(db, before, batchSize);
        purged += removed;
        if (removed < batchSize) break;
      }
      return { purged, purgedThrough: await changes.purgedThrough(db) };
    },
  };
}

/** Changes removed per transaction by retention. */
const purgeBatchSize = 10_000;
const dayMs = 24 * 3600 * 1000;

function seqOf(value: unknown, name: string): number | null {
  if (value === undefined || value === null) return null;
  if (!Number.isSafeInteger(value) || (value as number) < 0) throw invalidParameters(`${name} must be a change seq (an integer of 0 or more)`);
  return value as number;
}

function limitOf(value: unknown, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > max) throw invalidParameters(`limit must be an integer from 1 to ${max}`);
  return value as number;
}

export type ChangesService = ReturnType<typeof createChangesService>;
