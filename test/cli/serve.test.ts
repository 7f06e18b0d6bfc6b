import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTimeout, type Cli, cliTestTimeout, createCli, ensureBuilt, fileMode, isRunning } from './run-cli.js';
import { loadConfig } from '../../src/config.js';

describe('tabula serve', () => {
  beforeAll(ensureBuilt, buildTimeout);
  let cli: Cli | undefined;
  afterEach(async () => {
    await cli?.close();
    cli = undefined;
  });

  it('bootstraps admin@localhost with a key on an empty database, prints them once and saves them with mode 0600', { timeout: cliTestTimeout }, async () => {
    cli = await createCli(); // no TABULA_SECRET: the server generates <data>/secret
    const server = await cli.startServer();

    const credentialsFile = path.join(cli.dataDir, 'initial-credentials.json');
    expect(fileMode(credentialsFile)).toBe(0o600);
    const credentials = JSON.parse(fs.readFileSync(credentialsFile, 'utf8'));
    expect(Object.keys(credentials).sort()).toEqual(['account_id', 'api_key', 'email', 'password', 'user_id']);
    expect(credentials).toMatchObject({ account_id: expect.any(Number), user_id: expect.any(Number), email: 'admin@localhost' });
    expect(credentials.password).toMatch(/^\S{8,}$/);
    expect(credentials.api_key).toMatch(/^tbk_[A-Za-z0-9_-]+$/);

    expect(server.stdout()).toBe(
      [
        `Created the first account (shown once; also saved to ${credentialsFile}):`,
        `  login:    admin@localhost / ${credentials.password}`,
        `  API key:  ${credentials.api_key}`,
        `listening on http://127.0.0.1:${server.port}`,
        '',
      ].join('\n'),
    );
    expect(server.port).toBeGreaterThan(0);
    expect(server.stdout().split(credentials.api_key)).toHaveLength(2); // shown exactly once

    const secretFile = path.join(cli.dataDir, 'secret');
    expect(fileMode(secretFile)).toBe(0o600);
    expect(fs.readFileSync(secretFile, 'utf8')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    expect(await server.request('GET', '/healthz')).toMatchObject({ status: 200, body: { ok: true } });
    expect(await server.request('GET', '/api/spaces/list', { key: credentials.api_key })).toMatchObject({ status: 200, body: [] });
    expect(await server.request('GET', '/api/spaces/list')).toMatchObject({
      status: 401,
      body: { error: { code: 'missing_api_key', message: 'Missing API key' } },
    });
    const login = await server.request('POST', '/api/auth/login', { body: { email: 'admin@localhost', password: credentials.password } });
    expect(login).toMatchObject({ status: 200, body: { user: { id: credentials.user_id, email: 'admin@localhost', name: 'Admin' } } });

    expect(await server.stop()).toEqual({ code: 0, signal: null });
    expect(isRunning(server.pid)).toBe(false);
  });

  it('does not create another account or print credentials when started again on the same data', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    const first = await cli.startServer();
    await first.stop();
    const credentialsFile = path.join(cli.dataDir, 'initial-credentials.json');
    const savedCredentials = fs.readFileSync(credentialsFile, 'utf8');
    const secret = fs.readFileSync(path.join(cli.dataDir, 'secret'), 'utf8');

    const second = await cli.startServer();
    expect(second.stdout()).toBe(`listening on http://127.0.0.1:${second.port}\n`);
    expect(fs.readFileSync(credentialsFile, 'utf8')).toBe(savedCredentials);
    expect(fs.readFileSync(path.join(cli.dataDir, 'secret'), 'utf8')).toBe(secret);

    const { api_key: apiKey, account_id: accountId } = JSON.parse(savedCredentials);
    expect(await second.request('GET', '/api/spaces/list', { key: apiKey })).toMatchObject({ status: 200, body: [] });
    const { keys } = await cli.json('keys', 'list', '--json');
    expect(keys).toEqual([expect.objectContaining({ name: 'Account key', kind: 'account', account_id: accountId, revoked_at: null })]);
    // Still exactly one account: users create needs no --account-id.
    expect(await cli.json('users', 'create', '--email', 'second@example.com', '--name', 'Second', '--json')).toMatchObject({ email: 'second@example.com' });
  });

  it('uses TABULA_SECRET when set and then writes no secret file', { timeout: cliTestTimeout }, async () => {
    cli = await createCli({ secret: 'a-test-secret-from-the-environment' });
    const server = await cli.startServer();
    expect(server.stdout()).toContain('admin@localhost');
    expect(fs.existsSync(path.join(cli.dataDir, 'secret'))).toBe(false);
    expect(fs.existsSync(path.join(cli.dataDir, 'initial-credentials.json'))).toBe(true);
  });

  it('prints the port it really listens on when given --port 0, and two servers can share the data', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    const first = await cli.startServer();
    const second = await cli.startServer();
    expect(first.port).not.toBe(second.port);
    // Only the first start bootstrapped; the second found the account.
    expect(second.stdout()).toBe(`listening on http://127.0.0.1:${second.port}\n`);
    const { api_key: apiKey } = JSON.parse(fs.readFileSync(path.join(cli.dataDir, 'initial-credentials.json'), 'utf8'));
    const created = await first.request('POST', '/api/spaces/create', { key: apiKey, body: { name: 'Shared' } });
    expect(created.status).toBe(200);
    expect(await second.request('GET', '/api/spaces/list', { key: apiKey })).toMatchObject({ status: 200, body: [{ id: created.body.id, name: 'Shared' }] });
  });

  it('prints its help with --help instead of starting', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    const result = await cli.run('serve', '--help');
    expect(result).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(result.stdout).toMatch(/^usage: tabula serve \[--port 8080\] \[--host 127\.0\.0\.1\] \[--data \.\/data\] \[--processes N\|auto\]\n\nStarts the HTTP server/);
    for (const flag of ['--port PORT', '--host HOST', '--processes N', '--data DIR', '-h, --help']) expect(result.stdout).toContain(`  ${flag} `);
    expect(result.stdout).not.toContain('--json');
    expect(result.stdout).toMatch(/\nexamples:\n {2}tabula serve --port 8080/);
    expect(fs.existsSync(path.join(cli.dataDir, 'initial-credentials.json'))).toBe(false);
  });

  it('bounds the growth of the heap with TABULA_HEAP_GROWTH (20 unless set; 0 leaves it to V8), and names a value that is not a whole number', { timeout: cliTestTimeout }, async () => {
    expect(loadConfig({}).heapGrowthPercent).toBe(20);
    expect(loadConfig({ TABULA_HEAP_GROWTH: '0' }).heapGrowthPercent).toBe(0);
    cli = await createCli({ env: { TABULA_HEAP_GROWTH: '50' } });
    const server = await cli.startServer();
    expect((await server.request('GET', '/healthz')).status).toBe(200);
    const refused = await createCli({ env: { TABULA_HEAP_GROWTH: 'half' } });
    try {
      expect(await refused.run('serve', '--port', '0')).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining('TABULA_HEAP_GROWTH must be a whole number, got "half"') });
    } finally {
      await refused.close();
    }
  });

  // process.execve: Node 22.15+ on Unix; /proc: Linux (CI's and this project's machines).
  it.runIf(typeof process.execve === 'function' && process.platform === 'linux')('runs with a young generation of 8 MB a semi-space: the same process re-executed once, answering as before', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    const server = await cli.startServer();
    const commandLine = fs.readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0');
    expect(commandLine.filter((argument) => argument.startsWith('--max-semi'))).toEqual(['--max-semi-space-size=8']);
    expect(commandLine).toContain('serve');
    // Two malloc arenas, set for the re-executed process (command-heap.ts, serverMemoryEnv).
    expect(fs.readFileSync(`/proc/${server.pid}/environ`, 'utf8').split('\0')).toContain('MALLOC_ARENA_MAX=2');
    expect((await server.request('GET', '/healthz')).status).toBe(200);
  });

  it('fails before creating anything, naming the port, when the port is taken', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    const server = await cli.startServer();
    const credentialsFile = path.join(cli.dataDir, 'initial-credentials.json');
    const saved = fs.readFileSync(credentialsFile, 'utf8');
    expect(await cli.run('serve', '--port', String(server.port))).toEqual({
      code: 1,
      signal: null,
      stdout: '',
      stderr: `tabula serve: Port ${server.port} is already in use on 127.0.0.1 (another tabula serve?); stop it or choose another port with --port or PORT\n`,
    });

    // On an empty database too: no account, no credentials file, nothing printed.
    const other = await createCli();
    try {
      const result = await other.run('serve', '--port', String(server.port));
      expect(result).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(new RegExp(`^tabula serve: Port ${server.port} is already in use`)) });
      expect(fs.existsSync(path.join(other.dataDir, 'initial-credentials.json'))).toBe(false);
    } finally {
      await other.close();
    }
    expect(fs.readFileSync(credentialsFile, 'utf8')).toBe(saved);
  });
});
