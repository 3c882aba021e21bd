import { eq, sql } from 'drizzle-orm';
import { transactionEvents, transactions } from '../../drizzle/schema';
import { formatAmount } from '../catalog/amounts';
import { providerName } from '../catalog/names';
import type { AppContext } from '../context';
import { isProviderError, type ProviderError } from '../providers/errors';
import {
  FIRST_SEEN_KEY,
  firstSeenAt,
  REASON_KEY,
  reasonOf,
  type StatusResult,
  type Substatus,
} from '../providers/types';
import { DEPOSIT_SEEN_KEY, expectationAfterDeposit } from '../route-times/expect';
import { routeTimes } from '../route-times/times';
import { afterTransactionChange } from '../transactions/changes';
import { hashKey } from '../transactions/keys';
import { SETTLEMENT_KEY, settle } from '../transactions/settlement';
import { canTransition, isFinal, substatusFor } from '../transactions/transitions';
import { claimWithoutLookup, settleHashClaim } from './hash-claims';
import { type PollFields, pollColumns, type TransactionRow } from './poll-row';

type EventInsert = typeof transactionEvents.$inferInsert;
/** What the next poll's time is decided on. */
export type ScheduleFields = Pick<TransactionRow, 'status' | 'substatus' | 'finalizedAt' | 'createdAt'>;
export type NextPoll = (row: ScheduleFields) => Date | null;

const AWAITING_DEPOSIT: readonly (Substatus | undefined)[] = [
  undefined,
  'WAITING_SOURCE_CONFIRMATIONS',
  'NOT_FOUND_UPSTREAM',
];

/** An answer with no sign the deposit arrived: no hash seen, no status of its own, no progress past waiting. */
export const stillAwaitingDeposit = (result: StatusResult) =>
  result.status === 'PENDING' && !result.inboundHash && AWAITING_DEPOSIT.includes(result.substatus);

/** How far along a substatus says the swap is: a poll never moves it back (a lagging node, or Relay's pending after failure). */
export const SUBSTATUS_PROGRESS: Record<Substatus, number> = {
  NOT_FOUND_UPSTREAM: 0,
  HASH_REJECTED: 0,
  WAITING_SOURCE_CONFIRMATIONS: 0,
  SWAPPING: 1,
  WAITING_DESTINATION: 2,
  DELAYED: 2,
  REFUND_IN_PROGRESS: 3,
  COMPLETED: 4,
  PARTIAL: 4,
  REFUNDED: 4,
  EXPIRED: 4,
  FAILED: 4,
};

const movesBack = (from: string | null, to: Substatus) =>
  from !== null && from in SUBSTATUS_PROGRESS && SUBSTATUS_PROGRESS[to] < SUBSTATUS_PROGRESS[from as Substatus];

/** What an answer that counts changes: hashes, amounts, fee and the status transition, with their events. */
export function whatCounts(tx: PollFields, result: StatusResult, upstream: Record<string, unknown>, now = new Date()) {
  const transactionId = tx.id;
  const events: EventInsert[] = [];
  const patch: Partial<typeof transactions.$inferInsert> = {};
  // The tracking context with one more key set, over whatever this answer already set in it.
  const context = () => patch.trackingContext ?? tx.trackingContext;
  const remember = (key: string, value: unknown) => {
    patch.trackingContext = { ...context(), [key]: value };
  };
  // A swap without a hash (never reported, or a wrong one withdrawn) takes the one its provider saw arrive.
  if (result.inboundHash && !tx.hash) {
    patch.hash = result.inboundHash;
    patch.hashKey = hashKey(result.inboundHash);
  }
  if (result.inboundHash && !tx.inboundHash) {
    patch.inboundHash = result.inboundHash;
    patch.inboundHashKey = hashKey(result.inboundHash);
    remember(DEPOSIT_SEEN_KEY, now.toISOString());
    events.push({
      transactionId,
      type: 'hash_updated',
      message: `Inbound transaction ${result.inboundHash} seen by ${providerName(tx.provider)}`,
      data: { inboundHash: result.inboundHash },
    });
  }
  if (result.outboundHash && result.outboundHash !== tx.outboundHash) {
    patch.outboundHash = result.outboundHash;
    patch.outboundHashKey = hashKey(result.outboundHash);
    events.push({
      transactionId,
      type: 'hash_updated',
      message: `${result.refund ? 'Refund' : 'Outbound'} transaction ${result.outboundHash}`,
      data: { outboundHash: result.outboundHash },
    });
  }
  if (result.outboundChain && result.outboundChain !== tx.trackingContext.outboundChain) {
    remember('outboundChain', result.outboundChain);
  }
  if (result.timed && firstSeenAt(tx.trackingContext, result.upstreamState) === undefined) {
    const seen = (context()[FIRST_SEEN_KEY] ?? {}) as Record<string, string>;
    remember(FIRST_SEEN_KEY, { ...seen, [result.upstreamState]: now.toISOString() });
  }
  if (result.reason && result.reason !== reasonOf(context())) remember(REASON_KEY, result.reason);
  if (result.dstAmountBase !== undefined && result.status !== 'PENDING') {
    const decimals = tx.dstAsset.decimals ?? 18;
    patch.dstAmountBase = result.dstAmountBase.toString();
    patch.dstAmount = formatAmount(result.dstAmountBase, decimals);
  }
  const settlement = settle(tx, result);
  if (settlement) remember(SETTLEMENT_KEY, settlement);
  if (result.fee) {
    patch.feeAmount = result.fee.amount;
    patch.feeCurrency = result.fee.currency;
    patch.feeAmountUsd = result.fee.amountUsd === null ? null : String(result.fee.amountUsd);
    if (result.fee.details !== undefined) patch.feeDetails = result.fee.details;
  }
  const statusHolds = result.status === tx.status || canTransition(tx.status, result.status, tx.substatus);
  const substatus = statusHolds ? substatusFor(result.status, result.substatus) : undefined;
  // A rejected report stays what the swapper sees until the provider shows the deposit or another is reported.
  const keepsRejection = tx.substatus === 'HASH_REJECTED' && stillAwaitingDeposit(result);
  const keepsProgress = substatus !== undefined && tx.status === 'PENDING' && movesBack(tx.substatus, substatus);
  if (substatus && substatus !== tx.substatus && !keepsRejection && !keepsProgress) patch.substatus = substatus;
  if (canTransition(tx.status, result.status, tx.substatus)) {
    patch.status = result.status;
    if (isFinal(result.status)) patch.finalizedAt = now;
    if (result.status !== 'PENDING') patch.stale = false;
    events.push({
      transactionId,
      type: 'status_changed',
      fromStatus: tx.status,
      toStatus: result.status,
      message: `${tx.status} → ${result.status}: ${result.detail}`,
      data: upstream,
    });
    if (result.partial) {
      events.push({
        transactionId,
        type: 'partial_fill',
        message: `Partial fill: ${result.partial.delivered} swapped and delivered, ${result.partial.refunded} refunded${result.partial.refundHash ? ` in ${result.partial.refundHash}` : ''}`,
        data: { ...result.partial, ...upstream },
      });
    }
  } else if (result.status !== tx.status && isFinal(tx.status)) {
    events.push({
      transactionId,
      type: 'ignored_regression',
      message: `Provider reported ${result.status} after ${tx.status}; kept ${tx.status}`,
      data: upstream,
    });
  }
  return { patch, events };
}

const sameValue = (a: unknown, b: unknown) =>
  a === b ||
  (a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : JSON.stringify(a) === JSON.stringify(b));

/** Whether an answer teaches nothing about the row as read: no hash verdict, progress, status or amount to record. */
export function learnsNothing(tx: PollFields, result: StatusResult): boolean {
  if (result.upstreamState !== tx.lastUpstreamState) return false;
  const claim = claimWithoutLookup(tx, result);
  if (claim === 'verify' || claim.events.length || Object.keys(claim.patch).length) return false;
  if (!claim.counts) return true;
  const learnt = whatCounts(tx, result, {});
  return (
    !learnt.events.length &&
    Object.entries(learnt.patch).every(([key, value]) => sameValue(tx[key as keyof PollFields], value))
  );
}

/**
 * Applies one status answer under a row lock: allowed transitions only, hashes, amounts, fee,
 * events, and the next poll time, all in the one update. It reads and returns only the columns it
 * decides on: the worker's busiest write, and drizzle's cost grows with every column named.
 */
export async function applyStatus(
  ctx: AppContext,
  transactionId: string,
  result: StatusResult,
  nextPoll: NextPoll,
): Promise<Pick<TransactionRow, 'status' | 'nextPollAt'> | undefined> {
  let changed = false;
  // Read before the row is locked, so the deposit's expectation below never waits on a read of route times.
  if (result.inboundHash) await routeTimes(ctx);
  const applied = await ctx.db.transaction(async (db) => {
    const [row] = await db
      .select(pollColumns)
      .from(transactions)
      .where(eq(transactions.id, transactionId))
      .for('update');
    if (!row) return undefined;
    const claim = await settleHashClaim(db, row, result);
    const tx: PollFields = { ...row, ...claim.patch };
    const events: EventInsert[] = [];
    const upstream = {
      upstreamState: result.upstreamState,
      ...(result.substatus ? { substatus: result.substatus } : {}),
    };
    const patch: Partial<typeof transactions.$inferInsert> = {
      ...claim.patch,
      pollErrors: 0,
      lastPolledAt: new Date(),
      lastPollError: null,
      lastUpstreamState: result.upstreamState,
      updatedAt: new Date(),
    };
    if (result.upstreamState !== tx.lastUpstreamState) {
      events.push({ transactionId, type: 'progress', message: result.detail, data: upstream });
    }
    events.push(...claim.events);
    if (claim.counts) {
      const learnt = whatCounts(tx, claim.foreignInbound ? { ...result, inboundHash: undefined } : result, upstream);
      Object.assign(patch, learnt.patch);
      events.push(...learnt.events);
      const seenAt = learnt.patch.trackingContext?.[DEPOSIT_SEEN_KEY];
      const newlySeen = typeof seenAt === 'string' && tx.trackingContext[DEPOSIT_SEEN_KEY] === undefined;
      if (newlySeen && !isFinal(patch.status ?? tx.status)) {
        Object.assign(patch, await expectationAfterDeposit(ctx, tx, new Date(seenAt)));
      }
    }
    patch.nextPollAt = nextPoll({ ...tx, ...patch } as ScheduleFields);
    const [updated] = await db
      .update(transactions)
      .set({ ...patch, pollAttempts: sql`${transactions.pollAttempts} + 1` })
      .where(eq(transactions.id, transactionId))
      .returning({ status: transactions.status, nextPollAt: transactions.nextPollAt });
    if (events.length) await db.insert(transactionEvents).values(events);
    changed = events.length > 0 || patch.substatus !== undefined;
    return updated;
  });
  if (changed) await afterTransactionChange(ctx, transactionId);
  return applied;
}

export async function recordPollError(
  ctx: AppContext,
  tx: Pick<TransactionRow, 'id' | 'provider'>,
  error: ProviderError | Error,
  nextPollAt: Date | null,
) {
  const message = isProviderError(error) ? `${error.kind}: ${error.message}` : 'adapter error';
  await ctx.db.transaction(async (db) => {
    await db
      .update(transactions)
      .set({
        pollAttempts: sql`${transactions.pollAttempts} + 1`,
        pollErrors: sql`${transactions.pollErrors} + 1`,
        lastPolledAt: new Date(),
        lastPollError: message,
        nextPollAt,
        updatedAt: new Date(),
      })
      .where(eq(transactions.id, tx.id));
    await db
      .insert(transactionEvents)
      .values({ transactionId: tx.id, type: 'poll_error', message, data: { provider: tx.provider } });
  });
}
