import type postgres from 'postgres';
import type { AppContext } from '../context';
import { rolledUntil } from '../rollups/watermarks';

const PRUNE_BATCH = 5000;
const MAX_BATCHES_PER_RUN = 100;

export interface PruneReport {
  providerCalls: number;
  rateLimitHits: number;
  queueDepthSamples: number;
  idempotencyKeys: number;
  unexecutedLocks: number;
  hourlyRollups: number;
}

/** Hourly rollups are read for at most the partial days at the ends of a 30-day range; whole days come from daily ones. */
export const HOURLY_ROLLUP_DAYS = 35;
const HOURLY_ROLLUPS = ['swap_hourly', 'affiliate_hourly', 'lock_activity_hourly', 'provider_call_hourly'] as const;

/**
 * Deletes dashboard samples past their retention and Idempotency-Key records past their TTL (a retry
 * after it runs anew, as documented), in small batches so no delete holds locks for long; whatever
 * one run leaves (more than 500 000 rows a table) the next run takes.
 */
export async function pruneSamples(ctx: AppContext): Promise<PruneReport> {
  const { providerCallsDays, rateLimitHitsDays, queueDepthSamplesDays } = ctx.config.retention;
  return {
    providerCalls: await deleteInBatches(ctx, 'provider_calls', olderThan(ctx, 'created_at', providerCallsDays)),
    rateLimitHits: await deleteInBatches(ctx, 'rate_limit_hits', olderThan(ctx, 'minute', rateLimitHitsDays)),
    queueDepthSamples: await deleteInBatches(
      ctx,
      'queue_depth_samples',
      olderThan(ctx, 'sampled_at', queueDepthSamplesDays),
    ),
    idempotencyKeys: await deleteInBatches(ctx, 'idempotency_keys', ctx.sql`expires_at < now()`),
    unexecutedLocks: await pruneUnexecutedLocks(ctx),
    hourlyRollups: await pruneHourlyRollups(ctx),
  };
}

/**
 * Locks never executed, past their retention and already counted in the lock rollups (a lock not
 * rolled up yet is kept, whatever its age). Executed locks belong to their swaps and stay.
 */
export async function pruneUnexecutedLocks(ctx: Pick<AppContext, 'sql' | 'config'>): Promise<number> {
  const rolled = await rolledUntil(ctx, 'locks');
  if (!rolled) return 0;
  return deleteInBatches(
    ctx,
    'locks',
    ctx.sql`state = 'locked' and ${olderThan(ctx, 'created_at', ctx.config.retention.unexecutedLocksDays)}
      and created_at < ${rolled.toISOString()}::timestamptz`,
  );
}

async function pruneHourlyRollups(ctx: AppContext): Promise<number> {
  let deleted = 0;
  for (const table of HOURLY_ROLLUPS) {
    deleted += await deleteInBatches(ctx, table, olderThan(ctx, 'hour', HOURLY_ROLLUP_DAYS));
  }
  return deleted;
}

export const olderThan = (ctx: Pick<AppContext, 'sql'>, column: string, days: number) =>
  ctx.sql`${ctx.sql(column)} < now() - make_interval(days => ${days})`;

/** Deletes the rows `condition` matches, a batch at a time. */
export async function deleteInBatches(
  ctx: Pick<AppContext, 'sql'>,
  table:
    | 'provider_calls'
    | 'rate_limit_hits'
    | 'queue_depth_samples'
    | 'idempotency_keys'
    | 'locks'
    | (typeof HOURLY_ROLLUPS)[number]
    | 'webhook_deliveries'
    | 'webhook_messages',
  condition: postgres.PendingQuery<postgres.Row[]>,
): Promise<number> {
  let deleted = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
    const result = await ctx.sql`
      delete from ${ctx.sql(table)} where ctid in (
        select ctid from ${ctx.sql(table)} where ${condition} limit ${PRUNE_BATCH})`;
    deleted += result.count;
    if (result.count < PRUNE_BATCH) break;
  }
  return deleted;
}
