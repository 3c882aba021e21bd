import type { APIRequestContext } from '@playwright/test';
import { BTC_TO_ETH } from '../../test/support/fixtures';
import { expectAccessible, shot } from '../support/helpers';
import { expect, test } from '../support/test';

// Not the server's zone: local times must not make the browser's first render differ from the server's.
test.use({ timezoneId: 'Pacific/Auckland' });

// scripts/e2e-server.sh starts the simulators from SIMULATOR_BASE_PORT in PROVIDER_KEYS order: THORCHAIN is first.
const THORCHAIN_SIMULATOR = `http://127.0.0.1:${Number(process.env.SIMULATOR_BASE_PORT ?? 4810)}`;

async function settleThorchainAfter(request: APIRequestContext, polls: number) {
  const res = await request.put(`${THORCHAIN_SIMULATOR}/__sim/config`, {
    data: { settleAfterPolls: polls, outcome: 'success' },
  });
  expect(res.ok()).toBe(true);
}

/** A THORChain BTC → ETH swap executed through the API, as an integrator would: its transaction and exec payload. */
async function executeThorchainSwap(request: APIRequestContext) {
  const locked = await request.post('/api/v1/quote/lock', { data: { ...BTC_TO_ETH, provider: 'THORCHAIN' } });
  expect(locked.status(), await locked.text()).toBe(200);
  const executed = await request.post('/api/v1/quote/execute', { data: { lockId: (await locked.json()).data.lockId } });
  expect(executed.status(), await executed.text()).toBe(200);
  return (await executed.json()).data;
}

test('/tx/<id> shows the deposit still owed, takes its hash, and follows the stream live to SUCCESS', async ({
  page,
  request,
  browser,
}, testInfo) => {
  await settleThorchainAfter(request, 1_000_000);
  try {
    const { transaction, exec } = await executeThorchainSwap(request);

    // The server renders the state the swap is in: read without JavaScript, it already waits for the swapper.
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport });
      const html = await context.newPage();
      await html.goto(`/tx/${transaction.id}`);
      const state = html.getByRole('status').filter({ has: html.locator('[data-status]') });
      await expect(state).toContainText('Waiting for you: the swap starts once your deposit or wallet transaction');
      await expect(state).not.toContainText('in progress');
      await expect(html.getByText('on Bitcoin', { exact: true })).toBeVisible();
      const owed = html.getByRole('region', { name: 'Send your deposit' });
      await expect(owed.getByText(exec.meta.depositAddress)).toBeVisible();
      await expect(owed.getByText(`${BTC_TO_ETH.amount} BTC`)).toBeVisible();
      await expect(html.getByRole('list', { name: 'Steps so far, oldest first' })).toContainText('Swap created');
      await expect(html.getByText(/Loading/)).toHaveCount(0);
      await shot(html, testInfo, `tx-server-rendered-${viewport.width}`);
      await html.goto('/tx/tx_0000000000000000000000');
      await expect(html.getByRole('heading', { level: 1, name: 'Transaction not found' })).toBeVisible();
      await context.close();
    }

    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    await page.goto(`/tx/${transaction.id}`);
    const status = page.getByRole('status').filter({ has: page.locator('[data-status]') });
    await expect(status.locator('[data-status]')).toHaveText('PENDING');
    await expect(page.getByTestId('stream-state')).toHaveText(/^Live: changes appear as they happen/);

    // Someone who left the swap page still sees what to send, where, with which memo, until when.
    const action = page.getByRole('region', { name: 'Send your deposit' });
    await expect(action).toBeVisible();
    await expect(action.getByText(exec.meta.depositAddress)).toBeVisible();
    await expect(action.getByText(exec.meta.depositMemo)).toBeVisible();
    await expect(action.getByText(`${BTC_TO_ETH.amount} BTC`)).toBeVisible();
    if (exec.meta.expiresAt) await expect(action.getByText('Quote expires')).toBeVisible();
    await expect(page.getByText(/Usually takes ~\d+ (s|min)/)).toBeVisible();
    const timeline = page.getByRole('list', { name: 'Steps so far, oldest first' });
    await expect(timeline.getByText('Swap created')).toBeVisible();
    await shot(page, testInfo, 'tx-deposit-owed');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, testInfo, 'tx-deposit-owed-mobile');
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectAccessible(page);

    // The hash goes to track; the stream brings it back and the owed action disappears.
    const depositHash = 'ab'.repeat(32);
    await action.getByLabel('Transaction hash').fill(depositHash);
    await action.getByRole('button', { name: "I've sent it" }).click();
    await expect(action).toHaveCount(0);
    // The form went away with the focus: it moves to the status the hash changed, not to <body>.
    await expect(status).toBeFocused();
    await expect(timeline.getByText('Deposit hash reported')).toBeVisible();
    await expect(page.getByRole('link', { name: /Follow it on THORChain/ })).toHaveAttribute(
      'href',
      `https://track.ninerealms.com/${depositHash}`,
    );

    await settleThorchainAfter(request, 2);
    await expect(status.locator('[data-status]')).toHaveText('SUCCESS', { timeout: 20_000 });
    await expect(page.getByText('Completed.')).toBeVisible();
    await expect(page.getByText('Final status — this page no longer updates.')).toBeVisible();
    const outbound = page.locator('dd').filter({ has: page.getByRole('button', { name: 'Copy outbound hash' }) });
    await expect(outbound.getByRole('link')).toHaveAttribute('href', /^https:\/\/etherscan\.io\/tx\/0x/);
    await expect(timeline.getByText('Payout transaction sent')).toBeVisible();

    // Pushed, not polled: one stream, never the status endpoint.
    expect(requests.filter((p) => p === '/api/v1/transaction/status')).toEqual([]);
    expect(requests.filter((p) => p === '/api/v1/transaction/stream').length).toBeGreaterThanOrEqual(1);
    await shot(page, testInfo, 'tx-live-success');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, testInfo, 'tx-live-success-mobile');
  } finally {
    await settleThorchainAfter(request, 3);
  }
});

test('/tx/<id> past the quote expiry says not to send, and promises no time (#46 item 3)', async ({
  page,
  request,
}, testInfo) => {
  const { transaction, exec } = await executeThorchainSwap(request);
  expect(exec.meta.expiresAt).toBeTruthy();

  // Before the expiry: the usual instructions, and no expected time while the deposit is still owed.
  await page.goto(`/tx/${transaction.id}`);
  const action = page.getByRole('region', { name: 'Send your deposit' });
  await expect(action.getByText('Send exactly the amount below')).toBeVisible();
  await expect(page.getByText(/Usually takes ~\d+ (s|min) once the deposit confirms/)).toBeVisible();
  await expect(page.getByText('expected around')).toHaveCount(0);

  // The browser's clock past the quote's expiry (the swap itself expires later, after its grace).
  await page.clock.install({ time: new Date(Date.parse(exec.meta.expiresAt) + 60_000) });
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto(`/tx/${transaction.id}`);
    await expect(action.getByText('This quote has expired: do not send a deposit now.')).toBeVisible();
    await expect(action.getByText('Send exactly the amount below')).toHaveCount(0);
    await expect(action.getByText(/paste its transaction hash below/)).toBeVisible();
    await expect(page.getByText('expected around')).toHaveCount(0);
    await shot(page, testInfo, `tx-quote-expired-${viewport.width}`);
  }
});

test('/tx/<id> without JavaScript says to reload, and "I\'ve sent it" still records the hash (#46 item 11)', async ({
  browser,
  request,
}, testInfo) => {
  await settleThorchainAfter(request, 1_000_000);
  try {
    const { transaction } = await executeThorchainSwap(request);

    // A refused hash first, on a phone (the form is gone once a hash is taken), then one that is taken.
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport });
      const page = await context.newPage();
      await page.goto(`/tx/${transaction.id}`);
      await expect(page.getByTestId('stream-state')).toHaveText(/reload it to see changes/);
      await expect(page.getByText('Connecting to live updates')).toHaveCount(0);
      if (viewport.width === 390) {
        // A hash that is not one: the page says so, and nothing is recorded.
        await page.getByLabel('Transaction hash').fill('not-a-hash');
        await page.getByRole('button', { name: "I've sent it" }).click();
        await expect(page).toHaveURL(new RegExp(`/tx/${transaction.id}\\?reportError=VALIDATION_ERROR$`));
        await expect(page.getByRole('alert')).toContainText('not a transaction hash');
        await shot(page, testInfo, `tx-no-js-bad-hash-${viewport.width}`);
        await context.close();
        continue;
      }
      await page.getByLabel('Transaction hash').fill('cd'.repeat(32));
      await page.getByRole('button', { name: "I've sent it" }).click();
      await expect(page).toHaveURL(new RegExp(`/tx/${transaction.id}\\?reported=1$`));
      await expect(page.getByRole('status').filter({ hasText: 'the hash was recorded' })).toBeVisible();
      await expect(page.getByRole('list', { name: 'Steps so far, oldest first' })).toContainText(
        'Deposit hash reported',
      );
      await shot(page, testInfo, `tx-no-js-reported-${viewport.width}`);
      await context.close();
    }
    const status = await request.get(`/api/v1/transaction/status?transactionId=${transaction.id}`);
    expect((await status.json()).data.transaction.hash).toBe('cd'.repeat(32));
  } finally {
    await settleThorchainAfter(request, 3);
  }
});
