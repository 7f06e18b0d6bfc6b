import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isCi, missingEngineVerdict, requestedEngines } from '../../scripts/test-engines.mjs';

/**
 * `npm test` (scripts/run-tests.mjs) and an engine it cannot reach. Risk guarded against: CI
 * going green on SQLite alone because PostgreSQL did not start, the suite having passed with
 * every PostgreSQL test skipped.
 */
describe('the engines npm test runs', () => {
  it('fails a CI run when a requested engine cannot be reached, saying so', () => {
    const verdict = missingEngineVerdict('PostgreSQL', 'postgres://127.0.0.1:5432/postgres', { CI: 'true' });
    expect(verdict.fail).toBe(true);
    expect(verdict.lines.join('\n')).toMatch(/PostgreSQL is not reachable at postgres:\/\/127\.0\.0\.1:5432\/postgres: in CI .* FAILED/);
  });

  it('only warns outside CI, naming what was skipped', () => {
    for (const env of [{}, { CI: 'false' }, { CI: '' }]) {
      const verdict = missingEngineVerdict('PostgreSQL', 'postgres://127.0.0.1:5432/postgres', env);
      expect(verdict.fail).toBe(false);
      expect(verdict.lines.join('\n')).toMatch(/PostgreSQL tests were SKIPPED/);
    }
  });

  it('takes CI=true and CI=1 as CI', () => {
    expect([isCi({ CI: 'true' }), isCi({ CI: 'TRUE' }), isCi({ CI: '1' }), isCi({ CI: 'false' }), isCi({})]).toEqual([true, true, true, false, false]);
  });

  it('runs every engine unless TABULA_TEST_ENGINES leaves one out on purpose, and refuses names it does not know', () => {
    expect(requestedEngines({})).toEqual(['sqlite', 'postgres']);
    expect(requestedEngines({ TABULA_TEST_ENGINES: 'sqlite' })).toEqual(['sqlite']);
    expect(requestedEngines({ TABULA_TEST_ENGINES: ' sqlite , postgres ' })).toEqual(['sqlite', 'postgres']);
    expect(() => requestedEngines({ TABULA_TEST_ENGINES: 'sqlite,postgress' })).toThrow(/postgress/);
  });

  it('run-tests.mjs exits non-zero in CI when PostgreSQL is not reachable, before building or running anything', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', TABULA_TEST_PG_URL: 'postgres://postgres@127.0.0.1:1/postgres' };
    delete env.TABULA_TEST_ENGINES;
    const run = spawnSync(process.execPath, ['scripts/run-tests.mjs', 'test/unit/node-version.test.ts'], { cwd: root, env, encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/PostgreSQL is not reachable at postgres:\/\/postgres@127\.0\.0\.1:1\/postgres: in CI \(CI=true\) every requested engine must run\. FAILED\./);
    expect(run.stdout).not.toMatch(/Test summary/);
  });
});
