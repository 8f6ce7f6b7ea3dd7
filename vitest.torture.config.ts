import { defineConfig } from 'vitest/config';

/** `npm run test:torture`: fault-injection scenarios, run one file at a time (they load the 2 cores fully). */
export default defineConfig({
  test: {
    include: ['test/torture/**/*.torture.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
    globalSetup: ['test/support/torture-timer.ts'],
    env: { LANCEDB_LOG: 'error' },
  },
});
