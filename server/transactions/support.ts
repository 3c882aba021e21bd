import { asc, eq, inArray } from 'drizzle-orm';
import { chains, transactionEvents, transactions } from '../../drizzle/schema';
import { NO_ORIGIN, type RequestOrigin, recordAudit } from '../audit/record';
import type { Viewer } from '../auth/roles';
import { providerName } from '../catalog/names';
import type { AppContext } from '../context';
import { notFound } from '../errors';
import { recordedFeeSummary } from '../fees/summary';
import { reasonOf, type Substatus } from '../providers/types';
import type { ObservedTime } from '../route-times/times';
import { claimedHash } from '../tracking/hash-claims';
import { isPollable, pollTransaction } from '../tracking/poll';
import { redactSecrets } from './redact';
import { presentTransactionSummary } from './search';
import { presentSettlement } from './settlement';

type TransactionRow = typeof transactions.$inferSelect;

export const explorerUrl = (template: string | undefined, hash: string | null) =>
  template && hash ? template.replace('{hash}', encodeURIComponent(hash)) : null;

/** Everything support needs about one transaction: assets, hashes with explorer links, tracking state, timeline. */
export async function getTransactionDetail(ctx: AppContext, transactionId: string) {
  const [tx] = await ctx.db.select().from(transactions).where(eq(transactions.id, transactionId)).limit(1);
  if (!tx) throw notFound('Transaction', 'id');
  const [chainRows, events] = await Promise.all([
    ctx.db
      .select({ key: chains.key, name: chains.name, explorerTxUrl: chains.explorerTxUrl })
      .from(chains)
      .where(inArray(chains.key, [tx.srcChain, tx.dstChain])),
    ctx.db
      .select()
      .from(transactionEvents)
      .where(eq(transactionEvents.transactionId, tx.id))
      .orderBy(asc(transactionEvents.id)),
  ]);
  const chain = (key: string) => chainRows.find((c) => c.key === key);
  const src = chain(tx.srcChain);
  const dst = chain(tx.dstChain);
  const settlement = presentSettlement(tx);
  // A refund's transaction goes back on the source chain.
  const refundOut = settlement.refund !== null && !!tx.outboundHash && tx.outboundHash === settlement.refund.hash;
  return {
    transaction: {
      ...presentTransactionSummary(tx),
      srcAsset: tx.srcAsset,
      dstAsset: tx.dstAsset,
      srcChainName: src?.name ?? tx.srcChain,
      dstChainName: dst?.name ?? tx.dstChain,
      inboundHash: tx.inboundHash,
      fee: recordedFeeSummary(tx),
      ...settlement,
      referralCredited: tx.referralOwnerId !== null,
      substatus: tx.substatus as Substatus | null,
      reason: reasonOf(tx.trackingContext),
      updatedAt: tx.updatedAt,
      finalizedAt: tx.finalizedAt,
    },
    hashes: [
      { label: 'Source', value: tx.hash || null, url: explorerUrl(src?.explorerTxUrl, tx.hash || null) },
      { label: 'Inbound', value: tx.inboundHash || null, url: explorerUrl(src?.explorerTxUrl, tx.inboundHash || null) },
      refundOut
        ? { label: 'Refund', value: tx.outboundHash, url: explorerUrl(src?.explorerTxUrl, tx.outboundHash) }
        : { label: 'Outbound', value: tx.outboundHash, url: explorerUrl(dst?.explorerTxUrl, tx.outboundHash) },
    ],
    tracking: {
      nextPollAt: tx.nextPollAt,
      lastPolledAt: tx.lastPolledAt,
      pollAttempts: tx.pollAttempts,
      pollErrors: tx.pollErrors,
      lastPollError: tx.lastPollError,
      lastUpstreamState: tx.lastUpstreamState,
      stale: tx.stale,
      pollable: isPollable(ctx, tx),
    },
    routeTime: {
      /** The route's time as the swapper was shown it at lock; null when there was none. */
      shown: ((tx.quote as { observedTime?: ObservedTime | null }).observedTime ?? null) as ObservedTime | null,
      expectedBy: tx.expectedBy,
      lateAt: tx.lateAt,
      /** Pending: how long it has been in flight; final: how long it took. */
      seconds: Math.round(((tx.finalizedAt ?? new Date()).getTime() - tx.createdAt.getTime()) / 1000),
    },
    providerContext: {
      trackingContext: redactSecrets(tx.trackingContext),
      providerResult: redactSecrets(tx.providerResult),
    },
    events: events.map((e) => ({
      id: e.id,
      type: e.type,
      fromStatus: e.fromStatus,
      toStatus: e.toStatus,
      message: e.message,
      data: e.data === null ? null : redactSecrets(e.data),
      createdAt: e.createdAt,
    })),
  };
}
export type TransactionDetail = Awaited<ReturnType<typeof getTransactionDetail>>;

export type PollNowResult =
  | {
      polled: true;
      status: TransactionRow['status'];
      keepTracking: boolean;
      lastPolledAt: Date | null;
      /** The provider's error when this poll failed to get an answer. */
      providerError: string | null;
    }
  | { polled: false; status: TransactionRow['status']; reason: string };

/** Why "Poll now" would not reach the provider for this transaction, or null when it would. */
function whyNotPollable(ctx: AppContext, tx: TransactionRow): string | null {
  if (!isPollable(ctx, tx)) return `the swap is final (${tx.status}); its status no longer changes`;
  const adapter = ctx.providers.get(tx.provider);
  if (!adapter) return `${providerName(tx.provider)} is not enabled on this server`;
  if (!adapter.canTrack(tx.trackingContext, claimedHash(tx))) {
    return 'there is no hash or provider reference to ask about yet; the user must report the deposit hash';
  }
  return null;
}

/**
 * Support's "Poll now": asks the provider synchronously and leaves an audit event naming who asked.
 * When no poll can happen it says why instead; when one does, the row's poll bookkeeping proves it.
 */
export async function pollTransactionNow(
  ctx: AppContext,
  input: { transactionId: string; requestedBy: Viewer; origin?: RequestOrigin },
): Promise<PollNowResult> {
  const read = async () => {
    const [row] = await ctx.db.select().from(transactions).where(eq(transactions.id, input.transactionId)).limit(1);
    if (!row) throw notFound('Transaction', 'id');
    return row;
  };
  const tx = await read();
  const reason = whyNotPollable(ctx, tx);
  if (reason) return { polled: false, status: tx.status, reason };
  const { email } = input.requestedBy;
  await ctx.db.transaction(async (db) => {
    await db.insert(transactionEvents).values({
      transactionId: tx.id,
      type: 'manual_poll',
      message: `Poll requested from the dashboard by ${email}`,
      data: { requestedBy: email },
    });
    await recordAudit(db, {
      action: 'transaction.poll_now',
      actor: input.requestedBy,
      origin: input.origin ?? NO_ORIGIN,
      targetId: tx.id,
      before: { status: tx.status, substatus: tx.substatus },
    });
  });
  const outcome = await pollTransaction(ctx, tx.id);
  const after = await read();
  if (after.pollAttempts === tx.pollAttempts) {
    return { polled: false, status: after.status, reason: whyNotPollable(ctx, after) ?? 'another poll was running' };
  }
  return {
    polled: true,
    status: after.status,
    keepTracking: outcome.keepTracking,
    lastPolledAt: after.lastPolledAt,
    providerError: after.pollErrors > tx.pollErrors ? (after.lastPollError ?? 'no answer') : null,
  };
}
