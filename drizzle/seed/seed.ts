import { sql as raw } from 'drizzle-orm';
import { assetAddressKey, canonicalAssetAddress } from '../../server/catalog/addresses';
import type { Database } from '../../server/db';
import { assets, chains, sources } from '../schema';
import { assets as assetSeed, chains as chainSeed } from './catalog-data';
import { sourcesSeed } from './sources-data';

const excluded = (column: string) => raw.raw(`excluded.${column}`);

/** Upserts the catalog; running it again changes nothing but prices and display data. */
export async function seedCatalog(db: Database): Promise<{ chains: number; assets: number; sources: number }> {
  const chainTypes = new Map(chainSeed.map((c) => [c.key, c.type]));
  await db.transaction(async (tx) => {
    await tx
      .insert(chains)
      .values(
        chainSeed.map((c, i) => ({
          key: c.key,
          name: c.name,
          shortname: c.shortname,
          chainId: c.chainId,
          type: c.type,
          image: c.image,
          active: c.active,
          nativeSymbol: c.nativeSymbol,
          nativeDecimals: c.nativeDecimals,
          explorerTxUrl: c.explorerTxUrl,
          explorerAddressUrl: c.explorerAddressUrl,
          bech32Prefix: c.bech32Prefix ?? null,
          providerIds: {
            thorchain: c.thorchainChain,
            chainflip: c.chainflipChain,
            relay: c.relayChainId,
            lifi: c.lifiChainId,
          },
          sortOrder: i,
        })),
      )
      .onConflictDoUpdate({
        target: chains.key,
        set: {
          name: excluded('name'),
          shortname: excluded('shortname'),
          chainId: excluded('chain_id'),
          type: excluded('type'),
          image: excluded('image'),
          active: excluded('active'),
          nativeSymbol: excluded('native_symbol'),
          nativeDecimals: excluded('native_decimals'),
          explorerTxUrl: excluded('explorer_tx_url'),
          explorerAddressUrl: excluded('explorer_address_url'),
          bech32Prefix: excluded('bech32_prefix'),
          providerIds: excluded('provider_ids'),
          sortOrder: excluded('sort_order'),
          updatedAt: raw`now()`,
        },
      });
    await tx
      .insert(assets)
      .values(
        assetSeed.map((a, i) => {
          const kind = chainTypes.get(a.chain);
          if (!kind) throw new Error(`asset ${a.symbol} names unknown chain ${a.chain}`);
          return {
            chainKey: a.chain,
            symbol: a.symbol,
            name: a.name,
            address: canonicalAssetAddress(kind, a.address),
            addressKey: assetAddressKey(kind, a.address),
            decimals: a.decimals,
            image: a.image,
            isNative: a.isNative,
            priceUsd: a.priceUsd,
            priceSource: 'seed',
            priceUpdatedAt: new Date(),
            sortOrder: i,
          };
        }),
      )
      .onConflictDoUpdate({
        target: [assets.chainKey, assets.addressKey],
        set: {
          symbol: excluded('symbol'),
          name: excluded('name'),
          address: excluded('address'),
          decimals: excluded('decimals'),
          image: excluded('image'),
          isNative: excluded('is_native'),
          sortOrder: excluded('sort_order'),
          priceUsd: raw`case when ${assets.priceSource} = 'seed' or ${assets.priceUsd} is null then excluded.price_usd else ${assets.priceUsd} end`,
          updatedAt: raw`now()`,
        },
      });
    await tx
      .insert(sources)
      .values(sourcesSeed.map((s, i) => ({ ...s, sortOrder: i })))
      .onConflictDoUpdate({
        target: sources.key,
        set: {
          name: excluded('name'),
          image: excluded('image'),
          type: excluded('type'),
          sortOrder: excluded('sort_order'),
          updatedAt: raw`now()`,
        },
      });
  });
  return { chains: chainSeed.length, assets: assetSeed.length, sources: sourcesSeed.length };
}
