import { expectPositionals, parseCommandArgs, parseId, printResult, printUsage, splitList, UsageError, wantsHelp, withContainer } from './cli-context.js';

const usage = [
  'usage: tabula keys create --name N (--account | --user ID) [--read-only] [--spaces 1,2] [--ip-allow CIDR,...] [--account-id ID] [--json]',
  '       tabula keys list [--json]',
  '       tabula keys revoke ID [--json]',
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
  if (wantsHelp(values, subcommand)) return printUsage(usage);
  switch (subcommand) {
    case 'create': {
      expectPositionals(positionals, 0, usage);
      if (!values.name) throw new UsageError(`keys create needs --name\n${usage}`);
      if (values.account === (values.user !== undefined)) throw new UsageError(`keys create needs exactly one of --account and --user ID\n${usage}`);
      if (values.user !== undefined && values['account-id'] !== undefined) throw new UsageError(`--account-id is for account keys; a personal key belongs to its user's account\n${usage}`);
      const spaceIds = splitList(values.spaces, '--spaces')?.map((id) => parseId(id, '--spaces entry'));
      const ipAllow = splitList(values['ip-allow'], '--ip-allow');
      const userId = values.user === undefined ? undefined : parseId(values.user, '--user');
      const requestedAccountId = values['account-id'] === undefined ? undefined : parseId(values['account-id'], '--account-id');
      return withContainer(values.data, async ({ services }) => {
        const owner = userId === undefined ? { accountId: await services.accounts.resolveAccountId(requestedAccountId) } : { userId };
        const key = await services.keys.createKey({ name: values.name!, ...owner, readOnly: values['read-only'], spaceIds, ipAllow });
        printResult(key, values.json!);
      });
    }
    case 'list':
      expectPositionals(positionals, 0, usage);
      return withContainer(values.data, async ({ services }) => {
        const keys = await services.keys.listKeys();
        if (values.json) return printResult({ keys }, true);
        for (const key of keys) {
          const flags = [
            key.kind === 'personal' ? `personal (user ${key.user_id})` : `account ${key.account_id}`,
            key.read_only ? 'read-only' : '',
            key.spaces ? `spaces ${key.spaces.join(',')}` : '',
            key.ip_allow ? `ip ${key.ip_allow.join(',')}` : '',
            key.revoked_at ? `revoked ${key.revoked_at}` : '',
          ];
          process.stdout.write(`${key.id}\t${key.name}\t${flags.filter(Boolean).join(', ')}\n`);
        }
      });
    case 'revoke': {
      expectPositionals(positionals, 1, usage);
      const keyId = parseId(positionals[0], 'key id');
      return withContainer(values.data, async ({ services }) => printResult(await services.keys.revokeKey(keyId), values.json!));
    }
    case 'rotate': {
      expectPositionals(positionals, 1, usage);
      const keyId = parseId(positionals[0], 'key id');
      return withContainer(values.data, async ({ services }) => printResult(await services.keys.rotateKey(keyId), values.json!));
    }
    default:
      throw new UsageError(usage);
  }
}
