import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import type { Route } from '../../app/(public)/_lib/api';
import { sortRoutes } from '../../app/(public)/_swap/route-labels';
import { ROUTE_SECONDS } from '../../server/rollups/histogram';
import { BTC_TO_ETH, ETH_TO_BTC } from '../../test/support/fixtures';
import { E2E_ADMIN, expectAccessible, fillEthToBtc, shot, signInAs, WIDTHS } from '../support/helpers';
import { e2eDatabase } from '../support/overflow';
import { expect, test } from '../support/test';

// scripts/e2e-server.sh starts the simulators from SIMULATOR_BASE_PORT in PROVIDER_KEYS order: CHAINFLIP is third.
const CHAINFLIP_SIMULATOR = `http://127.0.0.1:${Number(process.env.SIMULATOR_BASE_PORT ?? 4810) + 2}`;

/** Chainflip's swaps shown its own estimate in the Route times window, and those that finished within it. */
async function chainflipEstimates(): Promise<{ shown: number; kept: number }> {
  const sql = e2eDatabase();
  try {
    const [row] = await sql<{ shown: number; kept: number }[]>`
      select coalesce(sum(estimates), 0)::int as shown, coalesce(sum(estimates_kept), 0)::int as kept
      from route_time_daily where provider = 'CHAINFLIP' and day >= now() - interval '30 days'`;
    return row ?? { shown: 0, kept: 0 };
  } finally {
    await sql.end();
  }
}

/** A day of settled swaps on a route: `seconds` → how many took that long (each a bound of the histogram). */
async function seedRouteTimes(
  provider: string,
  srcChain: string,
  dstChain: string,
  counts: Record<number, number>,
  promise: { kept: number; p50Error: Record<number, number>; estimates?: number; estimatesKept?: number },
) {
  const sql = e2eDatabase();
  try {
    const histogram = (of: Record<number, number>) =>
      Object.fromEntries(
        Object.entries(of).map(([seconds, n]) => [String(ROUTE_SECONDS.bounds.indexOf(Number(seconds)) + 1), n]),
      );
    const swaps = Object.values(counts).reduce((a, b) => a + b, 0);
    await sql`
      insert into route_time_daily (day, provider, src_chain, dst_chain, src_asset_id, dst_asset_id, swaps,
        execute_to_final, promised, kept, p50_error, estimates, estimates_kept)
      values (date_trunc('day', now(), 'UTC'), ${provider}, ${srcChain}, ${dstChain}, 0, 0, ${swaps},
        ${sql.json(histogram(counts))}, ${swaps}, ${promise.kept}, ${sql.json(histogram(promise.p50Error))},
        ${promise.estimates ?? 0}, ${promise.estimatesKept ?? 0})
      on conflict do nothing`;
  } finally {
    await sql.end();
  }
}

async function setExpectedBy(id: string, at: Date, lateAt: Date | null = null) {
  const sql = e2eDatabase();
  try {
    await sql`update transactions set expected_by = ${at.toISOString()}::timestamptz,
      late_at = ${lateAt?.toISOString() ?? null}::timestamptz, updated_at = now() where id = ${id}`;
  } finally {
    await sql.end();
  }
}

const providersShown = (page: Page) =>
  page
    .getByRole('list', { name: /^Available routes/ })
    .locator(':scope > li')
    .evaluateAll((cards) => cards.map((card) => `${card.getAttribute('data-provider')}`));

test.beforeAll(async () => {
  // Relay: usually 3–8 min (20 swaps at 3 min, 6 at 5, 4 at 8); Chainflip: 1–2 min.
  await seedRouteTimes(
    'RELAY',
    'ethereum',
    'bitcoin',
    { 180: 20, 300: 6, 480: 4 },
    { kept: 28, p50Error: { 30: 20, 120: 10 } },
  );
  await seedRouteTimes(
    'CHAINFLIP',
    'ethereum',
    'bitcoin',
    { 60: 20, 120: 10 },
    // and 10 more swaps, from before it had 20, shown Chainflip's own estimate: 4 finished within it.
    { kept: 24, p50Error: { 15: 25, 60: 5 }, estimates: 10, estimatesKept: 4 },
  );
});

test('route cards say how long each route usually takes, and sort by speed as well as amount', async ({
  page,
  request,
}, testInfo) => {
  // The server reads route times again every ROUTE_TIME_CACHE_MS (1 s in scripts/e2e-server.sh).
  let routes: Route[] = [];
  await expect
    .poll(
      async () => {
        routes = (await (await request.post('/api/v1/quote', { data: ETH_TO_BTC })).json()).data;
        return routes.find((r) => r.provider === 'RELAY')?.observedTime?.source;
      },
      { timeout: 15_000 },
    )
    .toBe('observed');

  await page.goto('/');
  await fillEthToBtc(page, ETH_TO_BTC.amount);
  await page.getByRole('button', { name: 'Get routes' }).click();
  const relay = page.locator('li[data-provider="RELAY"]');
  await expect(relay).toContainText('usually 3–8 min');
  await expect(page.locator('li[data-provider="CHAINFLIP"]')).toContainText('usually 1–2 min');
  const byAmount = await providersShown(page);
  expect(byAmount).toEqual(routes.map((r) => r.provider));
  for (const viewport of WIDTHS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await shot(page, testInfo, `route-cards-amount-${viewport.width}`);
  }

  await page.getByRole('radio', { name: 'Speed' }).check();
  await expect(page.getByRole('list', { name: 'Available routes, fastest first' })).toBeVisible();
  expect(await providersShown(page)).toEqual(sortRoutes(routes, 'speed').map((r) => r.provider));
  // The best rate keeps its tag wherever speed puts it.
  const cards = page.getByRole('list', { name: /^Available routes/ }).locator(':scope > li');
  await expect(cards.nth(sortRoutes(routes, 'speed').indexOf(routes[0] as Route))).toContainText('Best rate');
  await expect(cards.filter({ hasText: 'Best rate' })).toHaveCount(1);
  for (const viewport of WIDTHS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await shot(page, testInfo, `route-cards-speed-${viewport.width}`);
  }
  await expectAccessible(page);
  await page.getByRole('radio', { name: 'Amount received' }).check();
  expect(await providersShown(page)).toEqual(byAmount);
});

async function swapInFlight(request: APIRequestContext) {
  // The deposit arrives at once; the swap then stays in flight.
  const config = await request.put(`${CHAINFLIP_SIMULATOR}/__sim/config`, {
    data: { autoDepositMs: 0, settleAfterPolls: 100_000 },
  });
  expect(config.ok()).toBe(true);
  const recipient = `0x${randomBytes(20).toString('hex')}`;
  const locked = await request.post('/api/v1/quote/lock', {
    data: { ...BTC_TO_ETH, recipient, provider: 'CHAINFLIP' },
  });
  expect(locked.status(), await locked.text()).toBe(200);
  const executed = await request.post('/api/v1/quote/execute', { data: { lockId: (await locked.json()).data.lockId } });
  expect(executed.status(), await executed.text()).toBe(200);
  const id = (await executed.json()).data.transaction.id as string;
  await expect
    .poll(
      async () =>
        (await (await request.get(`/api/v1/transaction/status?transactionId=${id}`)).json()).data.transaction
          .inboundHash,
      {
        timeout: 20_000,
      },
    )
    .not.toBe('');
  return id;
}

async function expectedByAnswered(request: APIRequestContext, id: string, at: Date) {
  await expect
    .poll(
      async () => (await (await request.get(`/api/v1/transaction/status?transactionId=${id}`)).json()).data.expectedBy,
      {
        timeout: 15_000,
      },
    )
    .toBe(at.toISOString());
}

test('/tx says when the swap is usually done, and past that, plainly that it is taking longer', async ({
  page,
  request,
}, testInfo) => {
  const id = await swapInFlight(request);
  const soon = new Date(Date.now() + 10 * 60_000);
  soon.setUTCSeconds(0, 0);
  await setExpectedBy(id, soon);
  await expectedByAnswered(request, id, soon);
  for (const viewport of WIDTHS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto(`/tx/${id}`);
    await expect(page.getByTestId('expected-by')).toHaveText(/^Usually done by \d{1,2}:\d{2}/);
    await shot(page, testInfo, `tx-expected-by-${viewport.width}`);
  }

  const past = new Date(Date.now() - 5 * 60_000);
  past.setUTCMilliseconds(0);
  await setExpectedBy(id, past);
  await expectedByAnswered(request, id, past);
  for (const viewport of WIDTHS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto(`/tx/${id}`);
    const longer = page.getByTestId('expected-by');
    await expect(longer).toContainText('Taking longer than usual.');
    await expect(longer).toContainText('Chainflip is still working on it');
    await expect(longer).toContainText('the funds arrive or go back to your wallet');
    await shot(page, testInfo, `tx-taking-longer-${viewport.width}`);
  }
  await expectAccessible(page);

  // Flagged stale too (the fixed threshold's DELAYED): the late notice, against the route, is the only one.
  const sql = e2eDatabase();
  try {
    await sql`update transactions set stale = true, substatus = 'DELAYED', updated_at = now() where id = ${id}`;
  } finally {
    await sql.end();
  }
  for (const viewport of WIDTHS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto(`/tx/${id}`);
    await expect(page.getByTestId('expected-by')).toContainText('Taking longer than usual.');
    await expect(page.getByText('Taking longer than usual')).toHaveCount(1);
    await shot(page, testInfo, `tx-late-and-stale-${viewport.width}`);
  }
  await request.post(`${CHAINFLIP_SIMULATOR}/__sim/reset`);
});

test('support finds late swaps, sees how late against the route, and operators see the promise kept', async ({
  page,
  request,
}, testInfo) => {
  const id = await swapInFlight(request);
  const now = Date.now();
  await setExpectedBy(id, new Date(now - 40 * 60_000), new Date(now - 20 * 60_000));
  await signInAs(page, E2E_ADMIN);
  for (const viewport of WIDTHS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto('/dashboard/transactions?late=yes&sort=lateness.desc');
    await expect(page.getByLabel('Late')).toHaveValue('yes');
    const row = page.getByRole('row').filter({ hasText: id });
    await expect(row).toContainText('Late');
    await shot(page, testInfo, `transactions-late-${viewport.width}`);

    await page.goto(`/dashboard/transactions/${id}`);
    await expect(page.getByTestId('route-time')).toBeVisible();
    await expect(page.getByTestId('route-time')).toContainText('past its usual time');
    await shot(page, testInfo, `support-late-${viewport.width}`);

    await page.goto('/dashboard/operations');
    const panel = page.getByRole('region', { name: 'Route times' });
    await expect(panel.getByRole('row').filter({ hasText: 'Relay' })).toContainText('93');
    await expect(panel.getByRole('row').filter({ hasText: 'Chainflip' })).toContainText('below 90 %');
    // The provider's estimate, shown below the minimum sample, is counted apart from our promise: the seeded 4 of
    // 10, plus any Chainflip swap another spec settled today (the worker folds those in as they settle).
    const estimates = await chainflipEstimates();
    expect(estimates.shown).toBeGreaterThanOrEqual(10);
    await expect(panel.getByRole('row').filter({ hasText: 'Chainflip' })).toContainText(
      `${Math.round((estimates.kept / estimates.shown) * 100)}% of ${estimates.shown}`,
    );
    await expect(panel.getByRole('row').filter({ hasText: 'Relay' })).toContainText('none shown');
    await shot(page, testInfo, `operations-route-times-${viewport.width}`);
  }
  await expectAccessible(page);
  await page.goto('/dashboard/webhooks');
  await expect(page.getByLabel('Late swaps too')).toBeVisible();
  await shot(page, testInfo, 'webhooks-late-option-1280');
  await request.post(`${CHAINFLIP_SIMULATOR}/__sim/reset`);
});
