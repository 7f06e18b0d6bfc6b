import type { Services } from '../container.js';
import type { Actor } from '../modules/auth/actor.js';
import { CommandFailed, parseId, printResult, printTable, splitList, withContainer } from './cli-context.js';
import { defineCommand, defineGroup, usageError } from './command-spec.js';
import { parsePastedRequest, verifyPastedRequest } from './webhook-request.js';

const webhookId = [['ID', 'the webhook id, as `tabula webhooks list` shows it']] as const;

const list = defineCommand(
  {
    name: 'webhooks list',
    synopsis: 'webhooks list [--table ID] [--json]',
    summary: "every webhook (never a secret), with where its delivery stands",
    description: 'Lists the webhooks of every account, or of one table: URL, events, fields, whether active (and why not), the last seq it is done with, and since when it fails.',
    options: { table: { type: 'string', value: 'ID', help: 'only the webhooks of this table' } },
    examples: ['tabula webhooks list', 'tabula webhooks list --table 3 --json'],
  },
  async (values) => {
    const tableId = values.table === undefined ? null : parseId(values.table, '--table');
    await withContainer(values.data, async ({ services }) => {
      const webhooks = await services.webhooks.listForOperator(tableId);
      if (values.json) return printResult({ webhooks }, true);
      printTable(
        ['ID', 'TABLE', 'URL', 'EVENTS', 'FIELDS', 'ACTIVE', 'CURSOR', 'FAILING SINCE'],
        webhooks.map((hook) => [hook.id, hook.table_id, hook.url, hook.events.length === 7 ? 'all' : hook.events.join(','), hook.fields.join(',') || 'any', hook.active ? 'yes' : `no (${hook.disabled_reason ?? 'off'})`, hook.cursor, hook.failing_since]),
      );
    });
  },
);

const create = defineCommand(
  {
    name: 'webhooks create',
    synopsis: 'webhooks create --table ID --url URL [--events KIND,…] [--fields SLUG,…] [--json]',
    summary: 'create a webhook and print its signing secret once',
    description: [
      "Creates a webhook on a table, acting as the table's account owner, and prints its secret (whsec_…) once.",
      'It is sent every change committed from now on (of the listed kinds, touching the listed fields) by the running tabula serve processes.',
    ].join('\n'),
    options: {
      table: { type: 'string', value: 'ID', help: 'the table whose changes are sent' },
      url: { type: 'string', value: 'URL', help: 'where to POST them (http or https; no private address unless TABULA_FETCH_ALLOW_HOSTS names it)' },
      events: { type: 'string', value: 'KIND,…', help: 'record.created, record.updated, record.deleted, record.restored, comment.created, comment.updated, comment.deleted (default: all)' },
      fields: { type: 'string', value: 'SLUG,…', help: 'only changes touching one of these fields (default: any)' },
    },
    examples: ['tabula webhooks create --table 3 --url https://hooks.example.com/tabula --events record.created,record.updated --fields stage'],
  },
  async (values, _positionals, spec) => {
    if (values.table === undefined || values.url === undefined) throw usageError(spec, 'webhooks create needs --table and --url');
    const tableId = parseId(values.table, '--table');
    const body = { url: values.url, events: splitList(values.events, '--events'), fields: splitList(values.fields, '--fields') };
    await withContainer(values.data, async ({ services }) => {
      const actor = await services.records.operatorActor(tableId, false);
      printResult(await services.webhooks.create(actor, tableId, body), values.json);
    });
  },
);

/** Runs `work` as the owner of the webhook's table; a webhook id that no table has is a 404 naming it. */
async function asOperator<T>(data: string | undefined, id: number, work: (services: Services, actor: Actor) => Promise<T>): Promise<T> {
  return withContainer(data, async ({ services }) => {
    const tableId = await services.webhooks.tableOfWebhook(id);
    if (tableId === null) throw new CommandFailed(`Webhook ${id} not found`, 1);
    return work(services, await services.records.operatorActor(tableId, false));
  });
}

const remove = defineCommand(
  {
    name: 'webhooks delete',
    synopsis: 'webhooks delete ID [--json]',
    summary: 'delete a webhook and its delivery log',
    description: 'Deletes a webhook: nothing more is sent to it, and its delivery log goes with it.',
    options: {},
    positionals: webhookId,
    examples: ['tabula webhooks delete 4'],
  },
  async (values, positionals) => {
    const id = parseId(positionals[0], 'webhook id');
    await asOperator(values.data, id, async (services, actor) => printResult(await services.webhooks.delete(actor, id), values.json));
  },
);

const deliveries = defineCommand(
  {
    name: 'webhooks deliveries',
    synopsis: 'webhooks deliveries ID [--limit N] [--json]',
    summary: "a webhook's delivery log, newest first",
    description: 'Prints the attempts to deliver to a webhook, newest first: the change, the attempt, the answer (status and time), the error, and when the next attempt is due.',
    options: { limit: { type: 'string', value: 'N', help: 'how many (1–200, default 50)' } },
    positionals: webhookId,
    examples: ['tabula webhooks deliveries 4 --limit 20'],
  },
  async (values, positionals) => {
    const id = parseId(positionals[0], 'webhook id');
    const limit = values.limit === undefined ? 50 : parseId(values.limit, '--limit');
    await asOperator(values.data, id, async (services, actor) => {
      const log = await services.webhooks.deliveries(actor, id, { limit });
      if (values.json) return printResult({ deliveries: log }, true);
      printTable(
        ['ID', 'SEQ', 'KIND', 'ATTEMPT', 'STATUS', 'CODE', 'MS', 'AT', 'NEXT ATTEMPT AT', 'ERROR'],
        log.map((entry) => [entry.id, entry.seq, entry.kind, entry.attempt, entry.status, entry.response_code, entry.duration_ms, entry.at, entry.next_attempt_at, entry.error]),
      );
    });
  },
);

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const verify = defineCommand(
  {
    name: 'webhooks verify',
    synopsis: 'webhooks verify --secret S [--json] < request.txt',
    summary: "check a received request's signature (exit 0 valid, 1 not)",
    description: [
      'Reads one webhook request on stdin, headers then a blank line then the body, as a raw HTTP request or `curl -i` shows it,',
      'and says whether its webhook-signature is valid for the secret, checked by the standardwebhooks package that receivers use.',
      'Its timestamp must be within 5 minutes of now, as receivers require. Needs no database.',
    ].join('\n'),
    options: { secret: { type: 'string', value: 'S', help: 'the whsec_… secret of the webhook' } },
    examples: ['pbpaste | tabula webhooks verify --secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
  },
  async (values, _positionals, spec) => {
    if (!values.secret) throw usageError(spec, 'webhooks verify needs --secret');
    const result = verifyPastedRequest(values.secret, parsePastedRequest(await readStdin()));
    if (values.json) printResult(result, true);
    else if (result.valid) process.stdout.write(`valid signature (webhook-id ${result.id}, type ${String(result.type)})\n`);
    if (!result.valid) throw new CommandFailed(`invalid signature: ${result.reason}`, 1);
  },
);

export const runWebhooks = defineGroup('webhooks', 'Manages webhooks and checks their signatures.', [list, create, remove, deliveries, verify]);
