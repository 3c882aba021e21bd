import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { ADDR, ETH_TO_BTC, WALLETS } from '../../test/support/fixtures';

/** axe on the current page: no serious or critical violations. */
export async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`).join('; ')})`);
  expect(serious).toEqual([]);
}

/**
 * Selects on the page too narrow to show their chosen value whole (a table cell can squeeze a
 * `width: 100%` control until "support" reads "suppo"): each as its label and the widths. The open
 * list shows every option whole, so only the value shown closed is measured.
 */
export const clippedSelects = (page: Page) =>
  page.evaluate(() => {
    const measure = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    // Room Chromium keeps beside the text for the drop-down arrow.
    const ARROW = 16;
    return [...document.querySelectorAll('select')].flatMap((select) => {
      if (!select.getClientRects().length) return [];
      const style = getComputedStyle(select);
      measure.font = style.font;
      const text = measure.measureText(select.selectedOptions[0]?.text ?? '').width;
      const room = select.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      const label = select.getAttribute('aria-label') ?? select.labels?.[0]?.textContent ?? select.name;
      return room - ARROW < text ? [`${label}: ${Math.round(room)} px for ${Math.round(text)} px of text`] : [];
    });
  });

/** A full-page screenshot saved with the test's output, to be looked at. */
export const shot = (page: Page, testInfo: TestInfo, name: string) =>
  page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });

/** Fills the swap page's form for ETH on Ethereum to BTC, with valid wallets. */
export async function fillEthToBtc(page: Page, amount: string) {
  await page.getByLabel('Source chain').selectOption('ethereum');
  await page.getByLabel('Source asset').selectOption(ADDR.ethNative);
  await page.getByLabel('Destination chain').selectOption('bitcoin');
  await page.getByLabel('Destination asset').selectOption('native');
  await page.getByLabel('Amount', { exact: true }).fill(amount);
  await page.getByLabel('Source wallet').fill(WALLETS.evm);
  await page.getByLabel('Destination wallet').fill(WALLETS.bitcoin);
}

/** Fills the swap page's form for 2,500 USDC from Ethereum to Arbitrum: an EVM swap that needs an approval. */
export async function fillUsdcEthereumToArbitrum(page: Page) {
  await page.getByLabel('Source chain').selectOption('ethereum');
  await page.getByLabel('Source asset').selectOption({ label: 'USDC — USD Coin' });
  await page.getByLabel('Destination chain').selectOption('arbitrum');
  await page.getByLabel('Destination asset').selectOption({ label: 'USDC — USD Coin' });
  await page.getByLabel('Amount', { exact: true }).fill('2500');
  await page.getByLabel('Source wallet').fill(WALLETS.evm);
  await page.getByLabel('Destination wallet').fill(WALLETS.evm2);
}

/** Gets routes, locks the first one from `providers`, and executes it. */
export async function executeFirstRoute(page: Page, providers: string[]) {
  await page.getByRole('button', { name: 'Get routes' }).click();
  const selector = providers.map((p) => `li[data-provider="${p}"]`).join(', ');
  await page.locator(selector).first().getByRole('button', { name: 'Lock this route' }).click();
  await page.getByRole('button', { name: 'Execute' }).click();
}

/** A swap through the public API (Relay unless `swap` says otherwise), so the dashboard's tables have a row. */
export async function executeSwap(
  request: APIRequestContext,
  swap: Partial<typeof ETH_TO_BTC> & { referralCode?: string } = {},
) {
  const locked = await request.post('/api/v1/quote/lock', { data: { ...ETH_TO_BTC, provider: 'RELAY', ...swap } });
  expect(locked.status(), await locked.text()).toBe(200);
  const executed = await request.post('/api/v1/quote/execute', { data: { lockId: (await locked.json()).data.lockId } });
  expect(executed.status(), await executed.text()).toBe(200);
  return (await executed.json()).data.transaction.id as string;
}

/**
 * Reports a deposit hash for the swap through track, as the swapper's wallet or client does: the
 * simulated chain takes it as the deposit (simulators wait for one), so the swap can settle.
 */
export async function reportDeposit(request: APIRequestContext, transactionId: string) {
  const txHash = `0x${randomBytes(32).toString('hex')}`;
  const tracked = await request.post('/api/v1/transaction/track', { data: { transactionId, txHash } });
  expect(tracked.status(), await tracked.text()).toBe(200);
  return txHash;
}

/** Polls the public status endpoint until the transaction reaches `status`. */
export async function waitForTransactionStatus(request: APIRequestContext, id: string, status: string) {
  let tx: { status: string; outboundHash: string | null } | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/v1/transaction/status?transactionId=${id}`);
        tx = (await res.json()).data?.transaction;
        return tx?.status;
      },
      { timeout: 20_000, intervals: [200] },
    )
    .toBe(status);
  return tx as { status: string; outboundHash: string | null };
}

// scripts/e2e-server.sh creates this admin with scripts/create-admin.ts.
export const E2E_ADMIN = { email: 'admin@e2e.switchyard.test', password: 'e2e-admin-password-not-secret' };

/**
 * Signs the e2e admin in through Better Auth's endpoint on `baseURL`. Like the form (signInAs below), a
 * throttled attempt (429: a few per ten seconds per address, and the suite signs in often from one)
 * waits out the window and tries again.
 */
export async function signInByApi(request: APIRequestContext, baseURL: string) {
  const headers = { origin: baseURL, 'content-type': 'application/json' };
  let signedIn = await request.post(`${baseURL}/api/auth/sign-in/email`, { headers, data: E2E_ADMIN });
  for (let attempt = 0; attempt < 3 && signedIn.status() === 429; attempt++) {
    // Better Auth says how long the window has left (X-Retry-After, in seconds); its window is 10 s.
    const retryAfter = Number(signedIn.headers()['x-retry-after']);
    const waitSeconds = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 10;
    await new Promise((resolve) => setTimeout(resolve, waitSeconds * 1000));
    signedIn = await request.post(`${baseURL}/api/auth/sign-in/email`, { headers, data: E2E_ADMIN });
  }
  expect(signedIn.status(), await signedIn.text()).toBe(200);
}

/** Registers a referral code as the e2e admin, through Better Auth and tRPC as the dashboard does. */
export async function registerReferralCode(request: APIRequestContext, baseURL: string, code: string) {
  const headers = { origin: baseURL, 'content-type': 'application/json' };
  await signInByApi(request, baseURL);
  const created = await request.post('/api/trpc/affiliates.createCode', { headers, data: { json: { code } } });
  expect([200, 409], await created.text()).toContain(created.status());
}

/**
 * Signs in on the /sign-in form. Better Auth throttles sign-in per address (a few attempts per ten
 * seconds) and the suite signs in many times from one address: a throttled attempt waits out the
 * window and tries again, so a test fails only on a real refusal.
 */
export async function signInAs(page: Page, who: { email: string; password: string }) {
  const throttled = page.getByRole('alert').filter({ hasText: 'Too many attempts' });
  for (let attempt = 0; attempt < 4; attempt++) {
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const outcome = await Promise.race([
      page.waitForURL(/\/dashboard\//, { timeout: 10_000 }).then(() => 'signed-in' as const),
      throttled.waitFor({ timeout: 10_000 }).then(() => 'throttled' as const),
    ]).catch(() => 'neither' as const);
    if (outcome !== 'throttled') break;
    await page.waitForTimeout(10_000);
  }
  await expect(page).toHaveURL(/\/dashboard\//);
}

/** The screen sizes every page is checked at: a laptop and a phone. */
export const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/**
 * Tables on the page that do not fit the scroller around them (its parent, which the panel bounds):
 * each as its caption and the widths, so a column cut off at the panel's edge names its table.
 */
export const tablesWiderThanTheirPanel = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('table')].flatMap((table) => {
      const scroller = table.parentElement;
      if (!scroller?.getClientRects().length || scroller.scrollWidth <= scroller.clientWidth + 1) return [];
      return [`${table.caption?.textContent}: ${scroller.scrollWidth} px in ${scroller.clientWidth} px`];
    }),
  );

/**
 * A table scrolling sideways inside its panel shows a shaded edge on the side that hides columns:
 * the right one at first, the left one, and not the right, once scrolled to the end.
 */
export async function expectSideScrollCue(scroller: Locator) {
  const frame = scroller.locator('xpath=..');
  const edge = (side: '::before' | '::after') =>
    frame.evaluate((element, pseudo) => getComputedStyle(element, pseudo).opacity, side);
  await expect(frame).toHaveAttribute('data-more-right', 'true');
  await expect(frame).not.toHaveAttribute('data-more-left');
  expect(await edge('::after')).toBe('1');
  expect(await edge('::before')).toBe('0');
  await scroller.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
  await expect(frame).toHaveAttribute('data-more-left', 'true');
  await expect(frame).not.toHaveAttribute('data-more-right');
  expect(await edge('::after')).toBe('0');
  expect(await edge('::before')).toBe('1');
  await scroller.evaluate((element) => element.scrollTo({ left: 0 }));
}

/**
 * POSTs `body` to `path` on the e2e server `times` times from another loopback address than the
 * browser's, so the rate limit it runs into is that client's alone and no other test is refused.
 */
export async function postFromAnotherClient(baseURL: string, path: string, body: unknown, times: number) {
  const { hostname, port } = new URL(baseURL);
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) {
    statuses.push(
      await new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          {
            host: hostname,
            port,
            path,
            method: 'POST',
            localAddress: '127.0.0.2',
            headers: { 'content-type': 'application/json' },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify(body));
      }),
    );
  }
  return statuses;
}
