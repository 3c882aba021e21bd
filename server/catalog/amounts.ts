import { formatUnits, parseUnits } from 'viem';

export type AmountProblem = 'not_a_number' | 'not_positive' | 'too_many_decimals' | 'too_large';

const DECIMAL = /^\d+(\.\d+)?$/;
const MAX_BASE_UNITS = 2n ** 256n - 1n;

/** What is wrong with an amount whatever its asset: not a plain decimal, or not above zero. */
export function amountShapeProblem(amount: string): 'not_a_number' | 'not_positive' | null {
  if (!DECIMAL.test(amount) || amount.length > 100) return 'not_a_number';
  return /[1-9]/.test(amount) ? null : 'not_positive';
}

/** Human decimal string → base units, refusing signs, exponents, zero and excess precision. */
export function parseAmount(
  amount: string,
  decimals: number,
): { ok: true; base: bigint } | { ok: false; problem: AmountProblem } {
  const shape = amountShapeProblem(amount);
  if (shape) return { ok: false, problem: shape };
  const fraction = amount.split('.')[1] ?? '';
  if (fraction.length > decimals) return { ok: false, problem: 'too_many_decimals' };
  const base = parseUnits(amount, decimals);
  if (base > MAX_BASE_UNITS) return { ok: false, problem: 'too_large' };
  return { ok: true, base };
}

/** Base units → the shortest exact human string ("1.5", not "1.500000"). */
export function formatAmount(base: bigint, decimals: number): string {
  return formatUnits(base, decimals);
}

const PRICE_SCALE = 18;

/** USD value of a base amount at a decimal price, exactly, rounded to cents. Null without a price. */
export function usdValue(base: bigint, decimals: number, priceUsd: string | null | undefined): string | null {
  if (!priceUsd || !DECIMAL.test(priceUsd)) return null;
  const [whole, frac = ''] = priceUsd.split('.');
  const priceScaled = BigInt(whole + frac.slice(0, PRICE_SCALE).padEnd(PRICE_SCALE, '0'));
  const cents =
    (base * priceScaled * 100n + 10n ** BigInt(decimals + PRICE_SCALE) / 2n) / 10n ** BigInt(decimals + PRICE_SCALE);
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** Rescales base units between two decimal precisions, truncating (e.g. to THORChain's 1e8). */
export function rescale(base: bigint, from: number, to: number): bigint {
  if (from === to) return base;
  return from > to ? base / 10n ** BigInt(from - to) : base * 10n ** BigInt(to - from);
}

export function formatDisplay(base: bigint, decimals: number, symbol: string, maxFraction = 8): string {
  const exact = formatAmount(base, decimals);
  const [whole, frac] = exact.split('.');
  const trimmed = frac ? frac.slice(0, maxFraction).replace(/0+$/, '') : '';
  return `${trimmed ? `${whole}.${trimmed}` : whole} ${symbol}`;
}
