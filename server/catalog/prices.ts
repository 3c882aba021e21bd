import { and, eq, sql } from 'drizzle-orm';
import { assets } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { lifiTokenAddress } from '../providers/lifi/adapter';
import { fetchLifiPrices } from '../providers/lifi/prices';
import { LIVE_ALLOWED_HOSTS, providerBaseUrl } from '../providers/registry';
import { getCatalog } from './snapshot';

export interface PriceRefresh {
  updated: number;
  unpriced: number;
}

/**
 * Refreshes USD prices from the provider that publishes them (LI.FI's token list). An asset the
 * provider does not price keeps its last good value; `price_updated_at` tells its age.
 */
export async function refreshPrices(ctx: AppContext): Promise<PriceRefresh> {
  const lifi = ctx.config.providers.LIFI;
  if (!lifi.enabled) return { updated: 0, unpriced: 0 };
  const catalog = await getCatalog(ctx);
  const rows = await ctx.db.select({ id: assets.id }).from(assets).where(eq(assets.active, true));
  const tracked = rows.map((r) => catalog.assetById(r.id)).filter((a) => a?.providerIds.lifi !== undefined);
  const chainIds = [...new Set(tracked.map((a) => a?.providerIds.lifi as number))];
  if (!chainIds.length) return { updated: 0, unpriced: 0 };
  const prices = await fetchLifiPrices(
    {
      config: lifi,
      baseUrl: providerBaseUrl(ctx.config, 'LIFI'),
      allowedHosts:
        ctx.config.providersMode === 'live'
          ? [...LIVE_ALLOWED_HOSTS.LIFI, ...ctx.config.upstreamAllowedHosts]
          : undefined,
    },
    chainIds,
    AbortSignal.timeout(15_000),
  );
  let updated = 0;
  let unpriced = 0;
  for (const asset of tracked) {
    if (!asset) continue;
    const address = lifiTokenAddress(asset);
    const key = address && `${asset.providerIds.lifi}:${address.startsWith('0x') ? address.toLowerCase() : address}`;
    const price = key ? prices.get(key) : undefined;
    if (!price) {
      unpriced++;
      continue;
    }
    await ctx.db
      .update(assets)
      .set({ priceUsd: price, priceSource: 'LIFI', priceUpdatedAt: sql`now()` })
      .where(and(eq(assets.id, asset.id)));
    updated++;
  }
  return { updated, unpriced };
}
