import type { DdlProgress } from '../db/database.js';
import type { IndexObject } from '../modules/tables/index-objects.js';
import { parseId, printResult, printTable, splitList, withContainer } from './cli-context.js';
import { defineCommand, defineGroup, usageError } from './command-spec.js';

const table = { type: 'string', value: 'ID', help: 'the table id (as `GET /api/table/<id>/get` and the tables list show it)' } as const;

function describeFields(index: IndexObject): string {
  return index.fields.map((slug, i) => (i === index.fields.length - 1 && index.direction ? `${slug} ${index.direction}` : slug)).join(', ');
}

/** One line every two seconds of a long build: PostgreSQL's phase and blocks, SQLite's elapsed time. */
function printProgress(progress: DdlProgress): void {
  const seconds = Math.round(progress.elapsedMs / 1000);
  const share = progress.total ? ` ${Math.floor((100 * (progress.done ?? 0)) / progress.total)}% of ${progress.total} blocks` : '';
  process.stderr.write(`building… ${seconds} s${progress.phase ? `, ${progress.phase}` : ''}${share}\n`);
}

const list = defineCommand(
  {
    name: 'indexes list',
    synopsis: 'indexes list --table ID [--json]',
    summary: "list a table's indexes with their origin",
    description: 'Lists the indexes of a table: made by hand, by a calendar view, for a saved view, or automatically for a repeated query (with the shape that asked for it).',
    options: { table },
    examples: ['tabula indexes list --table 2', 'tabula indexes list --table 2 --json'],
  },
  async (values, _positionals, spec) => {
    if (!values.table) throw usageError(spec, 'indexes list needs --table ID');
    const tableId = parseId(values.table, '--table');
    await withContainer(values.data, async ({ services }) => {
      const indexes = await services.indexes.operator.listIndexes(tableId);
      if (values.json) return printResult({ indexes }, true);
      if (indexes.length === 0) return void process.stdout.write(`table ${tableId} has no indexes\n`);
      printTable(
        ['NAME', 'FIELDS', 'ORIGIN', 'CREATED AT', 'LAST USED AT', 'REASON'],
        indexes.map((index) => [index.name, describeFields(index), index.origin, index.created_at, index.last_used_at, index.reason]),
      );
    });
  },
);

const create = defineCommand(
  {
    name: 'indexes create',
    synopsis: 'indexes create --table ID --fields a,b [--direction asc|desc] [--name N] [--json]',
    summary: 'build an index on fields of a table',
    description: [
      'Builds an index on 1 to 4 fields and prints it once built. Without --direction every field is indexed as stored',
      '(equality on the leading fields, equality or a range on the last); with one, the last field is the sort.',
      'PostgreSQL builds concurrently (writes go on); SQLite builds in a worker thread (reads go on, writes wait).',
      'A build longer than two seconds prints its progress on stderr.',
    ].join('\n'),
    options: {
      table,
      fields: { type: 'string', value: 'a,b', help: 'field slugs (created_at and updated_at too), equality fields first and the sort or range field last' },
      direction: { type: 'string', value: 'asc|desc', help: 'the last field is the sort, in this direction' },
      name: { type: 'string', value: 'N', help: 'the index name (default idx_<fields>[_<direction>])' },
    },
    examples: [
      'tabula indexes create --table 2 --fields stage,amount --direction desc',
      'tabula indexes create --table 2 --fields stage,created_at --direction desc',
      'tabula indexes create --table 2 --fields due --name by_due --json',
    ],
  },
  async (values, _positionals, spec) => {
    if (!values.table || !values.fields) throw usageError(spec, 'indexes create needs --table ID and --fields');
    const tableId = parseId(values.table, '--table');
    const body = { fields: splitList(values.fields, '--fields'), ...(values.direction ? { direction: values.direction } : {}), ...(values.name ? { name: values.name } : {}) };
    await withContainer(values.data, async ({ services }) => {
      const started = Date.now();
      const index = await services.indexes.operator.createIndex(tableId, body, printProgress);
      if (values.json) return printResult(index, true);
      process.stdout.write(`built ${index.name} on ${describeFields(index)} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    });
  },
);

const remove = defineCommand(
  {
    name: 'indexes delete',
    synopsis: 'indexes delete --table ID NAME [--json]',
    summary: 'drop an index',
    description: "Drops an index of a table. A calendar view's index (idx_layout_<field>) stays while the view uses it.",
    options: { table },
    positionals: [['NAME', 'the index name, as `tabula indexes list` shows it']],
    examples: ['tabula indexes delete --table 2 idx_stage_amount_desc'],
  },
  async (values, positionals, spec) => {
    if (!values.table || !positionals[0]) throw usageError(spec, 'indexes delete needs --table ID and the index NAME');
    const tableId = parseId(values.table, '--table');
    await withContainer(values.data, async ({ services }) => {
      const result = await services.indexes.operator.deleteIndex(tableId, positionals[0]);
      if (values.json) return printResult(result, true);
      process.stdout.write(`dropped ${result.name}\n`);
    });
  },
);

export const runIndexes = defineGroup('indexes', "A table's indexes: list them with their origin, build one, drop one.", [list, create, remove]);
