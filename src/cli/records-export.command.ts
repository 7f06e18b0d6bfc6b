import fs from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { SingleBar } from 'cli-progress';
import { exportText } from '../modules/records/record-export.js';
import type { RecordObject } from '../modules/records/record-reader.js';
import { parseId, withContainer } from './cli-context.js';
import { defineCommand, usageError } from './command-spec.js';

/** Writes `text` to `out`, waiting while its buffer is full: a slow disk or pipe holds the export back. */
export async function writeWithBackpressure(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

export const runExport = defineCommand(
  {
    name: 'export',
    synopsis: 'export --table ID [--format csv|json] [--view ID] [--formulas escape|raw] [--out FILE]',
    summary: "a table's records as CSV or JSON",
    description: [
      'Writes every record of a table (or of a saved view: its filters and order) as CSV, one flattened row per record,',
      'or as a JSON array of record objects, exactly what POST /api/table/<id>/records/export answers (docs/api.md).',
      'A CSV text cell that a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage return) is written',
      "with a ' before it (numbers stay numbers); tabula import takes it off again. --formulas raw writes every cell as stored.",
      'Streamed 100 records at a time. Acts as the owner of the table\'s account, read-only.',
      'Writes to stdout unless --out; with --out on a terminal, a progress bar on stderr; the last line says how many were exported',
      '(on stdout with --out, on stderr otherwise).',
    ].join('\n'),
    options: {
      table: { type: 'string', value: 'ID', help: 'the table id' },
      format: { type: 'string', value: 'csv|json', help: 'csv (default) or json' },
      view: { type: 'string', value: 'ID', help: "a saved view of the table: its filters and order" },
      formulas: { type: 'string', value: 'escape|raw', help: "CSV: escape (default) puts a ' before text a spreadsheet would run as a formula; raw writes it as stored" },
      out: { type: 'string', value: 'FILE', help: 'write to this file instead of stdout' },
    },
    json: false,
    examples: ['tabula export --table 2 > contacts.csv', 'tabula export --table 2 --view 5 --format json --out leads.json'],
  },
  async (values, _positionals, spec) => {
    if (!values.table) throw usageError(spec, 'export needs --table ID');
    const tableId = parseId(values.table, '--table');
    const format = values.format ?? 'csv';
    if (format !== 'csv' && format !== 'json') throw usageError(spec, `--format must be csv or json, got ${JSON.stringify(format)}`);
    const formulas = values.formulas ?? 'escape';
    if (formulas !== 'escape' && formulas !== 'raw') throw usageError(spec, `--formulas must be escape or raw, got ${JSON.stringify(formulas)}`);
    const body = { format, formulas, ...(values.view ? { view_id: parseId(values.view, '--view') } : {}) };
    await withContainer(values.data, async ({ services }) => {
      const actor = await services.records.operatorActor(tableId, true);
      const exported = await services.records.exportRecords(actor, tableId, body);
      const out: Writable = values.out ? fs.createWriteStream(values.out) : process.stdout;
      const bar = values.out && process.stderr.isTTY ? new SingleBar({ stream: process.stderr, format: 'exporting [{bar}] {value}/{total} records' }) : undefined;
      bar?.start(exported.total, 0);
      let written = 0;
      async function* counted(): AsyncGenerator<RecordObject[]> {
        for await (const page of exported.pages) {
          yield page;
          written += page.length;
          bar?.update(written);
        }
      }
      try {
        for await (const text of exportText({ ...exported, pages: counted() })) await writeWithBackpressure(out, text);
      } finally {
        bar?.stop();
        if (values.out) await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
      }
      (values.out ? process.stdout : process.stderr).write(`exported ${written} records\n`);
    });
  },
);
