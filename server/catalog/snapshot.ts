import { eq } from 'drizzle-orm';
import { assets, chains, sources } from '../../drizzle/schema';
import type { AppContext } from '../context';
import type { RouteAsset } from '../providers/types';
import { assetAddressKey, type ChainKind } from './addresses';

export interface CatalogChain {
  key: string;
  name: string;
  type: ChainKind;
  chainId: number;
  bech32Prefix: string | null;
  nativeSymbol: string;
  explorerTxUrl: string;
  explorerAddressUrl: string;
}

export interface CatalogSnapshot {
  loadedAt: number;
  /**
   * The active chains' explorer links, as one string: all a status answer takes from the catalog, so
   * snapshots with the same key present a transaction the same way.
   */
  explorerKey: string;
  chain(key: string): CatalogChain | undefined;
  asset(chainKey: string, address: string): RouteAsset | undefined;
  assetById(id: number): RouteAsset | undefined;
  /** USD price of a token by symbol (a fee's currency names no chain): the first priced asset by id. */
  priceOfSymbol(symbol: string): string | null;
  activeSources: Set<string>;
}

async function loadSnapshot(ctx: AppContext): Promise<CatalogSnapshot> {
  const [chainRows, assetRows, sourceRows] = await Promise.all([
    ctx.db.select().from(chains).where(eq(chains.active, true)),
    ctx.db.select().from(assets).where(eq(assets.active, true)),
    ctx.db.select({ key: sources.key }).from(sources).where(eq(sources.active, true)),
  ]);
  const chainMap = new Map<string, CatalogChain>();
  const providerIds = new Map<string, RouteAsset['providerIds']>();
  for (const c of chainRows) {
    chainMap.set(c.key, {
      key: c.key,
      name: c.name,
      type: c.type,
      chainId: c.chainId,
      bech32Prefix: c.bech32Prefix,
      nativeSymbol: c.nativeSymbol,
      explorerTxUrl: c.explorerTxUrl,
      explorerAddressUrl: c.explorerAddressUrl,
    });
    providerIds.set(c.key, c.providerIds);
  }
  const byKey = new Map<string, RouteAsset>();
  const byId = new Map<number, RouteAsset>();
  for (const a of assetRows) {
    const chain = chainMap.get(a.chainKey);
    if (!chain) continue;
    const asset: RouteAsset = {
      id: a.id,
      chain: a.chainKey,
      chainType: chain.type,
      chainId: chain.chainId,
      symbol: a.symbol,
      name: a.name,
      address: a.address,
      decimals: a.decimals,
      isNative: a.isNative,
      image: a.image,
      priceUsd: a.priceUsd,
      providerIds: providerIds.get(a.chainKey) ?? {},
    };
    byKey.set(`${a.chainKey}|${a.addressKey}`, asset);
    byId.set(a.id, asset);
  }
  const symbolPrices = new Map<string, string>();
  for (const asset of [...byId.values()].sort((a, b) => a.id - b.id)) {
    const symbol = asset.symbol.toUpperCase();
    if (asset.priceUsd && !symbolPrices.has(symbol)) symbolPrices.set(symbol, asset.priceUsd);
  }
  const explorers = [...chainMap.values()].map((c) => `${c.key} ${c.explorerTxUrl}`).sort();
  return {
    loadedAt: Date.now(),
    explorerKey: explorers.join('\n'),
    chain: (key) => chainMap.get(key),
    asset(chainKey, address) {
      const chain = chainMap.get(chainKey);
      return chain ? byKey.get(`${chainKey}|${assetAddressKey(chain.type, address)}`) : undefined;
    },
    assetById: (id) => byId.get(id),
    priceOfSymbol: (symbol) => symbolPrices.get(symbol.toUpperCase()) ?? null,
    activeSources: new Set(sourceRows.map((s) => s.key)),
  };
}

const loaded = new WeakMap<AppContext, CatalogSnapshot>();
const loading = new WeakMap<AppContext, Promise<CatalogSnapshot>>();

/** The loaded catalog while it is younger than `catalogCacheMs`; undefined when it must be (re)loaded. */
export function freshCatalog(ctx: AppContext): CatalogSnapshot | undefined {
  const snapshot = loaded.get(ctx);
  return snapshot && Date.now() - snapshot.loadedAt < ctx.config.catalogCacheMs ? snapshot : undefined;
}

/** The active catalog, cached per process for `catalogCacheMs` (quote validation reads it on every request). */
export function getCatalog(ctx: AppContext): Promise<CatalogSnapshot> {
  const fresh = freshCatalog(ctx);
  if (fresh) return Promise.resolve(fresh);
  // With no caching every use reads anew: a load that started before this call may miss a change.
  if (ctx.config.catalogCacheMs === 0) return loadSnapshot(ctx);
  let load = loading.get(ctx);
  if (!load) {
    load = loadSnapshot(ctx);
    loading.set(ctx, load);
    load.then(
      (snapshot) => {
        loaded.set(ctx, snapshot);
        loading.delete(ctx);
      },
      () => loading.delete(ctx),
    );
  }
  return load;
}
