import { and, asc, eq, lt, sql } from 'drizzle-orm';
import { transactionEvents, transactions } from '../../drizzle/schema';
import { providerName } from '../catalog/names';
import type { AppContext } from '../context';
import { afterTransactionChange } from '../transactions/changes';
import { hashKey } from '../transactions/keys';
import { REOPENED, verifies } from '../transactions/transitions';
import { stillAwaitingDeposit } from './apply-status';
import { verifiedElsewhere } from './hash-claims';
import { askProvider, findDeposits, pollTransaction } from './poll';
import { type PollFields, readForPoll } from './poll-row';

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
async function providerSawDeposit(ctx: AppContext, row: PollFields): Promise<boolean | undefined> {
  const adapter = ctx.providers.get(row.provider);
  if (!adapter) return undefined;
  if (!adapter.canTrack(row.trackingContext, '')) return false;
  try {
    return !stillAwaitingDeposit(await askProvider(ctx, adapter, row));
  } catch {
    return undefined;
  }
}

/** Attaches a verified deposit's hash to a swap still waiting for it, unless another swap holds it verified. */
async function attach(ctx: AppContext, tx: PollFields, hash: string): Promise<boolean> {
  const attached = await ctx.db.transaction(async (db) => {
    const key = hashKey(hash);
    if (!key || (await verifiedElsewhere(db, tx, key))) return false;
    const [found] = await db
      .update(transactions)
      .set({
        hash,
        hashKey: key,
        hashVerifiedAt: sql`now()`,
        substatus: REOPENED.substatus,
        nextPollAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(transactions.id, tx.id), awaitingDeposit))
      .returning({ id: transactions.id });
    if (!found) return false;
    await db.insert(transactionEvents).values({
      transactionId: tx.id,
      type: 'hash_updated',
      message: `Deposit ${hash} found at ${providerName(tx.provider)} by the depositor and memo before the swap would have expired, and verified as this swap's; tracked`,
      data: { txHash: hash, substatus: REOPENED.substatus, foundBeforeExpiry: true },
    });
    return true;
  });
  if (attached) await afterTransactionChange(ctx, tx.id);
  return attached;
}

/**
 * Before a deposit-address swap expires, its deposit is looked for by what we know (depositor, memo, vault)
 * where the provider lists deposits so; the first candidate the provider verifies as this swap's deposit, and
 * no other swap holds, is attached as its hash. 'unknown': the provider could not be asked now, so the swap is
 * not expired either.
 */
async function attachFoundDeposit(ctx: AppContext, row: PollFields): Promise<'attached' | 'none' | 'unknown'> {
  const adapter = ctx.providers.get(row.provider);
  if (!adapter?.findDeposits) return 'none';
  try {
    for (const hash of await findDeposits(ctx, adapter, row)) {
      const verified = verifies((await askProvider(ctx, adapter, row, hash)).hashCheck, hash);
      if (verified && (await attach(ctx, row, hash))) return 'attached';
    }
    return 'none';
  } catch (error) {
    ctx.log.warn({ err: error, transactionId: row.id }, 'could not look for the deposit of a swap about to expire');
    return 'unknown';
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
      message: `PENDING → FAILED: no deposit was seen before ${providerName(row.provider)} stopped taking it (${deadline.toISOString()}, plus ${Math.round(graceMs / 60_000)} minutes' grace); the swap expired`,
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
    // Read once for both questions to the provider; a swap gone meanwhile is neither polled nor expired.
    const row = await readForPoll(ctx, id);
    if (!row) continue;
    const seen = await providerSawDeposit(ctx, row);
    const found = seen === false ? await attachFoundDeposit(ctx, row) : undefined;
    if (seen === true || found === 'attached') await pollTransaction(ctx, id);
    else if (found === 'none' && depositDeadline && (await expire(ctx, id, depositDeadline, expiryGraceMs))) expired++;
  }
  return expired;
}
