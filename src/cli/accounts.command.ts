import { ConflictError, ErrorCode } from '../shared/errors.js';
import { expectPositionals, parseCommandArgs, printResult, printUsage, UsageError, wantsHelp, withContainer } from './cli-context.js';

const options = { email: { type: 'string' }, name: { type: 'string' }, password: { type: 'string' } } as const;

const initUsage = 'usage: tabula init --email E [--name N] [--password P] [--json]';
const accountsUsage = 'usage: tabula accounts create --email E [--name N] [--password P] [--json]';

/** `tabula init`: the first account, only on an empty database. */
export async function runInit(args: string[]): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, options);
  if (wantsHelp(values)) return printUsage(initUsage);
  expectPositionals(positionals, 0, initUsage);
  if (!values.email) throw new UsageError(`init needs --email\n${initUsage}`);
  await withContainer(values.data, async ({ services }) => {
    const existing = await services.accounts.listAccountIds();
    if (existing.length > 0) throw new ConflictError('This database already has an account; use `tabula accounts create` to add another', ErrorCode.accountExists);
    printResult(await services.accounts.createAccount({ email: values.email!, name: values.name, password: values.password }), values.json!);
  });
}

/** `tabula accounts create`: another, independent account. */
export async function runAccounts(args: string[]): Promise<void> {
  const [subcommand, ...rest] = args;
  const { values, positionals } = parseCommandArgs(rest, options);
  if (wantsHelp(values, subcommand)) return printUsage(accountsUsage);
  if (subcommand !== 'create') throw new UsageError(accountsUsage);
  expectPositionals(positionals, 0, accountsUsage);
  if (!values.email) throw new UsageError(`accounts create needs --email\n${accountsUsage}`);
  await withContainer(values.data, async ({ services }) => {
    printResult(await services.accounts.createAccount({ email: values.email!, name: values.name, password: values.password }), values.json!);
  });
}
