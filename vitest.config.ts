import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One database per test file; files run in parallel workers on the 2 cores.
    pool: 'forks',
  },
});
