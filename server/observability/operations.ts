import { and, asc, eq } from 'drizzle-orm';
import { maintenanceRuns, transactions } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { HOUR_MS, windowParts } from '../rollups/window';
import { routeTimeAccuracy } from '../route-times/accuracy';
import { JOBS, QUEUES, SCHEDULE_IDS, SCHEDULES } from '../tracking/jobs';
import { sharedQueue } from '../tracking/queues';
import { presentTransactionSummary } from '../transactions/search';
import { providerHealth } from './provider-health';

const JOB_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'failed', 'completed'] as const;

/** Job counts and the latest failures per queue; an unreachable Redis marks the queue unavailable instead of failing the page. */
async function queueDepths(ctx: AppContext) {
  return Promise.all(
    QUEUES.map(async (name) => {
      const queue = sharedQueue(ctx, name);
      try {
        const [counts, failed] = await Promise.all([queue.getJobCounts(...JOB_STATES), queue.getFailed(0, 4)]);
        return {
          name,
          available: true as const,
          counts: Object.fromEntries(JOB_STATES.map((s) => [s, counts[s] ?? 0])) as Record<
            (typeof JOB_STATES)[number],
            number
          >,
          recentFailures: failed.map((job) => ({
            id: job.id ?? null,
            name: job.name,
            reason: job.failedReason ?? null,
            failedAt: job.finishedOn ? new Date(job.finishedOn) : null,
          })),
        };
      } catch (error) {
        ctx.log.warn({ err: error, queue: name }, 'queue counts unavailable');
        return { name, available: false as const, counts: null, recentFailures: [] };
      }
    }),
  );
}

/** A scheduled job is overdue when its last success is older than this many intervals (or it never succeeded). */
const OVERDUE_AFTER_INTERVALS = 3;

/**
 * Every scheduled job: its interval (as the worker registered it, else as configured here), whether
 * a scheduler exists in Redis (null when Redis cannot say), and its latest run from Postgres.
 */
async function scheduledJobs(ctx: AppContext) {
  const queueNames = [...new Set(SCHEDULE_IDS.map((id) => JOBS[SCHEDULES[id].job].queue))];
  const [runs, schedulers] = await Promise.all([
    ctx.db.select().from(maintenanceRuns),
    Promise.all(queueNames.map((name) => sharedQueue(ctx, name).getJobSchedulers()))
      .then((lists) => lists.flat())
      .catch((error) => {
        ctx.log.warn({ err: error }, 'job schedulers unavailable');
        return null;
      }),
  ]);
  const now = Date.now();
  return SCHEDULE_IDS.map((id) => {
    const { job, everyMs } = SCHEDULES[id];
    const scheduler = schedulers?.find((s) => s.key === id);
    const intervalMs = scheduler?.every ?? everyMs(ctx.config);
    const run = runs.find((r) => r.job === job);
    const lastSucceededAt = run?.lastSucceededAt ?? null;
    const ageMs = lastSucceededAt ? Math.max(0, now - lastSucceededAt.getTime()) : null;
    const overdueAfterMs = OVERDUE_AFTER_INTERVALS * intervalMs;
    return {
      id,
      job,
      intervalMs,
      scheduled: schedulers === null ? null : scheduler !== undefined,
      nextRunAt: scheduler?.next ? new Date(scheduler.next) : null,
      lastStartedAt: run?.lastStartedAt ?? null,
      lastSucceededAt,
      lastOutcome: run?.lastOutcome ?? null,
      lastError: run?.lastError ?? null,
      lastDurationMs: run?.lastDurationMs ?? null,
      ageMs,
      overdueAfterMs,
      overdue: ageMs === null || ageMs > overdueAfterMs,
    };
  });
}

/**
 * Swaps created in the last 24 hours (volume is what settled successfully), and what is pending now:
 * in flight (a deposit was sent or seen) apart from awaiting its deposit; stale ones are in flight and
 * late. The day comes from the hourly rollup (and its deltas not folded yet) after its first whole
 * hour, raw rows before it; the pending figures from the counters and two partial indexes.
 */
async function kpis24h(ctx: AppContext, now: Date) {
  const parts = windowParts(new Date(now.getTime() - 24 * HOUR_MS), now, 'all', false);
  const rolledFrom = parts.rolledFrom?.toISOString() ?? 'infinity';
  const raw = parts.raw.map(
    (s) =>
      ctx.sql`(created_at >= ${s.from.toISOString()}::timestamptz and created_at < ${s.to.toISOString()}::timestamptz)`,
  );
  const [[row], [open]] = await Promise.all([
    ctx.sql<{ swaps: string; succeeded: string; failed: string; refunded: string; volumeUsd: string }[]>`
      select coalesce(sum(swaps), 0)::text as swaps,
             coalesce(sum(swaps) filter (where status = 'SUCCESS'), 0)::text as succeeded,
             coalesce(sum(swaps) filter (where status = 'FAILED'), 0)::text as failed,
             coalesce(sum(swaps) filter (where status = 'REFUND'), 0)::text as refunded,
             coalesce(sum(volume_usd), 0)::text as "volumeUsd"
      from (
        select status, count(*) as swaps, coalesce(sum(amount_usd) filter (where status = 'SUCCESS'), 0) as volume_usd
        from transactions where ${raw.length ? raw.reduce((a, b) => ctx.sql`${a} or ${b}`) : ctx.sql`false`}
        group by status
        union all
        select status, swaps, volume_usd from swap_hourly where hour >= ${rolledFrom}::timestamptz
        union all
        select status, swaps, volume_usd from swap_rollup_deltas where hour >= ${rolledFrom}::timestamptz
      ) day`,
    ctx.sql<{ pending: string; awaitingDeposit: number; stale: number }[]>`
      select (select coalesce(sum(swaps), 0) from (
                select swaps from swap_counts where status = 'PENDING'
                union all select swaps from swap_rollup_deltas where status = 'PENDING') p)::text as pending,
             (select count(*) from transactions
               where status = 'PENDING' and hash = '' and inbound_hash = '')::int as "awaitingDeposit",
             (select count(*) from transactions where status = 'PENDING' and stale)::int as stale`,
  ]);
  const r = {
    swaps: Number(row?.swaps ?? 0),
    succeeded: Number(row?.succeeded ?? 0),
    failed: Number(row?.failed ?? 0),
    refunded: Number(row?.refunded ?? 0),
  };
  const pending = Number(open?.pending ?? 0);
  const awaitingDeposit = open?.awaitingDeposit ?? 0;
  const finished = r.succeeded + r.failed + r.refunded;
  return {
    ...r,
    inFlight: pending - awaitingDeposit,
    awaitingDeposit,
    stale: open?.stale ?? 0,
    volumeUsd: Number(row?.volumeUsd ?? 0),
    successRate: finished > 0 ? r.succeeded / finished : null,
  };
}

async function staleTransactions(ctx: AppContext) {
  const rows = await ctx.db
    .select()
    .from(transactions)
    .where(and(eq(transactions.stale, true), eq(transactions.status, 'PENDING')))
    .orderBy(asc(transactions.createdAt))
    .limit(25);
  return rows.map(presentTransactionSummary);
}

export async function operationsOverview(ctx: AppContext, now = new Date()) {
  const [providers, queues, jobs, kpis, stale, routeTimes] = await Promise.all([
    providerHealth(ctx),
    queueDepths(ctx),
    scheduledJobs(ctx),
    kpis24h(ctx, now),
    staleTransactions(ctx),
    routeTimeAccuracy(ctx, now),
  ]);
  return { providers, queues, jobs, kpis, stale, routeTimes };
}
export type OperationsOverview = Awaited<ReturnType<typeof operationsOverview>>;
