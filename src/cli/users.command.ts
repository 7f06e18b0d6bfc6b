import { expectPositionals, parseCommandArgs, parseId, printResult, printUsage, UsageError, wantsHelp, withContainer } from './cli-context.js';

const usage = 'usage: tabula users create --email E --name N [--password P] [--account-id ID] [--json]\n       tabula users update ID [--email E] [--name N] [--password P] [--json]';

export async function runUsers(args: string[]): Promise<void> {
  const [subcommand, ...rest] = args;
  const { values, positionals } = parseCommandArgs(rest, {
    email: { type: 'string' },
    name: { type: 'string' },
    password: { type: 'string' },
    'account-id': { type: 'string' },
  });
  if (wantsHelp(values, subcommand)) return printUsage(usage);
  if (subcommand === 'create') {
    expectPositionals(positionals, 0, usage);
    if (!values.email || !values.name) throw new UsageError(`users create needs --email and --name\n${usage}`);
    await withContainer(values.data, async ({ services }) => {
      const accountId = await services.accounts.resolveAccountId(values['account-id'] === undefined ? undefined : parseId(values['account-id'], '--account-id'));
      printResult(await services.users.createUser(accountId, { email: values.email!, name: values.name, password: values.password }), values.json!);
    });
    return;
  }
  if (subcommand === 'update') {
    expectPositionals(positionals, 1, usage);
    const userId = parseId(positionals[0], 'user id');
    if (values['account-id'] !== undefined) throw new UsageError('users update takes no --account-id: a user stays in its account');
    if (values.email === undefined && values.name === undefined && values.password === undefined) throw new UsageError('users update needs --email, --name or --password');
    await withContainer(values.data, async ({ services }) => {
      printResult(await services.users.updateUser(userId, { email: values.email, name: values.name, password: values.password }), values.json!);
    });
    return;
  }
  throw new UsageError(usage);
}
