import fs from 'node:fs';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { SingleBar } from 'cli-progress';
import type { Services } from '../container.js';
import type { Actor } from '../modules/auth/actor.js';
import { AppError } from '../shared/errors.js';
import { convertRow, mapColumns, rejectedIndex, RowRejected, type ColumnMapping, type ImportField, type TitleIndex } from './csv-import.js';
import { parseId, splitList, UsageError, withContainer } from './cli-context.js';
import { defineCommand, usageError } from './command-spec.js';
import { writeWithBackpressure } from './records-export.command.js';

/** Records per create_batch / upsert_batch call: the batch endpoints' limit. */
const batchSize = 1000;
/** Without a terminal, a line every this many rows. */
const progressEvery = 10_000;

interface PendingRow {
  cells: string[];
  data: Record<string, unknown>;
}

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
    synopsis: 'import --table ID FILE.csv [--map "Column=slug,…"] [--upsert slug,…] [--rejects FILE]',
    summary: 'add (or upsert) records from a CSV file',
    description: [
      'Reads a CSV file with a header row and writes its rows as records, 1,000 per create_batch (or upsert_batch with --upsert).',
      'Columns go to fields by slug or name (case-insensitive), or as --map says; other columns are reported and ignored, and so are file fields.',
      'Cells: empty = null; numbers; checkbox true/false, yes/no, 1/0; select values and users (e-mail) as is, several split on commas;',
      'lookups by the target record\'s title or id; dates, datetimes and the rest as the write API takes them.',
      'A row refused (by its conversion or by the API) goes to the rejects file with its reason, and the rest of its batch is written.',
      'Acts as the owner of the table\'s account. Progress on stderr; a summary on stdout.',
    ].join('\n'),
    options: {
      table: { type: 'string', value: 'ID', help: 'the table id' },
      map: { type: 'string', value: '"Column=slug,…"', help: 'which column goes to which field (every other column is ignored)' },
      upsert: { type: 'string', value: 'slug,…', help: 'update the record matching these fields (upsert_batch match_on) instead of adding one' },
      rejects: { type: 'string', value: 'FILE', help: 'write refused rows there, each with a reason column' },
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
    if (!fs.existsSync(file)) throw new UsageError(`no such file: ${file}`);
    await withContainer(values.data, async ({ services }) => {
      const actor = await services.records.operatorActor(tableId, false);
      const table = (await services.tables.getTable(actor, tableId)) as unknown as { fields: ImportField[] };
      const input = fs.createReadStream(file).pipe(parse({ bom: true, relax_column_count: true }));
      const rejects = values.rejects ? fs.createWriteStream(values.rejects) : undefined;
      const bar = process.stderr.isTTY ? new SingleBar({ stream: process.stderr, format: 'importing [{bar}] {percentage}% {rows} rows' }) : undefined;
      const totalBytes = fs.statSync(file).size;
      let header: string[] | undefined;
      let mapping: ColumnMapping | undefined;
      const titles = new Map<string, TitleIndex>();
      let [read, imported, updated, rejected, reported] = [0, 0, 0, 0, 0];
      let batch: PendingRow[] = [];

      const reject = async (cells: readonly string[], reason: string) => {
        rejected += 1;
        if (rejects) await writeWithBackpressure(rejects, stringify([[...cells, reason]]));
        else if (rejected <= 10) process.stderr.write(`rejected: ${reason}\n`);
      };
      const countTable = async () => (await services.records.countRecords(actor, tableId, {})).total;

      /** Writes the batch; a refused record is rejected and the rest sent again, so a batch is written whole or not at all. */
      const flush = async () => {
        while (batch.length > 0) {
          const records = batch.map((row) => ({ data: row.data }));
          try {
            if (matchOn) {
              const before = await countTable();
              await services.records.upsertBatch(actor, tableId, { match_on: matchOn, records });
              const created = (await countTable()) - before;
              imported += created;
              updated += records.length - created;
            } else {
              imported += (await services.records.createBatch(actor, tableId, { records })).length;
            }
            batch = [];
          } catch (error) {
            const index = error instanceof AppError ? rejectedIndex(error.message) : undefined;
            if (index === undefined || index >= batch.length) throw error;
            const [row] = batch.splice(index, 1);
            await reject(row.cells, (error as Error).message.replace(/^records\[\d+\]: /, ''));
          }
        }
        if (bar) bar.update(input.info.bytes, { rows: read });
        else if (Math.floor(read / progressEvery) > Math.floor(reported / progressEvery)) process.stderr.write(`… ${(reported = read)} rows read\n`);
      };

      bar?.start(totalBytes, 0, { rows: 0 });
      try {
        for await (const cells of input as AsyncIterable<string[]>) {
          if (!header) {
            header = cells;
            mapping = mapColumns(header, table.fields, values.map);
            if (mapping.ignored.length > 0) process.stderr.write(`ignored columns: ${mapping.ignored.join('; ')}\n`);
            for (const field of mapping.targets) if (field?.type === 'lookup' && field.table_id !== undefined) titles.set(field.id, await indexTitles(services, actor, field.table_id));
            if (rejects) await writeWithBackpressure(rejects, stringify([[...header, 'reason']]));
            continue;
          }
          read += 1;
          try {
            batch.push({ cells, data: convertRow(cells, mapping!, titles) });
          } catch (error) {
            if (!(error instanceof RowRejected)) throw error;
            await reject(cells, error.message);
          }
          if (batch.length === batchSize) await flush();
        }
        await flush();
      } finally {
        bar?.stop();
        if (rejects) await new Promise<void>((resolve) => rejects.end(resolve));
      }
      const ignored = mapping && mapping.ignored.length > 0 ? `; ignored columns: ${mapping.ignored.join('; ')}` : '';
      const where = rejected > 0 ? (values.rejects ? ` (see ${values.rejects})` : ' (rerun with --rejects FILE to keep them)') : '';
      process.stdout.write(`imported ${imported}, updated ${updated}, rejected ${rejected}${where}${ignored}\n`);
    });
  },
);
