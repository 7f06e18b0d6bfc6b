import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTimeout, type Cli, cliTestTimeout, createCli, ensureBuilt } from './run-cli.js';

/** Contract §1: every command works against the same database as a running server (SQLite WAL or PostgreSQL). */
describe('the CLI next to a running server', () => {
  beforeAll(ensureBuilt, buildTimeout);
  let cli: Cli | undefined;
  afterEach(async () => {
    await cli?.close();
    cli = undefined;
  });

  it('a key created by the CLI while serve runs works against the server immediately', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    const server = await cli.startServer();
    const key = await cli.json('keys', 'create', '--name', 'Fresh', '--account', '--json');
    expect(await server.request('GET', '/api/spaces/list', { key: key.key })).toMatchObject({ status: 200, body: [] });
    expect(await server.request('POST', '/api/spaces/create', { key: key.key, body: { name: 'Made with a fresh key' } })).toMatchObject({ status: 200 });

    const user = await cli.json('users', 'create', '--email', 'fresh@example.com', '--name', 'Fresh', '--password', 'fresh-password', '--json');
    expect(await server.request('POST', '/api/auth/login', { body: { email: 'fresh@example.com', password: 'fresh-password' } })).toMatchObject({
      status: 200,
      body: { user: { id: user.id, email: 'fresh@example.com', name: 'Fresh' } },
    });
  });

  it('CLI writes and server writes interleave without locking errors', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    const server = await cli.startServer();
    const { keys } = await cli.json('keys', 'list', '--json');
    expect(keys).toHaveLength(1);
    const bootstrapKey = (server.stdout().match(/API key: {2}(tbk_\S+)/) ?? [])[1];
    expect(bootstrapKey).toMatch(/^tbk_/);

    // The server keeps writing (space creates) while three CLI processes write keys.
    let serverWrites = 0;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        const response = await server.request('POST', '/api/spaces/create', { key: bootstrapKey, body: { name: `Space ${serverWrites}` } });
        expect(response.status).toBe(200);
        serverWrites += 1;
      }
    })();
    try {
      const created = await Promise.all(['One', 'Two', 'Three'].map((name) => cli!.json('keys', 'create', '--name', name, '--account', '--json')));
      for (const key of created) expect(await server.request('GET', '/api/spaces/list', { key: key.key })).toMatchObject({ status: 200 });
    } finally {
      writing = false;
      await writer;
    }
    expect(serverWrites).toBeGreaterThan(0);
    const spaces = await server.request('GET', '/api/spaces/list', { key: bootstrapKey });
    expect(spaces.body).toHaveLength(serverWrites);
    expect((await cli.json('keys', 'list', '--json')).keys).toHaveLength(4);
  });

  it('migrate reports an up-to-date schema while serve runs', { timeout: cliTestTimeout }, async () => {
    cli = await createCli();
    await cli.startServer();
    expect(await cli.json('migrate', '--json')).toEqual({ applied: [] });
    expect(await cli.ok('migrate')).toBe('schema is up to date\n');
  });
});
