import { and, eq, isNotNull, ne, or, sql } from 'drizzle-orm';
import { type transactionEvents, transactions } from '../../drizzle/schema';
import type { Executor } from '../db';
import type { StatusResult } from '../providers/types';
import { hashKey } from '../transactions/keys';

type TransactionRow = typeof transactions.$inferSelect;
type EventInsert = typeof transactionEvents.$inferInsert;
type Patch = Partial<typeof transactions.$inferInsert>;

/** The hash a transaction currently stands on: the client's claim, or what the provider reported. */
export const claimedHash = (tx: Pick<TransactionRow, 'hash' | 'inboundHash'>) => tx.hash || tx.inboundHash;

export interface ClaimOutcome {
  /** Whether the answer's status, hashes and amounts may be applied. */
  counts: boolean;
  patch: Patch;
  events: EventInsert[];
}

/**
 * A hash belongs to one transaction: once verified for one, it never verifies another. Serialised
 * per hash with an advisory lock so two polls cannot both win it.
 */
async function verifiedElsewhere(db: Executor, tx: TransactionRow, key: string): Promise<boolean> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`hash:${key}`}))`);
  const [other] = await db
    .select({ id: transactions.id })
    .from(transactions)
    .where(
      and(
        ne(transactions.id, tx.id),
        isNotNull(transactions.hashVerifiedAt),
        or(eq(transactions.hashKey, key), eq(transactions.inboundHashKey, key)),
      ),
    )
    .limit(1);
  return other !== undefined;
}

/** Takes an unverified claim back off the row, so the real deposit's hash can still be reported. */
function withdrawal(tx: TransactionRow, hash: string): Patch {
  const patch: Patch = {};
  if (tx.hash === hash) Object.assign(patch, { hash: '', hashKey: null });
  if (tx.inboundHash === hash) Object.assign(patch, { inboundHash: '', inboundHashKey: null });
  return patch;
}

/**
 * Reads the provider's verdict on the client-reported hash. A rejected claim is cleared (unless it
 * was verified before); a status that was looked up by an unverified hash does not count; a hash the
 * provider reported for the swap it knows by our own id becomes the verified hash.
 */
export async function settleHashClaim(db: Executor, tx: TransactionRow, result: StatusResult): Promise<ClaimOutcome> {
  const check = result.hashCheck;
  const current = claimedHash(tx);
  const events: EventInsert[] = [];
  const patch: Patch = {};
  const reject = (hash: string, reason: string) => {
    Object.assign(patch, withdrawal(tx, hash));
    events.push({
      transactionId: tx.id,
      type: 'hash_rejected',
      message: `Hash ${hash} rejected: ${reason}`,
      data: { hash, reason },
    });
  };

  if (!check || check.hash !== current || !current) {
    const stale = check?.decidesStatus === true;
    return { counts: !stale, patch, events };
  }
  if (check.verdict === 'rejected') {
    if (!tx.hashVerifiedAt) reject(check.hash, check.reason ?? 'the provider does not tie it to this swap');
    return { counts: !check.decidesStatus, patch, events };
  }
  if (check.verdict === 'verified' && !tx.hashVerifiedAt) {
    const key = hashKey(check.hash) as string;
    if (await verifiedElsewhere(db, tx, key)) {
      reject(check.hash, 'it is already verified as another transaction’s deposit');
      return { counts: !check.decidesStatus, patch, events };
    }
    patch.hashVerifiedAt = new Date();
    events.push({
      transactionId: tx.id,
      type: 'hash_verified',
      message: `Hash ${check.hash} verified against the provider's record`,
      data: { hash: check.hash },
    });
  }
  return { counts: check.verdict === 'verified' || !check.decidesStatus, patch, events };
}
