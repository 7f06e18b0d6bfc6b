import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from '../../src/node-version.js';

describe('the Node.js version check of the entry point', () => {
  it('runs on 22.12 and later, 24 and newer lines', () => {
    for (const version of ['22.12.0', '22.23.3', 'v24.21.0', '24.0.0', '26.10.0']) expect(nodeVersionProblem(version)).toBeNull();
  });

  it('refuses Node 20 and 22 before 22.12, naming the version it runs on', () => {
    expect(nodeVersionProblem('20.20.2')).toMatch(/^needs Node\.js 22\.12 or later \(22 or 24 LTS\); this is v20\.20\.2\. /);
    expect(nodeVersionProblem('v22.11.0')).toMatch(/^needs Node\.js 22\.12 or later \(22 or 24 LTS\); this is v22\.11\.0\. /);
    expect(nodeVersionProblem('18.0.0')).not.toBeNull();
  });

  it('names the way out that never asks: npx --yes -p node@24 node <this script> <command>', () => {
    expect(nodeVersionProblem('20.20.2')).toMatch(/ npx --yes -p node@24 node dist\/main\.js <command>$/);
    expect(nodeVersionProblem('20.20.2', '/opt/tabula/dist/main.js')).toMatch(/ npx --yes -p node@24 node \/opt\/tabula\/dist\/main\.js <command>$/);
  });

  it('says what package.json engines declares', () => {
    const manifest = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
    expect(manifest.engines.node).toBe('^22.12 || ^24');
  });
});
