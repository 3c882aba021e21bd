import type { AppContext } from '../context';
import { type Range, rangeWindow, toDate } from '../schemas/ranges';

/** 429s per bucket and route class, the clients that hit the limits most, and the limits in force. */
export async function rateLimitActivity(ctx: AppContext, { range }: { range: Range }) {
  const { since, until, bucket } = rangeWindow(range);
  const step = `1 ${bucket}`;
  const [rows, topClients] = await Promise.all([
    ctx.sql<{ bucket: string; routeClass: string | null; hits: number }[]>`
      with buckets as (
        select generate_series(date_trunc(${bucket}, ${since}::timestamptz, 'UTC'),
                               date_trunc(${bucket}, ${until}::timestamptz, 'UTC'), ${step}::interval) as bucket
      ),
      hits as (
        select date_trunc(${bucket}, minute, 'UTC') as bucket, route_class, sum(hits)::int as hits
        from rate_limit_hits where minute >= ${since} group by 1, 2
      )
      select b.bucket, h.route_class as "routeClass", coalesce(h.hits, 0) as hits
      from buckets b left join hits h on h.bucket = b.bucket
      order by b.bucket, h.route_class`,
    ctx.sql<{ clientHash: string; hits: number; routeClasses: string[]; lastSeen: string }[]>`
      select client_hash as "clientHash", sum(hits)::int as hits,
             array_agg(distinct route_class order by route_class) as "routeClasses", max(minute) as "lastSeen"
      from rate_limit_hits where minute >= ${since}
      group by client_hash
      order by hits desc, client_hash
      limit 10`,
  ]);

  const routeClasses = [
    ...new Set([
      ...Object.keys(ctx.config.rateLimits.perClient),
      ...rows.flatMap((r) => (r.routeClass ? [r.routeClass] : [])),
    ]),
  ];
  const byBucket = new Map<number, { bucket: Date; total: number; byClass: Record<string, number> }>();
  for (const row of rows) {
    const bucketStart = toDate(row.bucket);
    const key = bucketStart.getTime();
    let point = byBucket.get(key);
    if (!point) {
      point = { bucket: bucketStart, total: 0, byClass: Object.fromEntries(routeClasses.map((c) => [c, 0])) };
      byBucket.set(key, point);
    }
    if (row.routeClass) {
      point.byClass[row.routeClass] = row.hits;
      point.total += row.hits;
    }
  }
  const series = [...byBucket.values()];
  return {
    range,
    bucket,
    routeClasses,
    series,
    total: series.reduce((sum, p) => sum + p.total, 0),
    topClients: topClients.map((c) => ({ ...c, lastSeen: toDate(c.lastSeen) })),
    limits: {
      windowSeconds: ctx.config.rateLimits.windowSeconds,
      perClient: ctx.config.rateLimits.perClient,
    },
  };
}
export type RateLimitActivity = Awaited<ReturnType<typeof rateLimitActivity>>;
