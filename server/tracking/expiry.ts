import { and, asc, eq, lt, sql } from 'drizzle-orm';
import { transactionEvents, transactions } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { afterTransactionChange } from '../transactions/changes';
import { stillAwaitingDeposit } from './apply-status';
import { askProvider, pollTransaction } from './poll';
import { readForPoll } from './poll-row';

const EXPIRY_BATCH = 200;

const awaitingDeposit = and(
  eq(transactions.status, 'PENDING'),
  eq(transactions.hash, ''),
  eq(transactions.inboundHash, ''),
);

/**
 * Whether the provider, asked once more, has seen the deposit after all. A provider that cannot be
 * asked now answers undefined: no swap is expired on a missing answer.
 */
async function providerSawDeposit(ctx: AppContext, transactionId: string): Promise<boolean | undefined> {
  const row = await readForPoll(ctx, transactionId);
  const adapter = row && ctx.providers.get(row.provider);
  if (!row || !adapter) return undefined;
  if (!adapter.canTrack(row.trackingContext, '')) return false;
  try {
    return !stillAwaitingDeposit(await askProvider(ctx, adapter, row));
  } catch {
    return undefined;
  }
}

/** Ends one swap as FAILED / EXPIRED if it still has no deposit; true when it did. */
async function expire(ctx: AppContext, transactionId: string, deadline: Date, graceMs: number): Promise<boolean> {
  const ended = await ctx.db.transaction(async (db) => {
    const [row] = await db
      .update(transactions)
      .set({
        status: 'FAILED',
        substatus: 'EXPIRED',
        finalizedAt: sql`now()`,
        nextPollAt: null,
        stale: false,
        updatedAt: sql`now()`,
      })
      .where(and(eq(transactions.id, transactionId), awaitingDeposit))
      .returning({ id: transactions.id, provider: transactions.provider });
    if (!row) return false;
    await db.insert(transactionEvents).values({
      transactionId,
      type: 'status_changed',
      fromStatus: 'PENDING',
      toStatus: 'FAILED',
      message: `PENDING → FAILED: no deposit was seen before ${row.provider} stopped taking it (${deadline.toISOString()}, plus ${Math.round(graceMs / 60_000)} minutes' grace); the swap expired`,
      data: { substatus: 'EXPIRED', depositDeadline: deadline.toISOString(), graceMs },
    });
    return true;
  });
  if (ended) await afterTransactionChange(ctx, transactionId);
  return ended;
}

/**
 * Swaps whose deposit never came end as FAILED / EXPIRED, final, once the provider's deposit window
 * (plus the grace period) has passed with no hash reported or seen. One the provider can still be asked
 * about is asked first: if it saw the deposit after all, it is polled and tracked as usual instead.
 */
export async function expireUnfundedSwaps(ctx: AppContext, now = new Date()): Promise<number> {
  const { expiryGraceMs } = ctx.config.deposits;
  const due = await ctx.db
    .select({ id: transactions.id, depositDeadline: transactions.depositDeadline })
    .from(transactions)
    .where(and(awaitingDeposit, lt(transactions.depositDeadline, new Date(now.getTime() - expiryGraceMs))))
    .orderBy(asc(transactions.depositDeadline))
    .limit(EXPIRY_BATCH);
  let expired = 0;
  for (const { id, depositDeadline } of due) {
    const seen = await providerSawDeposit(ctx, id);
    if (seen === true) await pollTransaction(ctx, id);
    else if (seen === false && depositDeadline && (await expire(ctx, id, depositDeadline, expiryGraceMs))) expired++;
  }
  return expired;
}
