import type { AppContext } from '../context';
import { QUOTE_LATENCY_MS } from './histogram';
import { rolledUntil, setRolledUntil } from './watermarks';
import { DAY_MS, HOUR_MS } from './window';

const MAX_SPAN_MS = 31 * DAY_MS;
/** Calls are buffered a couple of seconds before they are written (provider-metrics.ts). */
const SETTLE_MS = 60_000;

/** Quote calls, errors and a latency histogram per (bucket, provider) of raw calls, as the rollup stores them. */
export function providerCallRows(ctx: Pick<AppContext, 'sql'>, bucket: 'hour' | 'day', from: Date, to: Date) {
  return ctx.sql`
    select bucket, provider, sum(calls)::bigint as calls, sum(errors)::bigint as errors,
           coalesce(jsonb_object_agg(latency, timed) filter (where latency is not null), '{}'::jsonb) as latency
    from (
      select date_trunc(${bucket}, created_at, 'UTC') as bucket, provider,
             width_bucket(greatest(latency_ms, 0)::float8, ${`{${QUOTE_LATENCY_MS.bounds.join(',')}}`}::float8[]) as latency,
             count(*) as calls,
             count(*) filter (where outcome not in ('ok', 'no_route')) as errors,
             count(latency_ms) as timed
      from provider_calls
      where stage = 'quote' and created_at >= ${from.toISOString()}::timestamptz
        and created_at < ${to.toISOString()}::timestamptz
      group by 1, 2, 3
    ) cells
    group by 1, 2`;
}

/** Rolls closed hours of quote calls into `provider_call_hourly` and their days into `provider_call_daily`. */
export async function rollupProviderCalls(ctx: Pick<AppContext, 'sql'>, now = new Date()) {
  const target = Math.floor((now.getTime() - SETTLE_MS) / HOUR_MS) * HOUR_MS;
  let from = (await rolledUntil(ctx, 'provider_calls'))?.getTime();
  if (from === undefined) {
    const [first] = await ctx.sql<{ at: string | null }[]>`select min(created_at)::text as at from provider_calls`;
    from = first?.at ? Math.floor(Date.parse(first.at) / HOUR_MS) * HOUR_MS : target;
  }
  const to = Math.min(target, from + MAX_SPAN_MS);
  if (to <= from) {
    if (!(await rolledUntil(ctx, 'provider_calls'))) await setRolledUntil(ctx.sql, 'provider_calls', new Date(from));
    return { hours: 0 };
  }
  const [start, end] = [new Date(from), new Date(to)];
  await ctx.sql.begin(async (tx) => {
    await tx`
      insert into provider_call_hourly as h (hour, provider, quote_calls, quote_errors, quote_latency_ms)
      select bucket, provider, calls, errors, latency from (${providerCallRows(ctx, 'hour', start, end)}) rows
      on conflict (hour, provider) do update set quote_calls = excluded.quote_calls,
        quote_errors = excluded.quote_errors, quote_latency_ms = excluded.quote_latency_ms`;
    await tx`
      insert into provider_call_daily as d (day, provider, quote_calls, quote_errors, quote_latency_ms)
      select day, provider, sum(quote_calls), sum(quote_errors),
             coalesce((select jsonb_object_agg(bucket, n) from (
               select e.key as bucket, sum(e.value::bigint) as n
               from provider_call_hourly h2, jsonb_each_text(h2.quote_latency_ms) e
               where h2.provider = hours.provider and h2.hour >= hours.day and h2.hour < hours.day + interval '24 hours'
               group by e.key) b), '{}'::jsonb)
      from (select date_trunc('day', hour, 'UTC') as day, * from provider_call_hourly
            where hour >= date_trunc('day', ${start.toISOString()}::timestamptz, 'UTC')
              and hour < ${end.toISOString()}::timestamptz) hours
      group by day, provider
      on conflict (day, provider) do update set quote_calls = excluded.quote_calls,
        quote_errors = excluded.quote_errors, quote_latency_ms = excluded.quote_latency_ms`;
    await setRolledUntil(tx, 'provider_calls', end);
  });
  return { hours: (to - from) / HOUR_MS };
}
