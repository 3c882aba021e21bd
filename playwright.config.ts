import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3210);

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'api', testMatch: /api\/.*\.spec\.ts/ },
    { name: 'browser', testMatch: /pages\/.*\.spec\.ts/ },
    { name: 'dashboard', testMatch: /dashboard\/.*\.spec\.ts/ },
  ],
  webServer: {
    command: 'bash scripts/e2e-server.sh',
    url: `http://127.0.0.1:${port}/api/health/ready`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
  },
});
