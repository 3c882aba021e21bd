import { and, eq, isNotNull, ne, or, sql } from 'drizzle-orm';
import { type transactionEvents, transactions } from '../../drizzle/schema';
import type { Executor } from '../db';
import type { StatusResult } from '../providers/types';
import { hashKey } from '../transactions/keys';

type TransactionRow = typeof transactions.$inferSelect;
type EventInsert = typeof transactionEvents.$inferInsert;
type Patch = Partial<typeof transactions.$inferInsert>;
/** What a hash claim is decided on: a poll reads no more than this of the row. */
type ClaimRow = Pick<TransactionRow, 'id' | 'hash' | 'inboundHash' | 'hashVerifiedAt'>;

/** The hash a transaction currently stands on: the client's claim, or what the provider reported. */
export const claimedHash = (tx: Pick<TransactionRow, 'hash' | 'inboundHash'>) => tx.hash || tx.inboundHash;

export interface ClaimOutcome {
  /** Whether the answer's status, hashes and amounts may be applied. */
  counts: boolean;
  patch: Patch;
  events: EventInsert[];
  /** The deposit hash the answer reports is verified as another transaction's: it is not taken as this one's. */
  foreignInbound?: true;
}

/**
 * A hash belongs to one transaction: once verified for one, it never verifies another. Serialised
 * per hash with an advisory lock so two polls cannot both win it.
 */
export async function verifiedElsewhere(db: Executor, tx: Pick<ClaimRow, 'id'>, key: string): Promise<boolean> {
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
function withdrawal(tx: ClaimRow, hash: string): Patch {
  const patch: Patch = {};
  if (tx.hash === hash) Object.assign(patch, { hash: '', hashKey: null });
  if (tx.inboundHash === hash) Object.assign(patch, { inboundHash: '', inboundHashKey: null });
  return patch;
}

/**
 * What the provider's verdict on the client-reported hash decides without asking the database: a
 * rejected claim is cleared (unless it was verified before); a status that was looked up by an
 * unverified hash does not count. A first verification needs the database (`settleHashClaim`).
 */
export function claimWithoutLookup(tx: ClaimRow, result: StatusResult): ClaimOutcome | 'verify' {
  const check = result.hashCheck;
  const current = claimedHash(tx);
  if (!check || check.hash !== current || !current) {
    return { counts: check?.decidesStatus !== true, patch: {}, events: [] };
  }
  if (check.verdict === 'rejected') {
    const claim: ClaimOutcome = { counts: !check.decidesStatus, patch: {}, events: [] };
    if (!tx.hashVerifiedAt) reject(tx, claim, check.hash, check.reason ?? 'the provider does not tie it to this swap');
    return claim;
  }
  if (check.verdict === 'verified' && !tx.hashVerifiedAt) return 'verify';
  return { counts: check.verdict === 'verified' || !check.decidesStatus, patch: {}, events: [] };
}

/** The claim comes off the row, and the swap says so until the right hash is reported or the deposit seen. */
function reject(tx: ClaimRow, claim: ClaimOutcome, hash: string, reason: string) {
  Object.assign(claim.patch, withdrawal(tx, hash), { substatus: 'HASH_REJECTED' });
  claim.events.push({
    transactionId: tx.id,
    type: 'hash_rejected',
    message: `Hash ${hash} rejected: ${reason}`,
    data: { hash, reason, substatus: 'HASH_REJECTED' },
  });
}

/**
 * Whether the answer's deposit hash, which the row would take as its own (`whatCounts`), is verified
 * as another transaction's: taking it would only have the next poll reject it again.
 */
async function inboundOfAnother(db: Executor, tx: ClaimRow, result: StatusResult): Promise<boolean> {
  const key = hashKey(result.inboundHash);
  if (!key || (tx.hash && tx.inboundHash)) return false;
  if (tx.hashVerifiedAt && hashKey(claimedHash(tx)) === key) return false;
  return verifiedElsewhere(db, tx, key);
}

/**
 * Reads the provider's verdict on the client-reported hash (see `claimWithoutLookup`); a hash the
 * provider reported for the swap it knows by our own id becomes the verified hash, unless it is
 * already verified for another transaction, and then is not taken from the answer either.
 */
export async function settleHashClaim(db: Executor, tx: ClaimRow, result: StatusResult): Promise<ClaimOutcome> {
  const claim = await settleClaim(db, tx, result);
  if (await inboundOfAnother(db, { ...tx, ...claim.patch }, result)) claim.foreignInbound = true;
  return claim;
}

async function settleClaim(db: Executor, tx: ClaimRow, result: StatusResult): Promise<ClaimOutcome> {
  const decided = claimWithoutLookup(tx, result);
  if (decided !== 'verify') return decided;
  const check = result.hashCheck as NonNullable<StatusResult['hashCheck']>;
  const claim: ClaimOutcome = { counts: true, patch: {}, events: [] };
  const key = hashKey(check.hash) as string;
  if (await verifiedElsewhere(db, tx, key)) {
    reject(tx, claim, check.hash, 'it is already verified as another transaction’s deposit');
    return { ...claim, counts: !check.decidesStatus };
  }
  claim.patch.hashVerifiedAt = new Date();
  claim.events.push({
    transactionId: tx.id,
    type: 'hash_verified',
    message: `Hash ${check.hash} verified against the provider's record`,
    data: { hash: check.hash },
  });
  return claim;
}
