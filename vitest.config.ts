import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The console's pure modules (console/src/**/*.test.ts) and its components (*.test.tsx, in
    // happy-dom: `// @vitest-environment happy-dom` atop each file) run here too: one suite, one command.
    include: ['test/**/*.test.ts', 'console/src/**/*.test.ts', 'console/src/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One database per test file; files run in parallel workers on the 2 cores.
    pool: 'forks',
  },
});
