import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { BTC_TO_ETH, ETH_TO_BTC } from '../../test/support/fixtures';
import {
  E2E_ADMIN,
  expectAccessible,
  reportDeposit,
  shot,
  signInAs,
  WIDTHS,
  waitForTransactionStatus,
} from '../support/helpers';
import { expect, test } from '../support/test';

// scripts/e2e-server.sh starts the simulators from SIMULATOR_BASE_PORT in PROVIDER_KEYS order: THORCHAIN is first.
const THORCHAIN_SIMULATOR = `http://127.0.0.1:${Number(process.env.SIMULATOR_BASE_PORT ?? 4810)}`;

async function settledSwap(
  request: APIRequestContext,
  provider: string,
  swap: Record<string, unknown>,
  ending: string,
) {
  const locked = await request.post('/api/v1/quote/lock', { data: { ...swap, provider } });
  expect(locked.status(), await locked.text()).toBe(200);
  const executed = await request.post('/api/v1/quote/execute', { data: { lockId: (await locked.json()).data.lockId } });
  expect(executed.status(), await executed.text()).toBe(200);
  const id: string = (await executed.json()).data.transaction.id;
  await reportDeposit(request, id);
  await waitForTransactionStatus(request, id, ending);
  return (await (await request.get(`/api/v1/transaction/status?transactionId=${id}`)).json()).data.transaction;
}

const detail = (scope: Page | Locator, term: string) =>
  scope.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('+ dd');

test.beforeEach(async ({ page }) => {
  await signInAs(page, E2E_ADMIN);
});

test('support reads a refund as a refund, and a Chainflip fee whole (#46 items 4 and 5)', async ({
  page,
  request,
}, testInfo) => {
  const recipient = `0x${randomBytes(20).toString('hex')}`;
  const scripted = await request.post(`${THORCHAIN_SIMULATOR}/__sim/scripts`, {
    data: { scripts: [{ key: recipient, outcome: 'refund' }] },
  });
  expect(scripted.ok()).toBe(true);
  const refunded = await settledSwap(request, 'THORCHAIN', { ...BTC_TO_ETH, recipient }, 'REFUND');
  const chainflip = await settledSwap(request, 'CHAINFLIP', ETH_TO_BTC, 'SUCCESS');

  for (const { name, width, height } of WIDTHS) {
    await page.setViewportSize({ width, height });
    await page.goto(`/dashboard/transactions/${refunded.id}`);
    const swap = page.getByRole('region', { name: 'Swap' });
    await expect(swap.getByText('Refunded', { exact: true })).toBeVisible();
    await expect(swap.getByText(`${refunded.refund.amount} BTC`, { exact: true })).toBeVisible();
    await expect(detail(swap, 'Refund')).toContainText(`${refunded.refund.amount} BTC returned to the source wallet`);
    await expect(detail(swap, 'Fee')).toContainText('No swap fee: the swap did not take place');
    // The refund's transaction is on the source chain, under its own name.
    const hashes = page.getByRole('region', { name: 'Hashes' });
    await expect(hashes.locator('dt')).toHaveText(['Source', 'Inbound', 'Refund']);
    await expect(detail(hashes, 'Refund').getByRole('link')).toHaveAttribute(
      'href',
      `https://mempool.space/tx/${refunded.outboundHash}`,
    );
    await expect(page.getByText(`Refund transaction ${refunded.outboundHash}`)).toBeVisible();
    if (name === 'desktop') await expectAccessible(page);
    await shot(page, testInfo, `support-refund-${name}`);

    await page.goto(`/dashboard/transactions/${chainflip.id}`);
    await expect(detail(page, 'Fee').getByTestId('fee-line-basis')).toHaveText([
      '(as quoted; the provider does not report it)',
      '(as quoted; the provider does not report it)',
    ]);
    await expect(detail(page, 'Fee').getByTestId('fee-total')).toHaveText(`$${chainflip.fee.amountUsd.toFixed(2)}`);
    await shot(page, testInfo, `support-chainflip-fee-${name}`);
  }
});
