import type { AppContext } from '../context';
import { histogramKeySql, ROUTE_SECONDS } from './histogram';

const FOLD_BATCH = 20_000;
const MAX_BATCHES_PER_RUN = 50;

const CELL = 'day, provider, src_chain, dst_chain, src_asset_id, dst_asset_id';
const key = (value: string) => histogramKeySql(ROUTE_SECONDS, value);

/** One histogram per cell of the taken deltas: `value` (trusted SQL) counted where `filter` holds. */
const histogramOf = (value: string, filter: string) => `
  select ${CELL}, jsonb_object_agg(bucket, n) as h from (
    select ${CELL}, ${key(value)} as bucket, count(*) as n from taken where ${filter} group by ${CELL}, 7
  ) b group by ${CELL}`;

/**
 * Moves the recorded route-time deltas into `route_time_daily`, a batch per statement, as the swap
 * deltas are folded: a batch is deleted and added in one statement, concurrent runs take disjoint ones.
 */
export async function foldRouteTimeDeltas(ctx: Pick<AppContext, 'sql'>): Promise<{ folded: number }> {
  let folded = 0;
  const statement = `
    with taken as (
      delete from route_time_deltas where id in (
        select id from route_time_deltas order by id limit ${FOLD_BATCH} for update skip locked)
      returning *
    ),
    cells as (
      select ${CELL}, count(*) as swaps, count(shown_p90_seconds) as promised,
             count(*) filter (where execute_seconds <= shown_p90_seconds) as kept,
             count(estimate_seconds) as estimates,
             count(*) filter (where execute_seconds <= estimate_seconds) as estimates_kept
      from taken group by ${CELL}
    ),
    ex as (${histogramOf('execute_seconds', 'true')}),
    dep as (${histogramOf('deposit_seconds', 'deposit_seconds is not null')}),
    err as (${histogramOf('abs(execute_seconds - shown_p50_seconds)', 'shown_p50_seconds is not null')}),
    added as (
      insert into route_time_daily as r (${CELL}, swaps, execute_to_final, deposit_to_final, promised, kept, p50_error,
        estimates, estimates_kept)
      select ${CELL}, swaps, coalesce(ex.h, '{}'), coalesce(dep.h, '{}'), promised, kept, coalesce(err.h, '{}'),
        estimates, estimates_kept
      from cells left join ex using (${CELL}) left join dep using (${CELL}) left join err using (${CELL})
      on conflict (${CELL}) do update set swaps = r.swaps + excluded.swaps,
        execute_to_final = histogram_add(r.execute_to_final, excluded.execute_to_final),
        deposit_to_final = histogram_add(r.deposit_to_final, excluded.deposit_to_final),
        promised = r.promised + excluded.promised, kept = r.kept + excluded.kept,
        p50_error = histogram_add(r.p50_error, excluded.p50_error),
        estimates = r.estimates + excluded.estimates, estimates_kept = r.estimates_kept + excluded.estimates_kept
    )
    select count(*)::int as n from taken`;
  for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
    const [row] = await ctx.sql.unsafe<{ n: number }[]>(statement);
    const n = row?.n ?? 0;
    folded += n;
    if (n < FOLD_BATCH) break;
  }
  return { folded };
}

/**
 * Records the route times of swaps that settled without passing through the settle trigger — loaded
 * already settled (the demo dataset), or settled before the trigger existed — for the days from
 * `since`, then folds them. Rebuilds those days: their deltas and daily rows are replaced, under a lock
 * that holds back the trigger's inserts meanwhile, so a run can be repeated and never counts a swap twice.
 * The delta is the one `record_route_time_delta` (migrations 0019 and 0025) writes.
 */
export async function rebuildRouteTimes(ctx: Pick<AppContext, 'sql'>, since: Date): Promise<{ swaps: number }> {
  const day = new Date(Date.UTC(since.getUTCFullYear(), since.getUTCMonth(), since.getUTCDate())).toISOString();
  const swaps = await ctx.sql.begin(async (sql) => {
    await sql`lock table route_time_deltas in share row exclusive mode`;
    await sql`delete from route_time_deltas where day >= ${day}::timestamptz`;
    await sql`delete from route_time_daily where day >= ${day}::timestamptz`;
    const inserted = await sql`
      insert into route_time_deltas (day, provider, src_chain, dst_chain, src_asset_id, dst_asset_id,
        execute_seconds, deposit_seconds, shown_p50_seconds, shown_p90_seconds, estimate_seconds)
      select date_trunc('day', finalized_at, 'UTC'), provider, src_chain, dst_chain,
        coalesce(src_asset_id, 0), coalesce(dst_asset_id, 0),
        greatest(extract(epoch from finalized_at - created_at), 0),
        greatest(extract(epoch from finalized_at - (tracking_context->>'depositSeenAt')::timestamptz), 0),
        case when ours then (shown->>'p50Seconds')::double precision end,
        case when ours then (shown->>'p90Seconds')::double precision end,
        case when not ours then (shown->>'p90Seconds')::double precision end
      from transactions,
        lateral (select quote->'observedTime' as shown) s,
        lateral (select shown->>'source' is distinct from 'provider' as ours) o
      where status = 'SUCCESS' and finalized_at >= ${day}::timestamptz`;
    return inserted.count;
  });
  while ((await foldRouteTimeDeltas(ctx)).folded > 0);
  return { swaps };
}
