#!/usr/bin/env node
// Runs the whole suite once on SQLite and once on PostgreSQL, then prints how many tests ran on each.
// Prints the Node.js version first: CI runs it under more than one line.
// Extra arguments go to vitest (e.g. a file filter). With no PostgreSQL reachable, says so loudly and passes on SQLite.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import pg from 'pg';

const extraArgs = process.argv.slice(2);
const adminUrl = process.env.TABULA_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
fs.mkdirSync('.test-results', { recursive: true });
console.log(`Node.js ${process.version}`);

const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

async function postgresReachable() {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

function runSuite(engine) {
  const outputFile = `.test-results/${engine}.json`;
  fs.rmSync(outputFile, { force: true });
  const result = spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${outputFile}`, ...extraArgs], {
    stdio: 'inherit',
    env: { ...process.env, TABULA_TEST_DB: engine },
  });
  const report = fs.existsSync(outputFile) ? JSON.parse(fs.readFileSync(outputFile, 'utf8')) : null;
  return {
    engine,
    exitCode: result.status ?? 1,
    passed: report?.numPassedTests ?? 0,
    failed: report ? report.numFailedTests + (report.numFailedTestSuites ?? 0) : 1,
    skipped: (report?.numPendingTests ?? 0) + (report?.numTodoTests ?? 0),
  };
}

// TABULA_TEST_ENGINES=sqlite runs SQLite only (CI's run under a second Node.js line).
const engines = (process.env.TABULA_TEST_ENGINES ?? 'sqlite,postgres').split(',').map((name) => name.trim());
const results = [runSuite('sqlite')];
if (!engines.includes('postgres')) {
  console.log('\nPostgreSQL not requested (TABULA_TEST_ENGINES=' + process.env.TABULA_TEST_ENGINES + ').');
} else if (await postgresReachable()) {
  results.push(runSuite('postgres'));
} else {
  console.log('\n' + '!'.repeat(72));
  console.log(`!!! PostgreSQL is not reachable at ${adminUrl}: PostgreSQL tests were SKIPPED.`);
  console.log('!'.repeat(72) + '\n');
}

console.log('\nTest summary');
for (const r of results) console.log(`  ${r.engine.padEnd(9)} ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
const exitCode = results.some((r) => r.exitCode !== 0) ? 1 : 0;
console.log(`${passed} passed, ${failed} failed`);
process.exit(exitCode);
