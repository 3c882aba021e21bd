import { defineConfig } from '@playwright/test';
import { DEMO_DATABASE_URL } from './e2e/support/demo';
import base from './playwright.config';

// The dashboard and /tx on the demo dataset (data no test wrote by hand): a second e2e server of its own,
// on its own database, Redis prefix and ports, so it never meets the main run's rows.
const port = Number(process.env.E2E_DEMO_PORT ?? 3211);
const swaps = process.env.E2E_DEMO_SWAPS ?? '20000';
const database = DEMO_DATABASE_URL;

export default defineConfig({
  ...base,
  // Loading the dataset and rolling it up precedes the server's start.
  timeout: 90_000,
  use: { ...base.use, baseURL: `http://127.0.0.1:${port}` },
  projects: [{ name: 'demo', testMatch: /demo\/.*\.spec\.ts/ }],
  webServer: {
    command: 'bash scripts/e2e-server.sh',
    url: `http://127.0.0.1:${port}/api/health/ready`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      E2E_PORT: String(port),
      E2E_DATABASE_URL: database,
      E2E_REDIS_PREFIX: process.env.E2E_DEMO_REDIS_PREFIX ?? 'e2edemo',
      SIMULATOR_BASE_PORT: process.env.E2E_DEMO_SIMULATOR_BASE_PORT ?? '4860',
      E2E_WORKER_HEALTH_PORT: process.env.E2E_DEMO_WORKER_HEALTH_PORT ?? '3311',
      E2E_DEMO_SWAPS: swaps,
    },
  },
});
