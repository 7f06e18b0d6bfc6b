import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTimeout, type Cli, cliTestTimeout, createCli, ensureBuilt, expectSingleJsonObject } from './run-cli.js';

const createdAccountKeys = ['account_id', 'api_key', 'email', 'password', 'user_id'];

describe('tabula init, accounts create, users create/update', () => {
  beforeAll(ensureBuilt, buildTimeout);
  let cli: Cli | undefined;
  afterEach(async () => {
    await cli?.close();
    cli = undefined;
  });

  it('init on an empty database prints one JSON object with a generated password and an account key', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    const result = await cli.run('init', '--email', 'a@example.com', '--json');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const created = expectSingleJsonObject(result.stdout);
    expect(Object.keys(created).sort()).toEqual(createdAccountKeys);
    expect(created).toEqual({
      account_id: expect.any(Number),
      user_id: expect.any(Number),
      email: 'a@example.com',
      password: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/),
      api_key: expect.stringMatching(/^tbk_[A-Za-z0-9_-]{43}$/),
    });
  });

  it('init keeps the given --password and --name', { timeout: cliTestTimeout }, async () => {
    cli = await createCli({ secret: 'cli-test-secret' });
    const created = await cli.json('init', '--email', 'Owner@Example.com', '--name', 'Ada Owner', '--password', 'correct horse battery', '--json');
    expect(Object.keys(created).sort()).toEqual(createdAccountKeys);
    expect(created).toMatchObject({ email: 'owner@example.com', password: 'correct horse battery' });

    const server = await cli.startServer();
    const login = await server.request('POST', '/api/auth/login', { body: { email: 'owner@example.com', password: 'correct horse battery' } });
    expect(login).toMatchObject({ status: 200, body: { user: { id: created.user_id, email: 'owner@example.com', name: 'Ada Owner' } } });
  });

  it('a second init fails with exit code 1, a clear message on stderr and nothing on stdout', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    await cli.json('init', '--email', 'a@example.com', '--json');
    expect(await cli.run('init', '--email', 'b@example.com', '--json')).toEqual({
      code: 1,
      signal: null,
      stdout: '',
      stderr: 'tabula init: This database already has an account; use `tabula accounts create` to add another\n',
    });
    // Nothing was created by the failed run.
    const { keys } = await cli.json('keys', 'list', '--json');
    expect(keys).toHaveLength(1);
  });

  it('init without --email is a usage error (exit code 2)', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    const result = await cli.run('init', '--json');
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe('tabula init: init needs --email\nusage: tabula init --email E [--name N] [--password P] [--json]\n(run `tabula init --help` for every option and an example)\n');
  });

  it('init rejects a password shorter than 8 characters and creates nothing', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    expect(await cli.run('init', '--email', 'a@example.com', '--password', 'short')).toEqual({
      code: 1,
      signal: null,
      stdout: '',
      stderr: 'tabula init: Invalid password: must be at least 8 characters\n',
    });
    expect(await cli.json('init', '--email', 'a@example.com', '--json')).toMatchObject({ email: 'a@example.com' });
  });

  it('init before the first serve makes serve skip the admin@localhost bootstrap', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    const created = await cli.json('init', '--email', 'a@example.com', '--json');
    const server = await cli.startServer();
    expect(server.stdout()).toBe(`listening on http://127.0.0.1:${server.port}\n`);
    expect(fs.existsSync(path.join(cli.dataDir, 'initial-credentials.json'))).toBe(false);

    expect(await server.request('GET', '/api/spaces/list', { key: created.api_key })).toMatchObject({ status: 200, body: [] });
    const login = await server.request('POST', '/api/auth/login', { body: { email: 'a@example.com', password: created.password } });
    expect(login).toMatchObject({ status: 200, body: { user: { id: created.user_id, email: 'a@example.com', name: 'a' } } });
    expect(await server.request('POST', '/api/auth/login', { body: { email: 'admin@localhost', password: created.password } })).toMatchObject({
      status: 401,
      body: { error: { message: 'Invalid email or password' } },
    });
  });

  it('accounts create adds an independent account with the same output as init', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    const first = await cli.json('init', '--email', 'a@example.com', '--json');
    const second = await cli.json('accounts', 'create', '--email', 'b@example.com', '--password', 'b-password-123', '--json');
    expect(Object.keys(second).sort()).toEqual(createdAccountKeys);
    expect(second).toMatchObject({ email: 'b@example.com', password: 'b-password-123', api_key: expect.stringMatching(/^tbk_/) });
    expect(second.account_id).not.toBe(first.account_id);

    // Accounts never see each other's spaces.
    const server = await cli.startServer();
    const space = await server.request('POST', '/api/spaces/create', { key: first.api_key, body: { name: 'Only A' } });
    expect(space.status).toBe(200);
    expect(await server.request('GET', '/api/spaces/list', { key: first.api_key })).toMatchObject({ status: 200, body: [{ name: 'Only A' }] });
    expect(await server.request('GET', '/api/spaces/list', { key: second.api_key })).toMatchObject({ status: 200, body: [] });
  });

  it('accounts create refuses an email that is already in use', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    await cli.json('init', '--email', 'a@example.com', '--json');
    expect(await cli.run('accounts', 'create', '--email', 'A@example.com')).toEqual({
      code: 1,
      signal: null,
      stdout: '',
      stderr: 'tabula accounts: Email already in use: a@example.com\n',
    });
  });

  it('users create implies the account while there is one and requires --account-id once there are several', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    const first = await cli.json('init', '--email', 'a@example.com', '--json');
    const implied = await cli.json('users', 'create', '--email', 'member1@example.com', '--name', 'Member One', '--json');
    expect(implied).toEqual({ id: expect.any(Number), email: 'member1@example.com', name: 'Member One', password: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/) });

    const second = await cli.json('accounts', 'create', '--email', 'b@example.com', '--json');
    expect(await cli.run('users', 'create', '--email', 'member2@example.com', '--name', 'Member Two', '--json')).toEqual({
      code: 1,
      signal: null,
      stdout: '',
      stderr: `tabula users: Several accounts exist (${first.account_id}, ${second.account_id}): pass --account-id\n`,
    });

    const generated = await cli.json('users', 'create', '--email', 'member2@example.com', '--name', 'Member Two', '--account-id', String(second.account_id), '--json');
    expect(generated).toEqual({ id: expect.any(Number), email: 'member2@example.com', name: 'Member Two', password: expect.any(String) });

    const given = await cli.json('users', 'create', '--email', 'member3@example.com', '--name', 'Member Three', '--password', 'given-password', '--account-id', String(first.account_id), '--json');
    expect(given).toEqual({ id: expect.any(Number), email: 'member3@example.com', name: 'Member Three' });

    expect(await cli.run('users', 'create', '--email', 'member4@example.com', '--name', 'Nobody', '--account-id', '999')).toEqual({
      code: 1,
      signal: null,
      stdout: '',
      stderr: 'tabula users: Account not found: 999\n',
    });
  });

  it('users create puts the user in the chosen account: a personal key of that user sees its spaces only', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    const first = await cli.json('init', '--email', 'a@example.com', '--json');
    const second = await cli.json('accounts', 'create', '--email', 'b@example.com', '--json');
    const user = await cli.json('users', 'create', '--email', 'bob@example.com', '--name', 'Bob', '--account-id', String(second.account_id), '--json');
    const key = await cli.json('keys', 'create', '--name', 'Bob key', '--user', String(user.id), '--json');

    const server = await cli.startServer();
    await server.request('POST', '/api/spaces/create', { key: first.api_key, body: { name: 'A space' } });
    const spaceOfB = (await server.request('POST', '/api/spaces/create', { key: second.api_key, body: { name: 'B space' } })).body;
    expect(await server.request('POST', `/api/space/${spaceOfB.id}/members/add`, { key: second.api_key, body: { user_id: user.id, role: 'reader' } })).toMatchObject({ status: 200 });
    expect(await server.request('GET', '/api/spaces/list', { key: key.key })).toMatchObject({ status: 200, body: [{ id: spaceOfB.id, name: 'B space' }] });
  });

  it('users create without --name is a usage error (exit code 2)', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    const result = await cli.run('users', 'create', '--email', 'x@example.com');
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/^tabula users: users create needs --email and --name\nusage: tabula users create/);
  });

  it('users update changes the email and the name, and the new email logs in while the old one does not', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    await cli.json('init', '--email', 'a@example.com', '--json');
    const user = await cli.json('users', 'create', '--email', 'old@example.com', '--name', 'Old Name', '--password', 'user-password', '--json');
    const server = await cli.startServer();
    expect(await server.request('POST', '/api/auth/login', { body: { email: 'old@example.com', password: 'user-password' } })).toMatchObject({ status: 200 });

    const updated = await cli.json('users', 'update', String(user.id), '--email', 'New@Example.com', '--name', 'New Name', '--json');
    expect(updated).toEqual({ id: user.id, email: 'new@example.com', name: 'New Name' });

    expect(await server.request('POST', '/api/auth/login', { body: { email: 'new@example.com', password: 'user-password' } })).toMatchObject({
      status: 200,
      body: { user: { id: user.id, email: 'new@example.com', name: 'New Name' } },
    });
    expect(await server.request('POST', '/api/auth/login', { body: { email: 'old@example.com', password: 'user-password' } })).toMatchObject({
      status: 401,
      body: { error: { code: 'invalid_credentials', message: 'Invalid email or password' } },
    });
  });

  it('users update --password replaces the password; without --json it prints one readable line per field', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    await cli.json('init', '--email', 'a@example.com', '--json');
    const user = await cli.json('users', 'create', '--email', 'u@example.com', '--name', 'U', '--password', 'first-password', '--json');
    expect(await cli.ok('users', 'update', String(user.id), '--password', 'second-password')).toBe(`id: ${user.id}\nemail: u@example.com\nname: U\n`);

    const server = await cli.startServer();
    expect(await server.request('POST', '/api/auth/login', { body: { email: 'u@example.com', password: 'second-password' } })).toMatchObject({ status: 200 });
    expect(await server.request('POST', '/api/auth/login', { body: { email: 'u@example.com', password: 'first-password' } })).toMatchObject({ status: 401 });
  });

  it('users update fails clearly for an unknown user, a taken email, or nothing to change', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    const owner = await cli.json('init', '--email', 'a@example.com', '--json');
    const user = await cli.json('users', 'create', '--email', 'u@example.com', '--name', 'U', '--json');
    expect(await cli.run('users', 'update', '999', '--name', 'X')).toEqual({ code: 1, signal: null, stdout: '', stderr: 'tabula users: User not found: 999\n' });
    expect(await cli.run('users', 'update', String(user.id), '--email', 'a@example.com')).toEqual({
      code: 1,
      signal: null,
      stdout: '',
      stderr: 'tabula users: Email already in use: a@example.com\n',
    });
    expect(await cli.run('users', 'update', String(owner.user_id))).toEqual({
      code: 2,
      signal: null,
      stdout: '',
      stderr: 'tabula users: users update needs --email, --name or --password\nusage: tabula users update ID [--email E] [--name N] [--password P] [--json]\n(run `tabula users update --help` for every option and an example)\n',
    });
    const notAnId = await cli.run('users', 'update', 'abc', '--name', 'X');
    expect(notAnId).toMatchObject({ code: 2, stdout: '', stderr: 'tabula users: user id must be a positive integer, got "abc"\n' });
  });
});
