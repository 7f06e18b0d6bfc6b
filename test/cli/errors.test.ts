import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from '../test-database.js';
import { buildTimeout, cleanEnv, type Cli, cliTestTimeout, createCli, ensureBuilt, expectSingleJsonObject, runTabula } from './run-cli.js';

describe('tabula command line errors and output format', () => {
  beforeAll(ensureBuilt, buildTimeout);
  let cli: Cli;
  beforeAll(async () => {
    cli = await createCli({ secret: 'errors-test-secret' });
  }, 60_000);
  afterAll(() => cli?.close(), 60_000);

  it('an unknown command exits with code 2 and prints the usage on stderr only', { timeout: cliTestTimeout }, async () => {
    const result = await runTabula(['frobnicate', '--json'], { env: cleanEnv() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^tabula: unknown command "frobnicate"\n\nusage: tabula <command> \[options\]\n/);
    for (const command of ['serve', 'init', 'accounts create|list', 'users create|update|list', 'keys create|list|revoke|rotate', 'migrate']) expect(result.stderr).toContain(`  ${command} `);
  });

  it('--help prints the usage on stdout with exit code 0', { timeout: cliTestTimeout }, async () => {
    const result = await runTabula(['--help'], { env: cleanEnv() });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^usage: tabula <command> \[options\]\n/);
  });

  it('with no command at all prints the usage on stderr and exits with code 2', { timeout: cliTestTimeout }, async () => {
    const result = await runTabula([], { env: cleanEnv() });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/^usage: tabula <command> \[options\]\n/);
  });

  it('each command prints its own usage with --help and exits 0 without touching the database', { timeout: cliTestTimeout }, async () => {
    const cases: Array<[string[], RegExp]> = [
      [['init', '--help'], /^usage: tabula init --email E/],
      [['accounts', '--help'], /^usage: tabula accounts create --email E/],
      [['users', 'create', '--help'], /^usage: tabula users create --email E --name N/],
      [['keys', '--help'], /^usage: tabula keys create --name N \(--account \| --user ID\)/],
      [['keys', 'create', '-h'], /^usage: tabula keys create/],
      [['migrate', '--help'], /^usage: tabula migrate/],
    ];
    for (const [args, usage] of cases) {
      const result = await cli.run(...args);
      expect(result, args.join(' ')).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout, args.join(' ')).toMatch(usage);
    }
  });

  it('an unknown option or subcommand is a usage error: exit code 2, message on stderr, nothing on stdout', { timeout: cliTestTimeout }, async () => {
    const unknownOption = await cli.run('keys', 'list', '--bogus');
    expect(unknownOption).toMatchObject({ code: 2, stdout: '' });
    expect(unknownOption.stderr).toBe('tabula keys: unknown option --bogus\nusage: tabula keys list [--json]\n(run `tabula keys list --help` for every option and an example)\n');

    const unknownSubcommand = await cli.run('keys', 'explode');
    expect(unknownSubcommand).toMatchObject({ code: 2, stdout: '' });
    expect(unknownSubcommand.stderr).toMatch(/^tabula keys: unknown command "keys explode"\nusage: tabula keys create .*\n {7}tabula keys list \[--json\]\n/);

    expect(await cli.run('accounts', 'delete')).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'tabula accounts: unknown command "accounts delete"\nusage: tabula accounts create --email E [--name N] [--password P] [--json]\n       tabula accounts list [--json]\n(run `tabula accounts --help` for more)\n',
    });
    expect(await cli.run('users')).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^tabula users: users needs a command\nusage: tabula users create/) });
    expect(await cli.run('serve', '--port', '1', 'extra')).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^tabula serve: unexpected argument "extra"\n/) });
  });

  it('a command that needs an account fails clearly on an empty database', { timeout: cliTestTimeout }, async () => {
    const empty = await createCli();
    try {
      await empty.ok('migrate');
      expect(await empty.run('keys', 'create', '--name', 'K', '--account', '--json')).toEqual({
        code: 1,
        signal: null,
        stdout: '',
        stderr: 'tabula keys: No account yet: run `tabula init --email you@example.com` first\n',
      });
    } finally {
      await empty.close();
    }
  });

  it('a database that cannot be reached fails on one line naming the driver error, not a stack trace', { timeout: cliTestTimeout }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-unreachable-'));
    try {
      const env = cleanEnv();
      env.TABULA_SECRET = 'errors-test-secret';
      // PostgreSQL: nothing listens on port 1. SQLite: the database file is a directory.
      if (testEngine === 'postgres') env.DATABASE_URL = 'postgres://postgres@127.0.0.1:1/nothing';
      else fs.mkdirSync(path.join(dataDir, 'tabula.db'));
      const detail = testEngine === 'postgres' ? 'connect ECONNREFUSED 127.0.0.1:1' : 'unable to open database file (SQLITE_CANTOPEN)';
      for (const command of [['keys', 'list'], ['migrate']]) {
        const result = await runTabula([...command, '--data', dataDir], { env });
        expect(result, command.join(' ')).toEqual({ code: 1, signal: null, stdout: '', stderr: `tabula ${command[0]}: Database unavailable; try again later (${detail})\n` });
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('every --json output is exactly one line holding one JSON object', { timeout: cliTestTimeout }, async () => {
    const runs: string[][] = [];
    const record = async (...args: string[]) => {
      runs.push(args);
      const result = await cli.run(...args);
      expect(result, args.join(' ')).toMatchObject({ code: 0, stderr: '' });
      return expectSingleJsonObject(result.stdout);
    };
    const owner = await record('init', '--email', 'json-owner@example.com', '--json');
    await record('accounts', 'create', '--email', 'json-other@example.com', '--json');
    const user = await record('users', 'create', '--email', 'json-user@example.com', '--name', 'Json', '--account-id', String(owner.account_id), '--json');
    await record('users', 'update', String(user.id), '--name', 'Json Renamed', '--json');
    const key = await record('keys', 'create', '--name', 'Json key', '--account', '--account-id', String(owner.account_id), '--json');
    await record('keys', 'list', '--json');
    await record('keys', 'rotate', String(key.id), '--json');
    await record('keys', 'revoke', String(key.id), '--json');
    await record('migrate', '--json');
    expect(runs).toHaveLength(9);
  });
});
