import { execFile } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../build-test-app.js';
import { createAccount, createSpace, type World } from '../factories.js';
import { repoRoot } from './run-cli.js';

const run = promisify(execFile);
/** npm pack (with its tsc build) and an install on a busy 2-core machine. */
const packTimeout = 240_000;

/**
 * `@tabula/client` as a user gets it: `npm pack` of the workspace package, installed from the
 * tarball into an empty project outside the repository (so nothing resolves through the
 * repository's own node_modules), imported by plain Node and used against a real server.
 */
describe('the packed @tabula/client in an empty project', () => {
  const ctx = useTestApp();
  let world: World;
  let baseUrl: string;
  let scratch: string;

  beforeAll(async () => {
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    world = await createAccount(ctx);
    await createSpace(ctx, world, 'Packed');
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-client-pack-'));
  }, packTimeout);
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it('packs, installs from the tarball alone and lists the spaces through the API', { timeout: packTimeout }, async () => {
    const packed = await run('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: path.join(repoRoot, 'clients/typescript') });
    const [{ filename, files }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as [{ filename: string; files: { path: string }[] }];
    expect(files.map((file) => file.path)).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/schema.d.ts', 'README.md', 'package.json']));

    const project = path.join(scratch, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'scratch', version: '1.0.0', private: true, type: 'module' }));
    // openapi-fetch comes from npm's cache when it holds it (the repository's own install put it there).
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(scratch, filename)], { cwd: project });

    const script = [
      "import { createTabulaClient } from '@tabula/client';",
      `const client = createTabulaClient(${JSON.stringify(baseUrl)}, process.env.TABULA_KEY);`,
      "const { data, error } = await client.GET('/api/spaces/list');",
      'console.log(JSON.stringify({ data, error }));',
    ].join('\n');
    fs.writeFileSync(path.join(project, 'call.mjs'), script);
    const called = await run(process.execPath, ['call.mjs'], { cwd: project, env: { ...process.env, TABULA_KEY: world.accountKey } });
    const answer = JSON.parse(called.stdout) as { data?: { name: string }[]; error?: unknown };
    expect(answer.error).toBeUndefined();
    expect(answer.data!.map((space) => space.name)).toEqual(['Packed']);
  });
});
