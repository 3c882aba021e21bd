import { formatUnits } from 'viem';
import type { DisplayFee, FeeItem, StatusResult } from '../types';
import { chainflipDecimals } from './assets';
import type { WireFee } from './wire';

const FEE_KINDS: Record<string, { label: string; type: FeeItem['type'] }> = {
  NETWORK: { label: 'Chainflip network fee', type: 'network' },
  INGRESS: { label: 'Deposit (ingress) fee', type: 'gas' },
  EGRESS: { label: 'Payout (egress) fee', type: 'gas' },
  BROKER: { label: 'Broker fee', type: 'affiliate' },
  BOOST: { label: 'Boost fee', type: 'provider' },
  REFUND: { label: 'Refund fee', type: 'gas' },
  LIQUIDITY: { label: 'Liquidity provider fee', type: 'liquidity' },
};

/** Fee lines in human units of the fee asset; zero and unknown-asset lines are left out. No USD upstream. */
export function feeItems(fees: WireFee[], basis?: FeeItem['basis']): FeeItem[] {
  return fees.flatMap((fee) => {
    const decimals = chainflipDecimals(fee);
    const amount = BigInt(fee.amount);
    if (decimals === undefined || amount === 0n) return [];
    const kind = FEE_KINDS[fee.type] ?? { label: `${fee.type.toLowerCase()} fee`, type: 'other' as const };
    return [
      { ...kind, amount: formatUnits(amount, decimals), amountUsd: null, currency: fee.asset, ...(basis && { basis }) },
    ];
  });
}

/**
 * The status body's fees never carry the liquidity providers' fee: the backend records only network and
 * broker fees per executed swap (chainflip-sdk-monorepo packages/swap/src/event-handlers/swapping/swapExecuted.ts),
 * the LP fee being inside the swap's price.
 */
const NEVER_REPORTED = new Set(['LIQUIDITY']);

/**
 * A swap's fee line for line as quoted: each quoted kind the provider has reported by its reported lines,
 * the others kept at their quoted amount and marked (`quoted` once nothing more will come, else `pending`),
 * then any kind the quote did not name. Without the quote, only what was reported.
 */
export function settledFeeItems(
  reported: WireFee[],
  quoted: WireFee[] | undefined,
  settled: boolean,
  swappedShare?: { swapped: bigint; of: bigint },
): FeeItem[] {
  if (!quoted) return feeItems(reported);
  // A partial fill paid the pools' fee on the part it swapped only.
  const share = (fee: WireFee): WireFee =>
    swappedShare && swappedShare.of > 0n && NEVER_REPORTED.has(fee.type)
      ? { ...fee, amount: ((BigInt(fee.amount) * swappedShare.swapped) / swappedShare.of).toString() }
      : fee;
  const reportedTypes = new Set(reported.map((fee) => fee.type));
  const quotedTypes = new Set(quoted.map((fee) => fee.type));
  const ofType = (fees: WireFee[], type: string) => fees.filter((fee) => fee.type === type);
  const lines = [...quotedTypes].flatMap((type) =>
    reportedTypes.has(type)
      ? feeItems(ofType(reported, type))
      : feeItems(ofType(quoted, type).map(share), settled || NEVER_REPORTED.has(type) ? 'quoted' : 'pending'),
  );
  return [...lines, ...feeItems(reported.filter((fee) => !quotedTypes.has(fee.type)))];
}

function totalsByCurrency(items: FeeItem[]): Map<string, string> {
  const amounts = new Map<string, string[]>();
  for (const item of items) amounts.set(item.currency, [...(amounts.get(item.currency) ?? []), item.amount]);
  return new Map([...amounts].map(([currency, values]) => [currency, sumDecimals(values)]));
}

/** Chainflip fees come in several assets and without USD, so the display is a per-asset sum. */
export function displayFee(items: FeeItem[]): DisplayFee {
  const totals = [...totalsByCurrency(items)];
  return {
    usd: null,
    formatted: totals.length ? totals.map(([currency, total]) => `${shorten(total)} ${currency}`).join(' + ') : null,
    currency: totals.length === 1 ? (totals[0]?.[0] ?? null) : null,
    details: items,
  };
}

/**
 * The recorded fee: the USDC part (Chainflip's quote asset, where network and broker fees are
 * charged) when present, else the first asset; every line stays in `details`.
 */
export function recordedFee(items: FeeItem[]): StatusResult['fee'] {
  const first = items[0];
  if (!first) return undefined;
  const totals = totalsByCurrency(items);
  const currency = totals.has('USDC') ? 'USDC' : first.currency;
  return { amount: totals.get(currency) ?? '0', currency, amountUsd: null, details: items };
}

function shorten(exact: string, maxFraction = 8): string {
  const [whole, fraction = ''] = exact.split('.');
  const kept = fraction.slice(0, maxFraction).replace(/0+$/, '');
  return kept ? `${whole}.${kept}` : (whole ?? exact);
}

function sumDecimals(values: string[]): string {
  const scale = Math.max(0, ...values.map((v) => v.split('.')[1]?.length ?? 0));
  const total = values.reduce((sum, v) => {
    const [whole, fraction = ''] = v.split('.');
    return sum + BigInt(`${whole}${fraction.padEnd(scale, '0')}`);
  }, 0n);
  return formatUnits(total, scale);
}
