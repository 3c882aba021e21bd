import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': new URL('./', import.meta.url).pathname } },
  test: {
    include: ['server/**/*.test.ts', 'test/**/*.test.ts', 'workers/**/*.test.ts', 'drizzle/**/*.test.ts'],
    // The fault suite stops and restarts its own servers; it runs once, through `npm run test:faults`.
    exclude: [...configDefaults.exclude, 'test/faults/**'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // The global teardown drops every database of the run; on a busy server each drop waits for a checkpoint.
    teardownTimeout: 120_000,
  },
});
