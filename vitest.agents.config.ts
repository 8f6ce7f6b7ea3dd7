import { defineConfig } from 'vitest/config';

/**
 * `npm run test:agents`: the real Claude Code and Factory droid CLIs (pinned in test/agents/clis) driven
 * against a Messages API double and the Ollama double, one file at a time.
 */
export default defineConfig({
  test: {
    include: ['test/agents/**/*.agents.ts'],
    testTimeout: 300_000,
    hookTimeout: 600_000,
    pool: 'forks',
    fileParallelism: false,
    env: { LANCEDB_LOG: 'error' },
  },
});
