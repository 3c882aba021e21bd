import { and, eq, sql } from 'drizzle-orm';
import { transactionEvents, transactions } from '../../drizzle/schema';
import { providerName } from '../catalog/names';
import type { AppContext } from '../context';
import { hashKey } from '../transactions/keys';
import { canReopen, REOPENED } from '../transactions/transitions';
import { verifiedElsewhere } from './hash-claims';
import { askProvider } from './poll';
import type { PollFields } from './poll-row';

/**
 * A hash reported for a swap that expired waiting for its deposit: when the provider verifies it as this
 * swap's own deposit (THORChain: an inbound to the vault handed out, with our memo), the swap re-opens and is
 * tracked to its real end. False when the provider does not vouch for it, or cannot be asked now.
 */
export async function reopenExpiredSwap(ctx: AppContext, tx: PollFields, hash: string): Promise<boolean> {
  const adapter = ctx.providers.get(tx.provider);
  if (!adapter) return false;
  try {
    if (!canReopen(tx, hash, (await askProvider(ctx, adapter, tx, hash)).hashCheck)) return false;
  } catch (error) {
    ctx.log.warn({ err: error, transactionId: tx.id }, 'could not ask the provider about a hash reported after expiry');
    return false;
  }
  return ctx.db.transaction(async (db) => {
    // Two identical swaps share a memo and vault: a deposit verified for one never re-opens the other.
    if (await verifiedElsewhere(db, tx, hashKey(hash) ?? hash)) return false;
    const [reopened] = await db
      .update(transactions)
      .set({
        ...REOPENED,
        finalizedAt: null,
        hash,
        hashKey: hashKey(hash),
        hashVerifiedAt: sql`now()`,
        nextPollAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(transactions.id, tx.id), eq(transactions.status, 'FAILED'), eq(transactions.substatus, 'EXPIRED')))
      .returning({ id: transactions.id });
    if (!reopened) return false;
    await db.insert(transactionEvents).values({
      transactionId: tx.id,
      type: 'status_changed',
      fromStatus: 'FAILED',
      toStatus: REOPENED.status,
      message: `FAILED → PENDING: ${providerName(tx.provider)} verified ${hash}, reported after the swap expired, as this swap's deposit; re-opened and tracked to its end`,
      data: { txHash: hash, substatus: REOPENED.substatus, reopenedAfterExpiry: true },
    });
    return true;
  });
}
