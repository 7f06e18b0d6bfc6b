#!/usr/bin/env node
// Runs the whole suite once on SQLite and once on PostgreSQL, then prints how many tests ran on each.
// Prints the Node.js version first: CI runs it under more than one line.
// Extra arguments go to vitest (e.g. a file filter). With no PostgreSQL reachable, says so loudly
// and passes on SQLite; in CI (CI=true) fails at once instead (test-engines.mjs).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { missingEngineVerdict, postgresReachable, requestedEngines } from './test-engines.mjs';

const extraArgs = process.argv.slice(2);
const adminUrl = process.env.TABULA_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
fs.mkdirSync('.test-results', { recursive: true });
console.log(`Node.js ${process.version}`);

// TABULA_TEST_ENGINES=sqlite runs SQLite only (CI's run under a second Node.js line).
let engines;
try {
  engines = requestedEngines(process.env);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
// Asked before building: a CI run without PostgreSQL stops here rather than after the SQLite run.
const postgresMissing = engines.includes('postgres') && !(await postgresReachable(adminUrl)) ? missingEngineVerdict('PostgreSQL', adminUrl, process.env) : null;
if (postgresMissing?.fail) {
  console.error('\n' + postgresMissing.lines.join('\n') + '\n');
  process.exit(1);
}

const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);


/**
 * Failed tests, plus each file that failed with no failed test of its own (it did not load, or a
 * hook outside any test threw). Not numFailedTestSuites: it also counts every describe block
 * around a failed test, so one failure read as three.
 */
function failedCount(report) {
  const brokenFiles = (report.testResults ?? []).filter((file) => file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed')).length;
  return report.numFailedTests + brokenFiles;
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
    failed: report ? failedCount(report) : 1,
    skipped: (report?.numPendingTests ?? 0) + (report?.numTodoTests ?? 0),
    failures: report ? failureLines(report) : [],
  };
}

/**
 * Each failed test (or broken file) as one line with the first line of its error. Printed again in
 * the summary: CI keeps only the tail of the output, and a failure far above it was lost (session 32).
 */
function failureLines(report) {
  const lines = [];
  for (const file of report.testResults ?? []) {
    const name = path.relative(process.cwd(), file.name);
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests) lines.push(`${name} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    if (file.status === 'failed' && failedTests.length === 0) lines.push(`${name}: ${firstLine(file.message)}`);
  }
  return lines;
}

function firstLine(text) {
  return (text ?? '').split('\n').find((line) => line.trim() !== '')?.trim().slice(0, 300) ?? '';
}

const results = [runSuite('sqlite')];
if (!engines.includes('postgres')) {
  console.log('\nPostgreSQL not requested (TABULA_TEST_ENGINES=' + process.env.TABULA_TEST_ENGINES + ').');
} else if (postgresMissing) {
  console.log('\n' + postgresMissing.lines.join('\n') + '\n');
} else {
  results.push(runSuite('postgres'));
}

console.log('\nTest summary');
for (const r of results) {
  console.log(`  ${r.engine.padEnd(9)} ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`);
  for (const line of r.failures) console.log(`    failed: ${line}`);
}
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
const exitCode = results.some((r) => r.exitCode !== 0) ? 1 : 0;
console.log(`${passed} passed, ${failed} failed`);
process.exit(exitCode);
