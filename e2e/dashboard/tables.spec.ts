import { expectAccessible } from '../support/helpers';
import { expect, test } from '../support/test';

// scripts/e2e-server.sh creates this admin with scripts/create-admin.ts.
const ADMIN = { email: 'admin@e2e.switchyard.test', password: 'e2e-admin-password-not-secret' };

test.beforeEach(async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard\//);
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
