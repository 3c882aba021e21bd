import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { ADDR, WALLETS } from '../../test/support/fixtures';
import {
  E2E_ADMIN,
  executeFirstRoute,
  expectAccessible,
  fillEthToBtc,
  fillUsdcEthereumToArbitrum,
  registerReferralCode,
  shot,
  signInAs,
  WIDTHS,
} from '../support/helpers';
import { expect, test } from '../support/test';

// scripts/e2e-server.sh starts the simulators from SIMULATOR_BASE_PORT in PROVIDER_KEYS order: CHAINFLIP is third.
const CHAINFLIP_SIMULATOR = `http://127.0.0.1:${Number(process.env.SIMULATOR_BASE_PORT ?? 4810) + 2}`;
const REFERRAL = 'e2e-partner';

/** The swapper's deposit reaches the channel at once (the simulated chain sees it), then settles after `polls`. */
async function settleChainflipAfter(request: APIRequestContext, polls: number) {
  const res = await request.put(`${CHAINFLIP_SIMULATOR}/__sim/config`, {
    data: { settleAfterPolls: polls, autoDepositMs: 0 },
  });
  expect(res.ok()).toBe(true);
}

test('an unregistered referral code earns no "Referred by"', async ({ page }, testInfo) => {
  await page.goto('/?ref=NOBODY-REGISTERED-THIS');
  await expect(page.getByRole('button', { name: 'Get routes' })).toBeEnabled();
  await page.waitForLoadState('networkidle');
  await expect(page.getByTestId('referral')).toHaveCount(0);
  await shot(page, testInfo, 'swap-unregistered-referral');
});

test('swap through a deposit channel, attributed to the referral code, then followed live to SUCCESS', async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  await registerReferralCode(request, baseURL ?? '', REFERRAL);
  // Hold the swap in PENDING until the test lets it settle, so the tracker is seen moving.
  await settleChainflipAfter(request, 1_000_000);
  try {
    await page.goto(`/?ref=${REFERRAL}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Swap across chains' })).toBeVisible();
    await expect(page.getByTestId('referral')).toHaveText(`Referred by ${REFERRAL}`);
    expect(await page.evaluate(() => sessionStorage.getItem('switchyard.referralCode'))).toBe(REFERRAL);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Swap' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(page.getByRole('button', { name: 'Get routes' })).toBeEnabled();
    await shot(page, testInfo, 'swap-empty');

    // The code stays for the visit even when the link is not followed again.
    await page.goto('/');
    await expect(page.getByTestId('referral')).toHaveText(`Referred by ${REFERRAL}`);

    await fillEthToBtc(page, '0.5');
    await expect(page.getByLabel('Slippage tolerance (%)')).toHaveValue('1');
    await page.getByRole('button', { name: 'Get routes' }).click();

    const routes = page.locator('li[data-provider]');
    await expect(routes.first()).toBeVisible();
    expect(await routes.count()).toBeGreaterThan(1);
    await expect(routes.first().getByText('Best rate')).toBeVisible();
    const chainflip = page.locator('li[data-provider="CHAINFLIP"]').first();
    await expect(chainflip.getByRole('heading', { name: 'Chainflip' })).toBeVisible();
    await expect(chainflip).toContainText('BTC');
    // Every route: the total fee in USD beside each fee in its own token.
    for (const route of await routes.all()) await expect(route).toContainText(/Total fees\$[\d,.]+/);
    await expect(chainflip).toContainText(/Deposit \(ingress\) fee: [\d.]+ ETH/);
    // THORChain's two ways to swap are told apart; minimums are rounded for reading.
    const thorchain = page.locator('li[data-provider="THORCHAIN"]');
    await expect(thorchain.getByText('Streaming', { exact: true })).toBeVisible();
    await expect(thorchain.getByText('Rapid', { exact: true })).toBeVisible();
    // So are Chainflip's (DCA and regular): no two cards of one provider read alike.
    const chainflipModes = await page
      .locator('li[data-provider="CHAINFLIP"]')
      .evaluateAll((cards) => cards.map((card) => card.querySelector('h3 ~ span:last-of-type')?.textContent ?? ''));
    expect(new Set(chainflipModes).size).toBe(chainflipModes.length);
    for (const minimum of await page.locator('li[data-provider] dd[title]').allInnerTexts())
      expect(minimum.replace(/[^\d]/g, '').replace(/^0+/, '').length).toBeLessThanOrEqual(8);
    await expect(chainflip).toContainText('Time');
    await expect(page.getByRole('heading', { name: 'Routes' })).toBeFocused();
    await shot(page, testInfo, 'swap-routes');
    await expectAccessible(page);

    await chainflip.getByRole('button', { name: 'Lock this route' }).click();
    await expect(page.getByRole('heading', { name: 'Quote locked' })).toBeVisible();
    const countdown = page.getByTestId('lock-countdown');
    await expect(countdown).toHaveText(/^\d+:\d{2}$/);
    const seconds = async () => {
      const [m, s] = ((await countdown.textContent()) ?? '').split(':').map(Number);
      return (m ?? 0) * 60 + (s ?? 0);
    };
    const before = await seconds();
    await expect.poll(seconds, { timeout: 5_000 }).toBeLessThan(before);
    await shot(page, testInfo, 'swap-lock');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Execute' }).click();
    await expect(page.getByRole('heading', { name: 'Send your deposit' })).toBeVisible();
    await expect(page.getByText('Deposit address')).toBeVisible();
    await expect(page.getByText('Channel ID')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Copy deposit address' })).toBeVisible();
    await expect(page.getByText('0.5 ETH', { exact: true })).toBeVisible();

    // The hash form shows the API's answer: a malformed hash is refused next to the field, a good one is accepted.
    const hashInput = page.getByLabel('Transaction hash');
    await hashInput.fill('not-a-hash');
    await page.getByRole('button', { name: "I've sent it" }).click();
    await expect(hashInput).toHaveAttribute('aria-invalid', 'true');
    await shot(page, testInfo, 'swap-track-error');
    await hashInput.fill(`0x${'ab'.repeat(32)}`);
    await page.getByRole('button', { name: "I've sent it" }).click();
    await expect(page.getByText(/Got it — tracking is/)).toBeVisible();
    await shot(page, testInfo, 'swap-deposit');
    await expectAccessible(page);

    const link = page.getByRole('link', { name: 'Track this swap' });
    const href = await link.getAttribute('href');
    const txId = href?.split('/').pop() ?? '';
    expect(txId).toMatch(/^tx_/);
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/tx/${txId}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Swap status' })).toBeVisible();
    const status = page.getByRole('status').filter({ has: page.locator('[data-status]') });
    await expect(status.locator('[data-status]')).toHaveText('PENDING');
    await expect(page.locator('dd', { hasText: /^Chainflip$/i })).toBeVisible();
    await expect(page.getByText('on Ethereum')).toBeVisible();
    await expect(page.getByText(WALLETS.bitcoin)).toBeVisible();
    await expect(page.getByTestId('stream-state')).toHaveText(/^Live: changes appear as they happen/);
    await shot(page, testInfo, 'tx-pending');
    await expectAccessible(page);

    // Let the provider finish: the stream pushes it to the page, which then stops listening.
    await settleChainflipAfter(request, 3);
    await expect(status.locator('[data-status]')).toHaveText('SUCCESS', { timeout: 20_000 });
    await expect(page.getByText('Final status — this page no longer updates.')).toBeVisible();
    let polls = 0;
    page.on('request', (r) => {
      if (/\/api\/v1\/transaction\/(status|stream)/.test(r.url())) polls++;
    });
    await page.waitForTimeout(3_500);
    expect(polls).toBe(0);
    await shot(page, testInfo, 'tx-success');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, testInfo, 'tx-success-mobile');

    const history = await request.get(`/api/v1/transaction/history?referralCode=${REFERRAL}`);
    expect(history.status()).toBe(200);
    const ids = ((await history.json()).data as { id: string; provider: string }[]).map((t) => t.id);
    expect(ids).toContain(txId);
  } finally {
    await settleChainflipAfter(request, 3);
  }
});

test('wallet calldata with an approval, and a deposit address with a memo', async ({ page }, testInfo) => {
  await page.goto('/');
  await fillUsdcEthereumToArbitrum(page);
  await executeFirstRoute(page, ['RELAY', 'LIFI']);
  await expect(page.getByRole('heading', { name: 'Sign in your wallet' })).toBeVisible();
  await page.locator('summary', { hasText: 'Technical details' }).click();
  await expect(page.getByRole('heading', { name: 'Approve the token' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Send the transaction' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy calldata' })).toBeVisible();
  await expect(page.getByText('(chain ID 1)')).toBeVisible();
  await shot(page, testInfo, 'swap-evm-calldata');
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Start a new swap' }).click();
  await fillBtcToEth(page, '0.25');
  await executeFirstRoute(page, ['THORCHAIN']);
  await expect(page.getByRole('heading', { name: 'Send your deposit' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy memo' })).toBeVisible();
  await expect(page.getByText('0.25 BTC', { exact: true })).toBeVisible();
  await shot(page, testInfo, 'swap-deposit-memo');
});

test('a reload after execute brings the swap back, deposit details and all (#46 item 1)', async ({
  page,
}, testInfo) => {
  await page.goto('/?ref=e2e-partner');
  await fillBtcToEth(page, '0.25');
  await executeFirstRoute(page, ['THORCHAIN']);
  await expect(page.getByRole('heading', { name: 'Send your deposit' })).toBeVisible();
  // The address names the swap at once; the referral parameter stays.
  await expect(page).toHaveURL(/[?&]tx=tx_[0-9A-Za-z]{22}/);
  expect(new URL(page.url()).searchParams.get('ref')).toBe('e2e-partner');
  const id = new URL(page.url()).searchParams.get('tx');

  await page.reload();
  await expect(page).toHaveURL(new RegExp(`/tx/${id}$`));
  await expect(page.getByRole('heading', { name: 'Send your deposit' })).toBeVisible();
  await expect(page.getByText('0.25 BTC', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy memo' })).toBeVisible();
  await shot(page, testInfo, 'swap-reloaded-after-execute');

  // The swap page's address with the swap in it leads there from anywhere; a malformed id is ignored.
  await page.goto(`/?tx=${id}`);
  await expect(page).toHaveURL(new RegExp(`/tx/${id}$`));
  await page.goto('/?tx=not-an-id');
  await expect(page.getByRole('button', { name: 'Get routes' })).toBeVisible();
});

for (const size of WIDTHS) {
  test(`a running lock survives a reload; an execute whose answer was lost gives back the same swap at ${size.name} (#46 item 1)`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto('/');
    await fillBtcToEth(page, '0.25');
    await page.getByRole('button', { name: 'Get routes' }).click();
    await page
      .locator('li[data-provider="THORCHAIN"]')
      .first()
      .getByRole('button', { name: 'Lock this route' })
      .click();
    await expect(page.getByRole('heading', { name: 'Quote locked' })).toBeVisible();
    const lockId = await page.getByText(/^lk_[0-9A-Za-z]+$/).textContent();

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Quote locked' })).toBeVisible();
    await expect(page.getByText(lockId ?? '', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Amount', { exact: true })).toHaveValue('0.25');
    await expect(page.getByLabel('Source wallet')).toHaveValue(WALLETS.bitcoin);
    await shot(page, testInfo, `swap-lock-after-reload-${size.name}`);

    // The execute reaches the server and records the swap, but its answer is lost on the way back (a proxy's 502).
    let recorded = '';
    await page.route('**/api/v1/quote/execute', async (route) => {
      const answer = await route.fetch();
      recorded = (await answer.json()).data.transaction.id;
      await route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' });
    });
    await page.getByRole('button', { name: 'Execute' }).click();
    await expect.poll(() => recorded).toMatch(/^tx_/);
    await expect(page.getByRole('alert').filter({ hasText: 'Switchyard is unavailable for a moment' })).toBeVisible();
    await page.unroute('**/api/v1/quote/execute');

    // Reloaded and pressed again: the same swap (the lock's Idempotency-Key replays the first answer), not a 409.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Quote locked' })).toBeVisible();
    await page.getByRole('button', { name: 'Execute' }).click();
    await expect(page.getByRole('heading', { name: 'Send your deposit' })).toBeVisible();
    expect(new URL(page.url()).searchParams.get('tx')).toBe(recorded);

    // Executed, the lock is no longer kept: a reload goes to the swap's own page.
    await page.reload();
    await expect(page).toHaveURL(new RegExp(`/tx/${recorded}$`));
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Quote locked' })).toHaveCount(0);
    await expect(page.getByLabel('Amount', { exact: true })).toHaveValue('');
  });
}

test('API validation errors are shown next to their fields', async ({ page }, testInfo) => {
  await page.goto('/');
  await fillEthToBtc(page, 'abc');
  await page.getByLabel('Slippage tolerance (%)').fill('200');
  await page.getByRole('button', { name: 'Get routes' }).click();

  const amount = page.getByLabel('Amount', { exact: true });
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  await expect(amount).toHaveAccessibleDescription(/Enter the amount as a plain number/);
  await expect(amount).toBeFocused();
  const slippage = page.getByLabel('Slippage tolerance (%)');
  await expect(slippage).toHaveAccessibleDescription(/from 0% to 100%/);
  await expect(page.getByRole('heading', { name: 'Routes' })).toBeVisible();
  await shot(page, testInfo, 'swap-validation');
  await expectAccessible(page);

  await expect(page.getByRole('alert').filter({ hasText: '2 fields need attention.' })).toBeVisible();

  // Fixing a field clears its message.
  await amount.fill('0.5');
  await expect(amount).not.toHaveAttribute('aria-invalid', 'true');

  // Locking needs both wallets: the page says so next to the empty one instead of sending a doomed request.
  await slippage.fill('1');
  await page.getByLabel('Destination wallet').fill('');
  await page.getByRole('button', { name: 'Get routes' }).click();
  await page.locator('li[data-provider]').first().getByRole('button', { name: 'Lock this route' }).click();
  await expect(page.getByLabel('Destination wallet')).toHaveAccessibleDescription(/Enter the wallet that receives/);

  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, testInfo, 'swap-mobile');
});

test('empty, error and expired-lock states', async ({ page }, testInfo) => {
  await page.route('**/api/v1/swap/chains*', (route) =>
    route.fulfill({
      status: 503,
      json: { error: { code: 'SERVICE_UNAVAILABLE', message: 'A backing service is temporarily unavailable' } },
    }),
  );
  await page.goto('/');
  await expect(page.getByRole('alert').filter({ hasText: 'Could not load chains.' })).toBeVisible();
  await shot(page, testInfo, 'swap-chains-error');
  await page.unroute('**/api/v1/swap/chains*');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByLabel('Source chain')).toBeEnabled();

  let releaseQuote = () => {};
  const quoteHeld = new Promise<void>((resolve) => {
    releaseQuote = resolve;
  });
  await page.route('**/api/v1/quote', async (route) => {
    await quoteHeld;
    await route.fulfill({ json: { data: [] } });
  });
  await fillEthToBtc(page, '0.5');
  await page.getByRole('button', { name: 'Get routes' }).click();
  await expect(page.getByRole('button', { name: 'Finding routes…' })).toBeDisabled();
  await shot(page, testInfo, 'swap-routes-loading');
  releaseQuote();
  await expect(page.getByRole('heading', { name: 'No route for this pair right now' })).toBeVisible();
  await shot(page, testInfo, 'swap-no-routes');
  await page.unroute('**/api/v1/quote');

  // A short-lived lock shows the expiry state: Execute is disabled and says why.
  await page.route('**/api/v1/quote/lock', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    await route.fulfill({ response, json: { data: { ...body.data, ttlMs: 1_500 } } });
  });
  await page.getByRole('button', { name: 'Get routes' }).click();
  await page.locator('li[data-provider]').first().getByRole('button', { name: 'Lock this route' }).click();
  // After expiry there is one way on: get new routes.
  await expect(page.getByText('Lock expired', { exact: true })).toBeVisible({ timeout: 5_000 });
  await expect(page.getByRole('button', { name: 'Execute' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Back to routes' })).toHaveCount(0);
  await shot(page, testInfo, 'swap-lock-expired');
  await page.getByRole('button', { name: 'Get new routes' }).click();
  await expect(page.locator('li[data-provider]').first()).toBeVisible();
});

test('an unknown transaction shows the not-found state', async ({ page }, testInfo) => {
  await page.goto('/tx/tx_0000000000000000000000');
  await expect(page.getByRole('heading', { level: 1, name: 'Transaction not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Start a swap' })).toHaveAttribute('href', '/');
  await shot(page, testInfo, 'tx-not-found');
  await expectAccessible(page);
});

test('editing the form after a lock gives the lock up', async ({ page }) => {
  await page.goto('/');
  await fillEthToBtc(page, '0.5');
  await page.getByRole('button', { name: 'Get routes' }).click();
  await page.locator('li[data-provider]').first().getByRole('button', { name: 'Lock this route' }).click();
  await expect(page.getByRole('heading', { name: 'Quote locked' })).toBeVisible();
  await page.getByLabel('Amount', { exact: true }).fill('0.75');
  await expect(page.getByRole('heading', { name: 'Quote locked' })).toHaveCount(0);
  await expect(page.getByText('You changed the swap since these routes were fetched.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Execute' })).toHaveCount(0);
});

test('a rate-limited request counts down, and the error takes the focus in view at both widths', async ({
  page,
}, testInfo) => {
  await page.route('**/api/v1/quote', (route) =>
    route.fulfill({
      status: 429,
      headers: { 'retry-after': '30' },
      json: { error: { code: 'RATE_LIMITED', message: 'Too many quote requests' } },
    }),
  );
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await fillEthToBtc(page, '0.5');
  const getRoutes = page.getByRole('button', { name: 'Get routes' });
  await getRoutes.scrollIntoViewIfNeeded();
  await getRoutes.click();
  const countdown = page.getByTestId('retry-countdown');
  await expect(countdown).toHaveText(/You can try again in 0:(30|29|28)\./);
  await expect(countdown).not.toHaveText(/0:30/, { timeout: 3_000 });
  const alert = page.getByRole('alert').filter({ hasText: 'Could not get routes' });
  await expect(alert).toContainText('Too many requests from your connection');
  await expect(alert).not.toContainText('quote requests');

  // The failure is announced where the reader is: focus moves to it, and it is scrolled into view.
  const focusedIsError = () =>
    page.evaluate(() => document.activeElement?.textContent?.startsWith('Could not get routes.') ?? false);
  await expect(alert).toBeFocused();
  expect(await focusedIsError()).toBe(true);
  await expect(alert).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath('swap-routes-429.png') });

  // On a phone the routes sit below the form, out of sight of the button.
  await page.setViewportSize({ width: 390, height: 844 });
  await getRoutes.scrollIntoViewIfNeeded();
  await getRoutes.click();
  await expect(alert).toBeFocused();
  expect(await focusedIsError()).toBe(true);
  await expect(alert).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath('swap-routes-429-mobile.png') });
});

/** Fills the swap page's form for BTC to ETH on Ethereum: the ETH received has more decimals than are shown. */
async function fillBtcToEth(page: Page, amount: string) {
  await page.getByLabel('Source chain').selectOption('bitcoin');
  await page.getByLabel('Source asset').selectOption('native');
  await page.getByLabel('Destination chain').selectOption('ethereum');
  await page.getByLabel('Destination asset').selectOption(ADDR.ethNative);
  await page.getByLabel('Amount', { exact: true }).fill(amount);
  await page.getByLabel('Source wallet').fill(WALLETS.bitcoin);
  await page.getByLabel('Destination wallet').fill(WALLETS.evm);
}

const fee = (scope: Locator) => ({
  total: scope.getByTestId('fee-total'),
  quoted: scope.getByTestId('fee-quoted'),
  lines: scope.getByTestId('fee-lines').getByRole('listitem'),
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`one fee and one amount from route card to settlement, support and the affiliate's total (${viewport.width} px)`, async ({
    page,
    request,
    baseURL,
  }, testInfo) => {
    const code = `e2e-fees-${viewport.width}`;
    await registerReferralCode(request, baseURL ?? '', code);
    await page.setViewportSize(viewport);
    await settleChainflipAfter(request, 1_000_000);
    try {
      await page.goto(`/?ref=${code}`);
      await fillBtcToEth(page, '0.25');
      await page.getByRole('button', { name: 'Get routes' }).click();
      const card = page.locator('li[data-provider="CHAINFLIP"]').first();
      const quotedTotal = (await fee(card).total.textContent()) ?? '';
      expect(quotedTotal).toMatch(/^\$[\d,]+\.\d{2}$/);
      // Chainflip charges in several assets; each line shows its token and its USD value.
      const lines = await fee(card).lines.allInnerTexts();
      const tokens = lines.map((line) => line.match(/: [\d,.]+ (\S+) · \$[\d,]+\.\d{2}$/)?.[1]);
      expect(tokens, lines.join(' | ')).not.toContain(undefined);
      expect(new Set(tokens).size, lines.join(' | ')).toBeGreaterThan(1);
      await shot(page, testInfo, `fees-route-card-${viewport.width}`);

      await card.getByRole('button', { name: 'Lock this route' }).click();
      const lock = page.getByRole('region', { name: 'Quote locked' });
      await expect(fee(lock).total).toHaveText(quotedTotal);
      await expect(fee(lock).lines).toHaveText(lines);
      // The ETH received has 18 decimals: shown cut to 8, the same on the lock panel and on /tx.
      const received = (await lock.getByText(/ ETH$/).first().textContent()) ?? '';
      expect(received).toMatch(/^\d+\.\d{1,8} ETH$/);
      await shot(page, testInfo, `fees-lock-${viewport.width}`);

      await page.getByRole('button', { name: 'Execute' }).click();
      // Until the deposit is reported the page links the swap's own page ("the swap's own page").
      const link = page.locator('a[href^="/tx/"]').first();
      const txId = ((await link.getAttribute('href')) ?? '').split('/').pop() ?? '';
      await link.click();
      await expect(page).toHaveURL(new RegExp(`/tx/${txId}$`));
      const details = page.getByRole('region', { name: 'Details' });
      await expect(fee(details).total).toHaveText(quotedTotal);
      await expect(fee(details).quoted).toHaveCount(0);
      await expect(page.getByText(received, { exact: true })).toBeVisible();
      await shot(page, testInfo, `fees-tx-pending-${viewport.width}`);

      // Settled: the whole fee, line for line as quoted (#46 item 4): Chainflip's reported lines, and the ones it
      // never reports (the pools') kept as quoted and marked; the quoted total beside it only where they differ.
      await settleChainflipAfter(request, 3);
      const status = page.getByRole('status').filter({ has: page.locator('[data-status]') });
      await expect(status.locator('[data-status]')).toHaveText('SUCCESS', { timeout: 20_000 });
      const actualTotal = (await fee(details).total.textContent()) ?? '';
      expect(actualTotal).toMatch(/^\$[\d,]+\.\d{2}$/);
      const quotedNote = actualTotal === quotedTotal ? null : `actual · quoted ${quotedTotal}`;
      if (quotedNote) await expect(fee(details).quoted).toHaveText(quotedNote);
      else await expect(fee(details).quoted).toHaveCount(0);
      const actualLines = await fee(details).lines.allInnerTexts();
      expect(actualLines.length, actualLines.join(' | ')).toBeGreaterThanOrEqual(lines.length);

      // The timeline says each change once, each badge the status after that change.
      const steps = page.getByTestId('timeline-step');
      await expect(steps.last()).toContainText('Completed');
      const texts = await steps.allInnerTexts();
      expect(texts.filter((s) => s.includes('Sending to the destination')).length).toBeLessThanOrEqual(1);
      expect(texts.filter((s) => s.includes('Completed'))).toHaveLength(1);
      await expect(steps.filter({ hasText: 'Completed' }).locator('[data-status]')).toHaveText('SUCCESS');
      await expect(steps.locator('[data-status="SUCCESS"]')).toHaveCount(1);
      await shot(page, testInfo, `fees-tx-success-${viewport.width}`);

      await signInAs(page, E2E_ADMIN);
      await page.goto(`/dashboard/transactions/${txId}`);
      const swapPanel = page.getByRole('region', { name: 'Swap', exact: true });
      await expect(fee(swapPanel).total).toHaveText(actualTotal);
      if (quotedNote) await expect(fee(swapPanel).quoted).toHaveText(quotedNote);
      else await expect(fee(swapPanel).quoted).toHaveCount(0);
      await expect(fee(swapPanel).lines).toHaveText(actualLines);
      await expect(swapPanel.getByText(received, { exact: true })).toBeVisible();
      // Support reads every event, grouped by the change they recorded, each badge the status after it.
      const changes = page.getByRole('region', { name: 'Timeline' }).getByTestId('support-timeline-change');
      const settled = changes.filter({ hasText: 'status changed' });
      await expect(settled).toHaveCount(1);
      await expect(settled).toContainText('progress');
      await expect(settled.locator('[data-status]')).toHaveText('SUCCESS');
      await expect(changes.locator('[data-status="SUCCESS"]')).toHaveCount(1);
      await expect(changes.first().locator('[data-status]')).toHaveText('PENDING');
      await shot(page, testInfo, `fees-support-${viewport.width}`);

      // The affiliate's "Provider fees" counts the swap's settled fee in USD.
      await page.goto('/dashboard/affiliates');
      const row = page.getByRole('row', { name: new RegExp(code) });
      await expect(row.getByRole('cell', { name: actualTotal, exact: true })).toBeVisible();
      await shot(page, testInfo, `fees-affiliates-${viewport.width}`);
    } finally {
      await settleChainflipAfter(request, 3);
    }
  });
}
