import type { AppContext } from '../context';
import { rollupLockActivity } from './locks';
import { rollupProviderCalls } from './provider-calls';
import { foldSwapDeltas } from './swaps';

/** The maintenance job: swap deltas folded, settled hours of locks and provider calls rolled up. */
export async function rollupActivity(ctx: Pick<AppContext, 'sql' | 'config'>, now = new Date()) {
  const swaps = await foldSwapDeltas(ctx);
  const locks = await rollupLockActivity(ctx, now);
  const providerCalls = await rollupProviderCalls(ctx, now);
  return { foldedDeltas: swaps.folded, lockHours: locks.hours, providerCallHours: providerCalls.hours };
}
