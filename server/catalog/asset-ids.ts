import { assets } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { perKey } from '../per-key';

interface AssetKeys {
  id: number;
  chainKey: string;
  symbol: string;
}

interface Kept {
  loadedAt: number;
  rows: Promise<AssetKeys[]>;
}

const kept = perKey((_ctx: AppContext) => ({ current: undefined as Kept | undefined }));

/** Every asset ever listed (inactive ones too: their swaps stay findable), kept for `catalogCacheMs`. */
function allAssets(ctx: AppContext): Promise<AssetKeys[]> {
  const slot = kept(ctx);
  const now = Date.now();
  if (!slot.current || now - slot.current.loadedAt >= ctx.config.catalogCacheMs) {
    const rows: Promise<AssetKeys[]> = ctx.db
      .select({ id: assets.id, chainKey: assets.chainKey, symbol: assets.symbol })
      .from(assets)
      .then((found) => found);
    slot.current = { loadedAt: now, rows };
    rows.catch(() => {
      if (slot.current?.rows === rows) slot.current = undefined;
    });
  }
  return slot.current.rows;
}

/** The assets whose symbol contains `term`, in any case: a symbol search resolved through the catalog. */
export async function assetIdsBySymbol(ctx: AppContext, term: string): Promise<number[]> {
  const needle = term.trim().toLowerCase();
  if (!needle) return [];
  return (await allAssets(ctx)).filter((a) => a.symbol.toLowerCase().includes(needle)).map((a) => a.id);
}

/** The assets of one chain: "on this chain" is "from or to one of these". */
export async function assetIdsOnChain(ctx: AppContext, chainKey: string): Promise<number[]> {
  return (await allAssets(ctx)).filter((a) => a.chainKey === chainKey).map((a) => a.id);
}
