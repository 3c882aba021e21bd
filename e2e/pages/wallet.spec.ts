import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { USDC_ETH_TO_ARB, WALLETS } from '../../test/support/fixtures';
import {
  executeFirstRoute,
  expectAccessible,
  fillUsdcEthereumToArbitrum,
  shot,
  waitForTransactionStatus,
} from '../support/helpers';
import { expect, test } from '../support/test';

interface WalletCall {
  method: string;
  params?: unknown[];
}

/**
 * A scripted EIP-1193 wallet on Polygon holding `account`: it grants the account, switches chain on
 * request, reports no allowance, mines every transaction at once, and records each call. Its n-th
 * transaction's hash has n's digit at both ends (0x222222…222222 for the swap, after the approval) and
 * this wallet's own nonce between: a chain never mines a transaction twice, so no two tests' swaps share a
 * deposit. Answers the swap's hash.
 */
async function injectWallet(page: Page, account: string): Promise<string> {
  const nonce = randomBytes(12).toString('hex');
  await page.addInitScript(
    ({ address, nonce }) => {
      const calls: { method: string; params?: unknown[] }[] = [];
      const listeners: Record<string, ((value: unknown) => void)[]> = {};
      let chainId = '0x89';
      let sent = 0;
      const emit = (event: string, value: unknown) => {
        for (const listener of listeners[event] ?? []) listener(value);
      };
      const answer = (method: string, params: unknown[] = []): unknown => {
        switch (method) {
          case 'eth_requestAccounts':
          case 'eth_accounts':
            return [address];
          case 'eth_chainId':
            return chainId;
          case 'wallet_switchEthereumChain':
            chainId = (params[0] as { chainId: string }).chainId;
            emit('chainChanged', chainId);
            return null;
          case 'eth_call':
            return `0x${'0'.repeat(64)}`;
          case 'eth_sendTransaction':
            sent += 1;
            return `0x${String(sent).repeat(20)}${nonce}${String(sent).repeat(20)}`;
          case 'eth_blockNumber':
            return '0x10';
          case 'eth_getTransactionReceipt':
            return {
              status: '0x1',
              transactionHash: params[0],
              blockHash: `0x${'b'.repeat(64)}`,
              blockNumber: '0x10',
              transactionIndex: '0x0',
              from: address,
              to: null,
              cumulativeGasUsed: '0x5208',
              gasUsed: '0x5208',
              effectiveGasPrice: '0x1',
              logs: [],
              logsBloom: `0x${'0'.repeat(512)}`,
              type: '0x2',
            };
          default:
            throw Object.assign(new Error(`scripted wallet: ${method} not supported`), { code: 4200 });
        }
      };
      Object.assign(window, {
        walletCalls: calls,
        ethereum: {
          request: async ({ method, params }: { method: string; params?: unknown[] }) => {
            calls.push({ method, params });
            return answer(method, params);
          },
          on: (event: string, listener: (value: unknown) => void) => {
            listeners[event] = [...(listeners[event] ?? []), listener];
          },
          removeListener: (event: string, listener: (value: unknown) => void) => {
            listeners[event] = (listeners[event] ?? []).filter((l) => l !== listener);
          },
        },
      });
    },
    { address: account, nonce },
  );
  return `0x${'2'.repeat(20)}${nonce}${'2'.repeat(20)}`;
}

const walletCalls = (page: Page) =>
  page.evaluate(() => (window as unknown as { walletCalls: WalletCall[] }).walletCalls);

const isTrack = (r: { url(): string; method(): string }) =>
  r.url().endsWith('/api/v1/transaction/track') && r.method() === 'POST';

/** Connects the scripted wallet, moves it to Ethereum, approves and sends; the track request that follows. */
async function signAndSend(page: Page, wallet: ReturnType<Page['getByTestId']>) {
  await wallet.getByRole('button', { name: 'Connect wallet' }).click();
  await wallet.getByRole('button', { name: 'Switch to Ethereum' }).click();
  await wallet.getByRole('button', { name: 'Approve 2,500 USDC' }).click();
  const tracked = page.waitForRequest(isTrack);
  await wallet.getByRole('button', { name: 'Send 2,500 USDC' }).click();
  return tracked;
}

/** A USDC swap executed through the API and left unsigned, as when the swapper closed the swap page. */
async function unsignedWalletSwap(request: APIRequestContext): Promise<string> {
  const locked = await request.post('/api/v1/quote/lock', { data: { ...USDC_ETH_TO_ARB, provider: 'RELAY' } });
  expect(locked.status(), await locked.text()).toBe(200);
  const executed = await request.post('/api/v1/quote/execute', { data: { lockId: (await locked.json()).data.lockId } });
  expect(executed.status(), await executed.text()).toBe(200);
  const { transaction, exec } = (await executed.json()).data;
  expect(exec.meta.executionMode).toBe('evm-calldata');
  return transaction.id;
}

test('an injected wallet connects, switches chain, approves, sends, and the hash is tracked', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const swapHash = await injectWallet(page, WALLETS.evm);
  await page.goto('/');
  await fillUsdcEthereumToArbitrum(page);
  await executeFirstRoute(page, ['RELAY', 'LIFI']);
  await expect(page.getByRole('heading', { name: 'Sign in your wallet' })).toBeVisible();
  // Nothing is done yet: no "Track this swap" beside "Connect wallet", only where the same steps can be finished later.
  await expect(page.getByRole('link', { name: /Track this swap/ })).toHaveCount(0);
  await expect(page.getByTestId('recorded').getByRole('link', { name: "the swap's own page" })).toHaveAttribute(
    'href',
    /^\/tx\/tx_/,
  );
  // Amounts read in units with symbols; the raw call waits behind "Technical details".
  await expect(page.getByText(/base units/)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Copy calldata' })).toBeHidden();
  await shot(page, testInfo, 'wallet-connect');

  const wallet = page.getByTestId('wallet');
  await wallet.getByRole('button', { name: 'Connect wallet' }).click();
  await expect(wallet.getByText('Polygon')).toBeVisible();
  await wallet.getByRole('button', { name: 'Switch to Ethereum' }).click();
  await expect(wallet.getByText('Ethereum', { exact: true })).toBeVisible();
  await expect(wallet.getByRole('button', { name: 'Approve 2,500 USDC' })).toBeVisible();
  await shot(page, testInfo, 'wallet-approve');
  await expectAccessible(page);
  await wallet.getByRole('button', { name: 'Approve 2,500 USDC' }).click();

  const tracked = page.waitForRequest(isTrack);
  await wallet.getByRole('button', { name: 'Send 2,500 USDC' }).click();
  const track = await tracked;
  expect(track.postDataJSON()).toMatchObject({ txHash: swapHash });
  // Said only once track took the wallet's hash; then the swap's page is where to follow it.
  await expect(wallet.getByRole('status')).toHaveText(
    /^Sent from your wallet: 0x222222…222222.* — we're tracking it\.$/,
  );
  await expect(wallet.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('link', { name: /Track this swap/ })).toBeVisible();
  await shot(page, testInfo, 'wallet-sent');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, testInfo, 'wallet-sent-mobile');

  const calls = await walletCalls(page);
  const methods = calls.map((c) => c.method);
  expect(methods).toContain('eth_requestAccounts');
  expect(methods).toContain('wallet_switchEthereumChain');
  const sends = calls.filter((c) => c.method === 'eth_sendTransaction');
  expect(sends).toHaveLength(2);
  const [approval, swap] = sends.map((c) => c.params?.[0] as { to: string; data: string; from: string });
  expect(approval?.data.startsWith('0x095ea7b3')).toBe(true);
  expect(swap?.from.toLowerCase()).toBe(WALLETS.evm.toLowerCase());
  expect(methods.indexOf('wallet_switchEthereumChain')).toBeLessThan(methods.indexOf('eth_sendTransaction'));
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`/tx/<id> carries on an unsigned wallet swap: connect, approve, send, tracked (${viewport.width} px)`, async ({
    page,
    request,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    const swapHash = await injectWallet(page, WALLETS.evm);
    const id = await unsignedWalletSwap(request);
    await page.goto(`/tx/${id}`);
    await expect(page.getByText(/^Waiting for you: the swap starts once/)).toBeVisible();
    const action = page.getByRole('region', { name: 'Sign in your wallet' });
    const wallet = action.getByTestId('wallet');
    await expect(wallet.getByRole('button', { name: 'Connect wallet' })).toBeVisible();
    await shot(page, testInfo, `tx-wallet-connect-${viewport.width}`);

    const track = await signAndSend(page, wallet);
    expect(track.postDataJSON()).toEqual({ transactionId: id, txHash: swapHash });
    // The swap now has the wallet's hash: nothing is owed any more, and the page says what happened.
    await expect(action).toHaveCount(0);
    const said = page.getByRole('status').filter({ hasText: 'Sent from your wallet' });
    await expect(said).toHaveText(/^Sent from your wallet: 0x222222…222222.* — we're tracking it\.$/);
    await expect(said).toBeFocused();
    await expect(page.locator(`[title="${swapHash}"]`).first()).toBeVisible();
    await shot(page, testInfo, `tx-wallet-sent-${viewport.width}`);
    await expectAccessible(page);

    // Once the swap is final "we're tracking it" is no longer true: it goes, and its focus moves to the status.
    await waitForTransactionStatus(request, id, 'SUCCESS');
    await expect(page.getByTestId('stream-state')).toHaveText('Final status — this page no longer updates.');
    await expect(said).toHaveCount(0);
    await expect(page.getByRole('status').filter({ has: page.locator('[data-status]') })).toBeFocused();
    // The wallet's own hash was this swap's deposit all along: the timeline never says otherwise.
    await expect(page.getByText(/Deposit (seen on chain|matched to this swap)/)).toHaveCount(1);
    await expect(page.getByText('A reported hash did not match this swap')).toHaveCount(0);
    await shot(page, testInfo, `tx-wallet-final-${viewport.width}`);
  });
}

test('a wallet send to a swap that finished meanwhile says so, and never "tracking"', async ({
  page,
  request,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const swapHash = await injectWallet(page, WALLETS.evm);
  await page.goto('/');
  await fillUsdcEthereumToArbitrum(page);
  await executeFirstRoute(page, ['RELAY', 'LIFI']);
  const href = await page.getByTestId('recorded').getByRole('link').getAttribute('href');
  const id = href?.split('/').pop() ?? '';
  // Meanwhile the swap was paid from elsewhere and completed.
  const paid = await request.post('/api/v1/transaction/track', {
    data: { transactionId: id, txHash: `0x${'ab'.repeat(32)}` },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  await waitForTransactionStatus(request, id, 'SUCCESS');

  const wallet = page.getByTestId('wallet');
  const track = await signAndSend(page, wallet);
  expect(track.postDataJSON()).toEqual({ transactionId: id, txHash: swapHash });
  const said = wallet.getByRole('status');
  await expect(said).toContainText('This swap had already finished.');
  await expect(said).toContainText('the swap had already completed');
  await expect(said).not.toContainText(/track/i);
  await shot(page, testInfo, 'wallet-sent-final-mobile');
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, testInfo, 'wallet-sent-final');
});

test('without a browser wallet the page says so and keeps the technical details', async ({ page }) => {
  await page.goto('/');
  await fillUsdcEthereumToArbitrum(page);
  await executeFirstRoute(page, ['RELAY', 'LIFI']);
  await expect(page.getByText('No browser wallet found.')).toBeVisible();
  await page.locator('summary', { hasText: 'Technical details' }).click();
  await expect(page.getByRole('button', { name: 'Copy calldata' })).toBeVisible();
  await expect(page.getByText('2,500 USDC').first()).toBeVisible();
});
