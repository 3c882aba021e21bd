import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import {
  E2E_ADMIN,
  executeSwap,
  expectAccessible,
  registerReferralCode,
  shot,
  signInAs,
  WIDTHS,
} from '../support/helpers';
import { expect, test } from '../support/test';

const SHOTS = '/tmp/shots/export';

/** Presses the button and reads what the browser saved. */
async function downloadFrom(page: Page, button = 'Export CSV') {
  const saved = page.waitForEvent('download');
  await page.getByRole('button', { name: button }).click();
  const download = await saved;
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
}

const records = (csv: string) => csv.split('\r\n').filter(Boolean);
const column = (csv: string, name: string) => {
  const [header, ...rows] = records(csv);
  const at = (header ?? '').split(',').indexOf(name);
  return rows.map((row) => row.split(',')[at]);
};

test.beforeEach(async ({ page }) => {
  await signInAs(page, E2E_ADMIN);
});

test('Transactions exports its current search as CSV, and a looked-up swap alone (#47)', async ({
  page,
  request,
}, testInfo) => {
  const code = `exp${randomBytes(4).toString('hex')}`;
  const ids = [await executeSwap(request, { referralCode: code }), await executeSwap(request, { referralCode: code })];

  for (const { name, width, height } of WIDTHS) {
    await page.setViewportSize({ width, height });
    await page.goto(`/dashboard/transactions?ref=${code}&sort=createdAt.asc`);
    const results = page.getByRole('region', { name: 'Results' });
    await expect(results.getByRole('row')).toHaveCount(3);
    const file = await downloadFrom(page);
    expect(file.name).toMatch(/^transactions-\d{8}T\d{6}Z\.csv$/);
    expect(records(file.text)[0]).toMatch(/^id,created_at,finalized_at,provider,status,substatus,src_chain,/);
    expect(column(file.text, 'id')).toEqual(ids);
    expect(column(file.text, 'referral_code')).toEqual([code, code]);
    expect(column(file.text, 'provider')).toEqual(['RELAY', 'RELAY']);
    await expect(results.getByRole('status')).toHaveText(`Export finished. 2 rows saved as ${file.name}.`);
    await expectAccessible(page);
    await shot(page, testInfo, `transactions-export-${name}`);
    await page.screenshot({ path: `${SHOTS}/transactions-${name}.png`, fullPage: true });

    await page.goto(`/dashboard/transactions/${ids[1]}`);
    const one = await downloadFrom(page);
    expect(column(one.text, 'id')).toEqual([ids[1]]);
    await expect(page.getByRole('status').filter({ hasText: 'Export finished.' })).toHaveText(
      `Export finished. 1 row saved as ${one.name}.`,
    );
    await page.screenshot({ path: `${SHOTS}/detail-${name}.png`, fullPage: true });
  }
});

test('an export cut short says so and saves nothing (#47)', async ({ page }, testInfo) => {
  let downloads = 0;
  page.on('download', () => downloads++);
  // The answer waits until the test has seen the export running.
  let release: (() => void) | null = null;
  await page.route('**/api/exports/transactions?**', async (route) => {
    await new Promise<void>((resolve) => {
      release = resolve;
    });
    release = null;
    await route.fulfill({
      status: 200,
      headers: { 'content-type': 'text/csv; charset=utf-8', 'x-total-count': '5' },
      body: 'id,created_at\r\ntx_1,2026-01-01T00:00:00.000Z\r\ntx_2,2026-01-01T00:00:00.000Z\r\n',
    });
  });
  for (const { name, width, height } of WIDTHS) {
    await page.setViewportSize({ width, height });
    await page.goto('/dashboard/transactions');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const running = page.getByRole('status').filter({ hasText: 'Exporting:' });
    await expect(running).toContainText('Exporting: 0 rows');
    await expect(running.getByRole('progressbar', { name: 'Export progress' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Exporting…' })).toHaveAttribute('aria-busy', 'true');
    await page.screenshot({ path: `${SHOTS}/running-${name}.png`, fullPage: true });
    await expect.poll(() => release !== null).toBe(true);
    (release as unknown as () => void)();
    await expect(page.getByRole('alert').filter({ hasText: 'Export failed.' })).toHaveText(
      'Export failed. The download ended after 2 of 5 rows. Nothing was saved; try again.',
    );
    await page.screenshot({ path: `${SHOTS}/failed-${name}.png`, fullPage: true });
    await shot(page, testInfo, `transactions-export-failed-${name}`);
  }
  expect(downloads).toBe(0);
});

test('a refused export says why (#47)', async ({ page }) => {
  await page.route('**/api/exports/transactions?**', (route) =>
    route.fulfill({
      status: 429,
      json: { error: { code: 'RATE_LIMITED', message: 'Too many dashboard requests; retry in 12 s' } },
    }),
  );
  await page.goto('/dashboard/transactions');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Export failed.' })).toHaveText(
    'Export failed. Too many dashboard requests; retry in 12 s. Nothing was saved; try again.',
  );
});

test("the Affiliates page's statement: a month's figures per code, and its download with the swap lines (#47)", async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  const code = `st${randomBytes(4).toString('hex')}`;
  await registerReferralCode(request, baseURL as string, code);
  const id = await executeSwap(request, { referralCode: code });
  const month = new Date().toISOString().slice(0, 7);

  for (const { name, width, height } of WIDTHS) {
    await page.setViewportSize({ width, height });
    await page.goto('/dashboard/affiliates');
    const panel = page.getByRole('region', { name: 'Statement' });
    await expect(panel.getByLabel('Month')).toHaveValue(month);
    const row = panel.getByRole('row').filter({ has: page.getByRole('rowheader', { name: code, exact: true }) });
    // Owner, then swaps: the one swap made through the code this month.
    await expect(row.getByRole('cell').nth(0)).toHaveText(E2E_ADMIN.email);
    await expect(row.getByRole('cell').nth(1)).toHaveText('1');

    const statement = await downloadFrom(page, 'Download statement');
    expect(statement.name).toMatch(new RegExp(`^statement-${month}-01-to-${month}-\\d{2}\\.csv$`));
    expect(records(statement.text)[0]).toBe(
      'code,owner,period_start,period_end,swaps,succeeded,finished,volume_usd,fees_usd',
    );
    expect(records(statement.text).find((r) => r.startsWith(`${code},`))).toMatch(
      new RegExp(`^${code},${E2E_ADMIN.email},${month}-01,${month}-\\d{2},1,`),
    );
    const swaps = await downloadFrom(page, 'Download swap lines');
    expect(column(swaps.text, 'id')).toContain(id);
    await expect(panel.getByRole('status').filter({ hasText: 'Export finished.' })).toHaveCount(2);
    await panel.scrollIntoViewIfNeeded();
    await expectAccessible(page);
    await shot(page, testInfo, `statement-${name}`);
    await page.screenshot({ path: `${SHOTS}/statement-${name}.png`, fullPage: true });
  }
});
