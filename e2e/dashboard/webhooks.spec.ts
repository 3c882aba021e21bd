import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, type TestInfo, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { ETH_TO_BTC } from '../../test/support/fixtures';
import {
  E2E_ADMIN,
  expectAccessible,
  expectSideScrollCue,
  reportDeposit,
  shot,
  signInAs,
  tablesWiderThanTheirPanel,
  WIDTHS,
  waitForTransactionStatus,
} from '../support/helpers';
import { cutTableCells, e2eDatabase, liesWithin } from '../support/overflow';

test.describe.configure({ mode: 'serial' });

/** A loopback receiver that refuses the first `transaction.created` (500) and accepts everything else. */
async function startReceiver() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const isCreated = body.includes('"transaction.created"');
    const refuse = isCreated && !received.some((r) => r.body.includes('"transaction.created"'));
    received.push({ headers: request.headers, body });
    response.writeHead(refuse ? 500 : 204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, received, stop: () => server.close() };
}

/**
 * Every table on the page fits its panel at 1280 px, latency and message state included; at 390 px
 * the wide ones scroll inside their panel with a shaded edge saying so. Leaves the page at 1280 px.
 */
async function expectTablesFitThenScroll(page: Page, testInfo: TestInfo, name: string) {
  const [desktop, phone] = WIDTHS;
  await page.setViewportSize(desktop);
  expect(await tablesWiderThanTheirPanel(page), `${name}: tables wider than their panel at 1280 px`).toEqual([]);
  await shot(page, testInfo, `${name}-${desktop.width}`);
  await page.setViewportSize(phone);
  const scrollers = page.getByRole('group', { name: /\(scrolls sideways\)$/ });
  await expect(scrollers.first()).toBeVisible();
  for (const scroller of await scrollers.all()) await expectSideScrollCue(scroller);
  await shot(page, testInfo, `${name}-${phone.width}`);
  await page.setViewportSize(desktop);
}

test('an admin adds a webhook endpoint, sees its failed delivery, redelivers, rotates the secret and deletes it', async ({
  page,
  request,
}, testInfo) => {
  const receiver = await startReceiver();
  try {
    await signInAs(page, E2E_ADMIN);

    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    await page.getByLabel('URL').fill('http://93.184.215.14/hooks');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(page.getByText('Webhook URLs must use https')).toBeVisible();

    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel('Description (optional)').fill('E2E receiver');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    const endpoints = page.getByRole('region', { name: 'Endpoints' });
    const row = endpoints.getByRole('row', { name: new RegExp(receiver.url) });
    await expect(row).toContainText('Active');

    const locked = await request.post('/api/v1/quote/lock', { data: { ...ETH_TO_BTC, provider: 'RELAY' } });
    const executed = await request.post('/api/v1/quote/execute', {
      data: { lockId: (await locked.json()).data.lockId },
    });
    const transactionId: string = (await executed.json()).data.transaction.id;
    await reportDeposit(request, transactionId);
    await waitForTransactionStatus(request, transactionId, 'SUCCESS');
    const mine = () => receiver.received.filter((r) => r.body.includes(transactionId));
    await expect.poll(() => mine().length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    const first = mine()[0];
    const event = new Webhook(secret).verify(first?.body ?? '', first?.headers as Record<string, string>) as {
      type: string;
      data: { id: string };
    };
    expect(event).toMatchObject({ type: 'transaction.created', data: { id: transactionId } });

    await row.getByRole('button', { name: 'Deliveries' }).click();
    const log = page.getByRole('region', { name: 'Delivery log' });
    const created = log.getByRole('row').filter({ hasText: 'transaction.created' }).filter({ hasText: transactionId });
    await expect(created.first()).toContainText('500');
    await expect(row).toContainText('Active');
    await expectAccessible(page);
    await shot(page, testInfo, 'webhooks');
    await expectTablesFitThenScroll(page, testInfo, 'webhooks');

    const before = mine().length;
    await created
      .first()
      .getByRole('button', { name: /Redeliver/ })
      .click();
    await expect.poll(() => mine().length, { timeout: 20_000 }).toBeGreaterThan(before);
    expect(mine().at(-1)?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    await page.reload();

    await page.goto(`/dashboard/transactions/${transactionId}`);
    const deliveries = page.getByRole('region', { name: 'Webhook deliveries' });
    await expect(deliveries.getByRole('row').filter({ hasText: 'transaction.final' }).first()).toContainText(
      'delivered',
    );
    await expect(deliveries.getByRole('row').filter({ hasText: '500' }).first()).toBeVisible();
    await expectTablesFitThenScroll(page, testInfo, 'transaction-webhook-deliveries');

    await page.goto('/dashboard/webhooks');
    page.on('dialog', (dialog) => dialog.accept());
    await row.getByRole('button', { name: 'Rotate secret' }).click();
    await expect(page.getByText('Secret rotated.')).toBeVisible();
    const rotated = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);

    await row.getByRole('button', { name: 'Delete' }).click();
    await expect(row).toHaveCount(0);
  } finally {
    receiver.stop();
  }
});

test('an admin demoted to affiliate: their all-swaps endpoint shows as disabled on the Webhooks page, saying why', async ({
  browser,
}, testInfo) => {
  const receiver = await startReceiver();
  const run = randomBytes(3).toString('hex');
  const former = {
    email: `hooks-admin-${run}@e2e.switchyard.test`,
    password: 'hooks-admin-password',
    name: 'Hook Admin',
  };
  const admin = await browser.newContext();
  const page = await admin.newPage();
  page.on('dialog', (dialog) => dialog.accept());
  try {
    await signInAs(page, E2E_ADMIN);
    await page.goto('/dashboard/users');
    await expect(page.getByRole('cell', { name: E2E_ADMIN.email })).toBeVisible();
    await page.getByLabel('Name').fill(former.name);
    await page.getByLabel('Email').fill(former.email);
    await page.getByLabel('Initial password').fill(former.password);
    await page.getByLabel('Role', { exact: true }).selectOption('admin');
    await page.getByRole('button', { name: 'Add user' }).click();
    await expect(page.getByText(`Added ${former.email} as admin`)).toBeVisible();

    const theirs = await browser.newContext();
    const theirPage = await theirs.newPage();
    await signInAs(theirPage, former);
    await theirPage.goto('/dashboard/webhooks');
    await theirPage.getByLabel('URL').fill(receiver.url);
    await theirPage.getByLabel('Description (optional)').fill('Every swap');
    await theirPage.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(theirPage.getByTestId('webhook-secret')).toBeVisible();
    await theirs.close();

    await page.getByLabel(`Role of ${former.email}`).selectOption('affiliate');
    await expect(page.getByText(`${former.email} is now affiliate`)).toBeVisible();

    await page.goto('/dashboard/webhooks');
    const row = page.getByRole('region', { name: 'Endpoints' }).getByRole('row', { name: new RegExp(receiver.url) });
    await expect(row).toContainText('Disabled');
    await expect(row).toContainText(
      `Its owner, ${former.email}, is no longer an admin, and only admins may receive every swap. Nothing is sent to it.`,
    );
    await expect(row.getByRole('button', { name: 'Enable' })).toHaveCount(0);
    await expectAccessible(page);
    await shot(page, testInfo, 'webhooks-owner-demoted');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, testInfo, 'webhooks-owner-demoted-390');

    await row.getByRole('button', { name: 'Delete' }).click();
    await expect(row).toHaveCount(0);
  } finally {
    await admin.close();
    receiver.stop();
  }
});

test('a webhook URL with an overlong host name wraps inside its panel: in the refusal, the list and the delivery log, at both widths', async ({
  page,
}, testInfo) => {
  // Three DNS labels of the longest length a label may have: no name server answers for them.
  const host = `${['a', 'b', 'c'].map((letter) => letter.repeat(63)).join('.')}.example`;
  const url = `https://${host}/hooks`;
  const pageFits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  await signInAs(page, E2E_ADMIN);

  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto('/dashboard/webhooks');
    await page.getByLabel('URL').fill(url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'does not resolve' });
    await expect(refusal).toContainText(host);
    expect(await liesWithin(refusal, page.getByRole('region', { name: 'New endpoint' }))).toBe(true);
    expect(await pageFits(), `the page at ${size.width} px`).toBe(true);
    await shot(page, testInfo, `webhooks-long-host-refused-${size.width}`);
  }

  // Registered while its name resolved: the list and the delivery log still show it.
  const sql = e2eDatabase();
  const id = `whe_${randomBytes(11).toString('hex')}`;
  try {
    await sql`insert into webhook_endpoints (id, owner_id, scope, url, secret)
      select ${id}, id, 'all', ${url}, ${`whsec_${randomBytes(24).toString('base64')}`}
      from auth_user where email = ${E2E_ADMIN.email}`;
  } finally {
    await sql.end();
  }
  page.on('dialog', (dialog) => dialog.accept());
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto('/dashboard/webhooks');
    const endpoints = page.getByRole('region', { name: 'Endpoints' });
    const shown = endpoints.getByText(url, { exact: true });
    await expect(shown).toBeVisible();
    expect(await liesWithin(shown, endpoints)).toBe(true);
    expect(await cutTableCells(page), `table text cut at ${size.width} px`).toEqual([]);
    const row = endpoints.getByRole('row').filter({ hasText: url });
    await row.getByRole('button', { name: 'Deliveries' }).click();
    const log = page.getByRole('region', { name: 'Delivery log' });
    const logged = log.getByText(url, { exact: true });
    await expect(logged).toBeVisible();
    await expect(log.getByText('Loading deliveries…')).toHaveCount(0);
    expect(await liesWithin(logged, log)).toBe(true);
    expect(await pageFits(), `the page at ${size.width} px`).toBe(true);
    await shot(page, testInfo, `webhooks-long-host-listed-${size.width}`);
    if (size === WIDTHS.at(-1)) {
      await row.getByRole('button', { name: 'Delete' }).click();
      await expect(shown).toHaveCount(0);
    }
  }
});
