import { formatAmount, formatDisplay, usdValue } from '../catalog/amounts';
import type { DisplayFee, FeeItem, ProviderRoute, RouteAsset } from '../providers/types';

export interface AmountDisplay {
  formatted: string;
  currency: string;
  usd: string;
  /** Exact amount as a decimal string in the asset's own units. */
  amount: string;
}

export interface PublicFee {
  usd: number | null;
  formatted: string | null;
  currency: string | null;
  details: FeeItem[];
}

export interface PublicRoute {
  provider: string;
  routeId: string;
  src: AmountDisplay;
  dst: AmountDisplay;
  fee: PublicFee;
  feeBreakdown: { total: { usd: number | null; formatted: string | null; currency: string | null }; items: FeeItem[] };
  estimatedTime: number;
  steps: ProviderRoute['steps'];
  minimumReceived?: string;
  expiresAt?: string;
}

export const amountDisplay = (base: bigint, asset: RouteAsset, usd: string | undefined): AmountDisplay => ({
  formatted: formatDisplay(base, asset.decimals, asset.symbol),
  currency: asset.symbol,
  usd: usd ?? usdValue(base, asset.decimals, asset.priceUsd) ?? '',
  amount: formatAmount(base, asset.decimals),
});

function priceItem(item: FeeItem, assets: RouteAsset[]): FeeItem {
  if (item.amountUsd !== null) return item;
  const asset = assets.find((a) => a.symbol === item.currency);
  if (!asset?.priceUsd || !/^\d+(\.\d+)?$/.test(item.amount)) return item;
  const [whole, frac = ''] = item.amount.split('.');
  const base = BigInt(whole + frac.slice(0, asset.decimals).padEnd(asset.decimals, '0'));
  const usd = usdValue(base, asset.decimals, asset.priceUsd);
  return { ...item, amountUsd: usd === null ? null : Number(usd) };
}

/** Fee display with USD filled from catalog prices where the provider reported none. */
export function presentFee(fee: DisplayFee, assets: RouteAsset[]): PublicFee {
  const details = fee.details.map((item) => priceItem(item, assets));
  const priced = details.filter((d) => d.amountUsd !== null);
  const usd =
    fee.usd !== null
      ? Number(fee.usd)
      : priced.length && priced.length === details.length
        ? Math.round(priced.reduce((sum, d) => sum + (d.amountUsd ?? 0), 0) * 100) / 100
        : null;
  return {
    usd,
    formatted: fee.formatted ?? (usd !== null ? `$${usd.toFixed(2)}` : null),
    currency: fee.currency ?? (usd !== null ? 'USD' : null),
    details,
  };
}

export function presentRoute(
  provider: string,
  route: ProviderRoute,
  src: RouteAsset,
  dst: RouteAsset,
  amountBase: bigint,
): PublicRoute {
  const fee = presentFee(route.fee, [src, dst]);
  return {
    provider,
    routeId: route.routeId,
    src: amountDisplay(amountBase, src, route.srcUsd),
    dst: amountDisplay(route.dstAmountBase, dst, route.dstUsd),
    fee,
    feeBreakdown: {
      total: { usd: fee.usd, formatted: fee.formatted, currency: fee.currency },
      items: fee.details,
    },
    estimatedTime: route.estimatedTimeSeconds,
    steps: route.steps,
    ...(route.dstMinAmountBase !== undefined
      ? { minimumReceived: formatAmount(route.dstMinAmountBase, dst.decimals) }
      : {}),
    ...(route.expiresAt ? { expiresAt: route.expiresAt.toISOString() } : {}),
  };
}

/** Best first: highest destination value in USD, then the larger amount. */
export function compareRoutes(a: PublicRoute, b: PublicRoute): number {
  const usdA = Number(a.dst.usd || 0);
  const usdB = Number(b.dst.usd || 0);
  if (usdA !== usdB) return usdB - usdA;
  return Number(b.dst.amount) - Number(a.dst.amount);
}
