import type { AppContext } from '../context';

const PRUNE_BATCH = 5000;
const MAX_BATCHES_PER_RUN = 100;

export interface PruneReport {
  providerCalls: number;
  rateLimitHits: number;
}

/**
 * Deletes dashboard samples past their retention, in small batches so no delete holds locks for
 * long; whatever one run leaves (more than 500 000 rows) the next run takes.
 */
export async function pruneSamples(ctx: AppContext): Promise<PruneReport> {
  const { providerCallsDays, rateLimitHitsDays } = ctx.config.retention;
  return {
    providerCalls: await deleteOlderThan(ctx, 'provider_calls', 'created_at', providerCallsDays),
    rateLimitHits: await deleteOlderThan(ctx, 'rate_limit_hits', 'minute', rateLimitHitsDays),
  };
}

export async function deleteOlderThan(
  ctx: AppContext,
  table: 'provider_calls' | 'rate_limit_hits' | 'webhook_deliveries' | 'webhook_messages',
  column: 'created_at' | 'minute',
  days: number,
): Promise<number> {
  let deleted = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
    const result = await ctx.sql`
      delete from ${ctx.sql(table)} where ctid in (
        select ctid from ${ctx.sql(table)}
        where ${ctx.sql(column)} < now() - make_interval(days => ${days})
        limit ${PRUNE_BATCH})`;
    deleted += result.count;
    if (result.count < PRUNE_BATCH) break;
  }
  return deleted;
}
