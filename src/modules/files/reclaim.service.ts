import type { Database } from '../../db/database.js';
import { formatDateTime, type Clock } from '../../shared/clock.js';
import { ErrorCode, NotFoundError } from '../../shared/errors.js';
import { fieldColumnName, recordTableName } from '../fields/physical-names.js';
import { newFileId } from './attachment-path.js';
import { presentFile } from './file-ledger.js';
import type { FileStorage } from './file-storage.js';
import * as files from './files.repository.js';

/** A sweep that has held its claim this long is taken for dead: another may take its rows. */
const staleClaimMs = 3600 * 1000;
const batchSize = 100;

export interface SweepReport {
  /** Released managed files whose grace had passed: blob and row gone. */
  deleted: number;
  /** Pending files whose write never committed: blob (managed only) and row gone. */
  orphans: number;
  /** Pending files whose write did commit (the process stopped before settling them): now live. */
  adopted: number;
  /** Files the storage failed to delete: left for the next sweep. */
  failed: number;
}

/**
 * The reclaim sweep and the operator's recovery. Only managed storage is ever deleted from; a
 * space's own storage is the customer's, and the service leaves it as it is.
 */
export function createReclaimService(deps: { database: Database; clock: Clock; storage: FileStorage }) {
  const { db, dialect } = deps.database;
  const stamp = (date: Date) => formatDateTime(date);

  /** Whether a pending file's path is in its field: its write committed after all. */
  async function isReferenced(file: files.StoredFileRow): Promise<boolean> {
    try {
      return await files.isPathReferenced(db, recordTableName(file.table_id), fieldColumnName(file.field_id), file.path, dialect.name);
    } catch {
      // The table or the field is gone: nothing can reference the file any more.
      return false;
    }
  }

  async function reclaimOne(file: files.StoredFileRow, report: SweepReport): Promise<void> {
    if (file.state === 'pending' && (await isReferenced(file))) {
      await files.adoptPendingFile(db, file.id);
      report.adopted++;
      return;
    }
    if (file.store === 'managed') await deps.storage.managed.delete(file.blob_key);
    await files.deleteFileRows(db, [file.id]);
    if (file.state === 'pending') report.orphans++;
    else report.deleted++;
  }

  return {
    /**
     * Deletes what is past its grace, in batches, each file claimed first so that several
     * processes sweeping at once delete each blob once. `asOf` moves the queue's clock only
     * (an operator's "as if it were then"); pending files are judged by the real clock, so a
     * write in progress is never swept.
     */
    async sweep(options: { asOf?: Date; onProgress?: (report: SweepReport) => void } = {}): Promise<SweepReport> {
      const now = deps.clock.now();
      const claim = newFileId();
      const report: SweepReport = { deleted: 0, orphans: 0, adopted: 0, failed: 0 };
      const failed: string[] = [];
      for (;;) {
        const due = { queuedDue: stamp(options.asOf ?? now), pendingDue: stamp(now) };
        const batch = (await files.claimDueFiles(db, claim, due, stamp(now), stamp(new Date(now.getTime() - staleClaimMs)), batchSize)).filter((file) => !failed.includes(file.id));
        if (batch.length === 0) break;
        for (const file of batch) {
          try {
            await reclaimOne(file, report);
          } catch {
            failed.push(file.id);
            report.failed++;
          }
        }
        options.onProgress?.(report);
      }
      await files.releaseClaim(db, failed);
      return report;
    },

    /** Released managed files waiting for their grace to pass, soonest first. */
    async listPending() {
      return (await files.listQueuedFiles(db)).map((file) => ({ ...presentFile(file), space_id: file.space_id, released_at: file.released_at, reclaim_after: file.reclaim_after }));
    },

    /** Takes a file out of the queue: its attachment object can then be written to a record of its space again. */
    async restore(path: string) {
      const file = await files.restoreQueuedFile(db, path);
      if (!file) throw new NotFoundError(`No file waiting for reclaim has the path ${path}`, ErrorCode.fileNotFound);
      return presentFile(file);
    },
  };
}

export type ReclaimService = ReturnType<typeof createReclaimService>;
