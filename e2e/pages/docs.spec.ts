import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '../support/test';

test('the API reference lists both interfaces and sends a live request', async ({ page }, testInfo) => {
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
