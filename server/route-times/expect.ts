import type { AssetSnapshot } from '../../drizzle/schema/swaps';
import type { AppContext } from '../context';
import { observedFromDeposit, routeTimes } from './times';

/** The tracking-context key of when the provider first saw the deposit arrive (ISO); the route-time trigger reads it. */
export const DEPOSIT_SEEN_KEY = 'depositSeenAt';

export interface Expectation {
  expectedBy: Date;
  lateAt: Date;
}

/** Usually done by `from` + p90; late past `from` + p90 × LATE_FACTOR. */
export const expectationFrom = (from: Date, p90Seconds: number, lateFactor: number): Expectation => ({
  expectedBy: new Date(from.getTime() + p90Seconds * 1000),
  lateAt: new Date(from.getTime() + p90Seconds * lateFactor * 1000),
});

/** At execute: from the p90 the swapper was shown at lock (observed, or the provider's estimate). */
export function expectationAtExecute(
  ctx: Pick<AppContext, 'config'>,
  shown: { p90Seconds: number } | null | undefined,
  at: Date,
): Expectation | null {
  return shown && shown.p90Seconds > 0 ? expectationFrom(at, shown.p90Seconds, ctx.config.routeTimes.lateFactor) : null;
}

interface SwapRoute {
  provider: string;
  srcAsset: AssetSnapshot;
  dstAsset: AssetSnapshot;
}

/** Once the deposit is seen: from the route's observed deposit → final p90, when there are enough swaps to say. */
export async function expectationAfterDeposit(
  ctx: Pick<AppContext, 'sql' | 'config'>,
  swap: SwapRoute,
  seenAt: Date,
): Promise<Expectation | null> {
  const times = await routeTimes(ctx, seenAt);
  const fromDeposit = observedFromDeposit(times, {
    provider: swap.provider,
    srcChain: swap.srcAsset.chain ?? '',
    dstChain: swap.dstAsset.chain ?? '',
    srcAssetId: swap.srcAsset.id,
    dstAssetId: swap.dstAsset.id,
  });
  return fromDeposit ? expectationFrom(seenAt, fromDeposit.p90Seconds, ctx.config.routeTimes.lateFactor) : null;
}
