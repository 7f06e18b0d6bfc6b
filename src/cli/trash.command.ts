import { parseId, printResult, withContainer } from './cli-context.js';
import { defineCommand, defineGroup, usageError } from './command-spec.js';
import { parseAsOf } from './files.command.js';

/** Ids per records/restore call: the most it takes. */
const restoreBatch = 1000;

const restore = defineCommand(
  {
    name: 'records restore',
    synopsis: 'records restore --table ID RECORD_ID... [--json]',
    summary: 'put deleted records back from the trash',
    description: [
      'Puts records back from the trash of a table with their ids, values, attachments and comments (POST /api/table/<id>/records/restore),',
      'each a record.restored change. Prints the restored ids and those not in the trash (never deleted, already restored, or purged',
      'after TABULA_TRASH_DAYS). Exits 1 when any id was not found: the others are restored all the same.',
      "Acts as the owner of the table's account.",
    ].join('\n'),
    options: { table: { type: 'string', value: 'ID', help: 'the table id' } },
    positionals: [['RECORD_ID...', 'the ids of deleted records (see POST /api/table/<id>/records/trash)']],
    variadic: true,
    examples: ['tabula records restore --table 2 1201 1202', 'tabula records restore --table 2 1201 --json'],
  },
  async (values, positionals, spec) => {
    if (!values.table || positionals.length === 0) throw usageError(spec, 'records restore needs --table ID and at least one RECORD_ID');
    const tableId = parseId(values.table, '--table');
    const ids = positionals.map((raw) => parseId(raw, 'RECORD_ID'));
    const answer = { restored: [] as number[], not_found: [] as number[] };
    await withContainer(values.data, async ({ services }) => {
      const actor = await services.records.operatorActor(tableId, false);
      for (let start = 0; start < ids.length; start += restoreBatch) {
        const part = await services.records.restoreRecords(actor, tableId, { ids: ids.slice(start, start + restoreBatch) });
        answer.restored.push(...part.restored);
        answer.not_found.push(...part.not_found);
      }
    });
    if (values.json) printResult(answer, true);
    else process.stdout.write(`restored ${answer.restored.length} records${answer.restored.length > 0 ? ` (${answer.restored.join(', ')})` : ''}\n`);
    // A partial restore is a failure a script should notice; the restored records stay restored.
    if (answer.not_found.length > 0) throw new Error(`not in the trash of table ${tableId}: ${answer.not_found.join(', ')}`);
  },
);

export const runRecords = defineGroup('records', "A table's records from the command line: restoring deleted ones (export and import are top-level commands).", [restore]);

const purge = defineCommand(
  {
    name: 'trash purge',
    synopsis: 'trash purge [--as-of ISO_DATETIME] [--json]',
    summary: 'purge the records deleted more than TABULA_TRASH_DAYS ago, now',
    description: [
      'Removes for good the records deleted more than TABULA_TRASH_DAYS (default 30) days ago, as the server does every',
      'TABULA_PURGE_INTERVAL: their managed files go to the reclaim queue (tabula files pending), their comments and notifications',
      'are deleted. Their ids are never used again. Prints how many records went.',
    ].join('\n'),
    options: { 'as-of': { type: 'string', value: 'ISO_DATETIME', help: 'purge as if it were this moment (UTC without a zone; a date means its midnight)' } },
    examples: ['tabula trash purge', 'tabula trash purge --as-of 2026-06-01T00:00:00Z --json'],
  },
  async (values, _positionals, spec) => {
    const asOf = values['as-of'] === undefined ? undefined : parseAsOf(values['as-of'], spec);
    await withContainer(values.data, async ({ services }) => {
      const purged = await services.records.purgeTrash(asOf);
      if (values.json) printResult({ purged }, true);
      else process.stdout.write(`purged ${purged} records from the trash\n`);
    });
  },
);

export const runTrash = defineGroup('trash', 'Deleted records wait in the trash for TABULA_TRASH_DAYS; purging the expired ones now.', [purge]);
