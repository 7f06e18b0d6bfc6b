import type { SweepReport } from '../modules/files/reclaim.service.js';
import { printResult, printTable, withContainer } from './cli-context.js';
import { parseInstant } from './cli-values.js';
import { defineCommand, defineGroup, usageError, type CommandSpec } from './command-spec.js';

function describeSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function describeSweep(report: SweepReport): string {
  return `deleted ${report.deleted} released files, removed ${report.orphans} orphans, adopted ${report.adopted}, ${report.failed} failed (left for the next sweep)`;
}

const processed = (report: SweepReport) => report.deleted + report.orphans + report.adopted + report.failed;

/** `--as-of`: an ISO date-time (UTC without a zone) or a date (its midnight UTC). */
export function parseAsOf(raw: string, spec: CommandSpec): Date {
  try {
    const asOf = parseInstant(raw, '--as-of');
    if (asOf) return asOf;
  } catch (error) {
    throw usageError(spec, (error as Error).message);
  }
  throw usageError(spec, `--as-of must be an ISO date-time such as 2024-06-01T00:00:00Z, got ${JSON.stringify(raw)}`);
}

const pending = defineCommand(
  {
    name: 'files pending',
    synopsis: 'files pending [--json]',
    summary: 'list managed files waiting in the 30-day reclaim window',
    description: 'Lists the managed files released by record, field, table or space deletions that wait 30 days before their storage is reclaimed.',
    options: {},
    examples: ['tabula files pending'],
  },
  async (values) => {
    await withContainer(values.data, async ({ services }) => {
      const files = await services.reclaim.listPending();
      if (values.json) return printResult({ files }, true);
      if (files.length === 0) {
        process.stdout.write('no files waiting for reclaim\n');
        return;
      }
      printTable(
        ['PATH', 'NAME', 'SIZE', 'SPACE', 'RELEASED AT', 'RECLAIM AFTER'],
        files.map((file) => [file.path, file.name, describeSize(file.size), file.space_id, file.released_at, file.reclaim_after]),
      );
    });
  },
);

const restore = defineCommand(
  {
    name: 'files restore',
    synopsis: 'files restore PATH [--json]',
    summary: 'take a file out of the reclaim queue',
    description: 'Takes a file out of the reclaim queue and prints its attachment object, to write to a file field of a record in its space again.',
    options: {},
    positionals: [['PATH', 'the path of a file waiting for reclaim, as `tabula files pending` shows it']],
    examples: ['tabula files restore /s1/0123456789abcdef0123456789abcdef-report.pdf --json'],
  },
  async (values, positionals, spec) => {
    const path = positionals[0];
    if (!path) throw usageError(spec, 'files restore needs the PATH of a file waiting for reclaim (see tabula files pending)');
    await withContainer(values.data, async ({ services }) => {
      const { attachment, spaceId } = await services.reclaim.restore(path);
      if (values.json) return printResult(attachment, true);
      process.stdout.write(`restored ${attachment.path}; write this attachment object to a file field of a record in space ${spaceId} to attach it again:\n${JSON.stringify(attachment)}\n`);
    });
  },
);

const sweep = defineCommand(
  {
    name: 'files sweep',
    synopsis: 'files sweep [--as-of ISO_DATETIME] [--json]',
    summary: 'run the reclaim sweep now',
    description: 'Deletes the stored files whose 30-day window has ended, as the server does on its schedule. Exits 1 if some could not be deleted (they stay for the next sweep).',
    options: { 'as-of': { type: 'string', value: 'ISO_DATETIME', help: 'sweep as if it were this moment (UTC without a zone; a date means its midnight)' } },
    examples: ['tabula files sweep', 'tabula files sweep --as-of 2024-06-01T00:00:00Z --json'],
  },
  async (values, _positionals, spec) => {
    const asOf = values['as-of'] === undefined ? undefined : parseAsOf(values['as-of'], spec);
    await withContainer(values.data, async ({ services }) => {
      const report = await services.reclaim.sweep({
        asOf,
        // A line per batch once a run is long enough to have several.
        onProgress: (sofar) => {
          if (processed(sofar) >= 100) process.stderr.write(`swept ${processed(sofar)} files…\n`);
        },
        onFailure: (file, error) => process.stderr.write(`could not reclaim ${file.path}: ${error instanceof Error ? error.message : String(error)}\n`),
      });
      if (values.json) printResult(report, true);
      else process.stdout.write(`${describeSweep(report)}\n`);
      // Files left for the next sweep are a failure a cron job should notice: exit 1.
      if (report.failed > 0) throw new Error(`${report.failed} files could not be reclaimed; they stay for the next sweep`);
    });
  },
);

export const runFiles = defineGroup('files', 'The reclaim queue of released managed files: what waits, putting one back, and sweeping now.', [pending, restore, sweep]);
