import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Browser, Locator, Page, TestInfo } from '@playwright/test';
import { BTC_TO_ETH, ETH_TO_BTC } from '../../test/support/fixtures';
import {
  clippedSelects,
  E2E_ADMIN,
  executeFirstRoute,
  expectAccessible,
  fillEthToBtc,
  reportDeposit,
  shot,
  signInAs,
  WIDTHS,
  waitForTransactionStatus,
} from '../support/helpers';
import { expect, test } from '../support/test';

const ADMIN = E2E_ADMIN;
const run = randomBytes(3).toString('hex');
const SUPPORT = { email: `support-${run}@e2e.switchyard.test`, password: 'support-password-123', name: 'Sam Support' };
const AFFILIATE = {
  email: `affiliate-${run}@e2e.switchyard.test`,
  password: 'affiliate-password-1',
  name: 'Ada Affiliate',
};
const CODE = `E2E_${run}`;

test.describe.configure({ mode: 'serial' });

/** Lock + execute through the public API with Relay, report the deposit, then wait for SUCCESS. */
async function settledRelaySwap(request: APIRequestContext, referralCode?: string) {
  const locked = await request.post('/api/v1/quote/lock', { data: { ...ETH_TO_BTC, provider: 'RELAY', referralCode } });
  expect(locked.status(), await locked.text()).toBe(200);
  const { lockId } = (await locked.json()).data;
  const executed = await request.post('/api/v1/quote/execute', { data: { lockId } });
  expect(executed.status(), await executed.text()).toBe(200);
  const id: string = (await executed.json()).data.transaction.id;
  await reportDeposit(request, id);
  const tx = await waitForTransactionStatus(request, id, 'SUCCESS');
  return { id, outboundHash: tx.outboundHash ?? '' };
}

/** Any script the CSP blocked would break the page silently; fail loudly instead. */
function watchCsp(page: Page) {
  const blocked: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) blocked.push(message.text());
  });
  return blocked;
}

async function signIn(browser: Browser, who: { email: string; password: string }, testInfo: TestInfo, name: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const blocked = watchCsp(page);
  await signInAs(page, who);
  await shot(page, testInfo, `${name}-landing`);
  return { context, page, blocked };
}

let adminState: Awaited<ReturnType<import('@playwright/test').BrowserContext['storageState']>>;

test('anonymous visitors are sent to sign-in; pages carry a nonce CSP, the public API does not', async ({
  page,
  request,
}, testInfo) => {
  const blocked = watchCsp(page);
  const response = await page.goto('/dashboard/transactions');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fdashboard%2Ftransactions/);
  const headers = response?.headers() ?? {};
  expect(headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  await shot(page, testInfo, 'sign-in');
  await expectAccessible(page);
  await page.goto('/sign-up');
  await shot(page, testInfo, 'sign-up');
  await expectAccessible(page);
  const api = await request.get('/api/v1/swap/chains');
  expect(api.headers()['content-security-policy']).toBeUndefined();
  const trpc = await request.get('/api/trpc/session.me');
  expect(trpc.status()).toBe(401);
  expect(blocked).toEqual([]);
});

test("sign-up and sign-in say what is wrong next to each field, in words, never the validator's text", async ({
  page,
}, testInfo) => {
  const described = (label: string, words: string) =>
    expect(page.getByLabel(label, { exact: true })).toHaveAccessibleDescription(new RegExp(words));
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto('/sign-up');
    const create = page.getByRole('button', { name: 'Create affiliate account' });
    await create.click();
    await described('Name', 'Enter a name');
    await described('Email', 'Enter an email address');
    await described('Password', 'Enter a password');
    await page.getByLabel('Name').fill('Ada');
    await page.getByLabel('Email').fill('ada@');
    await page.getByLabel('Password').fill('short');
    await create.click();
    await described('Email', 'Enter a valid email address');
    await described('Password', 'Use at least 12 characters');
    await expect(page.getByLabel('Name')).not.toHaveAttribute('aria-invalid', 'true');
    await shot(page, testInfo, `sign-up-errors-${size.name}`);
    // Better Auth's own refusal reaches the field it is about, in the same words.
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill('a-long-enough-password');
    await create.click();
    await described('Email', 'An account with this email already exists');
    await expect(page.getByText(/\[body\.|Too small|expected string/)).toHaveCount(0);
    await expectAccessible(page);

    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await described('Email', 'Enter an email address');
    await described('Password', 'Enter a password');
    await shot(page, testInfo, `sign-in-errors-${size.name}`);
  }
});

test('the admin adds a support user from the Users page', async ({ browser }, testInfo) => {
  const { context, page, blocked } = await signIn(browser, ADMIN, testInfo, 'admin');
  await page.goto('/dashboard/users');
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  // The users table is client-rendered: once it shows, the form is hydrated and keeps what is typed.
  await expect(page.getByRole('cell', { name: ADMIN.email })).toBeVisible();
  const described = (label: string, words: string) =>
    expect(page.getByLabel(label, { exact: true })).toHaveAccessibleDescription(new RegExp(words));
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.getByLabel('Email').fill('');
    await page.getByRole('button', { name: 'Add user' }).click();
    await described('Name', 'Enter a name');
    await described('Email', 'Enter an email address');
    await described('Initial password', 'Enter a password');
    await page.getByLabel('Email').fill('sam@');
    await page.getByRole('button', { name: 'Add user' }).click();
    await described('Email', 'Enter a valid email address');
    await expect(page.getByText(/\[body\.|Too small|expected string|Invalid email/)).toHaveCount(0);
    await shot(page, testInfo, `users-form-errors-${size.name}`);
  }
  await page.setViewportSize(WIDTHS[0]);
  // The server's refusal is shown at its field too.
  await page.getByLabel('Name').fill(SUPPORT.name);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Initial password').fill(SUPPORT.password);
  await page.getByRole('button', { name: 'Add user' }).click();
  await described('Email', `A user with the email ${ADMIN.email} already exists`);
  await page.getByLabel('Name').fill(SUPPORT.name);
  await expect(page.getByLabel('Name')).toHaveValue(SUPPORT.name);
  await page.getByLabel('Email').fill(SUPPORT.email);
  await page.getByLabel('Initial password').fill(SUPPORT.password);
  await page.getByLabel('Role', { exact: true }).selectOption('support');
  await page.getByRole('button', { name: 'Add user' }).click();
  await expect(page.getByText(`Added ${SUPPORT.email} as support`)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(SUPPORT.email) })).toBeVisible();
  // The new user's role can be read, and changed, in the table: the select shows its value whole.
  await expect(page.getByLabel(`Role of ${SUPPORT.email}`)).toHaveValue('support');
  expect(await clippedSelects(page)).toEqual([]);
  await shot(page, testInfo, 'users');
  await expectAccessible(page);
  adminState = await context.storageState();
  expect(blocked).toEqual([]);
  await context.close();
});

test('support finds a swap by its outbound hash, reads the timeline and polls now', async ({
  browser,
  request,
}, testInfo) => {
  const swap = await settledRelaySwap(request);
  expect(swap.outboundHash).toBeTruthy();
  const { context, page, blocked } = await signIn(browser, SUPPORT, testInfo, 'support');
  await expect(page.getByRole('heading', { level: 1, name: 'Transactions' })).toBeVisible();
  await page.getByLabel('Transaction id, lock id, hash or wallet').fill(swap.outboundHash.slice(0, 12));
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('link', { name: new RegExp(swap.id) })).toBeVisible();
  await expect(page.getByText('1 transaction · page 1 of 1')).toBeVisible();
  await page.getByLabel('Transaction id, lock id, hash or wallet').fill(swap.outboundHash);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText('1 transaction · page 1 of 1')).toBeVisible();
  const link = page.getByRole('link', { name: new RegExp(swap.id) });
  await expect(link).toBeVisible();
  await shot(page, testInfo, 'transactions-search');
  await expectAccessible(page);

  await link.click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/transactions/${swap.id}$`));
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByText('status changed')).toBeVisible();
  await expect(timeline.getByText(/PENDING → SUCCESS/)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Hashes' }).getByTitle(swap.outboundHash)).toBeVisible();
  await page.getByRole('button', { name: 'Poll now' }).click();
  await expect(page.getByText(/the swap is final \(SUCCESS\); its status no longer changes/)).toBeVisible();
  // The button keeps the focus while it polls and after (a disabled button would drop it to <body>).
  await expect(page.getByRole('button', { name: 'Poll now' })).toBeFocused();
  await expect(page.getByText(/Polled Relay/)).toHaveCount(0);
  await expect(timeline.getByText(/Poll requested from the dashboard/)).toHaveCount(0);
  await shot(page, testInfo, 'transaction-detail');
  await expectAccessible(page);

  const refused = await page.goto('/dashboard/operations');
  expect(refused?.status()).toBe(403);
  await expect(page.getByText("You don't have access to this page")).toBeVisible();
  const forbidden = await page.request.get('/api/trpc/operations.overview');
  expect(forbidden.status()).toBe(403);
  expect(blocked).toEqual([]);
  await context.close();
});

test('an affiliate signs up, creates a link, and sees the swap it brought in', async ({
  browser,
  request,
}, testInfo) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const blocked = watchCsp(page);
  await page.goto('/sign-up');
  await page.getByLabel('Name').fill(AFFILIATE.name);
  await page.getByLabel('Email').fill(AFFILIATE.email);
  await page.getByLabel('Password').fill(AFFILIATE.password);
  await page.getByRole('button', { name: 'Create affiliate account' }).click();
  await expect(page).toHaveURL(/\/dashboard\/affiliates$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your referrals' })).toBeVisible();
  await expect(page.getByText('No referral codes yet')).toBeVisible();

  await page.getByRole('textbox', { name: 'Code', exact: true }).fill(CODE);
  await page.getByLabel('Name (optional)').fill('Launch newsletter');
  await page.getByRole('button', { name: 'Create link' }).click();
  await expect(page.getByText(`Created ${CODE}`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create link' })).toBeFocused();
  const row = page.getByRole('row', { name: new RegExp(CODE) });
  await expect(row.getByRole('link', { name: `/?ref=${CODE}` })).toBeVisible();
  await expect(row.getByRole('button', { name: /Copy link/ })).toBeVisible();

  await page.getByRole('textbox', { name: 'Code', exact: true }).fill(CODE.toLowerCase());
  await page.getByRole('button', { name: 'Create link' }).click();
  await expect(page.getByText(/already taken/)).toBeVisible();

  // A visitor follows the link in a fresh context and completes a simulated swap on the swap page.
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  const landing = await visitorPage.goto(`/?ref=${CODE}`);
  expect(landing?.status()).toBe(200);
  await expect(visitorPage.getByTestId('referral')).toHaveText(`Referred by ${CODE}`);
  await fillEthToBtc(visitorPage, '0.5');
  await executeFirstRoute(visitorPage, ['RELAY']);
  // Until the wallet sends, the page links the swap's own page beside the wallet steps, not "Track this swap".
  const track = visitorPage.locator('a[href^="/tx/"]');
  await expect(track).toBeVisible();
  const swapId = decodeURIComponent((await track.getAttribute('href'))?.split('/tx/')[1] ?? '');
  await visitor.close();
  await reportDeposit(request, swapId);
  const swap = { id: swapId, ...(await waitForTransactionStatus(request, swapId, 'SUCCESS')) };
  await page.reload();
  const totals = page.getByRole('region', { name: 'Totals' });
  await expect(totals.getByText('Referred swaps')).toBeVisible();
  await expect(totals.getByText('100.0%')).toBeVisible();
  // What users paid the providers and what the affiliate earns are told apart.
  await expect(totals.getByText('Provider fees paid')).toBeVisible();
  await expect(totals.getByText('Commission earned')).toBeVisible();
  await expect(totals.getByText(/No referral fee is configured/)).toBeVisible();
  await expect(page.getByRole('link', { name: /Switchyard\s*Partners/ })).toBeVisible();
  const recent = page.getByRole('region', { name: 'Recent referred swaps' });
  await expect(recent.getByRole('cell', { name: CODE })).toBeVisible();
  await expect(recent.getByText('SUCCESS')).toBeVisible();
  expect(swap.id).toMatch(/^tx_/);
  await shot(page, testInfo, 'affiliates-affiliate');
  await expectAccessible(page);

  const otherAffiliates = await page.request.get('/api/trpc/affiliates.list');
  expect(otherAffiliates.status()).toBe(403);
  expect(blocked).toEqual([]);
  await context.close();
});

/** Each admin page and something that only shows once its data has arrived. */
const ADMIN_PAGES: { path: string; heading: string; loaded: (page: Page) => Locator }[] = [
  {
    path: '/dashboard/operations',
    heading: 'Operations',
    // Relay heads a row of provider health, and of route times once a swap has settled (route-times.spec).
    loaded: (p) => p.getByRole('rowheader', { name: 'Relay' }).first(),
  },
  {
    path: '/dashboard/locks',
    heading: 'Locks',
    loaded: (p) => p.getByRole('region', { name: 'By provider' }).getByRole('rowheader', { name: 'Relay' }),
  },
  {
    path: '/dashboard/rate-limits',
    heading: 'Rate limits',
    loaded: (p) => p.getByRole('rowheader', { name: 'quote' }),
  },
  {
    path: '/dashboard/affiliates',
    heading: 'Affiliates',
    loaded: (p) => p.getByRole('rowheader', { name: new RegExp(CODE) }),
  },
  {
    path: '/dashboard/transactions',
    heading: 'Transactions',
    loaded: (p) => p.getByText(/\d transactions? · page 1 of \d+/),
  },
  {
    path: '/dashboard/users',
    heading: 'Users',
    loaded: (p) => p.getByRole('cell', { name: AFFILIATE.email, exact: true }),
  },
];

test('admin pages render with data and pass axe', async ({ browser }, testInfo) => {
  const context = await browser.newContext({ storageState: adminState });
  const page = await context.newPage();
  const blocked = watchCsp(page);
  for (const { path, heading, loaded } of ADMIN_PAGES) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(loaded(page)).toBeVisible();
    await expect(page.getByText('Something went wrong')).toHaveCount(0);
    await shot(page, testInfo, path.split('/').pop() ?? 'page');
    await expectAccessible(page);
  }
  await page.goto('/dashboard/locks');
  await page.getByRole('button', { name: '24 hours' }).click();
  await expect(page.getByRole('button', { name: '24 hours' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('region', { name: 'By provider' }).getByText('Relay')).toBeVisible();
  await page.goto('/dashboard/transactions/tx_doesnotexist0000000000');
  await expect(page.getByText('Transaction not found')).toBeVisible();
  await shot(page, testInfo, 'transaction-not-found');
  expect(blocked).toEqual([]);
  await context.close();
});

test('Poll now on a deposit swap without a hash says why it did not poll', async ({ browser, request }, testInfo) => {
  const locked = await request.post('/api/v1/quote/lock', { data: { ...BTC_TO_ETH, provider: 'THORCHAIN' } });
  expect(locked.status(), await locked.text()).toBe(200);
  const executed = await request.post('/api/v1/quote/execute', { data: { lockId: (await locked.json()).data.lockId } });
  const id: string = (await executed.json()).data.transaction.id;
  const context = await browser.newContext({ storageState: adminState });
  const page = await context.newPage();
  await page.goto(`/dashboard/transactions/${id}`);
  await page.getByRole('button', { name: 'Poll now' }).click();
  await expect(page.getByText(/Not polled:/)).toBeVisible();
  await expect(page.getByText(/there is no hash or provider reference to ask about yet/)).toBeVisible();
  await expect(page.getByText('Status stays PENDING.')).toBeVisible();
  await shot(page, testInfo, 'poll-now-not-polled');
  await expectAccessible(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, testInfo, 'poll-now-not-polled-390');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/dashboard/operations');
  await expect(page.getByRole('region', { name: 'Quote latency, p95' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Queue depth' })).toBeVisible();
  await shot(page, testInfo, 'operations-trends');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, testInfo, 'operations-trends-390');
  await context.close();
});

test('the admin deactivates a user, whose open session ends, then reactivates them and resets the password', async ({
  browser,
}, testInfo) => {
  const support = await signIn(browser, SUPPORT, testInfo, 'support-before-deactivation');
  const context = await browser.newContext({ storageState: adminState });
  const page = await context.newPage();
  page.on('dialog', (dialog) => dialog.accept());
  await page.goto('/dashboard/users');
  const row = page.getByRole('row', { name: new RegExp(SUPPORT.email) });
  await expect(row.getByText('Active', { exact: true })).toBeVisible();
  await row.getByRole('button', { name: `Deactivate ${SUPPORT.email}` }).click();
  await expect(page.getByText(`${SUPPORT.email} is deactivated`)).toBeVisible();
  await expect(row.getByText('Deactivated', { exact: true })).toBeVisible();
  await shot(page, testInfo, 'users-deactivated');
  await expectAccessible(page);

  await support.page.reload();
  await expect(support.page).toHaveURL(/\/sign-in/);
  await support.page.getByLabel('Email').fill(SUPPORT.email);
  await support.page.getByLabel('Password').fill(SUPPORT.password);
  await support.page.getByRole('button', { name: 'Sign in' }).click();
  await expect(support.page.getByRole('alert')).toBeVisible();
  await expect(support.page).toHaveURL(/\/sign-in/);

  await row.getByRole('button', { name: 'Reactivate' }).click();
  await expect(page.getByText(`${SUPPORT.email} can sign in again.`)).toBeVisible();
  await row.getByRole('button', { name: `Reset the password of ${SUPPORT.email}` }).click();
  const issued = page.getByText(`New password for ${SUPPORT.email}:`);
  await expect(issued).toBeVisible();
  const password =
    (await page
      .locator('code')
      .filter({ hasText: /^[A-Za-z0-9_-]{20,}$/ })
      .textContent()) ?? '';
  await shot(page, testInfo, 'users-password-reset');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, testInfo, 'users-390');
  await support.context.close();
  await signIn(browser, { email: SUPPORT.email, password }, testInfo, 'support-after-reset');
  await context.close();
});
