import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from '../test-database.js';
import { buildTimeout, type Cli, cliTestTimeout, createCli, ensureBuilt, runTabula } from './run-cli.js';

/**
 * A process loads what it uses: the driver of its engine only, and neither the mail composer
 * nor the file-type sniffer until a message or a file comes (decisions.md, "Export memory"), nor
 * sharp (libvips, about 30 MB) until a thumbnail is made (decisions.md, "Thumbnails").
 */
describe('what a tabula process loads', () => {
  beforeAll(ensureBuilt, buildTimeout);
  let cli: Cli;
  let preload: string;

  beforeAll(async () => {
    cli = await createCli();
    await cli.json('init', '--email', 'owner@example.com', '--json');
    // Preloaded through NODE_OPTIONS: a module-loader hook that writes each module's URL to a log
    // (each package's entry passes through it, whether imported or required).
    const hooks = path.join(cli.dataDir, 'loaded-hooks.mjs');
    fs.writeFileSync(hooks, "import fs from 'node:fs';\nexport async function load(url, context, next) { fs.appendFileSync(process.env.LOADED_LOG, url + '\\n'); return next(url, context); }\n");
    preload = path.join(cli.dataDir, 'loaded-preload.mjs');
    fs.writeFileSync(preload, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  }, 120_000);
  afterAll(() => cli?.close(), 60_000);

  const loadedBy = async (...args: string[]): Promise<string[]> => {
    const log = path.join(cli.dataDir, `loaded-${Date.now()}.log`);
    const result = await runTabula([...args, '--data', cli.dataDir], { env: { ...cli.env, NODE_OPTIONS: `--import ${preload}`, LOADED_LOG: log } });
    expect(result.code, result.stderr).toBe(0);
    const urls = fs.readFileSync(log, 'utf8').split('\n');
    return [...new Set(urls.flatMap((url) => /node_modules\/((@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []))].sort();
  };

  it(`the ${testEngine} driver and not the other; no nodemailer, file-type, sharp or @fastify/static (the console's files)`, { timeout: cliTestTimeout }, async () => {
    const loaded = await loadedBy('keys', 'list');
    const [used, unused] = testEngine === 'postgres' ? ['pg', 'better-sqlite3'] : ['better-sqlite3', 'pg'];
    expect(loaded).toContain(used);
    expect(loaded).not.toContain(unused);
    expect(loaded).not.toContain('nodemailer');
    expect(loaded).not.toContain('file-type');
    expect(loaded).not.toContain('sharp');
    expect(loaded).not.toContain('@fastify/static');
  });
});
