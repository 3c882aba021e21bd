import { timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context';
import { checkReadiness } from '../health';
import { QUEUES, SCHEDULE_IDS, SCHEDULES } from '../tracking/jobs';
import { sharedQueue } from '../tracking/queues';
import { openTransactionStreamCount } from '../transactions/open-streams';
import { providerHealth } from './provider-health';
import {
  dependencyUp,
  lateSwaps,
  maintenanceInterval,
  maintenanceLastSuccess,
  providerCircuitOpen,
  providerQuoteErrorRatio,
  queueDepth,
  queueWorkers,
  readyGauge,
  registry,
  replicaLag,
  trackingLag,
  transactionStreamsOpen,
  transactionsGauge,
  webhookEndpoints,
  webhookFailingSeconds,
} from './registry';

async function collectReadiness(ctx: AppContext) {
  const readiness = await checkReadiness(ctx);
  readyGauge.set(readiness.ok ? 1 : 0);
  for (const [dependency, check] of Object.entries(readiness.checks))
    dependencyUp.set({ dependency }, check.ok ? 1 : 0);
  if (readiness.checks.replica) replicaLag.set(readiness.checks.replica.lagSeconds ?? -1);
}

/** Pending swaps only (the status index bounds the read to those in flight, not the whole ledger). */
async function collectTransactions(ctx: AppContext) {
  const [row] = await ctx.sql<{ pending: number; stale: number; lag: number | null }[]>`
    select count(*)::int as pending,
           count(*) filter (where stale)::int as stale,
           extract(epoch from now() - min(next_poll_at) filter (where next_poll_at < now()))::float as lag
    from transactions
    where status = 'PENDING'`;
  transactionsGauge.set({ state: 'pending' }, row?.pending ?? 0);
  transactionsGauge.set({ state: 'stale' }, row?.stale ?? 0);
  trackingLag.set(row?.lag ?? 0);
  // Through the late index: only pending swaps that have a late time are read.
  const late = await ctx.sql<{ provider: string; late: number }[]>`
    select provider, count(*)::int as late from transactions
    where status = 'PENDING' and late_at is not null and late_at <= now() group by provider`;
  lateSwaps.reset();
  for (const provider of ctx.providers.list().map((a) => a.key)) lateSwaps.set({ provider }, 0);
  for (const { provider, late: n } of late) lateSwaps.set({ provider }, n);
}

async function collectQueues(ctx: AppContext) {
  await Promise.all(
    QUEUES.map(async (name) => {
      const queue = sharedQueue(ctx, name);
      const [counts, workers] = await Promise.all([
        queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed'),
        queue.getWorkersCount(),
      ]);
      for (const [state, count] of Object.entries(counts)) queueDepth.set({ queue: name, state }, count);
      queueWorkers.set({ queue: name }, workers);
    }),
  );
}

/** One row per scheduled job (`maintenance_runs` is keyed by job name). */
async function collectMaintenance(ctx: AppContext) {
  const runs = await ctx.sql<{ job: string; succeeded: number | null }[]>`
    select job, extract(epoch from last_succeeded_at)::float as succeeded from maintenance_runs`;
  for (const id of SCHEDULE_IDS) {
    const { job, everyMs } = SCHEDULES[id];
    maintenanceInterval.set({ task: job }, everyMs(ctx.config) / 1000);
    maintenanceLastSuccess.set({ task: job }, runs.find((r) => r.job === job)?.succeeded ?? 0);
  }
}

/** Endpoints are few (WEBHOOK_MAX_ENDPOINTS_PER_OWNER each). */
async function collectWebhooks(ctx: AppContext) {
  const [row] = await ctx.sql<{ enabled: number; failing: number; disabled: number; failingFor: number | null }[]>`
    select count(*) filter (where enabled)::int as enabled,
           count(*) filter (where enabled and failing_since is not null)::int as failing,
           count(*) filter (where not enabled)::int as disabled,
           extract(epoch from now() - min(failing_since) filter (where enabled))::float as "failingFor"
    from webhook_endpoints`;
  webhookEndpoints.set({ state: 'enabled' }, row?.enabled ?? 0);
  webhookEndpoints.set({ state: 'failing' }, row?.failing ?? 0);
  webhookEndpoints.set({ state: 'disabled' }, row?.disabled ?? 0);
  webhookFailingSeconds.set(row?.failingFor ?? 0);
}

async function collectProviders(ctx: AppContext) {
  for (const provider of await providerHealth(ctx)) {
    if (!provider.enabled) continue;
    providerCircuitOpen.set({ provider: provider.provider }, provider.breaker === 'closed' ? 0 : 1);
    if (provider.errorRate !== null) providerQuoteErrorRatio.set({ provider: provider.provider }, provider.errorRate);
  }
}

/**
 * Reads the gauges at scrape time: this process's open status streams and readiness, and what
 * Postgres and Redis hold. Each part stands alone: with Postgres or Redis down, the parts that need
 * it keep their last values, the rest (readiness first) are current, and the scrape still answers.
 */
async function collect(ctx: AppContext) {
  transactionStreamsOpen.set(openTransactionStreamCount());
  const parts = [
    collectReadiness,
    collectTransactions,
    collectQueues,
    collectMaintenance,
    collectWebhooks,
    collectProviders,
  ];
  const results = await Promise.allSettled(parts.map((part) => part(ctx)));
  const failed = results.flatMap((r, i) => (r.status === 'rejected' ? [{ part: parts[i]?.name, err: r.reason }] : []));
  if (failed.length)
    ctx.log.warn({ failed: failed.map((f) => f.part), err: failed[0]?.err }, 'metrics collection incomplete');
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
  await collect(ctx);
  return new Response(await registry.metrics(), { headers: { 'content-type': registry.contentType } });
}
