#!/usr/bin/env node
// The console's end-to-end tests (Playwright in Debian's Chromium, test/e2e) once on SQLite and
// once on PostgreSQL, each against a real `tabula serve` of the built dist/ and console/dist.
// Builds first when either is missing. Without Chromium (or PostgreSQL) it says so loudly and
// skips that part, except in CI (CI=true), where a missing browser or engine is a failure.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { postgresReachable } from './test-engines.mjs';

const chromium = process.env.TABULA_E2E_CHROMIUM ?? '/usr/bin/chromium';
const adminUrl = process.env.TABULA_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const inCi = process.env.CI === 'true';
const extraArgs = process.argv.slice(2);

function loudly(message) {
  console.log('\n' + '!'.repeat(72) + `\n!!! ${message}\n` + '!'.repeat(72) + '\n');
}

if (!fs.existsSync(chromium)) {
  loudly(`No Chromium at ${chromium} (apt-get install chromium): the console's end-to-end tests were SKIPPED.`);
  process.exit(inCi ? 1 : 0);
}
if (!fs.existsSync('dist/main.js') || !fs.existsSync('console/dist/index.html')) {
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}


function countTests(suites, counts = { passed: 0, failed: 0, skipped: 0 }) {
  for (const suite of suites ?? []) {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'skipped') counts.skipped += 1;
        else if (test.status === 'expected' || test.status === 'flaky') counts.passed += 1;
        else counts.failed += 1;
      }
    }
    countTests(suite.suites, counts);
  }
  return counts;
}

function runEngine(engine) {
  const report = `.test-results/e2e-${engine}.json`;
  fs.rmSync(report, { force: true });
  const result = spawnSync('npx', ['playwright', 'test', ...extraArgs], { stdio: 'inherit', env: { ...process.env, TABULA_TEST_DB: engine } });
  const counts = fs.existsSync(report) ? countTests(JSON.parse(fs.readFileSync(report, 'utf8')).suites) : { passed: 0, failed: 1, skipped: 0 };
  return { engine, exitCode: result.status ?? 1, ...counts };
}

const results = [runEngine('sqlite')];
if ((process.env.TABULA_TEST_ENGINES ?? 'sqlite,postgres').includes('postgres')) {
  if (await postgresReachable(adminUrl)) results.push(runEngine('postgres'));
  else {
    loudly(`PostgreSQL is not reachable at ${adminUrl}: the console's PostgreSQL end-to-end tests were SKIPPED.`);
    if (inCi) results.push({ engine: 'postgres', exitCode: 1, passed: 0, failed: 1, skipped: 0 });
  }
}

console.log('\nConsole end-to-end summary');
for (const r of results) console.log(`  ${r.engine.padEnd(9)} ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(results.some((r) => r.exitCode !== 0 || r.failed > 0) ? 1 : 0);
