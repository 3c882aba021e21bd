import { DEMO_DATABASE_URL } from '../support/demo';
import { E2E_ADMIN, shot, signInAs, tablesWiderThanTheirPanel, WIDTHS } from '../support/helpers';
import { cutTableCells, e2eDatabase } from '../support/overflow';
import { expect, test } from '../support/test';

// The dashboard and /tx on the demo dataset: a year of generated swaps (drizzle/seed/demo.ts), none of
// them written by a test. Every admin page shows its data, and /tx renders every shape the generator leaves.

test.describe.configure({ mode: 'serial' });

const PAGES = [
  { path: '/dashboard/transactions', heading: 'Transactions' },
  { path: '/dashboard/operations', heading: 'Operations' },
  { path: '/dashboard/locks', heading: 'Locks' },
  { path: '/dashboard/rate-limits', heading: 'Rate limits' },
  { path: '/dashboard/affiliates', heading: 'Affiliates' },
  { path: '/dashboard/webhooks', heading: 'Webhooks' },
  { path: '/dashboard/users', heading: 'Users' },
];

// A page stuck loading fails here; the 1 s goal (#46) is reported, not asserted: it measures the machine too.
const STUCK_MS = 15_000;

for (const size of WIDTHS) {
  test(`every dashboard page shows the demo year's data at ${size.name}`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await signInAs(page, E2E_ADMIN);
    const timings: Record<string, Record<string, number>> = {};
    for (const { path, heading } of PAGES) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      // performance.now() when no loading placeholder is left: navigation start to every panel's data.
      const shown = await page.waitForFunction(
        () => (document.querySelector('[data-loading]') ? false : performance.now()),
        undefined,
        { timeout: STUCK_MS, polling: 'raf' },
      );
      // Where the time went: the server's first byte and last (the page streams), the browser's scripts.
      const navigation = await page.evaluate(() => {
        const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        return { firstByte: entry.responseStart, lastByte: entry.responseEnd, scripts: entry.domContentLoadedEventEnd };
      });
      timings[path] = {
        ...Object.fromEntries(Object.entries(navigation).map(([key, ms]) => [key, Math.round(ms)])),
        shown: Math.round(Number(await shown.jsonValue())),
      };
      await expect(page.getByRole('alert').filter({ hasText: /couldn.t|failed|error/i })).toHaveCount(0);
      // At 390 px a table may scroll inside its own panel; at 1280 every table fits.
      if (size.width >= 1280)
        expect.soft(await tablesWiderThanTheirPanel(page), `${path}: tables wider than their panel`).toEqual([]);
      await shot(page, testInfo, `${size.name}${path.replaceAll('/', '-')}`);
    }
    // The year's data is there: the pages that list swaps or their aggregates show rows of it.
    await page.goto('/dashboard/transactions');
    await expect(page.locator('table tbody tr').first()).toBeVisible();
    expect(await cutTableCells(page), 'cut cells on Transactions').toEqual([]);
    await testInfo.attach('first-view-ms.json', {
      body: JSON.stringify(timings, null, 2),
      contentType: 'application/json',
    });
    console.log(`first view, ms, ${size.name}: ${JSON.stringify(timings)}`);
  });
}

test('/tx renders every shape of swap the demo year holds, and support reads each', async ({ page }, testInfo) => {
  const sql = e2eDatabase(DEMO_DATABASE_URL);
  // One swap per provider, status, substatus and stale flag, and whether it has a quote and a deposit hash.
  const shapes = await sql<{ id: string; status: string; label: string }[]>`
    select distinct on (provider, status, coalesce(substatus, ''), stale, quote = '{}'::jsonb, hash = '')
      id, status::text, concat_ws(' ', provider, status, substatus, case when stale then 'stale' end) as label
    from transactions
    where id like 'tx_demo%'
    order by provider, status, coalesce(substatus, ''), stale, quote = '{}'::jsonb, hash = '', id`;
  await sql.end();
  expect(shapes.length, 'the demo year has swaps of several shapes').toBeGreaterThan(8);
  const statuses = new Set(shapes.map((shape) => shape.status));
  for (const status of ['SUCCESS', 'FAILED', 'REFUND', 'PENDING']) expect(statuses).toContain(status);

  for (const { id, label } of shapes) {
    const answer = await page.goto(`/tx/${id}`);
    expect(answer?.status(), `${label}: /tx/${id}`).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }), label).toBeVisible();
    await expect(page.getByText(/couldn.t load|Internal Server Error/i), label).toHaveCount(0);
  }
  await shot(page, testInfo, 'tx-last-shape');

  await signInAs(page, E2E_ADMIN);
  for (const { id, label } of shapes) {
    const answer = await page.goto(`/dashboard/transactions/${id}`);
    expect(answer?.status(), `${label}: support view`).toBe(200);
    await expect(page.getByText(id).first(), label).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: /couldn.t|failed to load/i }), label).toHaveCount(0);
  }
  await shot(page, testInfo, 'support-last-shape');
});
