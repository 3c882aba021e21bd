import type { AppContext } from '../context';
import { rebuildRouteTimes } from '../rollups/route-times';
import { expectationFrom } from './expect';
import { observedTime, readRouteTimes, windowStart } from './times';

interface PendingRoute {
  provider: string;
  src_chain: string;
  dst_chain: string;
  src_asset_id: number;
  dst_asset_id: number;
}

/**
 * Route times for swaps that never passed through the settle trigger (loaded already settled, or settled
 * before it existed): the window's days rebuilt from the settled swaps, then every pending swap without
 * an expected-by time given one from its route's observed p90, counted from its execute as at execute.
 * Idempotent: the days are rebuilt, and swaps that have an expectation keep it.
 */
export async function backfillRouteTimes(ctx: Pick<AppContext, 'sql' | 'config'>, now = new Date()) {
  const { swaps: settled } = await rebuildRouteTimes(ctx, windowStart(now, ctx.config.routeTimes.windowDays));
  const times = await readRouteTimes(ctx, now);
  const routes = await ctx.sql<PendingRoute[]>`
    select provider, src_chain, dst_chain, coalesce(src_asset_id, 0) as src_asset_id,
           coalesce(dst_asset_id, 0) as dst_asset_id
    from transactions where status = 'PENDING' and expected_by is null group by 1, 2, 3, 4, 5`;
  let expected = 0;
  for (const route of routes) {
    const observed = observedTime(
      times,
      {
        provider: route.provider,
        srcChain: route.src_chain,
        dstChain: route.dst_chain,
        srcAssetId: route.src_asset_id,
        dstAssetId: route.dst_asset_id,
      },
      0,
    );
    if (!observed) continue;
    // The offsets from one instant give each swap's offsets from its own created_at.
    const { expectedBy, lateAt } = expectationFrom(new Date(0), observed.p90Seconds, ctx.config.routeTimes.lateFactor);
    const updated = await ctx.sql`
      update transactions
      set expected_by = created_at + ${expectedBy.getTime()} * interval '1 millisecond',
          late_at = created_at + ${lateAt.getTime()} * interval '1 millisecond'
      where status = 'PENDING' and expected_by is null and provider = ${route.provider}
        and src_chain = ${route.src_chain} and dst_chain = ${route.dst_chain}
        and coalesce(src_asset_id, 0) = ${route.src_asset_id} and coalesce(dst_asset_id, 0) = ${route.dst_asset_id}`;
    expected += updated.count;
  }
  return { settled, expected };
}
