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
             count(*) filter (where execute_seconds <= shown_p90_seconds) as kept
      from taken group by ${CELL}
    ),
    ex as (${histogramOf('execute_seconds', 'true')}),
    dep as (${histogramOf('deposit_seconds', 'deposit_seconds is not null')}),
    err as (${histogramOf('abs(execute_seconds - shown_p50_seconds)', 'shown_p50_seconds is not null')}),
    added as (
      insert into route_time_daily as r (${CELL}, swaps, execute_to_final, deposit_to_final, promised, kept, p50_error)
      select ${CELL}, swaps, coalesce(ex.h, '{}'), coalesce(dep.h, '{}'), promised, kept, coalesce(err.h, '{}')
      from cells left join ex using (${CELL}) left join dep using (${CELL}) left join err using (${CELL})
      on conflict (${CELL}) do update set swaps = r.swaps + excluded.swaps,
        execute_to_final = histogram_add(r.execute_to_final, excluded.execute_to_final),
        deposit_to_final = histogram_add(r.deposit_to_final, excluded.deposit_to_final),
        promised = r.promised + excluded.promised, kept = r.kept + excluded.kept,
        p50_error = histogram_add(r.p50_error, excluded.p50_error)
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
