import type { AppContext } from '../context';
import { rollupLockActivity } from './locks';
import { rollupProviderCalls } from './provider-calls';
import { foldRouteTimeDeltas } from './route-times';
import { foldSwapDeltas } from './swaps';

/** The maintenance job: swap and route-time deltas folded, settled hours of locks and provider calls rolled up. */
export async function rollupActivity(ctx: Pick<AppContext, 'sql' | 'config'>, now = new Date()) {
  const swaps = await foldSwapDeltas(ctx);
  const locks = await rollupLockActivity(ctx, now);
  const providerCalls = await rollupProviderCalls(ctx, now);
  const routeTimes = await foldRouteTimeDeltas(ctx);
  return {
    foldedDeltas: swaps.folded,
    lockHours: locks.hours,
    providerCallHours: providerCalls.hours,
    routeTimes: routeTimes.folded,
  };
}

/** Rolls up everything there is, however far behind: after a load that wrote years of rows at once. */
export async function rollUpEverything(ctx: Pick<AppContext, 'sql' | 'config'>, now = new Date()) {
  while ((await foldSwapDeltas(ctx)).folded > 0);
  while ((await rollupLockActivity(ctx, now)).hours > 0);
  while ((await rollupProviderCalls(ctx, now)).hours > 0);
  while ((await foldRouteTimeDeltas(ctx)).folded > 0);
}
