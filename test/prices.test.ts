import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assets as assetSeed } from '../drizzle/seed/catalog-data';
import { refreshPrices } from '../server/catalog/prices';
import { startTestApp, type TestApp } from './support/app';
import { firstRow } from './support/assertions';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';

describe('price refresh', () => {
  it('takes USD prices from the provider that publishes them and records source and age', async () => {
    await t.app
      .sql`update assets set price_usd = '0.5', price_source = 'seed', price_updated_at = now() - interval '3 days'
      where chain_key = 'ethereum' and address = ${USDC}`;
    const report = await refreshPrices(t.app);
    expect(report.updated).toBeGreaterThan(20);
    const usdc = await firstRow(
      t.app
        .sql`select price_usd, price_source, price_updated_at from assets where chain_key = 'ethereum' and address = ${USDC}`,
    );
    const seedPrice = assetSeed.find((a) => a.chain === 'ethereum' && a.symbol === 'USDC')?.priceUsd;
    expect(Number(usdc.price_usd)).toBe(Number(seedPrice));
    expect(usdc.price_source).toBe('LIFI');
    expect(Date.now() - new Date(usdc.price_updated_at).getTime()).toBeLessThan(60_000);
  });

  it('keeps the last good value for assets the provider does not price', async () => {
    const before = await firstRow(
      t.app.sql`select price_usd, price_source from assets where chain_key = 'ton' and is_native`,
    );
    const report = await refreshPrices(t.app);
    expect(report.unpriced).toBeGreaterThanOrEqual(0);
    const after = await firstRow(
      t.app.sql`select price_usd, price_source from assets where chain_key = 'ton' and is_native`,
    );
    expect(after).toEqual(before);
  });

  it('changes nothing when the provider answers garbage', async () => {
    await t.app
      .sql`update assets set price_usd = '0.42', price_source = 'LIFI' where chain_key = 'ethereum' and address = ${USDC}`;
    t.sims.LIFI.configure({ faults: { quote: 'malformed' } });
    try {
      await expect(refreshPrices(t.app)).rejects.toMatchObject({ kind: 'BAD_RESPONSE' });
    } finally {
      t.sims.LIFI.reset();
    }
    const row = await firstRow(
      t.app.sql`select price_usd from assets where chain_key = 'ethereum' and address = ${USDC}`,
    );
    expect(Number(row.price_usd)).toBe(0.42);
  });
});
