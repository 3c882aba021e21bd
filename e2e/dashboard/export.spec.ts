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
import { pickedNames, savedFile, withoutSavePicker, withPrivateFileSavePicker } from '../support/save-picker';
import { expect, test } from '../support/test';

const SHOTS = '/tmp/shots/export';
/** What the page says once the browser's own download has the export (no save picker). */
const HANDED =
  'Download started. Your browser saves it as it arrives and shows its progress, and any failure, in its downloads.';

/** Presses the button and reads what the browser saved (its own download: no save picker). */
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

test.describe('without a save picker, the browser downloads the export itself', () => {
  test.beforeEach(({ page }) => withoutSavePicker(page));

  test('Transactions exports its current search as CSV, and a looked-up swap alone (#47)', async ({
    page,
    request,
  }, testInfo) => {
    const code = `exp${randomBytes(4).toString('hex')}`;
    const ids = [
      await executeSwap(request, { referralCode: code }),
      await executeSwap(request, { referralCode: code }),
    ];

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
      await expect(results.getByRole('status')).toHaveText(HANDED);
      await expectAccessible(page);
      await shot(page, testInfo, `transactions-export-${name}`);
      await page.screenshot({ path: `${SHOTS}/transactions-${name}.png`, fullPage: true });

      await page.goto(`/dashboard/transactions/${ids[1]}`);
      const one = await downloadFrom(page);
      expect(column(one.text, 'id')).toEqual([ids[1]]);
      await expect(page.getByRole('status').filter({ hasText: 'Download started.' })).toHaveText(HANDED);
      await page.screenshot({ path: `${SHOTS}/detail-${name}.png`, fullPage: true });
    }
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
      const rows = records(statement.text);
      expect(rows[0]).toMatch(
        /^record,code,owner,period_start,period_end,swaps,succeeded,finished,volume_usd,fees_usd,id,created_at,/,
      );
      // The code's figures, then its one swap beneath.
      const at = rows.findIndex((r) => r.startsWith(`code,${code},`));
      expect(rows[at]).toMatch(new RegExp(`^code,${code},${E2E_ADMIN.email},${month}-01,${month}-\\d{2},1,`));
      expect(rows[at + 1]).toMatch(new RegExp(`^swap,${code},${E2E_ADMIN.email},(,){7}${id},`));
      expect(rows.at(-1)).toMatch(/^total,,,/);
      await expect(panel.getByRole('status')).toHaveText(HANDED);
      await panel.scrollIntoViewIfNeeded();
      await expectAccessible(page);
      await shot(page, testInfo, `statement-${name}`);
      await page.screenshot({ path: `${SHOTS}/statement-${name}.png`, fullPage: true });
    }
  });
});

test.describe('with a save picker, the export streams into the file picked', () => {
  test.beforeEach(({ page }) => withPrivateFileSavePicker(page));

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
      // The file picked was written to and then discarded.
      const [picked] = (await pickedNames(page)).slice(-1);
      expect(picked).toMatch(/^transactions-\d{8}T\d{6}Z\.csv$/);
      expect(await savedFile(page, picked as string)).toBeNull();
    }
    expect(downloads).toBe(0);
  });

  test('an export streams into the picked file, its rows counted as they arrive (#47)', async ({
    page,
    request,
  }, testInfo) => {
    const code = `pick${randomBytes(4).toString('hex')}`;
    const ids = [
      await executeSwap(request, { referralCode: code }),
      await executeSwap(request, { referralCode: code }),
    ];
    let downloads = 0;
    page.on('download', () => downloads++);
    // The server's own answer, held until the test has seen the export running.
    let release: (() => void) | null = null;
    await page.route('**/api/exports/transactions?**', async (route) => {
      const response = await route.fetch();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      release = null;
      await route.fulfill({ response });
    });
    for (const { name, width, height } of WIDTHS) {
      await page.setViewportSize({ width, height });
      await page.goto(`/dashboard/transactions?ref=${code}&sort=createdAt.asc`);
      const results = page.getByRole('region', { name: 'Results' });
      await expect(results.getByRole('row')).toHaveCount(3);
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const running = results.getByRole('status').filter({ hasText: 'Exporting:' });
      await expect(running).toContainText('Exporting: 0 rows');
      await expect(running.getByRole('progressbar', { name: 'Export progress' })).toBeVisible();
      await expect.poll(() => release !== null).toBe(true);
      await results.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/picked-running-${name}.png` });
      (release as unknown as () => void)();
      const [picked] = (await pickedNames(page)).slice(-1);
      await expect(results.getByRole('status')).toHaveText(`Export finished. 2 rows saved as ${picked}.`);
      const text = (await savedFile(page, picked as string)) ?? '';
      expect(column(text, 'id')).toEqual(ids);
      await expectAccessible(page);
      await page.screenshot({ path: `${SHOTS}/picked-done-${name}.png` });
      await shot(page, testInfo, `transactions-export-picked-${name}`);
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
});
