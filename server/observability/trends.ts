import { queueDepthSamples } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { type Range, rangeWindow, toDate } from '../schemas/ranges';
import { QUEUES } from '../tracking/jobs';
import { sharedQueue } from '../tracking/queues';

/** Records every queue's job counts now: the operations page charts queue depth from these samples. */
export async function sampleQueueDepths(ctx: AppContext) {
  const sampledAt = new Date();
  const rows = await Promise.all(
    QUEUES.map(async (queue) => {
      const counts = await sharedQueue(ctx, queue).getJobCounts(
        'waiting',
        'prioritized',
        'waiting-children',
        'active',
        'delayed',
        'failed',
      );
      return {
        sampledAt,
        queue,
        waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts['waiting-children'] ?? 0),
        active: counts.active ?? 0,
        delayed: counts.delayed ?? 0,
        failed: counts.failed ?? 0,
      };
    }),
  );
  await ctx.db.insert(queueDepthSamples).values(rows).onConflictDoNothing();
  return { queues: rows.length };
}

type Bucketed<T> = { bucket: Date } & T;

/**
 * Provider quote latency (p50, p95) and error rate, and the peak queue depth, per bucket of the
 * range; every bucket is present, with nulls where nothing was recorded.
 */
export async function operationsTrends(ctx: AppContext, { range }: { range: Range }) {
  const { since, until, bucket } = rangeWindow(range);
  const step = `1 ${bucket}`;
  const buckets = ctx.sql`
    select generate_series(date_trunc(${bucket}, ${since}::timestamptz, 'UTC'),
                           date_trunc(${bucket}, ${until}::timestamptz, 'UTC'), ${step}::interval) as bucket`;
  const [providerRows, queueRows] = await Promise.all([
    ctx.sql<
      { bucket: string; provider: string; calls: number; errors: number; p50: number | null; p95: number | null }[]
    >`
      with buckets as (${buckets}),
      providers as (select distinct provider from provider_calls where stage = 'quote' and created_at >= ${since}),
      calls as (
        select date_trunc(${bucket}, created_at, 'UTC') as bucket, provider,
               count(*)::int as calls,
               count(*) filter (where outcome not in ('ok', 'no_route'))::int as errors,
               percentile_cont(0.5) within group (order by latency_ms) as p50,
               percentile_cont(0.95) within group (order by latency_ms) as p95
        from provider_calls
        where stage = 'quote' and created_at >= ${since}
        group by 1, 2
      )
      select b.bucket, p.provider, coalesce(c.calls, 0) as calls, coalesce(c.errors, 0) as errors, c.p50, c.p95
      from buckets b cross join providers p
      left join calls c on c.bucket = b.bucket and c.provider = p.provider
      order by p.provider, b.bucket`,
    ctx.sql<{ bucket: string; queue: string; waiting: number | null; active: number | null; delayed: number | null }[]>`
      with buckets as (${buckets}),
      samples as (
        select date_trunc(${bucket}, sampled_at, 'UTC') as bucket, queue,
               max(waiting) as waiting, max(active) as active, max(delayed) as delayed
        from queue_depth_samples
        where sampled_at >= ${since}
        group by 1, 2
      )
      select b.bucket, q.queue, s.waiting, s.active, s.delayed
      from buckets b cross join unnest(${ctx.sql.array([...QUEUES])}::text[]) as q(queue)
      left join samples s on s.bucket = b.bucket and s.queue = q.queue
      order by q.queue, b.bucket`,
  ]);

  const providers = new Map<
    string,
    Bucketed<{ calls: number; errorRate: number | null; p50Ms: number | null; p95Ms: number | null }>[]
  >();
  for (const r of providerRows) {
    const points = providers.get(r.provider) ?? [];
    points.push({
      bucket: toDate(r.bucket),
      calls: r.calls,
      errorRate: r.calls > 0 ? r.errors / r.calls : null,
      p50Ms: r.p50 === null ? null : Math.round(r.p50),
      p95Ms: r.p95 === null ? null : Math.round(r.p95),
    });
    providers.set(r.provider, points);
  }
  const queues = new Map<
    string,
    Bucketed<{ waiting: number | null; active: number | null; delayed: number | null }>[]
  >();
  for (const r of queueRows) {
    const points = queues.get(r.queue) ?? [];
    points.push({ bucket: toDate(r.bucket), waiting: r.waiting, active: r.active, delayed: r.delayed });
    queues.set(r.queue, points);
  }
  return {
    range,
    bucket,
    providers: [...providers].map(([provider, points]) => ({ provider, points })),
    queues: [...queues].map(([queue, points]) => ({ queue, points })),
  };
}
export type OperationsTrends = Awaited<ReturnType<typeof operationsTrends>>;
