import { parseId, printResult, printTable, withContainer } from './cli-context.js';
import { defineCommand, defineGroup, usageError } from './command-spec.js';

const accountIdOption = { type: 'string', value: 'ID', help: 'the account; needed only when the database holds several accounts' } as const;

const create = defineCommand(
  {
    name: 'users create',
    synopsis: 'users create --email E --name N [--password P] [--account-id ID] [--json]',
    summary: 'add a user to the account',
    description: 'Adds a user who can log in and become a member of spaces. Without --password one is generated and printed once.',
    options: {
      email: { type: 'string', value: 'E', help: 'the login email, unique across all accounts' },
      name: { type: 'string', value: 'N', help: 'the name shown in user fields and comments' },
      password: { type: 'string', value: 'P', help: 'the login password (at least 8 characters); default: a generated one, printed once' },
      'account-id': accountIdOption,
    },
    examples: ['tabula users create --email ada@example.com --name "Ada Lovelace"'],
  },
  async (values, _positionals, spec) => {
    if (!values.email || !values.name) throw usageError(spec, 'users create needs --email and --name');
    await withContainer(values.data, async ({ services }) => {
      const accountId = await services.accounts.resolveAccountId(values['account-id'] === undefined ? undefined : parseId(values['account-id'], '--account-id'));
      printResult(await services.users.createUser(accountId, { email: values.email!, name: values.name, password: values.password }), values.json);
    });
  },
);

const update = defineCommand(
  {
    name: 'users update',
    synopsis: 'users update ID [--email E] [--name N] [--password P] [--json]',
    summary: "change a user's email, name or password",
    description: "Changes a user. A new email shows in every user-field read at once; a new password ends the user's sessions.",
    options: {
      email: { type: 'string', value: 'E', help: 'the new login email' },
      name: { type: 'string', value: 'N', help: 'the new name' },
      password: { type: 'string', value: 'P', help: 'the new password (at least 8 characters)' },
    },
    positionals: [['ID', 'the user id, as `tabula users list` shows it']],
    examples: ['tabula users update 2 --name "Ada King"'],
  },
  async (values, positionals, spec) => {
    const userId = parseId(positionals[0], 'user id');
    if (values.email === undefined && values.name === undefined && values.password === undefined) throw usageError(spec, 'users update needs --email, --name or --password');
    await withContainer(values.data, async ({ services }) => {
      printResult(await services.users.updateUser(userId, { email: values.email, name: values.name, password: values.password }), values.json);
    });
  },
);

const list = defineCommand(
  {
    name: 'users list',
    synopsis: 'users list [--account-id ID] [--json]',
    summary: 'list the users of every account (or of one)',
    description: 'Lists users one row each under a header row: id, account, email, name and when they were created. Passwords are never shown.',
    options: { 'account-id': { type: 'string', value: 'ID', help: 'only the users of this account' } },
    examples: ['tabula users list', 'tabula users list --account-id 2 --json'],
  },
  async (values) => {
    const accountId = values['account-id'] === undefined ? undefined : parseId(values['account-id'], '--account-id');
    await withContainer(values.data, async ({ services }) => {
      if (accountId !== undefined) await services.accounts.resolveAccountId(accountId);
      const users = await services.users.listUsers(accountId);
      if (values.json) return printResult({ users }, true);
      printTable(['ID', 'ACCOUNT', 'EMAIL', 'NAME', 'CREATED AT'], users.map((user) => [user.id, user.account_id, user.email, user.name, user.created_at]));
    });
  },
);

export const runUsers = defineGroup('users', 'Manages the users of an account: people who log in and become members of spaces.', [create, update, list]);
