import { randomBytes } from 'node:crypto';
import { ETH_TO_BTC } from '../../test/support/fixtures';
import {
  clippedSelects,
  executeSwap,
  expectAccessible,
  expectSideScrollCue,
  postFromAnotherClient,
  reportDeposit,
  shot,
  signInAs,
  tablesWiderThanTheirPanel,
  WIDTHS,
} from '../support/helpers';
import { cutTableCells, e2eDatabase, pastTheScreen } from '../support/overflow';
import { expect, test } from '../support/test';

// scripts/e2e-server.sh creates this admin with scripts/create-admin.ts.
const ADMIN = { email: 'admin@e2e.switchyard.test', password: 'e2e-admin-password-not-secret' };

test.beforeEach(async ({ page }) => {
  await signInAs(page, ADMIN);
});

test('dashboard tables sort by a column header', async ({ page }) => {
  await page.goto('/dashboard/operations');
  const health = page.getByRole('region', { name: 'Provider health' });
  const providers = health.getByRole('rowheader');
  await expect(providers).toHaveText(['THORChain', 'Relay', 'Chainflip', 'LI.FI']);

  const header = health.getByRole('columnheader', { name: 'Provider' });
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect(providers).toHaveText(['Chainflip', 'LI.FI', 'Relay', 'THORChain']);
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect(providers).toHaveText(['THORChain', 'Relay', 'LI.FI', 'Chainflip']);
});

test('tables fit their panel at 1280 px and scroll inside it, by keyboard too, at 390 px', async ({
  page,
  request,
}) => {
  await executeSwap(request);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/dashboard/transactions');
  // However many swaps the specs before this one made (a page holds 25).
  await expect(page.getByText(/\d transactions? · page 1 of \d+/)).toBeVisible();
  await expect(page.getByRole('group', { name: /scrolls sideways/ })).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 844 });
  const scroller = page.getByRole('group', {
    name: /^Transactions, page 1 of \d+, \d+ in total \(scrolls sideways\)$/,
  });
  await expect(scroller).toBeVisible();
  const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(fits).toBe(true);
  await expectSideScrollCue(scroller);
  await scroller.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => scroller.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  await expectAccessible(page);
});

const PAGES = [
  '/dashboard/transactions',
  '/dashboard/operations',
  '/dashboard/locks',
  '/dashboard/rate-limits',
  '/dashboard/affiliates',
  '/dashboard/users',
  '/dashboard/webhooks',
];

/** The longest referral code the API takes (64 characters), and a seven-figure amount to the last of ETH's 18 decimals. */
const LONG_REFERRAL = `partnerwallet_${'Integration2026Q4'.repeat(3)}`.slice(0, 64);
const LONG_AMOUNT = '1234.567890123456789012';

/**
 * A client refused on every route class, a six-figure count each: the longest "Top clients" row the
 * rate-limit roll-up can write (its hits table, as the roll-up fills it).
 */
async function insertClientLimitedEverywhere() {
  const sql = e2eDatabase();
  try {
    const routeClasses = ['catalog', 'dashboard', 'execute', 'quote', 'transactions'];
    await sql`insert into rate_limit_hits (minute, route_class, client_hash, hits)
      select date_trunc('minute', now()), route_class, ${randomBytes(32).toString('hex')}, 123456
      from unnest(${routeClasses}::text[]) as route_class`;
  } finally {
    await sql.end();
  }
}

const pageFits = (page: import('@playwright/test').Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test('no dashboard page is wider than the screen at 1280 or 390 px; every table fits its panel at 1280 px and shows it scrolls at 390 px; on a phone the menu folds', async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  test.setTimeout(150_000);
  // Rows for the tables whose long cells used to be cut off: a swap with the longest referral code and
  // an 18-decimal amount (provider health, transactions, locks), and clients refused with 429s (rate
  // limits' top clients, down to "Last seen"), one of them on every route class.
  await reportDeposit(request, await executeSwap(request, { amount: LONG_AMOUNT, referralCode: LONG_REFERRAL }));
  await insertClientLimitedEverywhere();
  const refused = await postFromAnotherClient(baseURL ?? '', '/api/v1/quote/execute', { lockId: 'lk_none' }, 70);
  expect(refused).toContain(429);
  await page.goto('/dashboard/rate-limits');
  const topClients = page.getByRole('region', { name: 'Top clients' }).getByRole('row');
  await expect
    .poll(
      async () => {
        await page.reload();
        return topClients.count();
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThan(1);
  await expect(topClients.filter({ hasText: 'catalog, dashboard, execute, quote, transactions' })).toHaveCount(1);
  await page.goto('/dashboard/transactions');
  await expect(page.getByRole('cell', { name: LONG_REFERRAL, exact: true })).toBeVisible();
  await page.goto('/dashboard/locks');
  await expect(page.getByRole('region', { name: 'Recent locks' }).getByText(LONG_AMOUNT)).toBeVisible();

  for (const path of PAGES) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await pageFits(page), `${path} at 1280 px`).toBe(true);
    // No table scrolls, or is cut off, inside its panel at desktop width.
    expect(await tablesWiderThanTheirPanel(page), `${path}: tables wider than their panel at 1280 px`).toEqual([]);
    expect(await cutTableCells(page), `${path}: table text cut at 1280 px`).toEqual([]);
    expect(await clippedSelects(page), `${path}: selects that cut their value at 1280 px`).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`${path.split('/').pop()}-1280.png`), fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    // Charts re-measure their container a moment after a resize; the page must fit once they have.
    await expect
      .poll(async () => ((await pageFits(page)) ? [] : ['wider than the screen', ...(await pastTheScreen(page))]), {
        message: `${path} at 390 px`,
        timeout: 3000,
      })
      .toEqual([]);
    // A table wider than the phone scrolls inside its panel, a shaded edge showing there is more.
    for (const scroller of await page.getByRole('group', { name: /\(scrolls sideways\)$/ }).all()) {
      await expectSideScrollCue(scroller);
    }
    const menu = page.getByRole('button', { name: 'Menu' });
    await expect(menu).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Dashboard' })).toBeHidden();
    expect(await clippedSelects(page), `${path}: selects that cut their value at 390 px`).toEqual([]);
    expect(await cutTableCells(page), `${path}: table text cut at 390 px`).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`${path.split('/').pop()}-390.png`), fullPage: true });
  }
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Dashboard' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('menu-open-390.png') });
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Locks' }).click();
  await expect(page).toHaveURL(/\/dashboard\/locks$/);
  await expect(page.getByRole('navigation', { name: 'Dashboard' })).toBeHidden();
});

test('the Operations trend charts draw an hour of quotes as dots, at 24 hours and at 7 days, at both widths', async ({
  page,
  request,
}, testInfo) => {
  const quoted = await request.post('/api/v1/quote', { data: ETH_TO_BTC });
  expect(quoted.status(), await quoted.text()).toBe(200);
  const dots = (chart: string) => page.getByRole('region', { name: chart }).locator('.recharts-area-dot');
  // The quote's calls are recorded a moment after it is answered.
  await page.goto('/dashboard/operations');
  await expect(async () => {
    await page.reload();
    await expect(dots('Quote latency, p50').first()).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });

  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto('/dashboard/operations');
    const ranges = page.getByRole('group', { name: 'Time range' });
    for (const range of ['24 hours', '7 days']) {
      await ranges.getByRole('button', { name: range }).click();
      await expect(ranges.getByRole('button', { name: range })).toHaveAttribute('aria-pressed', 'true');
      for (const chart of ['Quote latency, p50', 'Quote latency, p95', 'Quote error rate']) {
        const panel = page.getByRole('region', { name: chart });
        await expect(dots(chart).first()).toBeVisible();
        await expect(panel.getByText('Not enough data yet')).toHaveCount(0);
      }
      await page.getByRole('region', { name: 'Quote latency, p50' }).scrollIntoViewIfNeeded();
      await page.screenshot({
        path: testInfo.outputPath(`operations-trends-${range.replace(' ', '')}-${size.width}.png`),
      });
    }
  }
});

test('a bad date in the address is ignored with a notice; a bad date typed in the filter is named at its field', async ({
  page,
}, testInfo) => {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto('/dashboard/transactions?from=2026-13-45&status=PENDING');
    const notice = page.getByRole('status').filter({ hasText: "Part of this page's address was ignored." });
    await expect(notice).toContainText('from=2026-13-45: Enter a date as YYYY-MM-DD, like 2026-01-31.');
    await expect(page.getByText(/\d+ transactions? · page 1 of \d+/)).toBeVisible();
    await expect(page.getByText('Something went wrong')).toHaveCount(0);
    await expect(page.getByText('"expected"')).toHaveCount(0);
    const from = page.getByLabel('From (UTC)');
    await expect(from).toHaveValue('2026-13-45');
    await expect(from).toHaveAccessibleDescription(/Enter a date as YYYY-MM-DD, like 2026-01-31/);
    await expectAccessible(page);
    await page.screenshot({ path: testInfo.outputPath(`transactions-bad-url-date-${size.width}.png`), fullPage: true });

    await page.goto('/dashboard/transactions?status=PENDING');
    await expect(notice).toHaveCount(0);
    await page.getByLabel('To (UTC)').fill('yesterday');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const to = page.getByLabel('To (UTC)');
    await expect(to).toBeFocused();
    await expect(to).toHaveAttribute('aria-invalid', 'true');
    await expect(to).toHaveAccessibleDescription(/Enter a date as YYYY-MM-DD, like 2026-01-31/);
    await expect(page).not.toHaveURL(/to=/);
    await page.getByLabel('From (UTC)').fill('2026-05-02');
    await to.fill('2026-05-01');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(to).toHaveAccessibleDescription(/Choose an end date on or after the start date/);
    await expect(page).not.toHaveURL(/from=/);
    await page.screenshot({
      path: testInfo.outputPath(`transactions-bad-typed-date-${size.width}.png`),
      fullPage: true,
    });
  }
});

test('the transactions chain filter is a select, and dates read as YYYY-MM-DD HH:MM:SS everywhere', async ({
  page,
}) => {
  await page.goto('/dashboard/transactions');
  const chain = page.getByLabel('Chain', { exact: true });
  await expect(chain).toHaveJSProperty('tagName', 'SELECT');
  await chain.selectOption('bitcoin');
  await page.getByLabel('From (UTC)').fill('2020-01-01');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/chain=bitcoin/);
  await expect(page).toHaveURL(/from=2020-01-01/);
  await expect(page.getByLabel('From (UTC)')).toHaveValue('2020-01-01');
  // Each row's link starts with its creation time, in the same digits the date filter takes.
  const created = page.getByRole('link', { name: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} tx_/ });
  expect(await created.count()).toBeGreaterThan(0);
});

test('the Order control lists late swaps most late first or least late first, and keeps it in the address', async ({
  page,
  request,
}, testInfo) => {
  // Two swaps in flight (no deposit yet), late by 50 and by 10 minutes: their times written as the
  // route-times spec writes them, since only a route's settled history makes them at execute.
  const mostLate = await executeSwap(request);
  const leastLate = await executeSwap(request);
  const sql = e2eDatabase();
  try {
    for (const [id, minutes] of [
      [mostLate, 50],
      [leastLate, 10],
    ] as const) {
      const lateAt = new Date(Date.now() - minutes * 60_000);
      await sql`update transactions set expected_by = ${new Date(lateAt.getTime() - 20 * 60_000).toISOString()}::timestamptz,
        late_at = ${lateAt.toISOString()}::timestamptz, updated_at = now() where id = ${id}`;
    }
  } finally {
    await sql.end();
  }
  const ours = () =>
    page
      .getByRole('row')
      .allInnerTexts()
      .then((rows) => rows.flatMap((row) => [mostLate, leastLate].filter((id) => row.includes(id))));

  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto('/dashboard/transactions?late=yes&sort=createdAt.desc');
    const order = page.getByLabel('Order', { exact: true });
    await expect(order).toHaveValue('');
    await expect.poll(ours).toEqual([leastLate, mostLate]);

    await order.selectOption({ label: 'Most late first' });
    await expect(page).toHaveURL(/[?&]sort=lateness\.desc/);
    await expect(page).toHaveURL(/[?&]late=yes/);
    await expect.poll(ours).toEqual([mostLate, leastLate]);
    await expect(page.getByRole('row').filter({ hasText: mostLate })).toContainText('Late +');
    await shot(page, testInfo, `transactions-most-late-first-${size.width}`);

    await order.selectOption({ label: 'Least late first' });
    await expect(page).toHaveURL(/[?&]sort=lateness\.asc/);
    await expect.poll(ours).toEqual([leastLate, mostLate]);
    // The address holds the order: a reload (or a shared link) shows the same.
    await page.reload();
    await expect(order).toHaveValue('lateness.asc');
    await expect(page.getByLabel('Late', { exact: true })).toHaveValue('yes');
    await expect.poll(ours).toEqual([leastLate, mostLate]);
    await expectAccessible(page);
    expect(await clippedSelects(page)).toEqual([]);
    await shot(page, testInfo, `transactions-least-late-first-${size.width}`);

    await order.selectOption({ label: 'As the columns sort' });
    await expect(page).toHaveURL(/[?&]sort=createdAt\.desc/);
    await expect.poll(ours).toEqual([leastLate, mostLate]);
  }
});
