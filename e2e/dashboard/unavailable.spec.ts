import { type ChildProcess, spawn } from 'node:child_process';
import { shot, signInByApi } from '../support/helpers';
import { expect, test } from '../support/test';

// A second web process of the same build and auth secret, whose Postgres is unreachable.
const PORT = Number(process.env.E2E_PORT ?? 3210) + 7;
const DOWN = `http://127.0.0.1:${PORT}`;
let web: ChildProcess | undefined;

test.beforeAll(async () => {
  web = spawn('bash', ['-c', 'source scripts/auth-secret.sh && exec node dist/server/http/web-server.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      LOG_LEVEL: 'silent',
      PORT: String(PORT),
      REDIS_PREFIX: process.env.E2E_REDIS_PREFIX ?? 'e2e',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/unreachable',
    },
    stdio: 'ignore',
  });
  await expect
    .poll(
      () =>
        fetch(`${DOWN}/api/health`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 60_000, intervals: [250] },
    )
    .toBe(200);
});

test.afterAll(() => {
  web?.kill('SIGTERM');
});

test('with Postgres down, a dashboard page answers 503 and says the dashboard is unavailable', async ({
  browser,
  baseURL,
}, testInfo) => {
  const context = await browser.newContext();
  await signInByApi(context.request, baseURL ?? '');

  const page = await context.newPage();
  const response = await page.goto(`${DOWN}/dashboard/operations`);
  expect(response?.status()).toBe(503);
  expect(response?.headers()['retry-after']).toBeTruthy();
  await expect(page.getByText('The dashboard is temporarily unavailable.')).toBeVisible();
  await shot(page, testInfo, 'dashboard-unavailable');
  await context.close();
});

test('with Postgres down, /tx/<id> is loaded by the browser, which says it could not load the swap', async ({
  page,
}, testInfo) => {
  let failStatus = () => {};
  const statusHeld = new Promise<void>((resolve) => {
    failStatus = resolve;
  });
  await page.route('**/api/v1/transaction/status*', async (route) => {
    await statusHeld;
    await route.fulfill({ status: 500, json: { error: { code: 'INTERNAL_ERROR', message: 'Internal error' } } });
  });
  await page.goto(`${DOWN}/tx/tx_1111111111111111111111`);
  await expect(page.getByText('Loading the swap…')).toBeVisible();
  await shot(page, testInfo, 'tx-loading');
  failStatus();
  await expect(page.getByRole('alert').filter({ hasText: 'Could not load this swap.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  await shot(page, testInfo, 'tx-error');
});
