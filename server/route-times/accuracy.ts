import type { AppContext } from '../context';
import { addCounts, percentile, ROUTE_SECONDS } from '../rollups/histogram';
import { windowStart } from './times';

export interface ProviderAccuracy {
  provider: string;
  /** Settled swaps in the window. */
  swaps: number;
  /** Those that were shown our own p90 at lock, and the share of them that finished within it. */
  promised: number;
  keptShare: number | null;
  /** Those shown the provider's estimate instead (too few of our own), and the share that finished within it. */
  estimates: number;
  estimatesKeptShare: number | null;
  /** The median of |actual − shown p50|, in seconds. */
  medianP50ErrorSeconds: number | null;
}

/**
 * Per provider over the route-time window, from the daily rollups: how often the p90 shown when a swap
 * was quoted held (the promise kept; the goal is 90 % or more) and how far off the p50 usually was, for
 * the p90s from our own settled swaps; apart, how often the provider's estimate (shown below the minimum
 * sample) held.
 */
export async function routeTimeAccuracy(
  ctx: Pick<AppContext, 'sql' | 'config'>,
  now = new Date(),
): Promise<ProviderAccuracy[]> {
  const since = windowStart(now, ctx.config.routeTimes.windowDays);
  const rows = await ctx.sql<
    {
      provider: string;
      swaps: string;
      promised: string;
      kept: string;
      estimates: string;
      estimates_kept: string;
      p50_error: Record<string, number>;
    }[]
  >`
    select provider, swaps::text, promised::text, kept::text, estimates::text, estimates_kept::text, p50_error
    from route_time_daily where day >= ${since.toISOString()}::timestamptz`;
  const byProvider = new Map<
    string,
    {
      swaps: number;
      promised: number;
      kept: number;
      estimates: number;
      estimatesKept: number;
      errors: Map<number, number>;
    }
  >();
  for (const row of rows) {
    const sums = byProvider.get(row.provider) ?? {
      swaps: 0,
      promised: 0,
      kept: 0,
      estimates: 0,
      estimatesKept: 0,
      errors: new Map(),
    };
    sums.swaps += Number(row.swaps);
    sums.promised += Number(row.promised);
    sums.kept += Number(row.kept);
    sums.estimates += Number(row.estimates);
    sums.estimatesKept += Number(row.estimates_kept);
    addCounts(sums.errors, row.p50_error);
    byProvider.set(row.provider, sums);
  }
  return [...byProvider]
    .map(([provider, sums]) => ({
      provider,
      swaps: sums.swaps,
      promised: sums.promised,
      keptShare: sums.promised ? sums.kept / sums.promised : null,
      estimates: sums.estimates,
      estimatesKeptShare: sums.estimates ? sums.estimatesKept / sums.estimates : null,
      medianP50ErrorSeconds: percentile(ROUTE_SECONDS, sums.errors, 0.5),
    }))
    .sort((a, b) => b.swaps - a.swaps || a.provider.localeCompare(b.provider));
}
