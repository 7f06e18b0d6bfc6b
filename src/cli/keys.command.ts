import { formatDateTime } from '../shared/clock.js';
import { parseId, printResult, printTable, splitList, withContainer } from './cli-context.js';
import { parseExpiry } from './cli-values.js';
import { defineCommand, defineGroup, usageError } from './command-spec.js';

const keyId = [['ID', 'the key id, as `tabula keys list` shows it']] as const;

const create = defineCommand(
  {
    name: 'keys create',
    synopsis: 'keys create --name N (--account | --user ID) [--read-only] [--spaces 1,2] [--ip-allow CIDR,...] [--expires WHEN] [--account-id ID] [--json]',
    summary: 'create an API key and print its secret once',
    description: 'Creates an API key and prints its secret once: it is stored hashed and never shown again.',
    options: {
      name: { type: 'string', value: 'N', help: 'the key name, shown by keys list and as the author of its comments ("API: N")' },
      account: { type: 'boolean', help: 'an account key: acts as the account owner (give this or --user)' },
      user: { type: 'string', value: 'ID', help: "a personal key of user ID: acts as that user, with that user's roles" },
      'read-only': { type: 'boolean', help: 'every write (records, files, comments, management) answers 403' },
      spaces: { type: 'string', value: '1,2', help: 'restrict the key to these spaces of its account' },
      'ip-allow': { type: 'string', value: 'CIDR,...', help: 'accept the key only from these addresses or CIDR ranges (others get 401)' },
      expires: { type: 'string', value: 'WHEN', help: 'the key stops working (401, as if revoked) after a lifetime (12h, 30d, 2w) or at an ISO date or date-time in UTC (2025-12-31, 2025-12-31T18:00:00Z); default: never' },
      'account-id': { type: 'string', value: 'ID', help: 'the account of an account key; needed only when the database holds several accounts' },
    },
    examples: ['tabula keys create --name "CI deploy" --account --read-only --expires 90d', 'tabula keys create --name "Ada laptop" --user 2 --spaces 1,3 --json'],
  },
  async (values, _positionals, spec) => {
    if (!values.name) throw usageError(spec, 'keys create needs --name');
    if (Boolean(values.account) === (values.user !== undefined)) throw usageError(spec, 'keys create needs exactly one of --account and --user ID');
    if (values.user !== undefined && values['account-id'] !== undefined) throw usageError(spec, "--account-id is for account keys; a personal key belongs to its user's account");
    const spaceIds = splitList(values.spaces, '--spaces')?.map((id) => parseId(id, '--spaces entry'));
    const ipAllow = splitList(values['ip-allow'], '--ip-allow');
    const userId = values.user === undefined ? undefined : parseId(values.user, '--user');
    const requestedAccountId = values['account-id'] === undefined ? undefined : parseId(values['account-id'], '--account-id');
    const expiresAt = values.expires === undefined ? undefined : parseExpiry(values.expires, new Date());
    await withContainer(values.data, async ({ services }) => {
      const owner = userId === undefined ? { accountId: await services.accounts.resolveAccountId(requestedAccountId) } : { userId };
      const key = await services.keys.createKey({ name: values.name!, ...owner, readOnly: values['read-only'], spaceIds, ipAllow, expiresAt });
      printResult(key, values.json);
    });
  },
);

/** What a key may do, in one cell: `read-only; spaces 1,2; ip 10.0.0.0/8`, or `full`. */
function describeAccess(key: { read_only: boolean; spaces: number[] | null; ip_allow: string[] | null }): string {
  const limits = [key.read_only ? 'read-only' : '', key.spaces ? `spaces ${key.spaces.join(',')}` : '', key.ip_allow ? `ip ${key.ip_allow.join(',')}` : ''].filter(Boolean);
  return limits.length ? limits.join('; ') : 'full';
}

const list = defineCommand(
  {
    name: 'keys list',
    synopsis: 'keys list [--json]',
    summary: 'list every key (never a secret): scopes, expiry, last use, revocation',
    description: [
      'Lists every API key of every account, revoked and expired ones included, one row each under a header row.',
      'LAST USED AT is recorded at most once a minute per key and server process. Secrets are never shown.',
    ].join('\n'),
    options: {},
    examples: ['tabula keys list', 'tabula keys list --json'],
  },
  async (values) => {
    await withContainer(values.data, async ({ services, clock }) => {
      const keys = await services.keys.listKeys();
      if (values.json) return printResult({ keys }, true);
      const now = formatDateTime(clock.now());
      const status = (key: (typeof keys)[number]) => (key.revoked_at ? 'revoked' : key.expires_at && key.expires_at <= now ? 'expired' : 'active');
      printTable(
        ['ID', 'NAME', 'KIND', 'ACCOUNT', 'USER', 'ACCESS', 'CREATED AT', 'EXPIRES AT', 'LAST USED AT', 'REVOKED AT', 'STATUS'],
        keys.map((key) => [key.id, key.name, key.kind, key.account_id, key.user_id, describeAccess(key), key.created_at, key.expires_at, key.last_used_at, key.revoked_at, status(key)]),
      );
    });
  },
);

const revoke = defineCommand(
  {
    name: 'keys revoke',
    synopsis: 'keys revoke ID [--json]',
    summary: 'revoke a key: it answers 401 Invalid API key from then on',
    description: 'Revokes a key at once, also for running servers: every later request with it answers 401 Invalid API key. A revoked key stays listed.',
    options: {},
    positionals: keyId,
    examples: ['tabula keys revoke 7'],
  },
  async (values, positionals) => {
    const id = parseId(positionals[0], 'key id');
    await withContainer(values.data, async ({ services }) => printResult(await services.keys.revokeKey(id), values.json));
  },
);

const rotate = defineCommand(
  {
    name: 'keys rotate',
    synopsis: 'keys rotate ID [--json]',
    summary: 'replace the secret of a key, keeping its id, name, scopes and expiry',
    description: 'Replaces the secret of a key and prints the new one once; the old secret answers 401 from then on. Id, name, kind, scopes and expiry stay.',
    options: {},
    positionals: keyId,
    examples: ['tabula keys rotate 7 --json'],
  },
  async (values, positionals) => {
    const id = parseId(positionals[0], 'key id');
    await withContainer(values.data, async ({ services }) => printResult(await services.keys.rotateKey(id), values.json));
  },
);

export const runKeys = defineGroup('keys', 'Manages API keys: account keys act as the account owner, personal keys as their user.', [create, list, revoke, rotate]);
