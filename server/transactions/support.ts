import { asc, eq, inArray } from 'drizzle-orm';
import { chains, transactionEvents, transactions } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { notFound } from '../errors';
import { isPollable, pollTransaction } from '../tracking/poll';
import { redactSecrets } from './redact';
import { presentTransactionSummary, usd } from './search';

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
  return {
    transaction: {
      ...presentTransactionSummary(tx),
      srcAsset: tx.srcAsset,
      dstAsset: tx.dstAsset,
      srcChainName: src?.name ?? tx.srcChain,
      dstChainName: dst?.name ?? tx.dstChain,
      inboundHash: tx.inboundHash,
      fee: {
        quotedUsd: usd(tx.quotedFeeUsd),
        recordedAmount: tx.feeAmount,
        recordedCurrency: tx.feeCurrency,
        recordedUsd: usd(tx.feeAmountUsd),
      },
      updatedAt: tx.updatedAt,
      finalizedAt: tx.finalizedAt,
    },
    hashes: [
      { label: 'Source', value: tx.hash || null, url: explorerUrl(src?.explorerTxUrl, tx.hash || null) },
      { label: 'Inbound', value: tx.inboundHash || null, url: explorerUrl(src?.explorerTxUrl, tx.inboundHash || null) },
      { label: 'Outbound', value: tx.outboundHash, url: explorerUrl(dst?.explorerTxUrl, tx.outboundHash) },
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

/** Support's "Poll now": asks the provider synchronously and leaves an audit event naming who asked. */
export async function pollTransactionNow(ctx: AppContext, input: { transactionId: string; requestedBy: string }) {
  const [tx] = await ctx.db
    .select({ id: transactions.id })
    .from(transactions)
    .where(eq(transactions.id, input.transactionId))
    .limit(1);
  if (!tx) throw notFound('Transaction', 'id');
  await ctx.db.insert(transactionEvents).values({
    transactionId: tx.id,
    type: 'manual_poll',
    message: `Poll requested from the dashboard by ${input.requestedBy}`,
    data: { requestedBy: input.requestedBy },
  });
  const outcome = await pollTransaction(ctx, tx.id);
  return { status: outcome.status, keepTracking: outcome.keepTracking, nextDelayMs: outcome.nextDelayMs };
}
