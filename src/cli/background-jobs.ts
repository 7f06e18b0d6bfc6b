import type { FastifyBaseLogger } from 'fastify';
import type { Container } from '../container.js';
import { startReclaimSchedule, type SweepReport } from '../modules/files/reclaim.service.js';
import { startPurgeSchedule } from '../modules/changes/retention-schedule.js';
import { startRepeatingTask, type RepeatingTask } from '../shared/repeating-task.js';

/** The first look at whether a job is due comes this long after start (or after one poll, if shorter). */
const firstLookDelayMs = 10_000;

/** How often the automatic indexes nobody uses are looked for and dropped (one process at a time). */
const indexMaintenanceIntervalMs = 10 * 60_000;

const nothingSwept: SweepReport = { deleted: 0, orphans: 0, adopted: 0, failed: 0 };

/**
 * Starts the background jobs of `tabula serve`. Every process polls; each job runs in one process
 * at a time across every process on the database, at most once per its interval (the job leases,
 * modules/jobs). What each process must do for itself (writing down which indexes served its own
 * queries) stays a plain timer.
 */
export function startBackgroundJobs(container: Container, log: FastifyBaseLogger): { stop(): Promise<void> } {
  const { config, services } = container;
  const { jobs } = services;
  const schedules: RepeatingTask[] = [];
  const firstDelay = (intervalMs: number) => Math.min(firstLookDelayMs, jobs.pollIntervalMs(intervalMs));

  // TABULA_RECLAIM_INTERVAL=0s turns the schedule off (sweeps then come from `tabula files sweep`).
  if (config.reclaimIntervalMs > 0) {
    const interval = config.reclaimIntervalMs;
    const leasedReclaim = {
      sweep: async (options: Parameters<typeof services.reclaim.sweep>[0] = {}) =>
        (await jobs.runIfDue('reclaim-sweep', interval, (signal) => services.reclaim.sweep({ ...options, signal }), options.signal)) ?? nothingSwept,
    };
    schedules.push(
      startReclaimSchedule(leasedReclaim, {
        intervalMs: jobs.pollIntervalMs(interval),
        firstDelayMs: firstDelay(interval),
        onReport: (report) => {
          if (report.deleted + report.orphans + report.adopted + report.failed > 0) log.info({ reclaim: report }, 'reclaim sweep');
        },
        onFailure: (file, error) => log.warn({ err: error, path: file.path }, 'reclaim sweep: file left for the next sweep'),
        onError: (error) => log.error({ err: error }, 'reclaim sweep failed'),
      }),
    );
  }

  // TABULA_PURGE_INTERVAL=0s turns it off (purges then come from `tabula trash purge` and `tabula changes purge`).
  if (config.purgeIntervalMs > 0) {
    const interval = config.purgeIntervalMs;
    const leasedPurge = {
      purgeTrash: async () => (await jobs.runIfDue('trash-purge', interval, () => services.records.purgeTrash())) ?? 0,
      purgeChanges: async () => (await jobs.runIfDue('change-retention', interval, () => services.changes.purgeExpired())) ?? { purged: 0, purgedThrough: 0 },
    };
    schedules.push(
      startPurgeSchedule(leasedPurge, {
        intervalMs: jobs.pollIntervalMs(interval),
        firstDelayMs: firstDelay(interval),
        onReport: (report) => {
          if (report.trash + report.changes > 0) log.info({ purge: report }, `purged ${report.trash} trashed records and ${report.changes} changes (the log now starts after seq ${report.purgedThrough})`);
        },
        onError: (error) => log.error({ err: error }, 'scheduled purge failed'),
      }),
    );
  }

  schedules.push(
    startRepeatingTask(
      async (signal) => {
        await jobs.runIfDue('index-maintenance', indexMaintenanceIntervalMs, () => services.automaticIndexes.maintain(), signal);
      },
      {
        intervalMs: jobs.pollIntervalMs(indexMaintenanceIntervalMs),
        firstDelayMs: firstDelay(indexMaintenanceIntervalMs),
        onError: (error) => log.error({ err: error }, 'index maintenance failed'),
      },
    ),
  );
  // Which indexes served this process's queries lives in its memory: every process writes its own down.
  const indexUse = setInterval(() => {
    services.automaticIndexes.recordUse().catch((error: unknown) => log.error({ err: error }, 'recording index use failed'));
  }, indexMaintenanceIntervalMs);
  indexUse.unref();

  return {
    /** Stops polling; a job running here stops after the item in hand and hands its lease back. */
    async stop() {
      clearInterval(indexUse);
      jobs.abortAll();
      await Promise.all(schedules.map((schedule) => schedule.stop()));
      await services.automaticIndexes.recordUse().catch((error: unknown) => log.error({ err: error }, 'recording index use failed'));
    },
  };
}
