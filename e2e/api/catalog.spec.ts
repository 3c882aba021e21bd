import { expect, test } from '@playwright/test';
import { envelopeProblem } from '../../test/support/fuzz-requests';
import { oversizedHead, rawHttp } from '../../test/support/raw-http';

test('the catalog is served through Next with the v1 contract', async ({ request }) => {
  const res = await request.get('/api/v1/swap/chains?type=UTXO');
  expect(res.status()).toBe(200);
  expect(res.headers()['x-api-version']).toBe('1');
  expect(res.headers()['x-request-id']).toMatch(/^req_/);
  const body = await res.json();
  expect(body.data.map((c: { key: string }) => c.key).sort()).toEqual([
    'bitcoin',
    'bitcoincash',
    'dogecoin',
    'litecoin',
  ]);
  expect(body.pagination).toMatchObject({ page: 1, perPage: 100, total: 4, hasMore: false });
});

test('legacy catalog, unknown paths and wrong methods keep their envelopes', async ({ request }) => {
  const legacy = await request.get('/api/swap/sources');
  expect(Object.keys(await legacy.json()).sort()).toEqual(['page', 'perPage', 'sources', 'total']);

  const unknown = await request.get('/api/v1/does/not/exist');
  expect(unknown.status()).toBe(404);
  expect(unknown.headers()['x-api-version']).toBe('1');
  const body = await unknown.json();
  expect(body.error.code).toBe('NOT_FOUND');
  expect(body.error.requestId).toBe(unknown.headers()['x-request-id']);

  const wrongMethod = await request.delete('/api/v1/swap/assets');
  expect(wrongMethod.status()).toBe(405);
  expect((await wrongMethod.json()).error.code).toBe('METHOD_NOT_ALLOWED');

  const invalid = await request.get('/api/v1/swap/assets?perPage=5000');
  expect(invalid.status()).toBe(400);
  expect((await invalid.json()).error.field).toBe('perPage');
});

test('health reports ready', async ({ request }) => {
  const res = await request.get('/api/health/ready');
  expect(res.status()).toBe(200);
  expect((await res.json()).checks.postgres.ok).toBe(true);
});

test('a request the HTTP parser refuses still gets the error envelope from the web server', async ({ baseURL }) => {
  const answer = await rawHttp(baseURL ?? '', oversizedHead('/api/v1/swap/chains'));
  expect(answer.status).toBe(431);
  expect(
    envelopeProblem('/api/v1/swap/chains', answer.status, new Headers(answer.headers), answer.body),
  ).toBeUndefined();
});

test('a trailing slash reaches the API in its envelope, while pages keep their canonical-URL redirect', async ({
  request,
}) => {
  // Found by the soak's fuzzing: Next answered `/api/v1/` with a bodiless 308 instead of the envelope.
  const root = await request.get('/api/v1/', { maxRedirects: 0 });
  expect(root.status()).toBe(404);
  expect(envelopeProblem('/api/v1/', root.status(), new Headers(root.headers()), await root.text())).toBeUndefined();
  expect((await root.json()).error.code).toBe('NOT_FOUND');

  const chains = await request.get('/api/v1/swap/chains/?type=UTXO', { maxRedirects: 0 });
  expect(chains.status()).toBe(200);
  expect(chains.headers()['x-api-version']).toBe('1');
  expect((await chains.json()).pagination.total).toBe(4);

  const legacy = await request.get('/api/swap/sources/', { maxRedirects: 0 });
  expect(legacy.status()).toBe(200);
  expect(Object.keys(await legacy.json()).sort()).toEqual(['page', 'perPage', 'sources', 'total']);

  const docs = await request.get('/docs/?tab=v1', { maxRedirects: 0 });
  expect(docs.status()).toBe(308);
  const location = new URL(docs.headers().location ?? '', 'http://127.0.0.1');
  expect(`${location.pathname}${location.search}`).toBe('/docs?tab=v1');
  const followed = await request.get('/docs/');
  expect(followed.status()).toBe(200);
  expect(await followed.text()).toContain('Switchyard swap routing API');
});
