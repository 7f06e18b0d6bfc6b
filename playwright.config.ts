import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests of the web console in Debian's Chromium (never a downloaded browser), one
 * engine per run: scripts/run-e2e.mjs runs them with TABULA_TEST_DB=sqlite, then =postgres.
 * Each worker starts its own `tabula serve` (test/e2e/tabula-server.ts).
 */
export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '*.spec.ts',
  outputDir: '.test-results/e2e-artifacts',
  // A sign-in may wait a minute for the login throttle (tabula-server.ts signIn).
  timeout: 150_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: `.test-results/e2e-${process.env.TABULA_TEST_DB ?? 'sqlite'}.json` }]],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.TABULA_E2E_CHROMIUM ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
