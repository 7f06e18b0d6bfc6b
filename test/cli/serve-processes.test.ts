import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTimeout, cliTestTimeout, createCli, queryDatabase, runTabula, type Cli } from './run-cli.js';

/** The processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // The parent pid is the 4th field, after `(command)` which may hold spaces.
        const stat = fs.readFileSync(path.join('/proc', entry, 'stat'), 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('tabula serve --processes 2', () => {
  let cli: Cli;
  beforeAll(async () => {
    cli = await createCli();
  }, buildTimeout);
  afterAll(async () => cli?.close());

  it('runs two workers on one port, bootstraps the first account once, answers, and stops with exit 0', { timeout: cliTestTimeout * 2 }, async () => {
    const server = await cli.startServer('--processes', '2');
    expect(server.stdout().match(/Created the first account/g)).toHaveLength(1);
    expect(server.stdout().match(/^listening on /gm)).toHaveLength(1);
    expect(childrenOf(server.pid)).toHaveLength(2);
    // The primary re-executed itself with a bounded young generation; its workers inherit the size.
    if (typeof process.execve === 'function') {
      for (const pid of [server.pid, ...childrenOf(server.pid)]) {
        expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((argument) => argument.startsWith('--max-semi'))).toEqual(['--max-semi-space-size=8']);
      }
    }
    const { api_key: key } = JSON.parse(fs.readFileSync(path.join(cli.dataDir, 'initial-credentials.json'), 'utf8'));
    // Fresh connections each time: the workers take turns, and every one of them knows the key.
    for (let index = 0; index < 6; index++) {
      expect((await server.request('GET', '/readyz')).body).toEqual({ ready: true });
      expect((await server.request('GET', '/api/spaces/list', { key })).status).toBe(200);
    }
    expect(await queryDatabase(cli, 'SELECT id FROM accounts')).toHaveLength(1);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    expect(server.stderr()).toBe('');
  });

  it('refuses a --processes that is not a count or auto, naming it', { timeout: cliTestTimeout }, async () => {
    const result = await runTabula(['serve', '--processes', 'many', '--data', cli.dataDir], { env: cli.env });
    expect(result).toMatchObject({ code: 1, stderr: expect.stringContaining('--processes (TABULA_PROCESSES) must be a whole number from 1 to 256 or auto, got "many"') });
  });
});
