import { type HistogramCounts, queueDepthSamples } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { addCounts, percentile, QUOTE_LATENCY_MS } from '../rollups/histogram';
import { providerCallRows } from '../rollups/provider-calls';
import { rolledUntil } from '../rollups/watermarks';
import { bucketKey, bucketStarts, HOUR_MS, windowParts } from '../rollups/window';
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

interface ProviderCell {
  bucket: string;
  provider: string;
  calls: string;
  errors: string;
  latency: HistogramCounts;
}

/**
 * Quote calls per (bucket, provider) over whole hours from `since`'s: settled hours from the rollups
 * (whole days from the daily one), the rest from the raw calls.
 */
async function providerCells(ctx: AppContext, since: Date, now: Date, bucket: 'hour' | 'day') {
  const fromHour = new Date(Math.floor(since.getTime() / HOUR_MS) * HOUR_MS);
  const parts = windowParts(fromHour, now, await rolledUntil(ctx, 'provider_calls'), bucket === 'day');
  const sources = [
    ...parts.raw.map((s) => providerCallRows(ctx, bucket, s.from, s.to)),
    ...parts.hours.map(
      (s) => ctx.sql`
        select date_trunc(${bucket}, hour, 'UTC') as bucket, provider, quote_calls as calls, quote_errors as errors,
               quote_latency_ms as latency
        from provider_call_hourly
        where hour >= ${s.from.toISOString()}::timestamptz and hour < ${s.to.toISOString()}::timestamptz`,
    ),
    ...(parts.days
      ? [
          ctx.sql`
            select day as bucket, provider, quote_calls as calls, quote_errors as errors, quote_latency_ms as latency
            from provider_call_daily
            where day >= ${parts.days.from.toISOString()}::timestamptz and day < ${parts.days.to.toISOString()}::timestamptz`,
        ]
      : []),
  ];
  return (await Promise.all(sources)).flat() as unknown as ProviderCell[];
}

/**
 * Provider quote latency (p50, p95) and error rate, and the peak queue depth, per bucket of the
 * range; every bucket is present, with nulls where nothing was recorded.
 */
export async function operationsTrends(ctx: AppContext, { range }: { range: Range }, now = new Date()) {
  const { since, until, bucket } = rangeWindow(range, now);
  const step = `1 ${bucket}`;
  const starts = bucketStarts(new Date(since), now, bucket);
  const [cells, queueRows] = await Promise.all([
    providerCells(ctx, new Date(since), now, bucket),
    ctx.sql<{ bucket: string; queue: string; waiting: number | null; active: number | null; delayed: number | null }[]>`
      with buckets as (
        select generate_series(date_trunc(${bucket}, ${since}::timestamptz, 'UTC'),
                               date_trunc(${bucket}, ${until}::timestamptz, 'UTC'), ${step}::interval) as bucket
      ),
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

  const byProvider = new Map<string, Map<number, { calls: number; errors: number; latency: Map<number, number> }>>();
  for (const c of cells) {
    const points = byProvider.get(c.provider) ?? new Map();
    const key = bucketKey(c.bucket);
    const point = points.get(key) ?? { calls: 0, errors: 0, latency: new Map() };
    point.calls += Number(c.calls);
    point.errors += Number(c.errors);
    addCounts(point.latency, c.latency);
    points.set(key, point);
    byProvider.set(c.provider, points);
  }
  const roundMs = (v: number | null) => (v === null ? null : Math.round(v));
  const providerRows = [...byProvider.keys()].sort().flatMap((provider) =>
    starts.map((b) => {
      const point = byProvider.get(provider)?.get(b.getTime());
      return {
        bucket: b.toISOString(),
        provider,
        calls: point?.calls ?? 0,
        errors: point?.errors ?? 0,
        p50: point ? roundMs(percentile(QUOTE_LATENCY_MS, point.latency, 0.5)) : null,
        p95: point ? roundMs(percentile(QUOTE_LATENCY_MS, point.latency, 0.95)) : null,
      };
    }),
  );

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
      p50Ms: r.p50,
      p95Ms: r.p95,
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
