import os from 'node:os';
import { defineConfig } from 'vitest/config';

// Vitest's default is one worker fewer than the cores: on this 2-core machine, one, and the files
// ran one after another. Most of a file's time is waiting (for a server it started, for the
// database, for a timer), so a worker per core runs the suite in about half the time.
const workers = Math.max(2, os.availableParallelism());

export default defineConfig({
  test: {
    // The console's pure modules (console/src/**/*.test.ts) and its components (*.test.tsx, in
    // happy-dom: `// @vitest-environment happy-dom` atop each file) run here too: one suite, one command.
    include: ['test/**/*.test.ts', 'console/src/**/*.test.ts', 'console/src/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One database per test file; files run in parallel workers, one per core.
    pool: 'forks',
    maxWorkers: workers,
    minWorkers: workers,
  },
});
