import type { AppContext } from '../context';
import { histogramKeySql, SECONDS_TO_EXECUTE } from './histogram';
import { rolledUntil, setRolledUntil } from './watermarks';
import { DAY_MS, HOUR_MS } from './window';

/** One run rolls at most this much, so a first run over a long history is a series of bounded runs. */
const MAX_SPAN_MS = 31 * DAY_MS;
const SETTLE_SLACK_MS = 60_000;

/**
 * A lock's outcome is known once it has expired, or its execute claim has been decided or handed
 * back by the sweep: an hour is rolled only when every lock created in it is that old.
 */
export const lockSettleMs = (ctx: Pick<AppContext, 'config'>) =>
  ctx.config.lockTtlMs + ctx.config.worker.executeClaimTimeoutMs + SETTLE_SLACK_MS;

const TTX_KEY = histogramKeySql(SECONDS_TO_EXECUTE, 'greatest(extract(epoch from used_at - created_at), 0)::float8');

/** Per-(bucket, provider) lock counts and time-to-execute histograms of raw rows, as the rollup stores them. */
export function lockActivityRows(
  ctx: Pick<AppContext, 'sql'>,
  bucket: 'hour' | 'day',
  from: Date,
  to: Date,
  now: Date,
) {
  return ctx.sql`
    select bucket, provider, sum(created)::bigint as created, sum(executed)::bigint as executed,
           sum(expired)::bigint as expired,
           coalesce(jsonb_object_agg(ttx, executed) filter (where ttx is not null), '{}'::jsonb) as ttx
    from (
      select date_trunc(${bucket}, created_at, 'UTC') as bucket, provider,
             case when state = 'used' and used_at is not null then ${ctx.sql.unsafe(TTX_KEY)} end as ttx,
             count(*) as created,
             count(*) filter (where state = 'used') as executed,
             count(*) filter (where state = 'locked' and expires_at <= ${now.toISOString()}::timestamptz) as expired
      from locks
      where created_at >= ${from.toISOString()}::timestamptz and created_at < ${to.toISOString()}::timestamptz
      group by 1, 2, 3
    ) cells
    group by 1, 2`;
}

/**
 * Rolls the hours of locks that can no longer change into `lock_activity_hourly`, then the days they
 * touch into `lock_activity_daily`, and moves the watermark, in one transaction.
 */
export async function rollupLockActivity(ctx: Pick<AppContext, 'sql' | 'config'>, now = new Date()) {
  const target = Math.floor((now.getTime() - lockSettleMs(ctx)) / HOUR_MS) * HOUR_MS;
  let from = (await rolledUntil(ctx, 'locks'))?.getTime();
  if (from === undefined) {
    const [first] = await ctx.sql<{ at: string | null }[]>`select min(created_at)::text as at from locks`;
    from = first?.at ? Math.floor(Date.parse(first.at) / HOUR_MS) * HOUR_MS : target;
  }
  const to = Math.min(target, from + MAX_SPAN_MS);
  if (to <= from) {
    if (!(await rolledUntil(ctx, 'locks'))) await setRolledUntil(ctx.sql, 'locks', new Date(from));
    return { hours: 0 };
  }
  const [start, end] = [new Date(from), new Date(to)];
  await ctx.sql.begin(async (tx) => {
    await tx`
      insert into lock_activity_hourly as h (hour, provider, created, executed, expired, seconds_to_execute)
      select bucket, provider, created, executed, expired, ttx
      from (${lockActivityRows(ctx, 'hour', start, end, now)}) rows
      on conflict (hour, provider) do update set created = excluded.created, executed = excluded.executed,
        expired = excluded.expired, seconds_to_execute = excluded.seconds_to_execute`;
    await tx`
      insert into lock_activity_daily as d (day, provider, created, executed, expired, seconds_to_execute)
      select day, provider, sum(created), sum(executed), sum(expired),
             coalesce((select jsonb_object_agg(bucket, n) from (
               select e.key as bucket, sum(e.value::bigint) as n
               from lock_activity_hourly h2, jsonb_each_text(h2.seconds_to_execute) e
               where h2.provider = hours.provider and h2.hour >= hours.day and h2.hour < hours.day + interval '24 hours'
               group by e.key) b), '{}'::jsonb)
      from (select date_trunc('day', hour, 'UTC') as day, * from lock_activity_hourly
            where hour >= date_trunc('day', ${start.toISOString()}::timestamptz, 'UTC')
              and hour < ${end.toISOString()}::timestamptz) hours
      group by day, provider
      on conflict (day, provider) do update set created = excluded.created, executed = excluded.executed,
        expired = excluded.expired, seconds_to_execute = excluded.seconds_to_execute`;
    await setRolledUntil(tx, 'locks', end);
  });
  return { hours: (to - from) / HOUR_MS };
}
