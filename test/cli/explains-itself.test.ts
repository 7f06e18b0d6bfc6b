import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from '../test-database.js';
import { buildTimeout, cleanEnv, type Cli, cliTestTimeout, createCli, ensureBuilt, expectSingleJsonObject, repoRoot, runTabula, serviceDateTime } from './run-cli.js';

const commands = [
  ['init'],
  ['accounts', 'create'],
  ['accounts', 'list'],
  ['users', 'create'],
  ['users', 'update'],
  ['users', 'list'],
  ['keys', 'create'],
  ['keys', 'list'],
  ['keys', 'revoke'],
  ['keys', 'rotate'],
  ['files', 'pending'],
  ['files', 'restore'],
  ['files', 'sweep'],
  ['export'],
  ['import'],
  ['records', 'restore'],
  ['changes', 'tail'],
  ['changes', 'purge'],
  ['trash', 'purge'],
  ['webhooks', 'list'],
  ['webhooks', 'create'],
  ['webhooks', 'delete'],
  ['webhooks', 'deliveries'],
  ['webhooks', 'verify'],
  ['migrate'],
  ['serve'],
];

describe('a command line that explains itself', () => {
  beforeAll(ensureBuilt, buildTimeout);
  const tabula = (...args: string[]) => runTabula(args, { env: cleanEnv() });

  it('--version prints the package version', { timeout: cliTestTimeout }, async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
    expect(await tabula('--version')).toEqual({ code: 0, signal: null, stdout: `tabula ${version}\n`, stderr: '' });
    expect(await tabula('-V')).toMatchObject({ code: 0, stdout: `tabula ${version}\n` });
  });

  it('every command prints a help that explains each of its flags and gives an example', { timeout: 120_000 }, async () => {
    for (const command of commands) {
      const result = await tabula(...command, '--help');
      const name = command.join(' ');
      expect(result, name).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout, name).toMatch(new RegExp(`^usage: tabula ${name}( |\\n)`));
      const [synopsis] = result.stdout.split('\n');
      const options = result.stdout.slice(result.stdout.indexOf('\noptions:\n'), result.stdout.search(/\nexamples?:\n/));
      // Every flag of the synopsis, and --data and --help, has a line of its own with a text after it.
      const flags = new Set([...(synopsis.match(/--[a-z-]+/g) ?? []), '--data', '--help']);
      for (const flag of flags) expect(options, `${name} ${flag}`).toMatch(new RegExp(`\\n  (-h, )?${flag}( [A-Z0-9_,.]+)? +\\S.{10,}`));
      expect(result.stdout, name).toMatch(new RegExp(`\\nexamples?:\\n(  .*tabula ${name}.*\\n?)+$`));
    }
  });

  it('names an unknown option or a flag without its value, with the usage, exit 2', { timeout: cliTestTimeout }, async () => {
    expect(await tabula('init', '--emial', 'a@example.com')).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr: 'tabula init: unknown option --emial\nusage: tabula init --email E [--name N] [--password P] [--json]\n(run `tabula init --help` for every option and an example)\n',
    });
    expect(await tabula('users', 'list', '--name', 'x')).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^tabula users: unknown option --name\nusage: tabula users list /) });
    expect(await tabula('keys', 'create', '--account', '--name')).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^tabula keys: --name needs a value\nusage: tabula keys create /) });
    expect(await tabula('migrate', '--json=yes')).toMatchObject({ code: 2, stderr: expect.stringMatching(/^tabula migrate: --json takes no value\n/) });
    expect(await tabula('serve', '--json')).toMatchObject({ code: 2, stderr: expect.stringMatching(/^tabula serve: unknown option --json\nusage: tabula serve /) });
    expect(await tabula('--bogus')).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^tabula: unknown option --bogus\n\nusage: tabula <command> \[options\]\n/) });
    expect(await tabula('keys', '--bogus')).toMatchObject({ code: 2, stderr: expect.stringMatching(/^tabula keys: keys needs a command\nusage: tabula keys create/) });
  });

  it('refuses a DATABASE_URL that is not postgres:// or postgresql://, without echoing its password', { timeout: cliTestTimeout }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-url-'));
    try {
      for (const [url, got] of [
        ['mysql://root:hunter2@db/tabula', 'a mysql: URL'],
        ['sqlite:///var/lib/tabula.db', 'a sqlite: URL'],
        ['/var/lib/tabula.db', 'something that is not a URL'],
      ]) {
        for (const command of [['keys', 'list'], ['migrate'], ['serve', '--port', '0']]) {
          const result = await runTabula([...command, '--data', dataDir], { env: { ...cleanEnv(), DATABASE_URL: url } });
          expect(result, `${url} ${command[0]}`).toEqual({
            code: 1,
            signal: null,
            stdout: '',
            stderr: `tabula ${command[0]}: DATABASE_URL must be a postgres:// or postgresql:// URL, got ${got}; leave it unset to use SQLite in the data directory\n`,
          });
        }
      }
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('commands other than serve, init and migrate refuse a data directory or SQLite database that does not exist, and create nothing', { timeout: cliTestTimeout }, async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-missing-'));
    try {
      const typo = path.join(parent, 'dta');
      for (const command of [['keys', 'list'], ['users', 'list'], ['accounts', 'create', '--email', 'a@example.com'], ['files', 'pending']]) {
        expect(await tabula(...command, '--data', typo), command.join(' ')).toEqual({
          code: 1,
          signal: null,
          stdout: '',
          stderr: `tabula ${command[0]}: No data directory ${typo}: check --data or TABULA_DATA_DIR; \`tabula init\` or \`tabula serve\` creates a new one\n`,
        });
      }
      expect(fs.existsSync(typo)).toBe(false);
      expect(await tabula('keys', 'list', '--data', parent)).toMatchObject({
        code: 1,
        stderr: `tabula keys: No Tabula database in ${parent} (no tabula.db): check --data or TABULA_DATA_DIR; \`tabula init\` or \`tabula serve\` creates a new one\n`,
      });
      expect(fs.readdirSync(parent)).toEqual([]);
      // migrate and init may create it.
      expect(await runTabula(['migrate', '--json', '--data', typo], { env: { ...cleanEnv(), TABULA_SECRET: 's' } })).toMatchObject({ code: 0, stderr: '' });
      expect(await tabula('keys', 'list', '--data', typo)).toMatchObject({ code: 0, stderr: '' });
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  it.runIf(testEngine === 'postgres')('refuses a PostgreSQL database without a Tabula schema, and leaves it empty', { timeout: cliTestTimeout }, async () => {
    const cli = await createCli();
    try {
      const shown = cli.database.databaseUrl!.replace(/\?.*$/, '');
      for (const command of [['keys', 'list'], ['users', 'create', '--email', 'a@example.com', '--name', 'A']]) {
        expect(await cli.run(...command), command.join(' ')).toEqual({
          code: 1,
          signal: null,
          stdout: '',
          stderr: `tabula ${command[0]}: The PostgreSQL database ${shown} has no Tabula schema: check DATABASE_URL; \`tabula init\`, \`tabula serve\` or \`tabula migrate\` sets one up\n`,
        });
      }
      expect(await cli.json('init', '--email', 'a@example.com', '--json')).toMatchObject({ email: 'a@example.com' });
      expect(await cli.run('keys', 'list')).toMatchObject({ code: 0, stderr: '' });
    } finally {
      await cli.close();
    }
  });
});

describe('list commands and the initial credentials', () => {
  beforeAll(ensureBuilt, buildTimeout);
  let cli: Cli;
  let first: { account_id: number; user_id: number };
  let second: { account_id: number; user_id: number };
  let member: { id: number };
  beforeAll(async () => {
    cli = await createCli({ secret: 'lists-test-secret' });
    first = await cli.json('init', '--email', 'first@example.com', '--name', 'First Owner', '--json');
    second = await cli.json('accounts', 'create', '--email', 'second@example.com', '--json');
    member = await cli.json('users', 'create', '--email', 'member@example.com', '--name', 'Mem Ber', '--account-id', String(first.account_id), '--json');
  }, 120_000);
  afterAll(() => cli?.close(), 60_000);

  it('users list prints a header row and one row per user; --account-id narrows; --json is one object', { timeout: cliTestTimeout }, async () => {
    const lines = (await cli.ok('users', 'list')).trimEnd().split('\n').map((line) => line.split(/ {2,}/));
    expect(lines[0]).toEqual(['ID', 'ACCOUNT', 'EMAIL', 'NAME', 'CREATED AT']);
    expect(lines.slice(1).map((row) => row.slice(0, 4))).toEqual([
      [String(first.user_id), String(first.account_id), 'first@example.com', 'First Owner'],
      [String(second.user_id), String(second.account_id), 'second@example.com', 'second'],
      [String(member.id), String(first.account_id), 'member@example.com', 'Mem Ber'],
    ]);
    for (const row of lines.slice(1)) expect(row[4]).toMatch(serviceDateTime);

    const { users } = expectSingleJsonObject(await cli.ok('users', 'list', '--account-id', String(second.account_id), '--json'));
    expect(users).toEqual([{ id: second.user_id, account_id: second.account_id, email: 'second@example.com', name: 'second', created_at: expect.stringMatching(serviceDateTime) }]);
    expect(await cli.run('users', 'list', '--account-id', '999')).toMatchObject({ code: 1, stderr: 'tabula users: Account not found: 999\n' });
  });

  it('accounts list prints a header row and one row per account with its owner and number of users', { timeout: cliTestTimeout }, async () => {
    const lines = (await cli.ok('accounts', 'list')).trimEnd().split('\n').map((line) => line.split(/ {2,}/));
    expect(lines[0]).toEqual(['ID', 'NAME', 'OWNER', 'USERS', 'CREATED AT']);
    expect(lines.slice(1).map((row) => row.slice(0, 4))).toEqual([
      [String(first.account_id), 'First Owner', 'first@example.com', '2'],
      [String(second.account_id), 'second@example.com', 'second@example.com', '1'],
    ]);
    const { accounts } = expectSingleJsonObject(await cli.ok('accounts', 'list', '--json'));
    expect(accounts[1]).toEqual({ id: second.account_id, name: 'second@example.com', owner_user_id: second.user_id, owner_email: 'second@example.com', users: 1, created_at: expect.stringMatching(serviceDateTime) });
  });

  it('serve never overwrites initial-credentials.json: a new database in the same directory writes its own file and says so', { timeout: cliTestTimeout }, async () => {
    const other = await createCli();
    try {
      const kept = path.join(other.dataDir, 'initial-credentials.json');
      fs.writeFileSync(kept, '{"email":"admin@localhost","password":"the only copy"}\n', { mode: 0o600 });
      const server = await other.startServer();
      expect(fs.readFileSync(kept, 'utf8')).toBe('{"email":"admin@localhost","password":"the only copy"}\n');
      const written = fs.readdirSync(other.dataDir).filter((name) => /^initial-credentials-\d{8}T\d{6}Z\.json$/.test(name));
      expect(written).toHaveLength(1);
      const file = path.join(other.dataDir, written[0]);
      const credentials = JSON.parse(fs.readFileSync(file, 'utf8'));
      expect(credentials).toMatchObject({ email: 'admin@localhost', api_key: expect.stringMatching(/^tbk_/) });
      expect(server.stdout()).toMatch(
        new RegExp(`^${kept.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} already exists \\(credentials of another database, such as the SQLite one before DATABASE_URL was set\\); it was left as it is\\.\nCreated the first account \\(shown once; also saved to ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\):\n`),
      );
      expect(await server.request('GET', '/api/spaces/list', { key: credentials.api_key })).toMatchObject({ status: 200 });
    } finally {
      await other.close();
    }
  });
});
