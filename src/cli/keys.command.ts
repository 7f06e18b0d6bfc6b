import { parseCommandArgs, parseId, printResult, splitList, UsageError, withContainer } from './cli-context.js';

const usage = [
  'usage: tabula keys create --name N (--account | --user ID) [--read-only] [--spaces 1,2] [--ip-allow CIDR,...] [--account-id ID] [--json]',
  '       tabula keys list [--json]',
  '       tabula keys revoke ID',
  '       tabula keys rotate ID [--json]',
].join('\n');

export async function runKeys(args: string[]): Promise<void> {
  const [subcommand, ...rest] = args;
  const { values, positionals } = parseCommandArgs(rest, {
    name: { type: 'string' },
    account: { type: 'boolean', default: false },
    user: { type: 'string' },
    'read-only': { type: 'boolean', default: false },
    spaces: { type: 'string' },
    'ip-allow': { type: 'string' },
    'account-id': { type: 'string' },
  });
  switch (subcommand) {
    case 'create':
      if (!values.name) throw new UsageError(`keys create needs --name\n${usage}`);
      if (values.account === (values.user !== undefined)) throw new UsageError(`keys create needs exactly one of --account and --user ID\n${usage}`);
      return withContainer(values.data, async ({ services }) => {
        const spaceIds = splitList(values.spaces)?.map((id) => parseId(id, '--spaces entry'));
        const owner = values.account
          ? { accountId: await services.accounts.resolveAccountId(values['account-id'] === undefined ? undefined : parseId(values['account-id'], '--account-id')) }
          : { userId: parseId(values.user, '--user') };
        const key = await services.keys.createKey({ name: values.name!, ...owner, readOnly: values['read-only'], spaceIds, ipAllow: splitList(values['ip-allow']) });
        printResult(key, values.json!);
      });
    case 'list':
      return withContainer(values.data, async ({ services }) => {
        const keys = await services.keys.listKeys();
        if (values.json) return printResult({ keys }, true);
        for (const key of keys) {
          const flags = [key.kind, key.read_only ? 'read-only' : '', key.spaces ? `spaces ${key.spaces.join(',')}` : '', key.revoked_at ? `revoked ${key.revoked_at}` : ''];
          process.stdout.write(`${key.id}\t${key.name}\t${flags.filter(Boolean).join(', ')}\n`);
        }
      });
    case 'revoke':
      return withContainer(values.data, async ({ services }) => printResult(await services.keys.revokeKey(parseId(positionals[0], 'key id')), values.json!));
    case 'rotate':
      return withContainer(values.data, async ({ services }) => printResult(await services.keys.rotateKey(parseId(positionals[0], 'key id')), values.json!));
    default:
      throw new UsageError(usage);
  }
}
