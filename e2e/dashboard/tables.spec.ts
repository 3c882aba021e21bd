import { clippedSelects, expectAccessible, signInAs } from '../support/helpers';
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
  await expect(providers).toHaveText(['THORCHAIN', 'RELAY', 'CHAINFLIP', 'LIFI']);

  const header = health.getByRole('columnheader', { name: 'Provider' });
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect(providers).toHaveText(['CHAINFLIP', 'LIFI', 'RELAY', 'THORCHAIN']);
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect(providers).toHaveText(['THORCHAIN', 'RELAY', 'LIFI', 'CHAINFLIP']);
});

test('tables fit their panel at 1280 px and scroll inside it, by keyboard too, at 390 px', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/dashboard/transactions');
  await expect(page.getByText(/\d transactions? · page 1 of 1/)).toBeVisible();
  await expect(page.getByRole('group', { name: /scrolls sideways/ })).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 844 });
  const scroller = page.getByRole('group', { name: /^Transactions, page 1 of 1, \d+ in total \(scrolls sideways\)$/ });
  await expect(scroller).toBeVisible();
  const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(fits).toBe(true);
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
];

const pageFits = (page: import('@playwright/test').Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test('no dashboard page is wider than the screen at 1280 or 390 px; on a phone the menu folds', async ({
  page,
}, testInfo) => {
  for (const path of PAGES) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await pageFits(page), `${path} at 1280 px`).toBe(true);
    // No table sticks out of its panel at desktop width.
    const overflowing = await page.evaluate(
      () =>
        [...document.querySelectorAll('table')].filter((table) => {
          const panel = table.closest('section') ?? table.parentElement;
          return panel ? table.getBoundingClientRect().right > panel.getBoundingClientRect().right + 1 : false;
        }).length,
    );
    expect(overflowing, `${path}: tables wider than their panel at 1280 px`).toBe(0);
    expect(await clippedSelects(page), `${path}: selects that cut their value at 1280 px`).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`${path.split('/').pop()}-1280.png`), fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    // Charts re-measure their container a moment after a resize; the page must fit once they have.
    await expect.poll(() => pageFits(page), { message: `${path} at 390 px`, timeout: 3000 }).toBe(true);
    const menu = page.getByRole('button', { name: 'Menu' });
    await expect(menu).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Dashboard' })).toBeHidden();
    expect(await clippedSelects(page), `${path}: selects that cut their value at 390 px`).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`${path.split('/').pop()}-390.png`), fullPage: true });
  }
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Dashboard' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('menu-open-390.png') });
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Locks' }).click();
  await expect(page).toHaveURL(/\/dashboard\/locks$/);
  await expect(page.getByRole('navigation', { name: 'Dashboard' })).toBeHidden();
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
