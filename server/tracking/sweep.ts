import { and, eq, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { locks, transactionEvents, transactions } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { afterTransactionChange } from '../transactions/changes';
import { expireUnfundedSwaps } from './expiry';
import type { TrackingScheduler } from './queues';

export interface SweepReport {
  rescheduled: number;
  flaggedStale: number;
  releasedClaims: number;
  expired: number;
}

const SWEEP_BATCH = 500;

/** How long the provider said the swap takes (the quote's `estimatedTime`), 0 when the quote gives no number. */
const QUOTED_SECONDS = sql`case when jsonb_typeof(${transactions.quote}->'estimatedTime') = 'number'
  then (${transactions.quote}->>'estimatedTime')::float8 else 0 end`;

/**
 * Postgres decides what must be tracked; Redis only schedules. Re-enqueues every pollable
 * transaction whose next poll is overdue (a flushed Redis or a lost job loses nothing), flags
 * swaps in flight for too long stale (those without route times: the others turn late instead),
 * ends swaps whose deposit never came, and hands back execute claims a crash left behind.
 */
export async function sweep(ctx: AppContext, scheduler: TrackingScheduler): Promise<SweepReport> {
  const { worker } = ctx.config;
  const overdue = await ctx.db
    .select({ id: transactions.id })
    .from(transactions)
    .where(
      and(
        or(
          eq(transactions.status, 'PENDING'),
          and(
            eq(transactions.status, 'FAILED'),
            sql`${transactions.substatus} is distinct from 'EXPIRED'`,
            sql`${transactions.finalizedAt} > now() - make_interval(secs => ${worker.refundWatchMs / 1000})`,
          ),
        ),
        lt(transactions.nextPollAt, sql`now() - make_interval(secs => ${worker.sweepGraceMs / 1000})`),
      ),
    )
    .orderBy(transactions.nextPollAt)
    .limit(SWEEP_BATCH);
  for (const { id } of overdue) await scheduler.schedule(id, 0);

  const stale = await ctx.db
    .update(transactions)
    .set({ stale: true, substatus: 'DELAYED', updatedAt: sql`now()` })
    .where(
      and(
        eq(transactions.status, 'PENDING'),
        eq(transactions.stale, false),
        // Stale means in flight and late: a swap still waiting for its deposit is not stuck at a provider.
        or(ne(transactions.hash, ''), ne(transactions.inboundHash, '')),
        lt(transactions.createdAt, sql`now() - make_interval(secs => ${worker.staleAfterMs / 1000})`),
        // Late means past what the provider said too: a long streaming swap within its estimate is on time.
        lt(transactions.createdAt, sql`now() - make_interval(secs => ${QUOTED_SECONDS})`),
        // The fixed age is the last resort for a swap without route times; one with them turns late at its late_at.
        isNull(transactions.lateAt),
      ),
    )
    .returning({ id: transactions.id });
  if (stale.length) {
    await ctx.db.insert(transactionEvents).values(
      stale.map(({ id }) => ({
        transactionId: id,
        type: 'stale',
        message: `Still pending after ${Math.round(worker.staleAfterMs / 60_000)} minutes; flagged for support`,
        data: { substatus: 'DELAYED' },
      })),
    );
  }
  for (const { id } of stale) await afterTransactionChange(ctx, id);

  const released = await ctx.db
    .update(locks)
    .set({ state: 'locked', claimedAt: null, updatedAt: sql`now()` })
    .where(
      and(
        eq(locks.state, 'executing'),
        lt(locks.claimedAt, sql`now() - make_interval(secs => ${worker.executeClaimTimeoutMs / 1000})`),
        isNull(locks.transactionId),
        sql`not exists (select 1 from ${transactions} where ${transactions.lockId} = ${locks.id})`,
      ),
    )
    .returning({ id: locks.id });
  if (released.length) ctx.log.warn({ locks: released.map((l) => l.id) }, 'released execute claims left by a crash');

  const expired = await expireUnfundedSwaps(ctx);

  return { rescheduled: overdue.length, flaggedStale: stale.length, releasedClaims: released.length, expired };
}
