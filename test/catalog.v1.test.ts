import { getAddress, isAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assets as assetSeed, chains as chainSeed } from '../drizzle/seed/catalog-data';
import { sourcesSeed } from '../drizzle/seed/sources-data';
import { startTestApp, type TestApp } from './support/app';
import { expectV1Error, expectV1Headers } from './support/assertions';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const activeChains = chainSeed.filter((c) => c.active);

async function walk(path: string, perPage: number) {
  const seen: unknown[] = [];
  let page = 1;
  let last: any;
  for (; page <= 200; page++) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await t.json(`${path}${sep}page=${page}&perPage=${perPage}`);
    expect(res.status).toBe(200);
    last = res.body;
    seen.push(...res.body.data);
    if (!res.body.pagination.hasMore) break;
  }
  return { seen, last, pages: page };
}

describe('GET /api/v1/swap/chains', () => {
  it('lists active chains with the spec fields and default pagination', async () => {
    const res = await t.json('/api/v1/swap/chains');
    expect(res.status).toBe(200);
    expectV1Headers(res.headers);
    expect(res.body.pagination).toEqual({ page: 1, perPage: 100, total: activeChains.length, hasMore: false });
    expect(res.body.data).toHaveLength(activeChains.length);
    for (const chain of res.body.data) {
      expect(Object.keys(chain).sort()).toEqual(['active', 'chainId', 'image', 'key', 'name', 'shortname', 'type']);
      expect(typeof chain.chainId).toBe('number');
      expect(chain.active).toBe(true);
      expect(chain.image).toMatch(/^https:\/\//);
    }
    const types = new Set(res.body.data.map((c: any) => c.type));
    expect(types).toEqual(new Set(['EVM', 'UTXO', 'COSMOS', 'OTHER']));
  });

  it('filters by type', async () => {
    for (const type of ['EVM', 'UTXO', 'COSMOS', 'OTHER']) {
      const res = await t.json(`/api/v1/swap/chains?type=${type}`);
      expect(res.status).toBe(200);
      const expected = activeChains.filter((c) => c.type === type).map((c) => c.key);
      expect(res.body.data.map((c: any) => c.key)).toEqual(expected);
      expect(res.body.pagination.total).toBe(expected.length);
    }
  });

  it('searches name, shortname and key case-insensitively', async () => {
    const byName = await t.json('/api/v1/swap/chains?query=bitcoin');
    expect(byName.body.data.map((c: any) => c.key).sort()).toEqual(['bitcoin', 'bitcoincash']);
    const byShortname = await t.json('/api/v1/swap/chains?query=LTC');
    expect(byShortname.body.data.map((c: any) => c.key)).toEqual(['litecoin']);
    const byKey = await t.json('/api/v1/swap/chains?query=cosmoshub');
    expect(byKey.body.data.map((c: any) => c.key)).toEqual(['cosmoshub']);
    const none = await t.json('/api/v1/swap/chains?query=%25');
    expect(none.body.data).toEqual([]);
    expect(none.body.pagination).toEqual({ page: 1, perPage: 100, total: 0, hasMore: false });
  });

  it('walks pages without overlap and with an exact total', async () => {
    const { seen, last } = await walk('/api/v1/swap/chains', 4);
    const keys = seen.map((c: any) => c.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(last.pagination.total);
    expect(last.pagination.hasMore).toBe(false);
  });

  it('accepts the maximum perPage and rejects one above it', async () => {
    expect((await t.json('/api/v1/swap/chains?perPage=1000')).status).toBe(200);
    const res = await t.json('/api/v1/swap/chains?perPage=1001');
    expectV1Error(res, 400, 'VALIDATION_ERROR', 'perPage');
  });

  it.each([
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=1.5', 'page'],
    ['page=abc', 'page'],
    ['perPage=0', 'perPage'],
    ['perPage=ten', 'perPage'],
    ['type=evm', 'type'],
    ['type=SOLANA', 'type'],
    [`query=${'x'.repeat(101)}`, 'query'],
  ])('rejects %s with a 400 naming the field', async (qs, field) => {
    const res = await t.json(`/api/v1/swap/chains?${qs}`);
    expectV1Error(res, 400, 'VALIDATION_ERROR', field);
  });

  it('collects every problem at once', async () => {
    const res = await t.json('/api/v1/swap/chains?page=0&perPage=5000&type=nope');
    expectV1Error(res, 400, 'VALIDATION_ERROR', 'page');
    expect(res.body.error.details.errors.map((e: any) => e.field).sort()).toEqual(['page', 'perPage', 'type']);
  });

  it('answers past the last page with an empty list and the true total', async () => {
    const res = await t.json('/api/v1/swap/chains?page=50&perPage=10');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.pagination).toEqual({ page: 50, perPage: 10, total: activeChains.length, hasMore: false });
  });

  it('lists only active chains', async () => {
    await t.app.sql`update chains set active = false where key = 'dogecoin'`;
    try {
      const res = await t.json('/api/v1/swap/chains?perPage=1000');
      expect(res.body.data.map((c: any) => c.key)).not.toContain('dogecoin');
      expect(res.body.pagination.total).toBe(activeChains.length - 1);
      const assets = await t.json('/api/v1/swap/assets?query=DOGE');
      expect(assets.body.data.filter((a: any) => a.chain === 'dogecoin')).toEqual([]);
    } finally {
      await t.app.sql`update chains set active = true where key = 'dogecoin'`;
    }
  });
});

describe('GET /api/v1/swap/assets', () => {
  it('lists assets with canonical addresses and defaults', async () => {
    const res = await t.json('/api/v1/swap/assets');
    expect(res.status).toBe(200);
    expectV1Headers(res.headers);
    expect(res.body.pagination.perPage).toBe(100);
    expect(res.body.pagination.total).toBe(assetSeed.length);
    const chainTypes = new Map(chainSeed.map((c) => [c.key, c.type]));
    for (const asset of res.body.data) {
      for (const field of ['name', 'symbol', 'address', 'image', 'chain', 'isNative'])
        expect(asset).toHaveProperty(field);
      if (chainTypes.get(asset.chain) === 'EVM') {
        expect(isAddress(asset.address)).toBe(true);
        expect(asset.address).toBe(getAddress(asset.address));
      } else if (asset.isNative) {
        expect(asset.address).toBe('native');
      }
    }
  });

  it('filters by chain', async () => {
    const res = await t.json('/api/v1/swap/assets?chain=ethereum&perPage=1000');
    const expected = assetSeed.filter((a) => a.chain === 'ethereum');
    expect(res.body.data).toHaveLength(expected.length);
    expect(res.body.data.every((a: any) => a.chain === 'ethereum')).toBe(true);
    const native = res.body.data.find((a: any) => a.isNative);
    expect(native.address).toBe('0x0000000000000000000000000000000000000000');
  });

  it('searches by symbol, name and address (EVM address case-insensitively)', async () => {
    const bySymbol = await t.json('/api/v1/swap/assets?query=usdc&perPage=1000');
    expect(bySymbol.body.data.length).toBeGreaterThanOrEqual(8);
    expect(bySymbol.body.data.every((a: any) => /usd/i.test(`${a.symbol} ${a.name}`))).toBe(true);
    const lower = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
    const byAddress = await t.json(`/api/v1/swap/assets?query=${lower}`);
    expect(byAddress.body.data).toHaveLength(1);
    expect(byAddress.body.data[0]).toMatchObject({
      chain: 'ethereum',
      symbol: 'USDC',
      address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    });
  });

  it('walks every page without overlap', async () => {
    const { seen, last } = await walk('/api/v1/swap/assets', 7);
    const ids = seen.map((a: any) => `${a.chain}:${a.address}`);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(last.pagination.total);
    expect(ids.length).toBe(assetSeed.length);
  });

  it('rejects an unknown chain and an oversized page', async () => {
    expectV1Error(await t.json('/api/v1/swap/assets?chain=atlantis'), 400, 'VALIDATION_ERROR', 'chain');
    expectV1Error(await t.json('/api/v1/swap/assets?chain=ETH%20MAIN'), 400, 'VALIDATION_ERROR', 'chain');
    expectV1Error(await t.json('/api/v1/swap/assets?perPage=1001'), 400, 'VALIDATION_ERROR', 'perPage');
  });
});

describe('GET /api/v1/swap/sources', () => {
  it('lists sources with default perPage 20', async () => {
    const res = await t.json('/api/v1/swap/sources');
    expect(res.status).toBe(200);
    expectV1Headers(res.headers);
    expect(res.body.pagination).toEqual({ page: 1, perPage: 20, total: sourcesSeed.length, hasMore: false });
    expect(res.body.data.map((s: any) => s.key)).toEqual(sourcesSeed.map((s) => s.key));
    for (const source of res.body.data) {
      expect(Object.keys(source).sort()).toEqual(['active', 'image', 'key', 'name', 'type']);
    }
  });

  it('filters by type and bounds perPage at 300', async () => {
    const res = await t.json('/api/v1/swap/sources?type=BRIDGE');
    expect(res.body.data.map((s: any) => s.key)).toEqual(
      sourcesSeed.filter((s) => s.type === 'BRIDGE').map((s) => s.key),
    );
    expect((await t.json('/api/v1/swap/sources?perPage=300')).status).toBe(200);
    expectV1Error(await t.json('/api/v1/swap/sources?perPage=301'), 400, 'VALIDATION_ERROR', 'perPage');
    expectV1Error(await t.json('/api/v1/swap/sources?type=DEX'), 400, 'VALIDATION_ERROR', 'type');
  });

  it('walks pages of one', async () => {
    const { seen, last, pages } = await walk('/api/v1/swap/sources', 1);
    expect(pages).toBe(sourcesSeed.length);
    expect(seen).toHaveLength(last.pagination.total);
  });

  it('hides inactive sources', async () => {
    await t.app.sql`update sources set active = false where key = 'LIFI'`;
    try {
      const res = await t.json('/api/v1/swap/sources');
      expect(res.body.data.map((s: any) => s.key)).not.toContain('LIFI');
    } finally {
      await t.app.sql`update sources set active = true where key = 'LIFI'`;
    }
  });
});
