import { formatAmount, formatDisplay, usdValue } from '../catalog/amounts';
import { type FeePrices, summarizeFee } from '../fees/summary';
import type { DisplayFee, FeeItem, ProviderRoute, RouteAsset } from '../providers/types';
import type { ObservedTime } from '../route-times/times';

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
  observedTime: ObservedTime | null;
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

/** Fee display with every line and the total in USD, by the one fee reading (`summarizeFee`). */
export function presentFee(fee: DisplayFee, prices: FeePrices): PublicFee {
  const { usd, items } = summarizeFee(fee.details, prices, fee.usd === null ? null : Number(fee.usd));
  return {
    usd,
    formatted: fee.formatted ?? (usd !== null ? `$${usd.toFixed(2)}` : null),
    currency: fee.currency ?? (usd !== null ? 'USD' : null),
    details: items,
  };
}

export function presentRoute(
  provider: string,
  route: ProviderRoute,
  src: RouteAsset,
  dst: RouteAsset,
  amountBase: bigint,
  prices: FeePrices,
  observedTime: ObservedTime | null,
): PublicRoute {
  const fee = presentFee(route.fee, prices);
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
    observedTime,
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
