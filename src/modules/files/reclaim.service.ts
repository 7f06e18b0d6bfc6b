import type { Database } from '../../db/database.js';
import { formatDateTime, type Clock } from '../../shared/clock.js';
import { startRepeatingTask, type RepeatingTask } from '../../shared/repeating-task.js';
import { ConflictError, ErrorCode, NotFoundError } from '../../shared/errors.js';
import type { Attachment } from '../fields/attachment.js';
import { fieldColumnName, recordTableName } from '../fields/physical-names.js';
import { newFileId } from './attachment-path.js';
import { orphanGraceMs, presentFile } from './file-ledger.js';
import type { FileStorage } from './file-storage.js';
import * as files from './files.repository.js';
import type { ThumbnailCache } from './thumbnail-cache.js';

/** A sweep that has held its claim this long is taken for dead: another may take its rows. */
const staleClaimMs = 3600 * 1000;
/** Files claimed and reclaimed at a time; a progress report follows each batch. */
export const sweepBatchSize = 100;

export interface SweepReport {
  /** Released managed files whose grace had passed: blob and row gone. */
  deleted: number;
  /**
   * Pending files whose write never committed: blob (managed only) and row gone; and on managed
   * disk storage, temporary files of stream writes a killed process left (`*.partial`).
   */
  orphans: number;
  /** Pending files whose write did commit (the process stopped before settling them): now live. */
  adopted: number;
  /** Files the storage (or the database) failed to reclaim: left for the next sweep. */
  failed: number;
}

export interface SweepOptions {
  /** Judge the queue as if it were then (an operator's "as of"); pending files keep the real clock. */
  asOf?: Date;
  /** After each batch, with the totals so far. */
  onProgress?: (report: SweepReport) => void;
  /** For each file left for the next sweep, with what went wrong. */
  onFailure?: (file: { path: string; state: string }, error: unknown) => void;
  /** Stops the sweep after the file in hand; its other claims are dropped for the next sweep. */
  signal?: AbortSignal;
}

/**
 * The reclaim sweep and the operator's recovery. Only managed storage is ever deleted from; a
 * space's own storage is the customer's, and the service leaves it as it is.
 */
export function createReclaimService(deps: { database: Database; clock: Clock; storage: FileStorage; thumbnails: Pick<ThumbnailCache, 'removeFile'> }) {
  const { db, dialect } = deps.database;
  const stamp = (date: Date) => formatDateTime(date);
  const staleBefore = (now: Date) => stamp(new Date(now.getTime() - staleClaimMs));

  /**
   * Whether a pending file's path is in its field: its write committed after all. A field (or
   * table) that is gone holds nothing; any other failure is thrown, so that a database hiccup
   * leaves the file for the next sweep instead of deleting a file a record may hold.
   */
  async function isReferenced(file: files.StoredFileRow): Promise<boolean> {
    if (!(await files.fieldExists(db, file.table_id, file.field_id))) return false;
    return files.isPathReferenced(db, recordTableName(file.table_id), fieldColumnName(file.field_id), file.path, dialect.name);
  }

  async function reclaimOne(file: files.StoredFileRow, claim: string, report: SweepReport): Promise<void> {
    if (file.state === 'pending' && (await isReferenced(file))) {
      await files.adoptPendingFile(db, file.id);
      report.adopted++;
      return;
    }
    // The blob first: a row without its blob is retried by the next sweep, a blob without its
    // row would be found by nothing. A missing blob is not an error, so a retry is harmless.
    // Its thumbnails (this machine's cache) go with it: nothing made of a deleted file stays.
    if (file.store === 'managed') await deps.storage.managed.delete(file.blob_key);
    await deps.thumbnails.removeFile(file.id);
    if (!(await files.deleteClaimedFile(db, file.id, claim))) return;
    if (file.state === 'pending') report.orphans++;
    else report.deleted++;
  }

  /**
   * A killed upload leaves its temporary file on managed disk storage (no row names it): one not
   * written to for the orphan grace (an hour, like a pending row) belongs to a write that died.
   */
  async function removeStalePartials(now: Date, report: SweepReport, options: SweepOptions): Promise<void> {
    try {
      report.orphans += (await deps.storage.managed.removeStalePartials?.(new Date(now.getTime() - orphanGraceMs))) ?? 0;
    } catch (error) {
      report.failed++;
      options.onFailure?.({ path: '*.partial', state: 'partial' }, error);
    }
  }

  return {
    /**
     * Deletes what is past its grace, in batches, each file claimed first so that several
     * processes sweeping at once delete each blob once. `asOf` moves the queue's clock only
     * (an operator's "as if it were then"); pending files are judged by the real clock, so a
     * write in progress is never swept.
     */
    async sweep(options: SweepOptions = {}): Promise<SweepReport> {
      const now = deps.clock.now();
      const claim = newFileId();
      const report: SweepReport = { deleted: 0, orphans: 0, adopted: 0, failed: 0 };
      const due = { queuedDue: stamp(options.asOf ?? now), pendingDue: stamp(now) };
      try {
        while (!options.signal?.aborted) {
          // Rows this sweep failed on keep its claim until the end, so it never claims them twice.
          const batch = await files.claimDueFiles(db, dialect.name, claim, due, stamp(now), staleBefore(now), sweepBatchSize);
          if (batch.length === 0) break;
          for (const file of batch) {
            if (options.signal?.aborted) break;
            try {
              await reclaimOne(file, claim, report);
            } catch (error) {
              report.failed++;
              options.onFailure?.({ path: file.path, state: file.state }, error);
            }
          }
          options.onProgress?.({ ...report });
        }
        if (!options.signal?.aborted) await removeStalePartials(now, report, options);
      } finally {
        // Left behind (the database gone meanwhile), a claim goes stale in an hour.
        await files.releaseClaim(db, claim).catch(() => undefined);
      }
      return report;
    },

    /** Released managed files waiting for their grace to pass, soonest first. */
    async listPending() {
      return (await files.listQueuedFiles(db)).map((file) => ({ ...presentFile(file), space_id: file.space_id, released_at: file.released_at, reclaim_after: file.reclaim_after }));
    },

    /**
     * Takes a file out of the queue: its attachment object can then be written to a record of
     * its space again (once: the next write holding it makes it live). A file a sweep is
     * deleting right now cannot be restored.
     */
    async restore(path: string): Promise<{ attachment: Attachment; spaceId: number }> {
      const outcome = await files.restoreQueuedFile(db, path, staleBefore(deps.clock.now()));
      if (!outcome) throw new NotFoundError(`No file waiting for reclaim has the path ${path}`, ErrorCode.fileNotFound);
      if ('claimed' in outcome) throw new ConflictError(`The file ${path} is being deleted by a reclaim sweep right now`);
      return { attachment: presentFile(outcome.restored), spaceId: outcome.restored.space_id };
    },
  };
}

export type ReclaimService = ReturnType<typeof createReclaimService>;

/** The server's own sweeps, every `intervalMs`. */
/** Stopping ends a sweep in progress after the file in hand, and resolves once it has. */
export type ReclaimSchedule = RepeatingTask;

/**
 * Runs `reclaim.sweep()` in the background: the first one `firstDelayMs` after start (a server
 * restarted more often than the interval still sweeps), then `intervalMs` after each ends, so
 * one process never runs two at once. A failed sweep is reported to `onError`, never thrown.
 * `serve` passes a sweep that runs under a job lease (cli/background-jobs.ts): one process at a
 * time; the claims still keep a sweep apart from `tabula files sweep` run beside it. Timers
 * are unref'd: they never keep the process alive.
 */
export function startReclaimSchedule(
  reclaim: Pick<ReclaimService, 'sweep'>,
  options: { intervalMs: number; firstDelayMs: number; onReport?: (report: SweepReport) => void; onError: (error: unknown) => void; onFailure?: SweepOptions['onFailure'] },
): ReclaimSchedule {
  return startRepeatingTask(async (signal) => {
    const report = await reclaim.sweep({ onFailure: options.onFailure, signal });
    options.onReport?.(report);
  }, options);
}
