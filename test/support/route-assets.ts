import { assets, chains } from '../../drizzle/seed/catalog-data';
import { canonicalAssetAddress } from '../../server/catalog/addresses';
import type { RouteAsset } from '../../server/providers/types';

/** A catalog asset as adapters receive it, built from the seed data (no database needed). */
export function routeAsset(chainKey: string, symbol: string): RouteAsset {
  const chain = chains.find((c) => c.key === chainKey);
  const index = assets.findIndex((a) => a.chain === chainKey && a.symbol === symbol);
  const asset = assets[index];
  if (!chain || !asset) throw new Error(`no seed asset ${symbol} on ${chainKey}`);
  return {
    id: index + 1,
    chain: chain.key,
    chainType: chain.type,
    chainId: chain.chainId,
    symbol: asset.symbol,
    name: asset.name,
    address: canonicalAssetAddress(chain.type, asset.address),
    decimals: asset.decimals,
    isNative: asset.isNative,
    image: asset.image,
    priceUsd: asset.priceUsd,
    providerIds: {
      thorchain: chain.thorchainChain,
      chainflip: chain.chainflipChain,
      relay: chain.relayChainId,
      lifi: chain.lifiChainId,
    },
  };
}

export const testSignal = (ms = 3000) => AbortSignal.timeout(ms);
