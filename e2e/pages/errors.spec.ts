import { expectAccessible, fillEthToBtc, shot, WIDTHS } from '../support/helpers';
import { expect, test } from '../support/test';

/** #46 item 7: every error a person can reach is ours, in the product's look, saying what to do. */
for (const { name, width, height } of WIDTHS) {
  test.describe(`at ${name} width`, () => {
    test.use({ viewport: { width, height } });

    test('a mistyped address gets our page with ways on, not the framework 404', async ({ page }, testInfo) => {
      const response = await page.goto('/no-such-page/anywhere');
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1, name: 'There is no page at this address' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'swap page' })).toHaveAttribute('href', '/');
      await expect(page.getByRole('link', { name: 'documentation' })).toHaveAttribute('href', '/docs');
      await expect(page.getByText('This page could not be found')).toHaveCount(0);
      await shot(page, testInfo, `not-found-${name}`);
      await expectAccessible(page);
    });

    test('a swap address with a broken escape reads as no such swap, not a server error', async ({
      page,
    }, testInfo) => {
      const response = await page.goto('/tx/%ZZ');
      expect(response?.status()).toBeLessThan(500);
      await expect(page.getByText('Internal Server Error')).toHaveCount(0);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        /not found|no page at this address|bad address/i,
      );
      await expect(page.getByText(/check the (link|address)/i)).toBeVisible();
      await expect(page.getByRole('link', { name: 'swap page' })).toHaveAttribute('href', '/');
      // In the product's look (its own style is allowed by the page's CSP), not the browser's bare defaults.
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(11, 15, 20)');
      await shot(page, testInfo, `tx-bad-escape-${name}`);
    });
  });
}

test('an HTML 503 from a proxy reads as a short outage, not a status code', async ({ page }) => {
  await page.route('**/api/v1/quote', (route) =>
    route.fulfill({ status: 503, contentType: 'text/html', body: '<html><body>Service Unavailable</body></html>' }),
  );
  await page.goto('/');
  await fillEthToBtc(page, '0.5');
  await page.getByRole('button', { name: 'Get routes' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Could not get routes' });
  await expect(alert).toContainText('unavailable for a moment');
  await expect(alert).not.toContainText('HTTP 503');
});
