const DECIMAL = /^(\d+)(?:\.(\d+))?$/;
const TWO_POW_128 = 2n ** 128n;

function divideRoundingHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

function parseDecimal(value: string): { digits: bigint; scale: number } {
  const match = DECIMAL.exec(value);
  if (!match) throw new RangeError(`not a plain decimal: ${value}`);
  const fraction = match[2] ?? '';
  return { digits: BigInt(`${match[1]}${fraction}`), scale: fraction.length };
}

/**
 * The fill-or-kill minimum price as the Chainflip SDK derives it (`parseFoKParams` then
 * `getPriceX128FromPrice`): the quoted price less slippage, rounded half-up to the destination
 * asset's decimals, then scaled by 2^128 and by the decimals difference, rounded half-up.
 */
export function minPriceX128(
  estimatedPrice: string,
  slippageBps: number,
  srcDecimals: number,
  destDecimals: number,
): string {
  if (!Number.isInteger(slippageBps) || slippageBps < 0 || slippageBps > 10_000) {
    throw new RangeError(`slippage must be 0..10000 bps, got ${slippageBps}`);
  }
  const { digits, scale } = parseDecimal(estimatedPrice);
  const minPriceInDestUnits = divideRoundingHalfUp(
    digits * BigInt(10_000 - slippageBps) * 10n ** BigInt(destDecimals),
    10n ** BigInt(scale) * 10_000n,
  );
  return divideRoundingHalfUp(minPriceInDestUnits * TWO_POW_128, 10n ** BigInt(srcDecimals)).toString();
}

/** `amount × (10000 − slippageBps) / 10000`, the least a route should deliver. */
export function lessSlippage(amount: bigint, slippageBps: number): bigint {
  return (amount * BigInt(10_000 - slippageBps)) / 10_000n;
}
