import type { Database } from '../../db/database.js';
import type { ChangeRow } from './change.js';
import { findChange, lastSeq, listChanges } from './changes.repository.js';

/**
 * The change log as other modules' background readers see it (webhook deliveries): a table's
 * changes after a cursor, the head, one change by seq. Like changes/list, a reader calls the
 * write unit's `settleQueued` before reading after a head, so that no seq below it is missing.
 */
export function createChangeLogReader(database: Database) {
  const { db } = database;
  return {
    tableChangesAfter: (tableId: number, after: number, limit: number): Promise<ChangeRow[]> => listChanges(db, { tableIds: [tableId] }, after, limit),
    head: (): Promise<number> => lastSeq(db),
    change: (seq: number): Promise<ChangeRow | undefined> => findChange(db, seq),
  };
}

export type ChangeLogReader = ReturnType<typeof createChangeLogReader>;
