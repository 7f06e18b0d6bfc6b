import fs from 'node:fs';
import { SingleBar } from 'cli-progress';
import type { Services } from '../container.js';
import type { Actor } from '../modules/auth/actor.js';
import type { ImportUnit } from '../modules/records/records.service.js';
import { AppError } from '../shared/errors.js';
import { convertRow, HeaderRefused, mapColumns, rejectedIndex, RowRejected, type ImportField, type TitleIndex } from './csv-import.js';
import { CsvSyntaxError, lineOf, readCsvRows, type CsvRow } from './csv-rows.js';
import { ImportReport } from './import-report.js';
import { CommandFailed, parseId, splitList, UsageError, withContainer } from './cli-context.js';
import { defineCommand, usageError } from './command-spec.js';

/** Records per create_batch / upsert_batch call: the batch endpoints' limit. */
const batchSize = 1000;
/** Without a terminal, a line every this many rows. */
const progressEvery = 10_000;

interface PendingRow {
  row: CsvRow;
  data: Record<string, unknown>;
}

/** Exit code of an import written without the rows it rejected (`--skip-rejected`); 1 is "nothing written". */
const exitSkippedRows = 3;

/** Thrown inside the import unit to roll it back once every row has been seen: rows were rejected. */
class RowsRejected extends Error {}

/** Every title of a lookup's target table → its record id, read through the export path. */
async function indexTitles(services: Services, actor: Actor, tableId: number): Promise<TitleIndex> {
  const titles: TitleIndex = new Map();
  const exported = await services.records.exportRecords(actor, tableId, { format: 'json', fields: [] });
  for await (const page of exported.pages) {
    for (const record of page) {
      if (record.title === null || record.title === '') continue;
      titles.set(record.title, titles.has(record.title) ? undefined : record.id);
    }
  }
  return titles;
}

export const runImport = defineCommand(
  {
    name: 'import',
    synopsis: 'import --table ID FILE.csv [--map "Column=slug,…"] [--ignore-unknown] [--upsert slug,…] [--skip-rejected] [--rejects FILE] [--formulas escape|raw]',
    summary: 'add (or upsert) records from a CSV file, all or nothing',
    description: [
      'Reads a CSV file with a header row and writes its rows as records through create_batch (or upsert_batch with --upsert), 1,000 at a time,',
      'all in one transaction: the table changes only if the whole file was read and every row accepted (or, with --skip-rejected, every other row).',
      'A file that is not valid CSV, even at its last line, writes nothing.',
      'Columns go to fields by slug or name (case-insensitive), or as --map says (then every other column is ignored).',
      'A column that names no field refuses the file before anything is written (the message lists the fields), unless --ignore-unknown;',
      "the columns an export adds (id, created_at, updated_at) are skipped, and so are file fields.",
      'A row with more or fewer cells than the header, or whose values are refused, is rejected with its line number.',
      'Cells: empty = null; numbers; checkbox true/false, yes/no, 1/0; select values and users (e-mail) as is, several split on commas;',
      "lookups by the target record's title or id; dates, datetimes and the rest as the write API takes them.",
      "A text cell that starts with ' followed by = + - @, a tab or a carriage return has that ' taken off (tabula export puts it there); --formulas raw keeps cells as they are.",
      'Always prints a summary on stdout: imported N, updated M, rejected K (then "; nothing written" if so), then each rejected row as "line L: reason".',
      `Exit code: 0 every row written; 1 nothing written (a refused header, a syntax error, a rejected row, any failure); 2 a wrong command line; ${exitSkippedRows} written without the rejected rows (--skip-rejected).`,
      "On SQLite the import holds the database's one write lock until it ends (docs/operations.md). Acts as the owner of the table's account.",
    ].join('\n'),
    options: {
      table: { type: 'string', value: 'ID', help: 'the table id' },
      map: { type: 'string', value: '"Column=slug,…"', help: 'which column goes to which field (every other column is ignored)' },
      'ignore-unknown': { type: 'boolean', help: 'skip columns that name no field instead of refusing the file' },
      upsert: { type: 'string', value: 'slug,…', help: 'update the record matching these fields (upsert_batch match_on) instead of adding one' },
      'skip-rejected': { type: 'boolean', help: 'write the accepted rows even if some are rejected (exit code 3) instead of writing nothing' },
      rejects: { type: 'string', value: 'FILE', help: 'write the rejected rows there, each with its line and reason in a last column' },
      formulas: { type: 'string', value: 'escape|raw', help: "escape (default): take off the ' an export puts before text a spreadsheet would run; raw: cells as they are" },
    },
    positionals: [['FILE.csv', 'the CSV file, with a header row']],
    json: false,
    examples: ['tabula import --table 2 contacts.csv --rejects rejected.csv', 'tabula import --table 2 contacts.csv --map "E-mail=email,Full name=name" --upsert email'],
  },
  async (values, positionals, spec) => {
    if (!values.table || !positionals[0]) throw usageError(spec, 'import needs --table ID and the CSV FILE');
    const tableId = parseId(values.table, '--table');
    const file = positionals[0];
    const matchOn = splitList(values.upsert, '--upsert');
    const formulas = values.formulas ?? 'escape';
    if (formulas !== 'escape' && formulas !== 'raw') throw usageError(spec, `--formulas must be escape or raw, got ${JSON.stringify(formulas)}`);
    if (!fs.existsSync(file)) throw new UsageError(`no such file: ${file}`);
    const options: ImportOptions = { tableId, file, matchOn, map: values.map, ignoreUnknown: values['ignore-unknown'] === true, skipRejected: values['skip-rejected'] === true, restoreFormulas: formulas === 'escape' };
    const report = new ImportReport(values.rejects);
    let written = false;
    try {
      await withContainer(values.data, async ({ services }) => importFile(services, options, report));
      written = true;
    } catch (error) {
      if (error instanceof RowsRejected) {
        const [count, accepted] = [report.rejected, report.created + report.updated];
        throw new CommandFailed(`${count} row${count > 1 ? 's' : ''} rejected, so nothing was written (an import is all or nothing): fix ${count > 1 ? 'them' : 'it'} and run the import again${accepted > 0 ? `, or pass --skip-rejected to write the other ${accepted}` : ''}`, 1);
      }
      if (error instanceof HeaderRefused || error instanceof CsvSyntaxError) throw new CommandFailed(`${error.message}; nothing was written`, 1);
      throw error;
    } finally {
      await report.close();
      // Always a summary, also when nothing was written.
      report.print(written);
    }
    if (report.rejected > 0) throw new CommandFailed(`${report.rejected} row${report.rejected > 1 ? 's' : ''} rejected and skipped (--skip-rejected); the others were written`, exitSkippedRows);
  },
);

interface ImportOptions {
  tableId: number;
  file: string;
  matchOn: string[] | undefined;
  map: string | undefined;
  ignoreUnknown: boolean;
  skipRejected: boolean;
  restoreFormulas: boolean;
}

/**
 * The header checked and mapped before anything is written, then every row through one import
 * unit (records.service): it commits if `work` ends, and throws `RowsRejected` to roll back.
 */
async function importFile(services: Services, options: ImportOptions, report: ImportReport): Promise<void> {
  const { tableId, file, matchOn } = options;
  const actor = await services.records.operatorActor(tableId, false);
  const table = (await services.tables.getTable(actor, tableId)) as unknown as { fields: ImportField[] };
  const { rows, parser } = readCsvRows(file);
  const bar = process.stderr.isTTY ? new SingleBar({ stream: process.stderr, format: 'importing [{bar}] {percentage}% {rows} rows' }) : undefined;
  let [read, reported] = [0, 0];
  try {
    const iterator = rows[Symbol.asyncIterator]();
    const first = await iterator.next();
    if (first.done) throw new HeaderRefused('the file is empty: it needs a header row');
    const header = first.value.cells;
    const mapping = mapColumns(header, table.fields, options.map, options.ignoreUnknown);
    report.ignored = mapping.ignored;
    const missing = matchOn?.filter((slug) => !mapping.targets.some((field) => field?.id === slug));
    if (missing?.length) throw new HeaderRefused(`--upsert ${missing.join(', ')}: the header (line 1) has no column for ${missing.length > 1 ? 'these fields' : 'this field'}`);
    if (mapping.ignored.length > 0) process.stderr.write(`ignored columns: ${mapping.ignored.join('; ')}\n`);
    // Read before the unit starts: within it, every statement runs on its transaction.
    const titles = new Map<string, TitleIndex>();
    for (const field of mapping.targets) if (field?.type === 'lookup' && field.table_id !== undefined) titles.set(field.id, await indexTitles(services, actor, field.table_id));
    await report.start(header);
    bar?.start(fs.statSync(file).size, 0, { rows: 0 });
    const onProgress = () => {
      if (bar) bar.update(parser.info.bytes, { rows: read });
      else if (Math.floor(read / progressEvery) > Math.floor(reported / progressEvery)) process.stderr.write(`… ${(reported = read)} rows read\n`);
    };
    await services.records.importAsOneUnit(actor, tableId, async (unit) => {
      const writer = batchWriter(unit, matchOn, report);
      for await (const row of { [Symbol.asyncIterator]: () => iterator }) {
        read += 1;
        const width = row.cells.length;
        if (width !== header.length) {
          await report.reject(lineOf(row), row.cells, `${width} cell${width === 1 ? '' : 's'} where the header has ${header.length}`);
          continue;
        }
        try {
          await writer.add({ row, data: convertRow(row.cells, mapping, titles, options.restoreFormulas) }, onProgress);
        } catch (error) {
          if (!(error instanceof RowRejected)) throw error;
          await report.reject(lineOf(row), row.cells, error.message);
        }
      }
      await writer.flush(onProgress);
      if (report.rejected > 0 && !options.skipRejected) throw new RowsRejected();
    });
  } finally {
    bar?.stop();
    parser.destroy();
  }
}

/**
 * Rows to the unit a batch of 1,000 at a time. A record refused by the batch's checks (which
 * write nothing) is rejected and the rest sent again, so each batch goes in whole.
 */
function batchWriter(unit: ImportUnit, matchOn: string[] | undefined, report: ImportReport) {
  let batch: PendingRow[] = [];
  const flush = async (onProgress: () => void) => {
    while (batch.length > 0) {
      const records = batch.map((pending) => ({ data: pending.data }));
      try {
        if (matchOn) {
          const { created, updated } = await unit.upsert({ match_on: matchOn, records });
          report.created += created;
          report.updated += updated;
        } else {
          report.created += await unit.create({ records });
        }
        batch = [];
      } catch (error) {
        const index = error instanceof AppError ? rejectedIndex(error.message) : undefined;
        if (index === undefined || index >= batch.length) throw error;
        const [refused] = batch.splice(index, 1);
        await report.reject(lineOf(refused.row), refused.row.cells, (error as Error).message.replace(/^records\[\d+\]: /, ''));
      }
    }
    onProgress();
  };
  return {
    flush,
    async add(pending: PendingRow, onProgress: () => void) {
      batch.push(pending);
      if (batch.length === batchSize) await flush(onProgress);
    },
  };
}
