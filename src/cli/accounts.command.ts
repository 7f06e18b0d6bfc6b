import { parseCommandArgs, printResult, UsageError, withContainer } from './cli-context.js';

const options = { email: { type: 'string' }, name: { type: 'string' }, password: { type: 'string' } } as const;

/** `tabula init`: the first account, only on an empty database. */
export async function runInit(args: string[]): Promise<void> {
  const { values } = parseCommandArgs(args, options);
  if (!values.email) throw new UsageError('init needs --email');
  await withContainer(values.data, async ({ services }) => {
    const existing = await services.accounts.listAccountIds();
    if (existing.length > 0) throw new Error('This database already has an account; use `tabula accounts create` to add another');
    printResult(await services.accounts.createAccount({ email: values.email!, name: values.name, password: values.password }), values.json!);
  });
}

/** `tabula accounts create`: another, independent account. */
export async function runAccounts(args: string[]): Promise<void> {
  const [subcommand, ...rest] = args;
  if (subcommand !== 'create') throw new UsageError('usage: tabula accounts create --email E [--name N] [--password P] [--json]');
  const { values } = parseCommandArgs(rest, options);
  if (!values.email) throw new UsageError('accounts create needs --email');
  await withContainer(values.data, async ({ services }) => {
    printResult(await services.accounts.createAccount({ email: values.email!, name: values.name, password: values.password }), values.json!);
  });
}
