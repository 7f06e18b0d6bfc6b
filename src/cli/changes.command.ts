import { once } from 'node:events';
import { parseId, printResult, withContainer } from './cli-context.js';
import { defineCommand, defineGroup, usageError } from './command-spec.js';
import { parseAsOf } from './files.command.js';

/** Changes read per call: the most changes/list answers. */
const pageSize = 1000;
/** With --follow, how long the tail waits before asking again once it has caught up. */
const followIntervalMs = 1000;

/** A non-negative integer `--after`: the last seq already seen (0: from the start of the log). */
function parseSeq(raw: string): number | undefined {
  const seq = Number(raw);
  return /^\d+$/.test(raw.trim()) && Number.isSafeInteger(seq) ? seq : undefined;
}

const tail = defineCommand(
  {
    name: 'changes tail',
    synopsis: 'changes tail --table ID [--after SEQ] [--follow]',
    summary: "print a table's changes, one JSON change a line",
    description: [
      "Prints the table's changes in seq order, one JSON change per line on stdout (the objects of POST /api/table/<id>/changes/list,",
      'docs/api.md), read 1,000 at a time until it has caught up. Without --follow it then exits 0; with --follow it asks again every',
      'second and prints what was committed since, until interrupted (Ctrl-C, SIGTERM: exit 0).',
      'To resume, pass the seq of the last line printed as --after. A cursor older than the retained log (TABULA_CHANGES_DAYS)',
      'has missed changes: the tail says so on stderr and goes on from the oldest change still kept.',
      "Acts as the owner of the table's account, read-only.",
    ].join('\n'),
    options: {
      table: { type: 'string', value: 'ID', help: 'the table id' },
      after: { type: 'string', value: 'SEQ', help: 'print only the changes after this seq (default 0: every change the log keeps)' },
      follow: { type: 'boolean', help: 'keep printing new changes as they are committed, until interrupted' },
    },
    json: false,
    examples: ['tabula changes tail --table 2', 'tabula changes tail --table 2 --after 1530 --follow | jq -c "select(.kind == \\"record.deleted\\")"'],
  },
  async (values, _positionals, spec) => {
    if (!values.table) throw usageError(spec, 'changes tail needs --table ID');
    const tableId = parseId(values.table, '--table');
    let after = 0;
    if (values.after !== undefined) {
      const seq = parseSeq(values.after);
      if (seq === undefined) throw usageError(spec, `--after must be a change seq (an integer of 0 or more), got ${JSON.stringify(values.after)}`);
      after = seq;
    }
    await withContainer(values.data, async ({ services }) => {
      const actor = await services.records.operatorActor(tableId, true);
      // The first read checks the table (400 Invalid Table) before anything is said about the log.
      let page = JSON.parse(await services.changes.listChanges(actor, tableId, { after, limit: pageSize })) as { changes: unknown[]; next_after: number };
      const purgedThrough = await services.changes.purgedThrough();
      if (values.after !== undefined && after < purgedThrough) process.stderr.write(`tabula changes tail: the changes up to seq ${purgedThrough} were purged by retention (TABULA_CHANGES_DAYS); going on from the oldest change kept\n`);

      let stopped = false;
      let wake: (() => void) | undefined;
      const stop = () => {
        stopped = true;
        wake?.();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      // A reader that went away (`| head`): stop quietly, as `tail` does.
      process.stdout.once('error', stop);
      try {
        for (;;) {
          if (page.changes.length > 0) {
            const text = page.changes.map((change) => `${JSON.stringify(change)}\n`).join('');
            if (!process.stdout.write(text)) await Promise.race([once(process.stdout, 'drain'), once(process.stdout, 'error')]);
          }
          after = page.next_after;
          if (stopped) return;
          if (page.changes.length < pageSize) {
            if (!values.follow) return;
            await new Promise<void>((resolve) => {
              wake = resolve;
              setTimeout(resolve, followIntervalMs);
            });
            wake = undefined;
            if (stopped) return;
          }
          page = JSON.parse(await services.changes.listChanges(actor, tableId, { after, limit: pageSize })) as typeof page;
        }
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
    });
  },
);

const purge = defineCommand(
  {
    name: 'changes purge',
    synopsis: 'changes purge [--as-of ISO_DATETIME] [--json]',
    summary: 'remove the changes older than TABULA_CHANGES_DAYS now',
    description: [
      'Removes the changes made more than TABULA_CHANGES_DAYS (default 30) days ago, oldest first, 10,000 per transaction, as the',
      'server does every TABULA_PURGE_INTERVAL. A client whose cursor is older than what is left gets a resync from the streams.',
      'Prints how many went and purged_through, the highest seq removed so far.',
    ].join('\n'),
    options: { 'as-of': { type: 'string', value: 'ISO_DATETIME', help: 'purge as if it were this moment (UTC without a zone; a date means its midnight)' } },
    examples: ['tabula changes purge', 'tabula changes purge --as-of 2026-06-01 --json'],
  },
  async (values, _positionals, spec) => {
    const asOf = values['as-of'] === undefined ? undefined : parseAsOf(values['as-of'], spec);
    await withContainer(values.data, async ({ services }) => {
      const report = await services.changes.purgeExpired(asOf);
      if (values.json) printResult({ purged: report.purged, purged_through: report.purgedThrough }, true);
      else process.stdout.write(`purged ${report.purged} changes; the log now starts after seq ${report.purgedThrough}\n`);
    });
  },
);

export const runChanges = defineGroup('changes', "The change log: a table's changes as JSON lines, and its retention.", [tail, purge]);
