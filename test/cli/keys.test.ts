import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTimeout, type Cli, cliTestTimeout, createCli, ensureBuilt, type Server, serviceDateTime } from './run-cli.js';

const invalidApiKey = { status: 401, body: { error: { code: 'invalid_api_key', message: 'Invalid API key' } } };
const keysUsage = [
  'usage: tabula keys create --name N (--account | --user ID) [--read-only] [--spaces 1,2] [--ip-allow CIDR,...] [--expires WHEN] [--account-id ID] [--json]',
  '(run `tabula keys create --help` for every option and an example)',
].join('\n');

/**
 * One database and one running server for the whole file: every key is created by the CLI
 * while `serve` runs on the same data and is used against that server right away.
 */
describe('tabula keys', () => {
  beforeAll(ensureBuilt, buildTimeout);
  let cli: Cli;
  let server: Server;
  let owner: { account_id: number; user_id: number; api_key: string };
  let member: { id: number; email: string };
  let spaceA: { id: number };
  let spaceB: { id: number };

  beforeAll(async () => {
    cli = await createCli(); // TABULA_SECRET unset: CLI and server share the generated <data>/secret
    owner = await cli.json('init', '--email', 'owner@example.com', '--name', 'Owner', '--json');
    member = await cli.json('users', 'create', '--email', 'member@example.com', '--name', 'Member', '--json');
    server = await cli.startServer();
    spaceA = (await server.request('POST', '/api/spaces/create', { key: owner.api_key, body: { name: 'A' } })).body;
    spaceB = (await server.request('POST', '/api/spaces/create', { key: owner.api_key, body: { name: 'B' } })).body;
    expect(spaceA.id).toEqual(expect.any(Number));
    expect(spaceB.id).toEqual(expect.any(Number));
  }, 120_000);
  afterAll(() => cli?.close(), 60_000);

  const listKeys = async () => (await cli.json<{ keys: Array<Record<string, any>> }>('keys', 'list', '--json')).keys;

  it('creates an account key that prints {id,name,kind,key} once and works against the running server at once', { timeout: cliTestTimeout }, async () => {
    const key = await cli.json('keys', 'create', '--name', 'Deploy', '--account', '--json');
    expect(Object.keys(key).sort()).toEqual(['id', 'key', 'kind', 'name']);
    expect(key).toEqual({ id: expect.any(Number), name: 'Deploy', kind: 'account', key: expect.stringMatching(/^tbk_[A-Za-z0-9_-]{43}$/) });

    const spaces = await server.request('GET', '/api/spaces/list', { key: key.key });
    expect(spaces.status).toBe(200);
    expect(spaces.body.map((space: { id: number }) => space.id).sort()).toEqual([spaceA.id, spaceB.id].sort());
    expect(await server.request('GET', '/api/auth/me', { key: key.key })).toMatchObject({ status: 200, body: { user: { id: owner.user_id, email: 'owner@example.com' } } });
  });

  it('creates a personal key with --user that acts as that user', { timeout: cliTestTimeout }, async () => {
    const key = await cli.json('keys', 'create', '--name', 'Member laptop', '--user', String(member.id), '--json');
    expect(key).toEqual({ id: expect.any(Number), name: 'Member laptop', kind: 'personal', key: expect.stringMatching(/^tbk_/) });
    expect(await server.request('GET', '/api/auth/me', { key: key.key })).toMatchObject({ status: 200, body: { user: { id: member.id, email: 'member@example.com', name: 'Member' } } });
    expect(await server.request('GET', '/api/spaces/list', { key: key.key })).toMatchObject({ status: 200, body: [] });
    expect((await listKeys()).find((row) => row.id === key.id)).toMatchObject({ kind: 'personal', user_id: member.id, account_id: owner.account_id });
  });

  it('creates a read-only key: reads answer 200, writes 403', { timeout: cliTestTimeout }, async () => {
    const key = await cli.json('keys', 'create', '--name', 'Reporting', '--account', '--read-only', '--json');
    expect(key).toMatchObject({ name: 'Reporting', kind: 'account' });
    expect((await listKeys()).find((row) => row.id === key.id)).toMatchObject({ read_only: true, spaces: null, ip_allow: null });
    expect(await server.request('GET', '/api/spaces/list', { key: key.key })).toMatchObject({ status: 200 });
    expect(await server.request('POST', '/api/spaces/create', { key: key.key, body: { name: 'Nope' } })).toMatchObject({ status: 403 });
  });

  it('creates a key restricted with --spaces that sees only those spaces', { timeout: cliTestTimeout }, async () => {
    const key = await cli.json('keys', 'create', '--name', 'Only A', '--account', '--spaces', String(spaceA.id), '--json');
    expect((await listKeys()).find((row) => row.id === key.id)).toMatchObject({ spaces: [spaceA.id], read_only: false });
    expect(await server.request('GET', '/api/spaces/list', { key: key.key })).toMatchObject({ status: 200, body: [{ id: spaceA.id, name: 'A' }] });

    const both = await cli.json('keys', 'create', '--name', 'A and B', '--account', '--spaces', `${spaceA.id},${spaceB.id}`, '--json');
    expect((await listKeys()).find((row) => row.id === both.id)).toMatchObject({ spaces: [spaceA.id, spaceB.id] });
  });

  it('refuses --spaces naming an unknown space, an empty --spaces and a non-numeric entry', { timeout: cliTestTimeout }, async () => {
    const before = (await listKeys()).length;
    expect(await cli.run('keys', 'create', '--name', 'Bad', '--account', '--spaces', `${spaceA.id},9999`)).toEqual({
      code: 1,
      signal: null,
      stdout: '',
      stderr: 'tabula keys: Unknown space for this account: 9999\n',
    });
    expect(await cli.run('keys', 'create', '--name', 'Bad', '--account', '--spaces', '')).toEqual({ code: 2, signal: null, stdout: '', stderr: 'tabula keys: --spaces needs at least one entry\n' });
    expect(await cli.run('keys', 'create', '--name', 'Bad', '--account', '--spaces', '1,x')).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr: 'tabula keys: --spaces entry must be a positive integer, got "x"\n',
    });
    expect(await listKeys()).toHaveLength(before);
  });

  it('creates a key with --ip-allow that works from an allowed address and is refused from elsewhere', { timeout: cliTestTimeout }, async () => {
    const allowed = await cli.json('keys', 'create', '--name', 'Office', '--account', '--ip-allow', '10.0.0.0/8,127.0.0.1', '--json');
    expect((await listKeys()).find((row) => row.id === allowed.id)).toMatchObject({ ip_allow: ['10.0.0.0/8', '127.0.0.1/32'] });
    expect(await server.request('GET', '/api/spaces/list', { key: allowed.key })).toMatchObject({ status: 200 });

    const elsewhere = await cli.json('keys', 'create', '--name', 'Remote office', '--account', '--ip-allow', '10.0.0.0/8', '--json');
    const refused = await server.request('GET', '/api/spaces/list', { key: elsewhere.key });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toEqual({ code: expect.any(String), message: expect.any(String) });
  });

  it('refuses a bad --ip-allow entry with a clear message and creates nothing', { timeout: cliTestTimeout }, async () => {
    const before = (await listKeys()).length;
    expect(await cli.run('keys', 'create', '--name', 'Bad', '--account', '--ip-allow', '10.0.0.0/33')).toEqual({
      code: 1,
      signal: null,
      stdout: '',
      stderr: 'tabula keys: Invalid IP address or CIDR range: 10.0.0.0/33\n',
    });
    expect(await cli.run('keys', 'create', '--name', 'Bad', '--account', '--ip-allow', '127.0.0.1,not-an-ip')).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'tabula keys: Invalid IP address or CIDR range: not-an-ip\n',
    });
    expect(await cli.run('keys', 'create', '--name', 'Bad', '--account', '--ip-allow', ' , ')).toMatchObject({ code: 2, stderr: 'tabula keys: --ip-allow needs at least one entry\n' });
    expect(await listKeys()).toHaveLength(before);
  });

  it('needs exactly one of --account and --user (usage error, exit code 2)', { timeout: cliTestTimeout }, async () => {
    const expected = { code: 2, signal: null, stdout: '', stderr: `tabula keys: keys create needs exactly one of --account and --user ID\n${keysUsage}\n` };
    expect(await cli.run('keys', 'create', '--name', 'Neither')).toEqual(expected);
    expect(await cli.run('keys', 'create', '--name', 'Both', '--account', '--user', String(member.id))).toEqual(expected);
    expect(await cli.run('keys', 'create', '--account')).toEqual({ code: 2, signal: null, stdout: '', stderr: `tabula keys: keys create needs --name\n${keysUsage}\n` });
    expect(await cli.run('keys', 'create', '--name', 'Mixed', '--user', String(member.id), '--account-id', String(owner.account_id))).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^tabula keys: --account-id is for account keys; a personal key belongs to its user's account\n/),
    });
  });

  it('fails clearly for an unknown --user', { timeout: cliTestTimeout }, async () => {
    expect(await cli.run('keys', 'create', '--name', 'Ghost', '--user', '9999')).toEqual({ code: 1, signal: null, stdout: '', stderr: 'tabula keys: User not found: 9999\n' });
  });

  it('revoke makes the key answer 401 Invalid API key; list --json still shows it with revoked_at', { timeout: cliTestTimeout }, async () => {
    const key = await cli.json('keys', 'create', '--name', 'Temporary', '--account', '--json');
    expect(await server.request('GET', '/api/spaces/list', { key: key.key })).toMatchObject({ status: 200 });

    expect(await cli.ok('keys', 'revoke', String(key.id))).toBe(`id: ${key.id}\nrevoked: true\n`);
    expect(await server.request('GET', '/api/spaces/list', { key: key.key })).toMatchObject(invalidApiKey);

    const keys = await listKeys();
    const revoked = keys.find((row) => row.id === key.id);
    expect(revoked).toMatchObject({ name: 'Temporary', kind: 'account', revoked_at: expect.stringMatching(serviceDateTime) });
    expect(keys.find((row) => row.name === 'Account key')).toMatchObject({ revoked_at: null });

    // A rotated secret for a revoked key would resurrect it: refused.
    expect(await cli.run('keys', 'rotate', String(key.id), '--json')).toEqual({
      code: 1,
      signal: null,
      stdout: '',
      stderr: `tabula keys: Key ${key.id} is revoked; create a new one\n`,
    });
  });

  it('revoke --json prints one object; an unknown key id fails with exit code 1', { timeout: cliTestTimeout }, async () => {
    const key = await cli.json('keys', 'create', '--name', 'Short lived', '--account', '--json');
    expect(await cli.json('keys', 'revoke', String(key.id), '--json')).toEqual({ id: key.id, revoked: true });
    expect(await cli.run('keys', 'revoke', '9999')).toEqual({ code: 1, signal: null, stdout: '', stderr: 'tabula keys: Key not found: 9999\n' });
    expect(await cli.run('keys', 'revoke')).toMatchObject({ code: 2, stdout: '', stderr: 'tabula keys: key id must be a positive integer, got nothing\n' });
    expect(await cli.run('keys', 'revoke', '1', '2')).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^tabula keys: unexpected argument "2"\n/) });
  });

  it('rotate keeps id, name, kind and scopes, and replaces the secret: the new one works, the old one gets 401', { timeout: cliTestTimeout }, async () => {
    const original = await cli.json('keys', 'create', '--name', 'Scoped', '--user', String(member.id), '--read-only', '--spaces', String(spaceB.id), '--json');
    const listedBefore = (await listKeys()).find((row) => row.id === original.id);
    expect(await server.request('GET', '/api/auth/me', { key: original.key })).toMatchObject({ status: 200 });

    const rotated = await cli.json('keys', 'rotate', String(original.id), '--json');
    expect(rotated).toEqual({ id: original.id, name: 'Scoped', kind: 'personal', key: expect.stringMatching(/^tbk_/) });
    expect(rotated.key).not.toBe(original.key);

    expect(await server.request('GET', '/api/auth/me', { key: rotated.key })).toMatchObject({ status: 200, body: { user: { id: member.id } } });
    expect(await server.request('GET', '/api/auth/me', { key: original.key })).toMatchObject(invalidApiKey);
    // Only its last use moved (the new secret was used above).
    expect({ ...(await listKeys()).find((row) => row.id === original.id), last_used_at: null }).toEqual({ ...listedBefore, last_used_at: null });
  });

  it('rotate keeps an account key restricted to its spaces', { timeout: cliTestTimeout }, async () => {
    const original = await cli.json('keys', 'create', '--name', 'Only B', '--account', '--spaces', String(spaceB.id), '--json');
    const rotated = await cli.json('keys', 'rotate', String(original.id), '--json');
    expect(rotated).toMatchObject({ id: original.id, name: 'Only B', kind: 'account' });
    expect(await server.request('GET', '/api/spaces/list', { key: rotated.key })).toMatchObject({ status: 200, body: [{ id: spaceB.id, name: 'B' }] });
    expect(await server.request('GET', '/api/spaces/list', { key: original.key })).toMatchObject(invalidApiKey);
  });

  it('list --json is exactly one object {keys:[…]} with every key, revoked ones included, and never a secret', { timeout: cliTestTimeout }, async () => {
    const revoked = await cli.json('keys', 'create', '--name', 'Listed revoked', '--account', '--json');
    await cli.ok('keys', 'revoke', String(revoked.id));
    const result = await cli.run('keys', 'list', '--json');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^\{"keys":\[.*\]\}\n$/);
    expect(result.stdout).not.toContain('tbk_');
    const { keys } = JSON.parse(result.stdout);
    expect(Object.keys(JSON.parse(result.stdout))).toEqual(['keys']);
    expect(keys.map((row: { id: number }) => row.id)).toEqual([...keys.map((row: { id: number }) => row.id)].sort((a, b) => a - b));
    for (const row of keys) {
      expect(Object.keys(row).sort()).toEqual(['account_id', 'created_at', 'expires_at', 'id', 'ip_allow', 'kind', 'last_used_at', 'name', 'read_only', 'revoked_at', 'spaces', 'user_id']);
      expect(row.created_at).toMatch(serviceDateTime);
    }
    expect(keys.find((row: { id: number }) => row.id === revoked.id)).toMatchObject({ name: 'Listed revoked', revoked_at: expect.stringMatching(serviceDateTime) });
  });

  it('list without --json prints a header row and one row per key, with access, expiry, last use and status', { timeout: cliTestTimeout }, async () => {
    const scoped = await cli.json('keys', 'create', '--name', 'Listed scoped', '--account', '--read-only', '--spaces', String(spaceA.id), '--ip-allow', '127.0.0.1', '--expires', '2999-01-01', '--json');
    const personal = await cli.json('keys', 'create', '--name', 'Listed personal', '--user', String(member.id), '--json');
    await cli.ok('keys', 'revoke', String(personal.id));
    const keys = await listKeys();
    const lines = (await cli.ok('keys', 'list')).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(keys.length + 1);
    expect(lines[0].split(/ {2,}/)).toEqual(['ID', 'NAME', 'KIND', 'ACCOUNT', 'USER', 'ACCESS', 'CREATED AT', 'EXPIRES AT', 'LAST USED AT', 'REVOKED AT', 'STATUS']);
    const rowOf = (id: number) => lines.find((line) => line.startsWith(`${id} `))!.split(/ {2,}/);
    const scopedRow = keys.find((row) => row.id === scoped.id)!;
    expect(rowOf(scoped.id)).toEqual([String(scoped.id), 'Listed scoped', 'account', String(owner.account_id), '-', `read-only; spaces ${spaceA.id}; ip 127.0.0.1/32`, scopedRow.created_at, '2999-01-01 00:00:00', '-', '-', 'active']);
    const personalRow = keys.find((row) => row.id === personal.id)!;
    expect(rowOf(personal.id)).toEqual([String(personal.id), 'Listed personal', 'personal', String(owner.account_id), String(member.id), 'full', personalRow.created_at, '-', '-', personalRow.revoked_at, 'revoked']);
    // The bootstrap key was used against the server: its last use shows.
    expect(rowOf(keys[0].id)[8]).toMatch(serviceDateTime);
  });

  it('--expires takes a lifetime or an ISO date; the key works until then, and an expired key answers 401 like a revoked one', { timeout: cliTestTimeout }, async () => {
    const before = Date.now();
    const lasting = await cli.json('keys', 'create', '--name', 'Ninety days', '--account', '--expires', '90d', '--json');
    const expiresAt = Date.parse(`${(await listKeys()).find((row) => row.id === lasting.id)!.expires_at.replace(' ', 'T')}Z`);
    expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 90 * 86_400_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 90 * 86_400_000);
    expect(await server.request('GET', '/api/spaces/list', { key: lasting.key })).toMatchObject({ status: 200 });

    // Eight seconds of life: a CLI started on a loaded CI machine has taken over two to answer.
    const soon = await cli.json('keys', 'create', '--name', 'Eight seconds', '--account', '--expires', new Date(Date.now() + 8000).toISOString(), '--json');
    expect(await server.request('GET', '/api/spaces/list', { key: soon.key })).toMatchObject({ status: 200 });
    const soonExpiresAt = Date.parse(`${(await listKeys()).find((row) => row.id === soon.id)!.expires_at.replace(' ', 'T')}Z`);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, soonExpiresAt - Date.now()) + 1000));
    expect(await server.request('GET', '/api/spaces/list', { key: soon.key })).toMatchObject(invalidApiKey);
    expect((await cli.ok('keys', 'list')).split('\n').find((line) => line.startsWith(`${soon.id} `))).toMatch(/ expired$/);
  });

  it('refuses an --expires it cannot read, or one in the past, and creates nothing', { timeout: cliTestTimeout }, async () => {
    const before = (await listKeys()).length;
    expect(await cli.run('keys', 'create', '--name', 'Bad', '--account', '--expires', 'soon')).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr: `tabula keys: --expires must be a lifetime such as 12h, 30d or 2w, or an ISO date or date-time such as 2025-12-31 or 2025-12-31T18:00:00Z, got "soon"\n`,
    });
    expect(await cli.run('keys', 'create', '--name', 'Bad', '--account', '--expires', '2025-02-30')).toMatchObject({ code: 2, stderr: 'tabula keys: --expires is not a real date-time: "2025-02-30"\n' });
    expect(await cli.run('keys', 'create', '--name', 'Bad', '--account', '--expires', '0d')).toMatchObject({ code: 2, stderr: 'tabula keys: --expires must be a lifetime longer than 0, got "0d"\n' });
    expect(await cli.run('keys', 'create', '--name', 'Bad', '--account', '--expires', '2020-01-01')).toEqual({
      code: 1,
      signal: null,
      stdout: '',
      stderr: 'tabula keys: Invalid expiry: 2020-01-01 00:00:00 is not in the future\n',
    });
    expect(await listKeys()).toHaveLength(before);
  });
});
