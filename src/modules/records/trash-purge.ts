import type { Database } from '../../db/database.js';
import { formatDateTime, type Clock } from '../../shared/clock.js';
import type { Actor } from '../auth/actor.js';
import { fromColumnValue } from '../fields/column-values.js';
import { hooksOf } from '../fields/lifecycle.js';
import { fieldColumnName } from '../fields/physical-names.js';
import { getFieldType } from '../fields/registry.js';
import type { FileLedger } from '../fields/value-context.js';
import type { Attempt } from './record-attempt.js';
import type { RecordsDeletedListener } from './record-lifecycle.js';
import * as trash from './record-trash.repository.js';
export type { RecordsDeletedListener } from './record-lifecycle.js';

/** Trashed records purged per statement. */
const purgeBatchSize = 500;
const dayMs = 24 * 3600 * 1000;

/**
 * The end of the trash: records deleted more than `trashDays` ago go for good, and what went
 * with them at a delete before the trash existed goes now, in the same transaction: their
 * files to the reclaim queue (the field types' onRecordsDeleted), their comments and
 * notifications (`recordsDeleted`). Several processes may purge at once: a row is taken by the
 * statement that deletes it, so each record is purged once.
 */
export function createTrashPurge(deps: {
  database: Database;
  clock: Clock;
  files: FileLedger;
  recordsDeleted?: { listener?: RecordsDeletedListener };
  trashDays: number;
  openAttempt(actor: Actor, tableId: number, cached: boolean): Promise<Attempt>;
  operatorActor(tableId: number, readOnly: boolean): Promise<Actor>;
}) {
  const { db, dialect } = deps.database;

  async function purgeTable(tableId: number, recordIds: readonly number[]): Promise<number> {
    const attempt = await deps.openAttempt(await deps.operatorActor(tableId, false), tableId, false);
    const fields = hooksOf(attempt.table.fields).onRecordsDeleted;
    return db.transaction().execute(async (trx) => {
      const rows = await trash.removeTrashRows(trx, tableId, recordIds);
      if (rows.length === 0) return 0;
      const saved = rows.map((row) => JSON.parse(row.row_json) as Record<string, unknown>);
      for (const field of fields) {
        const stored = saved.map((row) => fromColumnValue(field, row[fieldColumnName(field.id)] ?? null));
        await getFieldType(field.type).onRecordsDeleted!(stored, field, { db: trx, dialect, files: deps.files });
      }
      await deps.recordsDeleted?.listener?.(trx, tableId, rows.map((row) => row.record_id));
      return rows.length;
    });
  }

  return {
    /** Purges what was deleted more than the trash's days before `asOf` (now); answers how many records went. */
    async purgeTrash(asOf?: Date): Promise<number> {
      const before = formatDateTime(new Date((asOf ?? deps.clock.now()).getTime() - deps.trashDays * dayMs));
      let purged = 0;
      for (;;) {
        const expired = await trash.findExpiredTrash(db, before, purgeBatchSize);
        if (expired.length === 0) return purged;
        const byTable = new Map<number, number[]>();
        for (const row of expired) byTable.set(row.table_id, [...(byTable.get(row.table_id) ?? []), row.record_id]);
        for (const [tableId, ids] of byTable) purged += await purgeTable(tableId, ids);
      }
    },
  };
}
