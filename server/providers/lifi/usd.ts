const MICROS = 6;
const USD = /^\d+(\.\d+)?$/;

/** LI.FI's `amountUSD` strings ("0.0151") as integer micro-dollars; null when absent or not a plain decimal. */
export function usdMicros(usd: string | undefined): bigint | null {
  if (!usd || !USD.test(usd)) return null;
  const [whole, frac = ''] = usd.split('.');
  return BigInt(whole + frac.slice(0, MICROS).padEnd(MICROS, '0'));
}

/** Micro-dollars as a cents string, rounded half up ("12.35"). */
export function formatUsd(micros: bigint): string {
  const cents = (micros + 5_000n) / 10_000n;
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}

/** Sum of the priced amounts, or null when none carries a USD value. */
export function sumUsd(values: (string | undefined)[]): string | null {
  const priced = values.map(usdMicros).filter((v): v is bigint => v !== null);
  return priced.length ? formatUsd(priced.reduce((sum, v) => sum + v, 0n)) : null;
}

export const usdNumber = (usd: string | undefined): number | null => {
  const micros = usdMicros(usd);
  return micros === null ? null : Number(micros) / 10 ** MICROS;
};
