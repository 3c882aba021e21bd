import AxeBuilder from '@axe-core/playwright';
import { expectAccessible, shot, tablesWiderThanTheirPanel, WIDTHS } from '../support/helpers';
import { cutTableCells } from '../support/overflow';
import { expect, test } from '../support/test';

test('the API reference lists both interfaces and sends a live request', async ({ page }, testInfo) => {
  // axe over the whole reference with every disclosure open is slow on a loaded machine.
  test.setTimeout(150_000);
  await page.goto('/docs');
  await expect(page.getByRole('heading', { level: 1, name: 'Switchyard swap routing API' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Versioned interface (v1)' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Unversioned interface' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'POST /api/v1/quote', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'POST /api/quote', exact: true })).toBeVisible();
  const endpoints = page.getByRole('navigation', { name: 'Endpoints' });
  await expect(endpoints.getByRole('link', { name: 'POST /api/v1/quote/execute' })).toHaveAttribute(
    'href',
    '#executeQuote',
  );
  await page.screenshot({ path: testInfo.outputPath('docs-top.png') });

  const lock = page.locator('section#lockQuote');
  await lock.locator('summary', { hasText: 'Errors' }).click();
  await expect(lock.getByRole('cell', { name: 'IDEMPOTENCY_KEY_REUSED', exact: true })).toBeVisible();
  await expect(lock.getByRole('cell', { name: 'Idempotency-Key optional' })).toBeVisible();

  const chains = page.locator('section#listChains');
  await chains.locator('summary', { hasText: 'Try it' }).click();
  await chains.getByLabel('type query').selectOption('UTXO');
  await chains.getByRole('button', { name: 'Send GET /api/v1/swap/chains' }).click();
  await expect(chains.getByTestId('try-status')).toHaveText(/^200\b/);
  await expect(chains.getByTestId('try-body')).toContainText('"bitcoin"');
  await expect(chains.getByTestId('try-body')).toContainText('"hasMore": false');
  await chains.screenshot({ path: testInfo.outputPath('docs.png') });

  // Everything behind the disclosures is checked too: schemas, error tables and every form.
  await page.locator('details').evaluateAll((all) => {
    for (const d of all) (d as HTMLDetailsElement).open = true;
  });
  await lock.screenshot({ path: testInfo.outputPath('docs-lock.png') });
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(serious).toEqual([]);
});

test('the document is served at /api/v1/openapi.json through Next', async ({ request }) => {
  const res = await request.get('/api/v1/openapi.json');
  expect(res.status()).toBe(200);
  expect(res.headers()['x-api-version']).toBe('1');
  expect(res.headers()['x-request-id']).toMatch(/^req_/);
  const doc = await res.json();
  expect(doc.openapi).toBe('3.1.0');
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/quote', '/api/quote']));
});

test('a getting-started guide and the rate limits lead the reference; no field is typed any', async ({
  page,
}, testInfo) => {
  await page.goto('/docs');
  const guide = page.getByRole('region', { name: 'Getting started' });
  for (const step of ['1. Quote', '2. Lock', '3. Execute', '4. Track', '5. Status']) {
    await expect(guide.getByRole('heading', { level: 3, name: new RegExp(`^${step}`) })).toBeVisible();
  }
  await expect(guide.getByText('curl -s -X POST "$SWITCHYARD/api/v1/quote/lock"')).toBeVisible();
  await expect(guide.getByText("await call<ExecuteResult>('/api/v1/quote/execute'")).toBeVisible();
  const limits = page.getByRole('region', { name: 'Rate limits' });
  await expect(limits.getByText(/Quotes \(quote\): \d+ requests/)).toBeVisible();
  await expect(limits.getByText('Retry-After', { exact: true })).toBeVisible();
  await guide.screenshot({ path: testInfo.outputPath('docs-guide.png') });

  const types = await page.locator('table td:nth-child(2)').allInnerTexts();
  expect(types.length).toBeGreaterThan(50);
  expect(types.filter((type) => /\bany\b/.test(type))).toEqual([]);
});

test('"Try it" carries the route into lock and the lock id into execute', async ({ page }) => {
  await page.goto('/docs');
  const quote = page.locator('section#quote');
  await quote.locator('summary', { hasText: 'Try it' }).click();
  await quote.getByRole('button', { name: 'Send POST /api/v1/quote' }).click();
  await expect(quote.getByTestId('try-status')).toHaveText(/^200\b/);
  const best = JSON.parse((await quote.getByTestId('try-body').textContent()) ?? '{}').data[0];

  const lock = page.locator('section#lockQuote');
  await lock.locator('summary', { hasText: 'Try it' }).click();
  const lockBody = lock.getByLabel('Request body (JSON)');
  await expect(lockBody).toHaveValue(new RegExp(`"routeId": "${best.routeId}"`));
  await expect(lockBody).toHaveValue(new RegExp(`"provider": "${best.provider}"`));
  await lock.getByRole('button', { name: 'Send POST /api/v1/quote/lock' }).click();
  await expect(lock.getByTestId('try-status')).toHaveText(/^200\b/);
  const { lockId } = JSON.parse((await lock.getByTestId('try-body').textContent()) ?? '{}').data;

  const execute = page.locator('section#executeQuote');
  await execute.locator('summary', { hasText: 'Try it' }).click();
  await expect(execute.getByLabel('Request body (JSON)')).toHaveValue(new RegExp(`"lockId": "${lockId}"`));
  await expect(execute.getByTestId('try-carried')).toContainText('lockId');
});

test('the reference documents the signed webhook: its headers and its body', async ({ page }) => {
  await page.goto('/docs#webhooks');
  await expect(page.getByRole('heading', { level: 2, name: 'Webhooks' })).toBeVisible();
  const webhook = page.locator('section#webhook-transactionEvent');
  await expect(webhook.getByRole('heading', { level: 3, name: 'POST your endpoint' })).toBeVisible();
  for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    await expect(webhook.getByRole('cell', { name: new RegExp(`^${header}`) })).toBeVisible();
  }
  await expect(webhook.getByRole('link', { name: 'WebhookEvent' }).first()).toBeVisible();
});

/** Rows of the reference's tables whose last cell (the description) has less than `share` of its table's width. */
const squeezedDescriptions = (page: import('@playwright/test').Page, share: number) =>
  page.evaluate(
    (share) =>
      [...document.querySelectorAll<HTMLTableElement>('main table')].flatMap((table) => {
        const width = table.getBoundingClientRect().width;
        return [...table.querySelectorAll('tbody tr')].flatMap((row) => {
          const last = row.lastElementChild?.getBoundingClientRect().width ?? 0;
          return last < share * width
            ? [
                `${table.caption?.textContent}, ${row.firstElementChild?.textContent}: ${Math.round(last)} of ${Math.round(width)} px`,
              ]
            : [];
        });
      }),
    share,
  );

test('on a phone the index folds under "On this page" and the tables stack each row, its description the full width; a desktop keeps the sidebar and the columns', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto('/docs');
    const index = page.getByRole('navigation', { name: 'Endpoints' });
    const fold = index.getByText('On this page', { exact: true });
    const execute = index.getByRole('link', { name: 'POST /api/v1/quote/execute' });
    const title = page.getByRole('heading', { level: 1, name: 'Switchyard swap routing API' });
    const parameters = page.getByRole('table', { name: 'Parameters of GET /api/v1/swap/chains' });
    await expect(parameters.getByRole('cell', { name: /^type optional/ })).toBeVisible();
    if (size.name === 'phone') {
      await expect(execute).toBeHidden();
      // The document starts on the first screen, under the folded index.
      expect((await title.boundingBox())?.y).toBeLessThan(size.height / 2);
      await shot(page, testInfo, `docs-index-folded-${size.width}`);
      await fold.click();
      await expect(execute).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`docs-index-open-${size.width}.png`) });
      await execute.click();
      await expect(page).toHaveURL(/#executeQuote$/);
      await expect(
        page.getByRole('heading', { level: 3, name: 'POST /api/v1/quote/execute', exact: true }),
      ).toBeInViewport();
      await expect(parameters.getByRole('columnheader', { name: 'Description' })).toHaveCount(1);
    } else {
      await expect(fold).toBeHidden();
      await expect(execute).toBeVisible();
      const [sidebar, heading] = [await index.boundingBox(), await title.boundingBox()];
      expect((sidebar?.x ?? 0) + (sidebar?.width ?? 0)).toBeLessThanOrEqual(heading?.x ?? 0);
      await expect(parameters.getByRole('columnheader', { name: 'Description' })).toBeVisible();
    }

    await page.locator('details').evaluateAll((all) => {
      for (const d of all) (d as HTMLDetailsElement).open = true;
    });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await tablesWiderThanTheirPanel(page), `tables scrolling sideways at ${size.width} px`).toEqual([]);
    expect(await cutTableCells(page), `table text cut at ${size.width} px`).toEqual([]);
    if (size.name === 'phone') {
      // Stacked, a description takes the row's width (less a nested field's indent), not a word's.
      expect(await squeezedDescriptions(page, 0.8)).toEqual([]);
      await expectAccessible(page);
    }
    await parameters.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`docs-parameters-${size.width}.png`) });
    await page.locator('section#quote').screenshot({ path: testInfo.outputPath(`docs-quote-${size.width}.png`) });
  }
});
