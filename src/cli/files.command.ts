import type { SweepReport } from '../modules/files/reclaim.service.js';
import { expectPositionals, parseCommandArgs, printResult, printUsage, UsageError, wantsHelp, withContainer } from './cli-context.js';

const usage = [
  'usage: tabula files pending [--json]',
  '       tabula files restore PATH [--json]',
  '       tabula files sweep [--as-of ISO_DATETIME] [--json]',
].join('\n');

/**
 * `--as-of`: an ISO 8601 date-time (`2024-06-01T00:00:00Z`, or without a zone: UTC, as every
 * datetime of the service), or a date alone (its midnight UTC).
 */
export function parseAsOf(raw: string): Date {
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/.exec(raw.trim());
  if (!match) throw new UsageError(`--as-of must be an ISO date-time such as 2024-06-01T00:00:00Z, got ${JSON.stringify(raw)}\n${usage}`);
  const [, date, time = '00:00:00', zone = 'Z'] = match;
  const parsed = new Date(`${date}T${time}${zone}`);
  // Date accepts 2024-02-31 and rolls it over; an operator typing that meant something else.
  if (Number.isNaN(parsed.getTime()) || new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date) {
    throw new UsageError(`--as-of is not a real date-time: ${JSON.stringify(raw)}\n${usage}`);
  }
  return parsed;
}

function describeSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Columns padded to their widest cell; the last one is not padded. */
function printTable(rows: string[][]): void {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows) process.stdout.write(`${row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]))).join('  ')}\n`);
}

export function describeSweep(report: SweepReport): string {
  return `deleted ${report.deleted} released files, removed ${report.orphans} orphans, adopted ${report.adopted}, ${report.failed} failed (left for the next sweep)`;
}

const processed = (report: SweepReport) => report.deleted + report.orphans + report.adopted + report.failed;

export async function runFiles(args: string[]): Promise<void> {
  const [subcommand, ...rest] = args;
  const { values, positionals } = parseCommandArgs(rest, { 'as-of': { type: 'string' } });
  if (wantsHelp(values, subcommand)) return printUsage(usage);
  if (values['as-of'] !== undefined && subcommand !== 'sweep') throw new UsageError(`--as-of is for files sweep\n${usage}`);
  switch (subcommand) {
    case 'pending':
      expectPositionals(positionals, 0, usage);
      return withContainer(values.data, async ({ services }) => {
        const files = await services.reclaim.listPending();
        if (values.json) return printResult({ files }, true);
        if (files.length === 0) {
          process.stdout.write('no files waiting for reclaim\n');
          return;
        }
        printTable([
          ['PATH', 'NAME', 'SIZE', 'SPACE', 'RELEASED AT', 'RECLAIM AFTER'],
          ...files.map((file) => [file.path, file.name, describeSize(file.size), String(file.space_id), file.released_at ?? '', file.reclaim_after ?? '']),
        ]);
      });
    case 'restore': {
      expectPositionals(positionals, 1, usage);
      const path = positionals[0];
      if (!path) throw new UsageError(`files restore needs the PATH of a file waiting for reclaim (see tabula files pending)\n${usage}`);
      return withContainer(values.data, async ({ services }) => {
        const { attachment, spaceId } = await services.reclaim.restore(path);
        if (values.json) return printResult(attachment, true);
        process.stdout.write(`restored ${attachment.path}; write this attachment object to a file field of a record in space ${spaceId} to attach it again:\n${JSON.stringify(attachment)}\n`);
      });
    }
    case 'sweep': {
      expectPositionals(positionals, 0, usage);
      const asOf = values['as-of'] === undefined ? undefined : parseAsOf(values['as-of']);
      return withContainer(values.data, async ({ services }) => {
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
    }
    default:
      throw new UsageError(usage);
  }
}
