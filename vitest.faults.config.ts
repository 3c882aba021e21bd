import { defineConfig } from 'vitest/config';

/** The fault suite: private Postgres and Redis servers that the tests stop, kill and restart. */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
