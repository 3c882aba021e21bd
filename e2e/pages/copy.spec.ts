import type { Page } from '@playwright/test';
import { ETH_TO_BTC, WALLETS } from '../../test/support/fixtures';
import { expectAccessible, shot } from '../support/helpers';
import { expect, test } from '../support/test';

/** Replaces the page's clipboard: `copied` records what was written, or every write is refused. */
async function stubClipboard(page: Page, behaviour: 'works' | 'refuses') {
  await page.addInitScript((refuse) => {
    const copied: string[] = [];
    Object.assign(window, { copied });
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: {
        writeText: async (text: string) => {
          if (refuse) throw new DOMException('Write permission denied.', 'NotAllowedError');
          copied.push(text);
        },
      },
    });
  }, behaviour === 'refuses');
}

test('copy buttons copy, and where the clipboard refuses they select the text and say to press Ctrl+C', async ({
  page,
  request,
}, testInfo) => {
  const locked = await request.post('/api/v1/quote/lock', { data: { ...ETH_TO_BTC, provider: 'RELAY' } });
  expect(locked.status(), await locked.text()).toBe(200);
  const executed = await request.post('/api/v1/quote/execute', { data: { lockId: (await locked.json()).data.lockId } });
  expect(executed.status(), await executed.text()).toBe(200);
  const txId: string = (await executed.json()).data.transaction.id;

  await stubClipboard(page, 'works');
  await page.goto(`/tx/${txId}`);
  const copyWallet = page.getByRole('button', { name: 'Copy destination wallet' });
  await copyWallet.click();
  await expect(copyWallet).toHaveText('Copied');
  expect(await page.evaluate(() => (window as unknown as { copied: string[] }).copied)).toEqual([WALLETS.bitcoin]);

  await stubClipboard(page, 'refuses');
  await page.reload();
  await copyWallet.click();
  const fallback = page.getByRole('textbox', { name: 'Copy destination wallet: the text to copy' });
  await expect(fallback).toBeFocused();
  await expect(fallback).toHaveValue(WALLETS.bitcoin);
  expect(
    await fallback.evaluate((input: HTMLInputElement) =>
      input.value.slice(input.selectionStart ?? 0, input.selectionEnd ?? 0),
    ),
  ).toBe(WALLETS.bitcoin);
  await expect(page.getByRole('status').filter({ hasText: 'press Ctrl+C' })).toBeVisible();
  await shot(page, testInfo, 'copy-fallback');
  await expectAccessible(page);

  await fallback.press('Escape');
  await expect(fallback).toBeHidden();
  await expect(copyWallet).toBeFocused();
});
