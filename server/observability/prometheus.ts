import { timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context';
import { QUEUES } from '../tracking/jobs';
import { sharedQueue } from '../tracking/queues';
import { openTransactionStreamCount } from '../transactions/open-streams';
import { providerHealth } from './provider-health';
import {
  providerCircuitOpen,
  providerQuoteErrorRatio,
  queueDepth,
  registry,
  trackingLag,
  transactionStreamsOpen,
  transactionsGauge,
} from './registry';

/** Reads the gauges at scrape time: this process's open status streams, and what Postgres and Redis hold. */
async function collect(ctx: AppContext) {
  transactionStreamsOpen.set(openTransactionStreamCount());
  const [row] = await ctx.sql<{ pending: number; stale: number; lag: number | null }[]>`
    select count(*) filter (where status = 'PENDING')::int as pending,
           count(*) filter (where status = 'PENDING' and stale)::int as stale,
           extract(epoch from now() - min(next_poll_at) filter (where status = 'PENDING' and next_poll_at < now()))::float as lag
    from transactions`;
  transactionsGauge.set({ state: 'pending' }, row?.pending ?? 0);
  transactionsGauge.set({ state: 'stale' }, row?.stale ?? 0);
  trackingLag.set(row?.lag ?? 0);
  for (const name of QUEUES) {
    try {
      const counts = await sharedQueue(ctx, name).getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
      for (const [state, count] of Object.entries(counts)) queueDepth.set({ queue: name, state }, count);
    } catch {
      // Redis down: the gauges keep their last values and the scrape still answers.
    }
  }
  for (const provider of await providerHealth(ctx)) {
    if (!provider.enabled) continue;
    providerCircuitOpen.set({ provider: provider.provider }, provider.breaker === 'closed' ? 0 : 1);
    if (provider.errorRate !== null) providerQuoteErrorRatio.set({ provider: provider.provider }, provider.errorRate);
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
