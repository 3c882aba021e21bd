import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { BTC_TO_ETH, ETH_TO_BTC } from '../../test/support/fixtures';
import { expectAccessible, reportDeposit, shot, WIDTHS, waitForTransactionStatus } from '../support/helpers';
import { expect, test } from '../support/test';

test.use({ timezoneId: 'Pacific/Auckland' });

// scripts/e2e-server.sh starts the simulators from SIMULATOR_BASE_PORT in PROVIDER_KEYS order.
const SIMULATOR_BASE = Number(process.env.SIMULATOR_BASE_PORT ?? 4810);
const SIMULATOR = { THORCHAIN: SIMULATOR_BASE, CHAINFLIP: SIMULATOR_BASE + 2 } as const;

/** A recipient of this test's own, so the simulator's ending scripted for it touches no other swap. */
const ownRecipient = () => `0x${randomBytes(20).toString('hex')}`;

async function scriptEnding(
  request: APIRequestContext,
  provider: keyof typeof SIMULATOR,
  key: string,
  outcome: string,
) {
  const res = await request.post(`http://127.0.0.1:${SIMULATOR[provider]}/__sim/scripts`, {
    data: { scripts: [{ key, outcome }] },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

async function execute(request: APIRequestContext, swap: Record<string, unknown>, provider: string) {
  const locked = await request.post('/api/v1/quote/lock', { data: { ...swap, provider } });
  expect(locked.status(), await locked.text()).toBe(200);
  const executed = await request.post('/api/v1/quote/execute', { data: { lockId: (await locked.json()).data.lockId } });
  expect(executed.status(), await executed.text()).toBe(200);
  return (await executed.json()).data;
}

const status = (page: Page) => page.getByRole('status').filter({ has: page.locator('[data-status]') });
const detail = (page: Page, term: string) => page.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('+ dd');

test('a refund reads as a refund on /tx, live and without JavaScript (#46 item 5)', async ({
  page,
  browser,
  request,
}, testInfo) => {
  const recipient = ownRecipient();
  await scriptEnding(request, 'THORCHAIN', recipient, 'refund');
  const { transaction } = await execute(request, { ...BTC_TO_ETH, recipient }, 'THORCHAIN');

  await page.goto(`/tx/${transaction.id}`);
  await expect(page.getByText('You receive')).toBeVisible();
  await reportDeposit(request, transaction.id);
  // Live: the stream brings the refund, and the page stops promising the swap's output.
  await expect(status(page).locator('[data-status]')).toHaveText('REFUND', { timeout: 20_000 });
  const done = await (await request.get(`/api/v1/transaction/status?transactionId=${transaction.id}`)).json();
  const { refund } = done.data.transaction;
  expect(refund).toMatchObject({ to: BTC_TO_ETH.depositor, amount: expect.stringMatching(/^0\.\d+$/) });
  const expectRefund = async (view: Page) => {
    await expect(view.getByText('You receive')).toHaveCount(0);
    await expect(view.getByText('Returned to you')).toBeVisible();
    await expect(view.getByText(`${refund.amount} BTC`, { exact: true })).toBeVisible();
    await expect(view.getByText('to the source wallet on Bitcoin', { exact: true })).toBeVisible();
    await expect(detail(view, 'Refund')).toHaveText(
      `${refund.amount} BTC returned to the source wallet, ${BTC_TO_ETH.depositor}`,
    );
    await expect(detail(view, 'Fee')).toContainText('No swap fee: the swap did not take place');
    await expect(detail(view, 'Fee')).toContainText(`Sending the deposit back cost ${refund.kept} BTC.`);
    await expect(detail(view, 'Refund transaction')).toContainText(refund.hash.slice(0, 6));
    await expect(detail(view, 'Outbound hash')).toHaveCount(0);
    const timeline = view.getByRole('list', { name: 'Steps so far, oldest first' });
    await expect(timeline.getByText('Refund transaction sent')).toBeVisible();
    await expect(timeline.getByText('Payout transaction sent')).toHaveCount(0);
  };
  await expectRefund(page);
  await expectAccessible(page);
  for (const { name, width, height } of WIDTHS) {
    await page.setViewportSize({ width, height });
    await shot(page, testInfo, `tx-refund-live-${name}`);
  }

  // The server's HTML, as read without JavaScript (and after the no-JS hash report sends the swapper back).
  for (const { name, width, height } of WIDTHS) {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height } });
    const html = await context.newPage();
    await html.goto(`/tx/${transaction.id}?reported=1`);
    await expectRefund(html);
    await shot(html, testInfo, `tx-refund-no-js-${name}`);
    await context.close();
  }
});

test('a received amount the provider settled differently says what was quoted (#46 item 5)', async ({
  page,
  request,
}, testInfo) => {
  const recipient = ownRecipient();
  await scriptEnding(request, 'THORCHAIN', recipient, 'success');
  const { transaction } = await execute(request, { ...BTC_TO_ETH, amount: '1.5', recipient }, 'THORCHAIN');
  await reportDeposit(request, transaction.id);
  await waitForTransactionStatus(request, transaction.id, 'SUCCESS');
  const tx = (await (await request.get(`/api/v1/transaction/status?transactionId=${transaction.id}`)).json()).data
    .transaction;
  expect(tx.quotedDstAmount).not.toBeNull();
  expect(tx.quotedDstAmount).not.toBe(tx.dstAmount);
  for (const { name, width, height } of WIDTHS) {
    await page.setViewportSize({ width, height });
    await page.goto(`/tx/${transaction.id}`);
    await expect(page.getByText(`${tx.dstAmount} ETH`, { exact: true })).toBeVisible();
    await expect(page.getByTestId('received-quoted')).toHaveText(`received · quoted ${tx.quotedDstAmount} ETH`);
    await shot(page, testInfo, `tx-received-quoted-${name}`);
  }
});

test('a Chainflip fee stays whole from quote to settlement, its LP lines kept as quoted (#46 item 4)', async ({
  page,
  request,
}, testInfo) => {
  // The deposit arrives only when this test reports it (an earlier spec may have left it arriving at once).
  const config = await request.put(`http://127.0.0.1:${SIMULATOR.CHAINFLIP}/__sim/config`, {
    data: { autoDepositMs: null },
  });
  expect(config.ok(), await config.text()).toBe(true);
  const { transaction, fee } = await execute(request, ETH_TO_BTC, 'CHAINFLIP');
  const quotedLines = fee.details.length;
  await page.goto(`/tx/${transaction.id}`);
  const feeDetail = detail(page, 'Fee');
  await expect(feeDetail.getByRole('listitem')).toHaveCount(quotedLines);
  // Before the deposit Chainflip reports no fee: every line stands at its quoted amount, marked, none lost.
  await expect(feeDetail.getByTestId('fee-line-basis')).toHaveText([
    '(as quoted; not charged yet)',
    '(as quoted; not charged yet)',
    '(as quoted; not charged yet)',
    '(as quoted; the provider does not report it)',
    '(as quoted; the provider does not report it)',
  ]);
  for (const { name, width, height } of WIDTHS) {
    await page.setViewportSize({ width, height });
    await shot(page, testInfo, `tx-chainflip-fee-waiting-${name}`);
  }
  await reportDeposit(request, transaction.id);
  await expect(status(page).locator('[data-status]')).toHaveText('SUCCESS', { timeout: 20_000 });
  const settled = (await (await request.get(`/api/v1/transaction/status?transactionId=${transaction.id}`)).json()).data
    .transaction.fee;
  // Line for line as quoted: the LP lines stay, marked, and the total is the whole fee, not the reported part.
  await expect(feeDetail.getByRole('listitem')).toHaveCount(quotedLines);
  await expect(feeDetail.getByTestId('fee-line-basis')).toHaveText([
    '(as quoted; the provider does not report it)',
    '(as quoted; the provider does not report it)',
  ]);
  expect(settled.amountUsd).toBeGreaterThan(Number(fee.usd) * 0.9);
  await expect(feeDetail.getByTestId('fee-total')).toHaveText(`$${settled.amountUsd.toFixed(2)}`);
  if (Math.round(settled.amountUsd * 100) !== Math.round(Number(fee.usd) * 100)) {
    await expect(feeDetail.getByTestId('fee-quoted')).toContainText('actual · quoted');
  }
  for (const { name, width, height } of WIDTHS) {
    await page.setViewportSize({ width, height });
    await shot(page, testInfo, `tx-chainflip-fee-${name}`);
  }
});
