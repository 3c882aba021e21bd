import { and, asc, eq } from 'drizzle-orm';
import { maintenanceRuns, transactions } from '../../drizzle/schema';
import type { AppContext } from '../context';
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
 * in flight (a deposit was sent or seen) apart from awaiting its deposit; stale ones are in flight and late.
 */
async function kpis24h(ctx: AppContext) {
  const [[row], [open]] = await Promise.all([
    ctx.sql<{ swaps: number; succeeded: number; failed: number; refunded: number; volumeUsd: string }[]>`
      select count(*)::int as swaps,
             count(*) filter (where status = 'SUCCESS')::int as succeeded,
             count(*) filter (where status = 'FAILED')::int as failed,
             count(*) filter (where status = 'REFUND')::int as refunded,
             coalesce(sum(amount_usd) filter (where status = 'SUCCESS'), 0)::text as "volumeUsd"
      from transactions
      where created_at >= now() - interval '24 hours'`,
    ctx.sql<{ pending: number; awaitingDeposit: number; stale: number }[]>`
      select (select count(*) from transactions where status = 'PENDING')::int as pending,
             (select count(*) from transactions
               where status = 'PENDING' and hash = '' and inbound_hash = '')::int as "awaitingDeposit",
             (select count(*) from transactions where status = 'PENDING' and stale)::int as stale`,
  ]);
  const r = row ?? { swaps: 0, succeeded: 0, failed: 0, refunded: 0, volumeUsd: '0' };
  const now = open ?? { pending: 0, awaitingDeposit: 0, stale: 0 };
  const finished = r.succeeded + r.failed + r.refunded;
  return {
    ...r,
    inFlight: now.pending - now.awaitingDeposit,
    awaitingDeposit: now.awaitingDeposit,
    stale: now.stale,
    volumeUsd: Number(r.volumeUsd),
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

export async function operationsOverview(ctx: AppContext) {
  const [providers, queues, jobs, kpis, stale] = await Promise.all([
    providerHealth(ctx),
    queueDepths(ctx),
    scheduledJobs(ctx),
    kpis24h(ctx),
    staleTransactions(ctx),
  ]);
  return { providers, queues, jobs, kpis, stale };
}
export type OperationsOverview = Awaited<ReturnType<typeof operationsOverview>>;
