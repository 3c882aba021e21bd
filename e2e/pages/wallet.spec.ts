import type { Page } from '@playwright/test';
import { WALLETS } from '../../test/support/fixtures';
import { executeFirstRoute, expectAccessible, fillUsdcEthereumToArbitrum, shot } from '../support/helpers';
import { expect, test } from '../support/test';

interface WalletCall {
  method: string;
  params?: unknown[];
}

/**
 * A scripted EIP-1193 wallet on Polygon holding `account`: it grants the account, switches chain on
 * request, reports no allowance, mines every transaction at once, and records each call.
 */
async function injectWallet(page: Page, account: string) {
  await page.addInitScript((address) => {
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
          return `0x${String(sent).repeat(64)}`;
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
  }, account);
}

const walletCalls = (page: Page) =>
  page.evaluate(() => (window as unknown as { walletCalls: WalletCall[] }).walletCalls);

test('an injected wallet connects, switches chain, approves, sends, and the hash is tracked', async ({
  page,
}, testInfo) => {
  await injectWallet(page, WALLETS.evm);
  await page.goto('/');
  await fillUsdcEthereumToArbitrum(page);
  await executeFirstRoute(page, ['RELAY', 'LIFI']);
  await expect(page.getByRole('heading', { name: 'Sign in your wallet' })).toBeVisible();
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

  const tracked = page.waitForRequest((r) => r.url().endsWith('/api/v1/transaction/track') && r.method() === 'POST');
  await wallet.getByRole('button', { name: /^Send 2,?500 USDC$/ }).click();
  const track = await tracked;
  const swapHash = `0x${'2'.repeat(64)}`;
  expect(track.postDataJSON()).toMatchObject({ txHash: swapHash });
  await expect(wallet.getByText('Swap sent.')).toBeVisible();
  await expect(wallet.getByRole('alert')).toHaveCount(0);
  await shot(page, testInfo, 'wallet-sent');

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

test('without a browser wallet the page says so and keeps the technical details', async ({ page }) => {
  await page.goto('/');
  await fillUsdcEthereumToArbitrum(page);
  await executeFirstRoute(page, ['RELAY', 'LIFI']);
  await expect(page.getByText('No browser wallet found.')).toBeVisible();
  await page.locator('summary', { hasText: 'Technical details' }).click();
  await expect(page.getByRole('button', { name: 'Copy calldata' })).toBeVisible();
  await expect(page.getByText('2,500 USDC').first()).toBeVisible();
});
