import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': new URL('./', import.meta.url).pathname } },
  test: {
    include: ['server/**/*.test.ts', 'test/**/*.test.ts', 'workers/**/*.test.ts', 'drizzle/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
