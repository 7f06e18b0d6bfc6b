import { ConflictError, ErrorCode } from '../shared/errors.js';
import { printResult, printTable, withContainer } from './cli-context.js';
import { defineCommand, defineGroup, usageError, type OptionSpec } from './command-spec.js';

const ownerOptions = {
  email: { type: 'string', value: 'E', help: "the owner's login email, unique across all accounts" },
  name: { type: 'string', value: 'N', help: "the owner's name (default: the part of the email before @)" },
  password: { type: 'string', value: 'P', help: "the owner's password (at least 8 characters); default: a generated one, printed once" },
} satisfies Record<string, OptionSpec>;

const created = 'Prints the account id, the owner (user id, email, password) and an unrestricted account key, once.';

/** `tabula init`: the first account, only on an empty database; the one command besides serve and migrate that may create the database. */
export const runInit = defineCommand(
  {
    name: 'init',
    synopsis: 'init --email E [--name N] [--password P] [--json]',
    summary: 'create the first account',
    description: `Creates the database if needed and its first account with its owner. ${created} Fails if the database already has an account; run before the first serve, it makes serve skip the admin@localhost bootstrap.`,
    options: ownerOptions,
    examples: ['tabula init --email you@example.com --name "Your Name" --json'],
  },
  async (values, _positionals, spec) => {
    if (!values.email) throw usageError(spec, 'init needs --email');
    await withContainer(
      values.data,
      async ({ services }) => {
        const existing = await services.accounts.listAccountIds();
        if (existing.length > 0) throw new ConflictError('This database already has an account; use `tabula accounts create` to add another', ErrorCode.accountExists);
        printResult(await services.accounts.createAccount({ email: values.email!, name: values.name, password: values.password }), values.json);
      },
      { create: true },
    );
  },
);

const create = defineCommand(
  {
    name: 'accounts create',
    synopsis: 'accounts create --email E [--name N] [--password P] [--json]',
    summary: 'add another, independent account',
    description: `Adds another account with its owner (a hosting operator's command: accounts never see each other's data). ${created}`,
    options: ownerOptions,
    examples: ['tabula accounts create --email owner@customer.example --json'],
  },
  async (values, _positionals, spec) => {
    if (!values.email) throw usageError(spec, 'accounts create needs --email');
    await withContainer(values.data, async ({ services }) => {
      printResult(await services.accounts.createAccount({ email: values.email!, name: values.name, password: values.password }), values.json);
    });
  },
);

const list = defineCommand(
  {
    name: 'accounts list',
    synopsis: 'accounts list [--json]',
    summary: 'list the accounts with their owners',
    description: 'Lists every account one row each under a header row: id, name, owner, number of users and when it was created.',
    options: {},
    examples: ['tabula accounts list'],
  },
  async (values) => {
    await withContainer(values.data, async ({ services }) => {
      const accounts = await services.accounts.listAccounts();
      if (values.json) return printResult({ accounts }, true);
      printTable(['ID', 'NAME', 'OWNER', 'USERS', 'CREATED AT'], accounts.map((account) => [account.id, account.name, account.owner_email, account.users, account.created_at]));
    });
  },
);

export const runAccounts = defineGroup('accounts', 'Manages accounts: each owns its spaces and users, and never sees another account.', [create, list]);
