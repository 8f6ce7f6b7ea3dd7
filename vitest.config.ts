import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // CLI round trips are real subprocesses: on a loaded machine they take many times their usual time.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    env: { LANCEDB_LOG: 'error' },
  },
});
