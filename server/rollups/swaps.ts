import type postgres from 'postgres';
import type { AppContext } from '../context';

const FOLD_BATCH = 50_000;
/** One run folds at most this many deltas; a backlog (a migration's backfill) takes several runs. */
const MAX_BATCHES_PER_RUN = 200;

/**
 * Moves the recorded swap deltas into the rollups, a batch per statement: the batch is deleted and
 * added to every rollup in one statement, so a reader (totals plus unfolded deltas, one snapshot)
 * never counts a delta twice or misses one. Concurrent runs take disjoint batches.
 */
export async function foldSwapDeltas(ctx: Pick<AppContext, 'sql'>): Promise<{ folded: number }> {
  let folded = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
    const [row] = await ctx.sql<{ n: number }[]>`
      with taken as (
        delete from swap_rollup_deltas where id in (
          select id from swap_rollup_deltas order by id limit ${FOLD_BATCH} for update skip locked)
        returning *
      ),
      counts as (
        insert into swap_counts as c (provider, src_asset_id, dst_asset_id, status, swaps)
        select provider, src_asset_id, dst_asset_id, status, sum(swaps) from taken group by 1, 2, 3, 4
        on conflict (provider, src_asset_id, dst_asset_id, status) do update set swaps = c.swaps + excluded.swaps
      ),
      referral as (
        insert into referral_swap_counts as c (referral_code, provider, src_asset_id, dst_asset_id, status, swaps)
        select referral_code, provider, src_asset_id, dst_asset_id, status, sum(swaps)
        from taken where referral_code is not null group by 1, 2, 3, 4, 5
        on conflict (referral_code, provider, src_asset_id, dst_asset_id, status)
        do update set swaps = c.swaps + excluded.swaps
      ),
      pairs as (
        insert into wallet_pair_counts as c (wallet_key, recipient_wallet_key, status, swaps)
        select wallet_key, recipient_wallet_key, status, sum(swaps)
        from taken where wallet_key is not null and recipient_wallet_key is not null group by 1, 2, 3
        on conflict (wallet_key, recipient_wallet_key, status) do update set swaps = c.swaps + excluded.swaps
      ),
      wallets as (
        insert into wallet_counts as c (wallet_key, status, swaps)
        select side.wallet_key, status, sum(swaps)
        from taken cross join lateral (values (taken.wallet_key), (nullif(recipient_wallet_key, taken.wallet_key))) side(wallet_key)
        where taken.wallet_key is not null and recipient_wallet_key is not null and side.wallet_key is not null
        group by 1, 2
        on conflict (wallet_key, status) do update set swaps = c.swaps + excluded.swaps
      ),
      hourly as (
        insert into swap_hourly as c (hour, provider, status, swaps, volume_usd, fees_usd)
        select hour, provider, status, sum(swaps), sum(volume_usd), sum(fees_usd) from taken group by 1, 2, 3
        on conflict (hour, provider, status) do update set swaps = c.swaps + excluded.swaps,
          volume_usd = c.volume_usd + excluded.volume_usd, fees_usd = c.fees_usd + excluded.fees_usd
      ),
      credited as (
        select hour, referral_code, referral_owner_id, swaps,
               case when status = 'SUCCESS' then swaps else 0 end as succeeded,
               case when status <> 'PENDING' then swaps else 0 end as finished,
               volume_usd, fees_usd
        from taken where referral_owner_id is not null and referral_code is not null
      ),
      affiliate_hours as (
        insert into affiliate_hourly as c (hour, referral_code, referral_owner_id, swaps, succeeded, finished, volume_usd, fees_usd)
        select hour, referral_code, referral_owner_id, sum(swaps), sum(succeeded), sum(finished), sum(volume_usd), sum(fees_usd)
        from credited group by 1, 2, 3
        on conflict (hour, referral_code, referral_owner_id) do update set swaps = c.swaps + excluded.swaps,
          succeeded = c.succeeded + excluded.succeeded, finished = c.finished + excluded.finished,
          volume_usd = c.volume_usd + excluded.volume_usd, fees_usd = c.fees_usd + excluded.fees_usd
      ),
      affiliate_days as (
        insert into affiliate_daily as c (day, referral_code, referral_owner_id, swaps, succeeded, finished, volume_usd, fees_usd)
        select date_trunc('day', hour, 'UTC'), referral_code, referral_owner_id, sum(swaps), sum(succeeded), sum(finished),
               sum(volume_usd), sum(fees_usd)
        from credited group by 1, 2, 3
        on conflict (day, referral_code, referral_owner_id) do update set swaps = c.swaps + excluded.swaps,
          succeeded = c.succeeded + excluded.succeeded, finished = c.finished + excluded.finished,
          volume_usd = c.volume_usd + excluded.volume_usd, fees_usd = c.fees_usd + excluded.fees_usd
      )
      select count(*)::int as n from taken`;
    const n = row?.n ?? 0;
    folded += n;
    if (n < FOLD_BATCH) break;
  }
  // A backlog (a backfill, a worker that was down) leaves the table bloated; readers scan all of it.
  if (folded >= FOLD_BATCH) await ctx.sql`vacuum (analyze) swap_rollup_deltas`;
  return { folded };
}

/**
 * Records every swap already in `transactions` as deltas, one per cell: what the migration did for
 * the swaps that were there, for loads that bypass the trigger (bulk loads with triggers off).
 */
export async function recordExistingSwaps(sql: postgres.Sql | postgres.TransactionSql): Promise<void> {
  await sql`
    insert into swap_rollup_deltas (hour, provider, src_asset_id, dst_asset_id, status, referral_code,
      referral_owner_id, wallet_key, recipient_wallet_key, swaps, volume_usd, fees_usd)
    select date_trunc('hour', created_at, 'UTC'), provider, coalesce(src_asset_id, 0), coalesce(dst_asset_id, 0),
      status, referral_code, referral_owner_id, wallet_key, recipient_wallet_key, count(*),
      coalesce(sum(amount_usd) filter (where status = 'SUCCESS'), 0),
      coalesce(sum(fee_usd) filter (where status = 'SUCCESS'), 0)
    from transactions
    group by 1, 2, 3, 4, 5, 6, 7, 8, 9`;
}
