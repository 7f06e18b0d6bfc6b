// Which engines `npm test` runs, and what an engine it cannot reach means. Apart from
// run-tests.mjs so that a unit test holds the rule (test/unit/test-engines.test.ts).

import pg from 'pg';

export const knownEngines = ['sqlite', 'postgres'];

/** TABULA_TEST_ENGINES as a list (every engine when unset); a name it does not know is an error, not a silent skip. */
export function requestedEngines(env) {
  const names = (env.TABULA_TEST_ENGINES ?? knownEngines.join(',')).split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !knownEngines.includes(name));
  if (unknown.length > 0) throw new Error(`TABULA_TEST_ENGINES names ${unknown.join(', ')}: the engines are ${knownEngines.join(', ')}`);
  return names;
}

/** A CI run: CI services set CI=true (.ci/run does too). */
export function isCi(env) {
  return /^(true|1)$/i.test(env.CI ?? '');
}

/**
 * A requested engine that cannot be reached. In CI it fails the run, or CI could go green on
 * SQLite alone; locally it is a loud warning and the rest still runs. `fail` says which.
 */
export function missingEngineVerdict(engine, location, env) {
  const bar = '!'.repeat(72);
  if (isCi(env)) {
    return {
      fail: true,
      lines: [bar, `!!! ${engine} is not reachable at ${location}: in CI (CI=${env.CI}) every requested engine must run. FAILED.`, `!!! Start ${engine}, or leave it out on purpose with TABULA_TEST_ENGINES.`, bar],
    };
  }
  return { fail: false, lines: [bar, `!!! ${engine} is not reachable at ${location}: ${engine} tests were SKIPPED.`, bar] };
}

/** Whether PostgreSQL answers at `url` within three seconds. */
export async function postgresReachable(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}
