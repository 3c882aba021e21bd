import { and, eq } from 'drizzle-orm';
import { transactions } from '../../drizzle/schema';
import { type CatalogSnapshot, getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import { feePrices, priceRecordedFee } from '../fees/summary';
import { isProviderError, ProviderError } from '../providers/errors';
import type { ProviderAdapter, RouteAsset, StatusInput, StatusResult, TxStatus } from '../providers/types';
import { withDeadline } from '../routing/deadline';
import { applyStatus, learnsNothing, recordPollError, type ScheduleFields } from './apply-status';
import { nextPollDelay, REFUND_WATCH_INTERVAL_MS } from './cadence';
import { claimedHash } from './hash-claims';
import {
  type PollFields,
  type PollRow,
  readForPoll,
  recordQuietPoll,
  rememberRow,
  type TrackingRun,
  type TransactionRow,
  takeRememberedRow,
} from './poll-row';

export type { TrackingRun };

export interface PollOutcome {
  /** Keep a job for this transaction, and poll again after `nextDelayMs`. */
  keepTracking: boolean;
  nextDelayMs: number | null;
  status: TxStatus;
}

const STOP = (status: TxStatus): PollOutcome => ({ keepTracking: false, nextDelayMs: null, status });

/**
 * Whether polling still has something to learn: pending, or failed recently enough for a refund to
 * follow. A swap that expired without a deposit has nothing at the provider to follow.
 */
export function isPollable(
  ctx: AppContext,
  tx: Pick<TransactionRow, 'status' | 'substatus' | 'finalizedAt'>,
  now = Date.now(),
): boolean {
  if (tx.status === 'PENDING') return true;
  if (tx.status !== 'FAILED' || !tx.finalizedAt || tx.substatus === 'EXPIRED') return false;
  return now - tx.finalizedAt.getTime() < ctx.config.worker.refundWatchMs;
}

function assetFromSnapshot(tx: PollFields, side: 'src' | 'dst', catalogAsset: RouteAsset | undefined): RouteAsset {
  const snap = side === 'src' ? tx.srcAsset : tx.dstAsset;
  return (
    catalogAsset ?? {
      id: snap.id ?? 0,
      chain: snap.chain ?? '',
      chainType: 'OTHER',
      chainId: 0,
      symbol: snap.symbol ?? '',
      name: snap.symbol ?? '',
      address: snap.contract ?? 'native',
      decimals: snap.decimals ?? 18,
      isNative: snap.contract === null,
      image: snap.image ?? '',
      priceUsd: null,
      providerIds: {},
    }
  );
}

/** What a provider is asked about a transaction, under the provider's deadline: its stored context, hashes and assets. */
async function askAbout<T>(
  ctx: AppContext,
  adapter: ProviderAdapter,
  tx: PollFields,
  hash: string,
  ask: (input: StatusInput, signal: AbortSignal, catalog: CatalogSnapshot) => Promise<T>,
): Promise<T> {
  const catalog = await getCatalog(ctx);
  const deadline = ctx.config.providers[adapter.key].deadlineMs;
  const input: StatusInput = {
    trackingContext: tx.trackingContext,
    hash,
    inboundHash: tx.inboundHash,
    depositor: tx.walletAddress,
    recipient: tx.recipientWalletAddress,
    srcAmountBase: BigInt(tx.srcAmountBase),
    src: assetFromSnapshot(tx, 'src', tx.srcAsset.id ? catalog.assetById(tx.srcAsset.id) : undefined),
    dst: assetFromSnapshot(tx, 'dst', tx.dstAsset.id ? catalog.assetById(tx.dstAsset.id) : undefined),
    createdAt: tx.createdAt,
  };
  return withDeadline(
    deadline,
    (signal) => ask(input, signal, catalog),
    () => new ProviderError(adapter.key, 'UNAVAILABLE', `no status within ${deadline} ms`),
  );
}

/** One status read for a transaction, about its own hash or (at track) a hash a client just reported. */
export function askProvider(ctx: AppContext, adapter: ProviderAdapter, tx: PollFields, hash = tx.hash) {
  return askAbout(ctx, adapter, tx, hash, async (input, signal, catalog): Promise<StatusResult> => {
    const result = await adapter.status(input, signal);
    const fee = result.fee && priceRecordedFee(result.fee, feePrices(catalog, [input.src, input.dst]));
    return fee ? { ...result, fee } : result;
  });
}

/** Candidates for the deposit of a swap without a hash, where its provider lists deposits (ProviderAdapter.findDeposits). */
export function findDeposits(ctx: AppContext, adapter: ProviderAdapter, tx: PollFields): Promise<string[]> {
  return askAbout(ctx, adapter, tx, '', async (input, signal) => (await adapter.findDeposits?.(input, signal)) ?? []);
}

function delayFor(
  ctx: AppContext,
  adapter: ProviderAdapter,
  tx: Pick<TransactionRow, 'status' | 'createdAt'>,
  errors: number,
  rateLimited: boolean,
) {
  const { worker } = ctx.config;
  if (tx.status === 'FAILED') return Math.round(REFUND_WATCH_INTERVAL_MS * worker.timeScale);
  return nextPollDelay({
    ageMs: Date.now() - tx.createdAt.getTime(),
    providerIntervalMs: adapter.pollIntervalMs,
    minIntervalMs: worker.minPollIntervalMs,
    consecutiveErrors: errors,
    rateLimited,
    timeScale: worker.timeScale,
  });
}

/**
 * Asks the provider once about one transaction and records what changed (issue #4 "Tracking"). In a
 * tracking job's run, a quiet poll that follows this worker's own last one starts from the row as
 * that poll wrote it: one write, no read.
 */
export async function pollTransaction(ctx: AppContext, transactionId: string, run?: TrackingRun): Promise<PollOutcome> {
  const remembered = takeRememberedRow(ctx, transactionId, run);
  const tx = remembered ?? (await readForPoll(ctx, transactionId));
  if (!tx) return STOP('PENDING');
  return pollRow(ctx, tx, run, remembered !== undefined);
}

async function pollRow(
  ctx: AppContext,
  tx: PollRow,
  run: TrackingRun | undefined,
  remembered: boolean,
): Promise<PollOutcome> {
  if (!isPollable(ctx, tx)) return STOP(tx.status);
  const adapter = ctx.providers.get(tx.provider);
  if (!adapter?.canTrack(tx.trackingContext, claimedHash(tx))) {
    // A hash reported since this poll read the row (after a rejected one was cleared) keeps it tracked.
    const stopped = await ctx.db
      .update(transactions)
      .set({ nextPollAt: null })
      .where(
        and(eq(transactions.id, tx.id), eq(transactions.hash, tx.hash), eq(transactions.inboundHash, tx.inboundHash)),
      )
      .returning({ id: transactions.id });
    return stopped.length ? STOP(tx.status) : { keepTracking: true, nextDelayMs: 1, status: tx.status };
  }

  const schedule = (row: ScheduleFields, errors: number, rateLimited: boolean) =>
    isPollable(ctx, row) ? new Date(Date.now() + delayFor(ctx, adapter, row, errors, rateLimited)) : null;

  let updated: Pick<TransactionRow, 'status' | 'nextPollAt'> | undefined;
  try {
    const result = await askProvider(ctx, adapter, tx);
    const next = learnsNothing(tx, result) ? schedule(tx, 0, false) : undefined;
    const version = next === undefined ? undefined : await recordQuietPoll(ctx, tx, next);
    if (version !== undefined) {
      updated = { ...tx, nextPollAt: next ?? null };
      if (run && next) rememberRow(ctx, { ...tx, pollErrors: 0, rowVersion: version }, run, next);
    } else if (remembered) {
      // Written by somebody else since: what the provider was asked may be out of date, so ask afresh.
      return pollTransaction(ctx, tx.id, run);
    } else {
      updated = await applyStatus(ctx, tx.id, result, (row) => schedule(row, 0, false));
      if (!updated) return STOP(tx.status);
    }
  } catch (caught) {
    const error = caught instanceof Error ? caught : new Error('unknown');
    const nextPollAt = schedule(tx, tx.pollErrors + 1, isProviderError(error) && error.kind === 'RATE_LIMITED');
    await recordPollError(ctx, tx, error, nextPollAt);
    await ctx.metrics?.recordFailure(tx.provider, 'status');
    updated = { ...tx, nextPollAt };
  }

  const next = updated.nextPollAt;
  return {
    keepTracking: next !== null,
    nextDelayMs: next === null ? null : Math.max(1, next.getTime() - Date.now()),
    status: updated.status,
  };
}
