import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assets as assetSeed, chains as chainSeed } from '../drizzle/seed/catalog-data';
import { sourcesSeed } from '../drizzle/seed/sources-data';
import { startTestApp, type TestApp } from './support/app';
import { expectLegacyError } from './support/assertions';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

describe('legacy catalog', () => {
  it('GET /api/swap/chains answers {chains, page, perPage, total}', async () => {
    const res = await t.json('/api/swap/chains');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['chains', 'page', 'perPage', 'total']);
    expect(res.body).toMatchObject({ page: 1, perPage: 100, total: chainSeed.length });
    expect(res.body.chains).toHaveLength(chainSeed.length);
    expect(res.headers.get('x-api-version')).toBeNull();
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('GET /api/swap/chains takes the same query as v1', async () => {
    const res = await t.json('/api/swap/chains?type=UTXO&perPage=2&page=2');
    const utxo = chainSeed.filter((c) => c.type === 'UTXO').map((c) => c.key);
    expect(res.body).toMatchObject({ page: 2, perPage: 2, total: utxo.length });
    expect(res.body.chains.map((c: any) => c.key)).toEqual(utxo.slice(2, 4));
    const search = await t.json('/api/swap/chains?query=thor');
    expect(search.body.chains.map((c: any) => c.key)).toEqual(['thorchain']);
  });

  it('GET /api/swap/assets answers {assets, page, perPage, total} and filters by chain', async () => {
    const res = await t.json('/api/swap/assets?chain=solana');
    const expected = assetSeed.filter((a) => a.chain === 'solana');
    expect(Object.keys(res.body).sort()).toEqual(['assets', 'page', 'perPage', 'total']);
    expect(res.body.total).toBe(expected.length);
    expect(res.body.assets.map((a: any) => a.symbol).sort()).toEqual(expected.map((a) => a.symbol).sort());
  });

  it('GET /api/swap/sources answers {sources, page, perPage, total} with perPage 20', async () => {
    const res = await t.json('/api/swap/sources');
    expect(res.body).toMatchObject({ page: 1, perPage: 20, total: sourcesSeed.length });
    expect(res.body.sources.map((s: any) => s.key)).toEqual(sourcesSeed.map((s) => s.key));
  });

  it.each([
    '/api/swap/chains?perPage=1001',
    '/api/swap/chains?type=evm',
    '/api/swap/chains?page=0',
    '/api/swap/assets?perPage=1001',
    '/api/swap/assets?chain=nowhere',
    '/api/swap/sources?perPage=301',
    '/api/swap/sources?type=DEX',
  ])('%s answers a legacy 400', async (path) => {
    expectLegacyError(await t.json(path), 400, 'VALIDATION_ERROR');
  });
});
