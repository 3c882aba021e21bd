import { usdValue } from '../catalog/amounts';
import type { CatalogSnapshot } from '../catalog/snapshot';
import type { FeeItem, RouteAsset, StatusResult } from '../providers/types';

/** USD per unit of a fee's currency, or null when nothing prices it. */
export type FeePrices = (currency: string) => string | null;

/** A fee line as a stored or provider record may hold it: only `amount` and `currency` are needed to price it. */
type LooseFeeItem = Readonly<{ label?: unknown; amount?: unknown; currency?: unknown; amountUsd?: unknown }>;

export interface FeeSummary {
  /** Total in USD, rounded to cents; null when a line has no price. */
  usd: number | null;
  items: FeeItem[];
}

const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * Fee prices for one swap: its own two assets first (a fee in the source token is worth what the
 * route says that token is worth), then any catalog asset of the same symbol.
 */
export function feePrices(catalog: Pick<CatalogSnapshot, 'priceOfSymbol'> | undefined, own: RouteAsset[]): FeePrices {
  return (currency) => {
    const asset = own.find((a) => a.symbol.toUpperCase() === currency.toUpperCase() && a.priceUsd);
    return asset?.priceUsd ?? catalog?.priceOfSymbol(currency) ?? null;
  };
}

function lineCents(item: LooseFeeItem, prices: FeePrices): bigint | null {
  if (typeof item.amountUsd === 'number' && Number.isFinite(item.amountUsd)) {
    return BigInt(Math.round(item.amountUsd * 100));
  }
  if (typeof item.amount !== 'string' || typeof item.currency !== 'string' || !DECIMAL.test(item.amount)) return null;
  const [whole = '0', fraction = ''] = item.amount.split('.');
  const usd = usdValue(BigInt(whole + fraction), fraction.length, prices(item.currency));
  return usd === null ? null : BigInt(usd.replace('.', ''));
}

const centsToUsd = (cents: bigint) => Number(cents) / 100;

/**
 * The one USD reading of a fee, from quote to settlement: each line priced (the provider's own USD
 * where it gives one, else the catalog price, to the cent), and the total the provider's own when it
 * states one, else the sum of the lines once every line has a price.
 */
export function summarizeFee(items: readonly LooseFeeItem[], prices: FeePrices, providerUsd?: number | null) {
  let cents = 0n;
  let complete = items.length > 0;
  const priced = items.map((item) => {
    const line = lineCents(item, prices);
    if (line === null) complete = false;
    else cents += line;
    return { ...item, amountUsd: line === null ? null : centsToUsd(line) } as FeeItem;
  });
  const usd = providerUsd ?? (complete ? centsToUsd(cents) : null);
  return { usd, items: priced } satisfies FeeSummary;
}

const isFeeLines = (details: unknown): details is LooseFeeItem[] =>
  Array.isArray(details) && details.every((d) => typeof d === 'object' && d !== null && !Array.isArray(d));

/**
 * A provider's recorded fee with every line priced and a USD total where the provider gave none
 * (Chainflip records its fee in several assets and no USD): what the swap's totals count.
 */
export function priceRecordedFee(fee: StatusResult['fee'], prices: FeePrices): StatusResult['fee'] {
  if (!fee || !isFeeLines(fee.details) || fee.details.length === 0) return fee;
  const summary = summarizeFee(fee.details, prices, fee.amountUsd);
  return { ...fee, amountUsd: summary.usd, details: summary.items };
}

const num = (value: string | null) => (value === null ? null : Number(value));

/**
 * A recorded swap's fee for every view: the best USD figure (`fee_usd`, what totals count), the
 * quoted and the actual USD apart, and the lines of the latest fee (the provider's once it settles).
 */
export function recordedFeeSummary(tx: {
  quotedFeeUsd: string | null;
  feeAmountUsd: string | null;
  feeUsd: string | null;
  feeDetails: unknown;
}) {
  return {
    usd: num(tx.feeUsd),
    quotedUsd: num(tx.quotedFeeUsd),
    actualUsd: num(tx.feeAmountUsd),
    items: isFeeLines(tx.feeDetails) ? (tx.feeDetails as FeeItem[]) : [],
  };
}
