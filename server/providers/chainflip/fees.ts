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
export function feeItems(fees: WireFee[]): FeeItem[] {
  return fees.flatMap((fee) => {
    const decimals = chainflipDecimals(fee);
    const amount = BigInt(fee.amount);
    if (decimals === undefined || amount === 0n) return [];
    const kind = FEE_KINDS[fee.type] ?? { label: `${fee.type.toLowerCase()} fee`, type: 'other' as const };
    return [{ ...kind, amount: formatUnits(amount, decimals), amountUsd: null, currency: fee.asset }];
  });
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
