import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshCatalog, getCatalog } from '../server/catalog/snapshot';
import { startTestApp, type TestApp } from './support/app';

describe('the catalog snapshot', () => {
  let cached: TestApp;
  let uncached: TestApp;
  beforeAll(async () => {
    [cached, uncached] = await Promise.all([
      startTestApp({ CATALOG_CACHE_MS: '60000' }),
      startTestApp({ CATALOG_CACHE_MS: '0' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([cached?.stop(), uncached?.stop()]);
  });

  it('is loaded once for concurrent uses and then read without waiting while it is fresh', async () => {
    const [a, b] = await Promise.all([getCatalog(cached.app), getCatalog(cached.app)]);
    expect(b).toBe(a);
    expect(freshCatalog(cached.app)).toBe(a);
    expect(await getCatalog(cached.app)).toBe(a);
  });

  it('with CATALOG_CACHE_MS=0 is read anew on every use, and never counts as fresh', async () => {
    const [a, b] = await Promise.all([getCatalog(uncached.app), getCatalog(uncached.app)]);
    expect(b).not.toBe(a);
    expect(freshCatalog(uncached.app)).toBeUndefined();
    const chain = 'ethereum';
    expect(a.chain(chain)?.name).not.toBe('Renamed chain');
    await uncached.app.sql`update chains set name = 'Renamed chain' where key = ${chain}`;
    expect((await getCatalog(uncached.app)).chain(chain)?.name).toBe('Renamed chain');
  });
});
