import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from '../../drizzle/schema';
import { recordAudit } from '../../server/audit/record';
import {
  clippedSelects,
  E2E_ADMIN,
  expectAccessible,
  expectSideScrollCue,
  shot,
  signInAs,
  tablesWiderThanTheirPanel,
  WIDTHS,
} from '../support/helpers';
import { cutTableCells, pastTheScreen } from '../support/overflow';
import { withoutSavePicker } from '../support/save-picker';
import { expect, test } from '../support/test';

const run = randomBytes(3).toString('hex');
const ACTOR = { userId: `usr_e2e_${run}`, email: `poller-${run}@e2e.switchyard.test`, role: 'support' };
const GUESSED = `nobody-${run}@e2e.switchyard.test`;
const EVENTS = 60;

test.describe.configure({ mode: 'serial' });
// The export is the browser's own download here (e2e/support/save-picker.ts); export.spec takes the picker.
test.beforeEach(({ page }) => withoutSavePicker(page));

const pageFits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** A year's worth is for the scale check; here enough of one actor's events for two pages, written as the product writes them. */
test.beforeAll(async () => {
  const sql = postgres(process.env.E2E_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/switchyard_e2e', {
    max: 1,
    onnotice: () => {},
  });
  const db = drizzle(sql, { schema });
  try {
    for (let i = 0; i < EVENTS; i++) {
      await recordAudit(db, {
        action: 'transaction.poll_now',
        actor: ACTOR,
        targetId: `tx_e2e_${run}_${String(i).padStart(2, '0')}`,
        before: { status: 'PENDING', substatus: 'WAITING_FOR_DEPOSIT_CONFIRMATION_ON_SOURCE_CHAIN' },
        origin: { requestId: `req_${run}${i}`, clientAddress: '2001:db8:85a3::8a2e:370:7334', userAgent: 'e2e' },
      });
    }
  } finally {
    await sql.end();
  }
});

test('an admin reads the audit log: failed sign-ins, filters, older and newer pages, CSV export', async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  const guess = () =>
    request.post('/api/auth/sign-in/email', {
      headers: { origin: baseURL ?? '', 'content-type': 'application/json' },
      data: { email: GUESSED, password: 'not-the-password-at-all' },
    });
  let wrong = await guess();
  // The suite signs in often from one address: a throttled attempt (429) waits out Better Auth's window.
  for (let attempt = 0; attempt < 3 && wrong.status() === 429; attempt++) {
    await page.waitForTimeout(Number(wrong.headers()['x-retry-after'] ?? 10) * 1000);
    wrong = await guess();
  }
  expect(wrong.status()).toBe(401);

  await signInAs(page, E2E_ADMIN);
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();

  const failed = page.getByRole('region', { name: 'Failed sign-ins' });
  await expect(failed.getByRole('table', { name: 'By account tried' })).toContainText(GUESSED);

  const events = page.getByRole('table', { name: 'Events' });
  await expect(events).toContainText('auth.sign_in');
  await expect(events).toContainText(E2E_ADMIN.email);

  await page.getByLabel('Who (email or user id)').fill(ACTOR.email.toUpperCase());
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(events.getByRole('row')).toHaveCount(51);
  await expect(events.getByRole('row').nth(1)).toContainText(`tx_e2e_${run}_59`);

  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await expect
      .poll(async () => ((await pageFits(page)) ? [] : ['wider than the screen', ...(await pastTheScreen(page))]), {
        message: `the page at ${size.width} px`,
        timeout: 3000,
      })
      .toEqual([]);
    expect(await cutTableCells(page), `cut cells at ${size.width} px`).toEqual([]);
    expect(await clippedSelects(page), `clipped selects at ${size.width} px`).toEqual([]);
    if (size.width === 1280) expect(await tablesWiderThanTheirPanel(page)).toEqual([]);
    else {
      // A table wider than the phone scrolls inside its panel, a shaded edge showing there is more.
      for (const scroller of await page.getByRole('group', { name: /\(scrolls sideways\)$/ }).all()) {
        await expectSideScrollCue(scroller);
      }
    }
    await shot(page, testInfo, `audit-${size.width}`);
    await page.screenshot({ path: `/tmp/shots/audit/audit-${size.width}-top.png` });
    await events.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `/tmp/shots/audit/audit-${size.width}-events.png` });
  }
  await page.setViewportSize(WIDTHS[0]);
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Older events' }).click();
  await expect(events.getByRole('row')).toHaveCount(11);
  await expect(events.getByRole('row').nth(10)).toContainText(`tx_e2e_${run}_00`);
  await page.getByRole('button', { name: 'Newer events' }).click();
  await expect(events.getByRole('row').nth(1)).toContainText(`tx_e2e_${run}_59`);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  const csv = await readFile((await download.path()) ?? '', 'utf8');
  const lines = csv.trimEnd().split('\r\n');
  expect(lines[0]).toMatch(/^id,at,actor_user_id,actor_email,/);
  expect(lines).toHaveLength(EVENTS + 1);
  expect(download.suggestedFilename()).toMatch(/^audit-\d{8}T\d{6}Z\.csv$/);
  await expect(page.getByRole('status').filter({ hasText: 'Download started.' })).toBeVisible();

  await page.getByLabel('Action').selectOption('auth.sign_in_failed');
  await page.getByLabel('Who (email or user id)').fill(GUESSED);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(events.getByRole('row')).toHaveCount(2);
  await expect(events).toContainText(GUESSED);
  await page.setViewportSize(WIDTHS[1]);
  await shot(page, testInfo, 'audit-failed-390');
  await page.screenshot({ path: '/tmp/shots/audit/audit-failed-390.png' });
});
