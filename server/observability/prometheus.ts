import { timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AppContext } from '../context';
import { createQueue } from '../tracking/queues';

/** One registry per process; every web and API instance is scraped on its own. */
export const registry = new Registry();

export const httpRequests = new Counter({
  name: 'switchyard_http_requests_total',
  help: 'Public API requests by route, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'switchyard_http_request_duration_seconds',
  help: 'Public API latency by route',
  labelNames: ['route', 'method'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const providerDuration = new Histogram({
  name: 'switchyard_provider_call_duration_seconds',
  help: 'Upstream provider calls by provider, stage and outcome',
  labelNames: ['provider', 'stage', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 2.5, 5, 10],
  registers: [registry],
});

export const providerErrors = new Counter({
  name: 'switchyard_provider_errors_total',
  help: 'Upstream provider failures by provider and stage',
  labelNames: ['provider', 'stage'] as const,
  registers: [registry],
});

const queueDepth = new Gauge({
  name: 'switchyard_queue_jobs',
  help: 'BullMQ jobs by queue and state',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
});
const trackingLag = new Gauge({
  name: 'switchyard_tracking_lag_seconds',
  help: 'Age of the most overdue status poll (0 when none is overdue)',
  registers: [registry],
});
const transactionsGauge = new Gauge({
  name: 'switchyard_transactions',
  help: 'Transactions still pending, and those flagged stale',
  labelNames: ['state'] as const,
  registers: [registry],
});

/** Reads the gauges that come from Postgres and Redis at scrape time. */
async function collect(ctx: AppContext) {
  const [row] = await ctx.sql<{ pending: number; stale: number; lag: number | null }[]>`
    select count(*) filter (where status = 'PENDING')::int as pending,
           count(*) filter (where status = 'PENDING' and stale)::int as stale,
           extract(epoch from now() - min(next_poll_at) filter (where status = 'PENDING' and next_poll_at < now()))::float as lag
    from transactions`;
  transactionsGauge.set({ state: 'pending' }, row?.pending ?? 0);
  transactionsGauge.set({ state: 'stale' }, row?.stale ?? 0);
  trackingLag.set(row?.lag ?? 0);
  for (const name of ['tracking', 'maintenance'] as const) {
    const queue = createQueue(name, ctx.redis, ctx.config.redisPrefix);
    try {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
      for (const [state, count] of Object.entries(counts)) queueDepth.set({ queue: name, state }, count);
    } catch {
      // Redis down: the gauges keep their last values and the scrape still answers.
    } finally {
      await queue.close().catch(() => {});
    }
  }
}

function authorized(request: Request, token: string): boolean {
  const given = request.headers.get('authorization')?.replace(/^Bearer\s+/i, '') ?? '';
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `GET /api/metrics`: Prometheus text format behind a bearer token; absent without a token configured. */
export async function handleMetrics(ctx: AppContext, request: Request): Promise<Response> {
  const token = ctx.config.metricsToken;
  if (!token) return new Response('Not found\n', { status: 404 });
  if (!authorized(request, token)) {
    return new Response('Unauthorized\n', { status: 401, headers: { 'www-authenticate': 'Bearer realm="metrics"' } });
  }
  await collect(ctx).catch((error) => ctx.log.warn({ err: error }, 'metrics collection incomplete'));
  return new Response(await registry.metrics(), { headers: { 'content-type': registry.contentType } });
}
