import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { BTC_TO_ETH } from '../../test/support/fixtures';
import { E2E_ADMIN, expectAccessible, shot, signInAs, WIDTHS, waitForTransactionStatus } from '../support/helpers';
import { expect, test } from '../support/test';

// scripts/e2e-server.sh starts the simulators from SIMULATOR_BASE_PORT in PROVIDER_KEYS order: CHAINFLIP is third.
const CHAINFLIP_SIMULATOR = `http://127.0.0.1:${Number(process.env.SIMULATOR_BASE_PORT ?? 4810) + 2}`;

async function simulator(request: APIRequestContext, path: string, data: unknown, method: 'put' | 'post' = 'post') {
  const res = await request[method](`${CHAINFLIP_SIMULATOR}${path}`, { data });
  expect(res.ok(), await res.text()).toBe(true);
}

/** A Chainflip BTC → ETH channel opened through the API, to a recipient of its own (which scripts its ending). */
async function chainflipSwap(request: APIRequestContext, recipient: string) {
  const locked = await request.post('/api/v1/quote/lock', {
    data: { ...BTC_TO_ETH, recipient, provider: 'CHAINFLIP' },
  });
  expect(locked.status(), await locked.text()).toBe(200);
  const executed = await request.post('/api/v1/quote/execute', { data: { lockId: (await locked.json()).data.lockId } });
  expect(executed.status(), await executed.text()).toBe(200);
  return (await executed.json()).data.transaction.id as string;
}

const freshRecipient = () => `0x${randomBytes(20).toString('hex')}`;
const statusLine = (page: Page) => page.getByRole('status').filter({ has: page.locator('[data-status]') });

test.afterEach(async ({ request }) => {
  await request.post(`${CHAINFLIP_SIMULATOR}/__sim/reset`);
});

test('a rejected Chainflip deposit says why and that it goes back, on /tx and to support, at both widths', async ({
  page,
  request,
}, testInfo) => {
  const recipient = freshRecipient();
  await simulator(request, '/__sim/chainflip/scripts', { scripts: [{ key: recipient, outcome: 'rejected' }] });
  await simulator(request, '/__sim/config', { settleAfterPolls: 3, autoDepositMs: 0 }, 'put');
  const id = await chainflipSwap(request, recipient);
  await waitForTransactionStatus(request, id, 'REFUND');

  await page.goto(`/tx/${id}`);
  const status = statusLine(page);
  await expect(status).toContainText('Refunded.');
  await expect(status).toContainText('Chainflip could not swap it: the deposit was rejected by the broker.');
  await expect(status).toContainText('The deposit was sent back to the wallet it came from');
  await expect(page.getByTestId('stream-state')).toHaveText('Final status — this page no longer updates.');
  for (const viewport of WIDTHS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await shot(page, testInfo, `tx-rejected-${viewport.width}`);
  }
  await expectAccessible(page);

  await signInAs(page, E2E_ADMIN);
  await page.goto(`/dashboard/transactions/${id}`);
  await expect(page.getByTestId('swapper-sees')).toHaveText(
    'Refunded. Chainflip could not swap it: the deposit was rejected by the broker. The deposit was sent back to the wallet it came from, less the network fee for sending it back.',
  );
});

test('before any deposit the swapper reads "Waiting for the deposit", and support sees the deposit instructions are up', async ({
  page,
  request,
}, testInfo) => {
  // No deposit ever arrives: the channel answers WAITING on every poll.
  await simulator(request, '/__sim/config', { autoDepositMs: null }, 'put');
  const id = await chainflipSwap(request, freshRecipient());
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/v1/transaction/events?transactionId=${id}`);
        return ((await res.json()).data as { substatus: string | null }[]).some((e) => e.substatus);
      },
      { timeout: 20_000, intervals: [200] },
    )
    .toBe(true);

  await page.goto(`/tx/${id}`);
  const timeline = page.getByRole('list', { name: 'Steps so far, oldest first' });
  await expect(timeline).toContainText('Waiting for the deposit');
  await expect(timeline).not.toContainText('to confirm');
  await expect(statusLine(page)).toHaveText(/Waiting for you: the swap starts once your deposit/);
  await expect(page.getByRole('region', { name: 'Send your deposit' })).toBeVisible();
  await shot(page, testInfo, 'tx-awaiting-deposit-1280');

  await signInAs(page, E2E_ADMIN);
  for (const viewport of WIDTHS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto(`/dashboard/transactions/${id}`);
    await expect(page.getByTestId('swapper-sees')).toHaveText(
      'Waiting for you: the swap starts once your deposit or wallet transaction arrives.',
    );
    await expect(page.getByText('Chainflip · created')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Swap' })).not.toContainText(/CHAINFLIP/);
    await shot(page, testInfo, `support-awaiting-deposit-${viewport.width}`);
  }
  await expectAccessible(page);
});

test('the dashboard names chains and providers, never their keys', async ({ page, request }, testInfo) => {
  await simulator(request, '/__sim/config', { autoDepositMs: null }, 'put');
  await chainflipSwap(request, freshRecipient());
  await signInAs(page, E2E_ADMIN);
  for (const viewport of WIDTHS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto('/dashboard/transactions?provider=CHAINFLIP');
    const row = page.getByRole('row').filter({ hasText: '(Bitcoin) → ETH (Ethereum)' }).first();
    await expect(row).toContainText('Chainflip');
    await expect(page.getByRole('main')).not.toContainText('(bitcoin)');
    await expect(page.getByLabel('Provider')).toContainText('LI.FI');
    await shot(page, testInfo, `transactions-names-${viewport.width}`);
    await page.goto('/dashboard/locks');
    const byProvider = page.getByRole('region', { name: 'By provider' });
    await expect(byProvider.getByRole('rowheader', { name: 'Chainflip', exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Recent locks' })).toContainText('Bitcoin → Ethereum');
    const median = byProvider
      .getByRole('row', { name: /Chainflip/ })
      .getByRole('cell')
      .last();
    await expect(median).toHaveText(/^(\d+ ms|under 1 s|[\d.]+ s)$/);
    await expect(median).not.toHaveText('0 ms');
    await shot(page, testInfo, `locks-names-${viewport.width}`);
  }
});
