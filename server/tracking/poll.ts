import { and, eq, sql } from 'drizzle-orm';
import { transactionEvents, transactions } from '../../drizzle/schema';
import { keep } from '../bounded-map';
import { formatAmount } from '../catalog/amounts';
import { getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import { perKey } from '../per-key';
import { isProviderError, ProviderError } from '../providers/errors';
import type { ProviderAdapter, RouteAsset, StatusResult, TxStatus } from '../providers/types';
import { withDeadline } from '../routing/deadline';
import { afterTransactionChange } from '../transactions/changes';
import { hashKey } from '../transactions/keys';
import { canTransition, isFinal, substatusFor } from '../transactions/transitions';
import { nextPollDelay, REFUND_WATCH_INTERVAL_MS } from './cadence';
import { claimedHash, claimWithoutLookup, settleHashClaim } from './hash-claims';

type TransactionRow = typeof transactions.$inferSelect;

/** The columns a poll reads: what the provider is asked with, and what an answer is compared against. */
const POLL_FIELDS = [
  'id',
  'provider',
  'status',
  'substatus',
  'stale',
  'finalizedAt',
  'createdAt',
  'trackingContext',
  'hash',
  'hashKey',
  'inboundHash',
  'inboundHashKey',
  'outboundHash',
  'outboundHashKey',
  'hashVerifiedAt',
  'walletAddress',
  'recipientWalletAddress',
  'srcAsset',
  'dstAsset',
  'srcAmountBase',
  'dstAmountBase',
  'dstAmount',
  'feeAmount',
  'feeCurrency',
  'feeAmountUsd',
  'feeDetails',
  'pollErrors',
  'lastUpstreamState',
] as const satisfies readonly (keyof TransactionRow)[];

type PollFields = Pick<TransactionRow, (typeof POLL_FIELDS)[number]>;
/** A row as a poll reads it, with its version: Postgres' `xmin`, which every update of the row changes. */
type PollRow = PollFields & { rowVersion: string };

const preparePollRead = (ctx: AppContext) =>
  ctx.db
    .select({
      ...Object.fromEntries(POLL_FIELDS.map((field) => [field, transactions[field]])),
      rowVersion: sql<string>`${transactions}.xmin::text`.as('row_version'),
    })
    .from(transactions)
    .where(eq(transactions.id, sql.placeholder('id')))
    .limit(1)
    .prepare('tx_poll_read');

const pollRead = perKey(preparePollRead);

/** The worker's hottest read: only the columns a poll uses, so none of the row's large JSON is decoded. */
async function readForPoll(ctx: AppContext, id: string): Promise<PollRow | undefined> {
  const [row] = await pollRead(ctx).execute({ id });
  return row as PollRow | undefined;
}
type EventInsert = typeof transactionEvents.$inferInsert;

export interface PollOutcome {
  /** Keep a job for this transaction, and poll again after `nextDelayMs`. */
  keepTracking: boolean;
  nextDelayMs: number | null;
  status: TxStatus;
}

const STOP = (status: TxStatus): PollOutcome => ({ keepTracking: false, nextDelayMs: null, status });

/** Whether polling still has something to learn: pending, or failed recently enough for a refund to follow. */
export function isPollable(
  ctx: AppContext,
  tx: Pick<TransactionRow, 'status' | 'finalizedAt'>,
  now = Date.now(),
): boolean {
  if (tx.status === 'PENDING') return true;
  if (tx.status !== 'FAILED' || !tx.finalizedAt) return false;
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

/** One status read for a transaction, about its own hash or (at track) a hash a client just reported. */
export async function askProvider(
  ctx: AppContext,
  adapter: ProviderAdapter,
  tx: PollFields,
  hash = tx.hash,
): Promise<StatusResult> {
  const catalog = await getCatalog(ctx);
  const deadline = ctx.config.providers[adapter.key].deadlineMs;
  return withDeadline(
    deadline,
    (signal) =>
      adapter.status(
        {
          trackingContext: tx.trackingContext,
          hash,
          inboundHash: tx.inboundHash,
          depositor: tx.walletAddress,
          recipient: tx.recipientWalletAddress,
          srcAmountBase: BigInt(tx.srcAmountBase),
          src: assetFromSnapshot(tx, 'src', tx.srcAsset.id ? catalog.assetById(tx.srcAsset.id) : undefined),
          dst: assetFromSnapshot(tx, 'dst', tx.dstAsset.id ? catalog.assetById(tx.dstAsset.id) : undefined),
          createdAt: tx.createdAt,
        },
        signal,
      ),
    () => new ProviderError(adapter.key, 'UNAVAILABLE', `no status within ${deadline} ms`),
  );
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

type NextPoll = (row: TransactionRow) => Date | null;

/** What an answer that counts changes: hashes, amounts, fee and the status transition, with their events. */
function whatCounts(tx: PollFields, result: StatusResult, upstream: Record<string, unknown>) {
  const transactionId = tx.id;
  const events: EventInsert[] = [];
  const patch: Partial<typeof transactions.$inferInsert> = {};
  // A swap without a hash (never reported, or a wrong one withdrawn) takes the one its provider saw arrive.
  if (result.inboundHash && !tx.hash) {
    patch.hash = result.inboundHash;
    patch.hashKey = hashKey(result.inboundHash);
  }
  if (result.inboundHash && !tx.inboundHash) {
    patch.inboundHash = result.inboundHash;
    patch.inboundHashKey = hashKey(result.inboundHash);
    events.push({
      transactionId,
      type: 'hash_updated',
      message: `Inbound transaction ${result.inboundHash} seen by ${tx.provider}`,
      data: { inboundHash: result.inboundHash },
    });
  }
  if (result.outboundHash && result.outboundHash !== tx.outboundHash) {
    patch.outboundHash = result.outboundHash;
    patch.outboundHashKey = hashKey(result.outboundHash);
    events.push({
      transactionId,
      type: 'hash_updated',
      message: `Outbound transaction ${result.outboundHash}`,
      data: { outboundHash: result.outboundHash },
    });
  }
  if (result.dstAmountBase !== undefined && result.status !== 'PENDING') {
    const decimals = tx.dstAsset.decimals ?? 18;
    patch.dstAmountBase = result.dstAmountBase.toString();
    patch.dstAmount = formatAmount(result.dstAmountBase, decimals);
  }
  if (result.fee) {
    patch.feeAmount = result.fee.amount;
    patch.feeCurrency = result.fee.currency;
    patch.feeAmountUsd = result.fee.amountUsd === null ? null : String(result.fee.amountUsd);
    if (result.fee.details !== undefined) patch.feeDetails = result.fee.details;
  }
  const statusHolds = result.status === tx.status || canTransition(tx.status, result.status);
  const substatus = statusHolds ? substatusFor(result.status, result.substatus) : undefined;
  if (substatus && substatus !== tx.substatus) patch.substatus = substatus;
  if (canTransition(tx.status, result.status)) {
    patch.status = result.status;
    if (isFinal(result.status)) patch.finalizedAt = new Date();
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
        message: `Partial fill: ${result.partial.delivered} swapped and delivered, ${result.partial.refunded} refunded`,
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
function learnsNothing(tx: PollFields, result: StatusResult): boolean {
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
 * Counts a poll and sets the next one, only if the row is still the version the poll read. The
 * transaction itself did not change, so `updatedAt` (public) stays: its status answer, and the
 * answer's ETag, stay the same bytes until something a client can see changes.
 */
const prepareQuietPoll = (ctx: AppContext) =>
  ctx.db
    .update(transactions)
    .set({
      pollAttempts: sql`${transactions.pollAttempts} + 1`,
      pollErrors: 0,
      lastPolledAt: sql`now()`,
      lastPollError: null,
      nextPollAt: sql`${sql.placeholder('next')}::timestamptz`,
    })
    .where(
      and(eq(transactions.id, sql.placeholder('id')), sql`${transactions}.xmin::text = ${sql.placeholder('version')}`),
    )
    .returning({ rowVersion: sql<string>`${transactions}.xmin::text` })
    .prepare('tx_quiet_poll');

const quietPoll = perKey(prepareQuietPoll);

/**
 * The common poll that learns nothing new costs one write beside the read: no row lock, no
 * transaction. It applies only while nobody wrote the row since it was read, and answers the row's
 * new version; otherwise (undefined) the caller takes the locked path.
 */
async function recordQuietPoll(ctx: AppContext, tx: PollRow, nextPollAt: Date | null): Promise<string | undefined> {
  const [written] = await quietPoll(ctx).execute({
    id: tx.id,
    version: tx.rowVersion,
    next: nextPollAt?.toISOString() ?? null,
  });
  return (written as { rowVersion: string } | undefined)?.rowVersion;
}

/** The BullMQ run a poll is: its job's start count, which says whether another worker ran the job since. */
export interface TrackingRun {
  attempt: number;
}

/** Rows remembered per worker process as its own quiet polls wrote them; the oldest dropped first past this. */
const ROWS_REMEMBERED = 10_000;

const rememberedRows = perKey((_ctx: AppContext) => new Map<string, { row: PollRow; attempt: number }>());

/**
 * The row as this worker's last poll of it wrote it, if that poll was the job's previous run, so no
 * other worker has polled it since. Anybody else's write since then still makes it out of date,
 * which the quiet write's version check finds. Taken out: kept again only by the next quiet write.
 */
function takeRememberedRow(ctx: AppContext, transactionId: string, run: TrackingRun | undefined) {
  const rows = rememberedRows(ctx);
  const remembered = rows.get(transactionId);
  if (!remembered) return undefined;
  // Any poll of the transaction makes the row out of date, one outside a job too.
  rows.delete(transactionId);
  return run && remembered.attempt + 1 === run.attempt ? remembered.row : undefined;
}

/**
 * Applies one status answer under a row lock: allowed transitions only, hashes, amounts, fee,
 * events, and the next poll time, all in the one update.
 */
async function applyStatus(
  ctx: AppContext,
  transactionId: string,
  result: StatusResult,
  nextPoll: NextPoll,
): Promise<TransactionRow | undefined> {
  let changed = false;
  const applied = await ctx.db.transaction(async (db) => {
    const [row] = await db.select().from(transactions).where(eq(transactions.id, transactionId)).for('update');
    if (!row) return undefined;
    const claim = await settleHashClaim(db, row, result);
    const tx = { ...row, ...claim.patch } as TransactionRow;
    const events: EventInsert[] = [];
    const upstream = {
      upstreamState: result.upstreamState,
      ...(result.substatus ? { substatus: result.substatus } : {}),
    };
    const patch: Partial<typeof transactions.$inferInsert> = {
      ...claim.patch,
      pollAttempts: tx.pollAttempts + 1,
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
      const learnt = whatCounts(tx, result, upstream);
      Object.assign(patch, learnt.patch);
      events.push(...learnt.events);
    }
    patch.nextPollAt = nextPoll({ ...tx, ...patch } as TransactionRow);
    const [updated] = await db.update(transactions).set(patch).where(eq(transactions.id, transactionId)).returning();
    if (events.length) await db.insert(transactionEvents).values(events);
    changed = events.length > 0 || patch.substatus !== undefined;
    return updated;
  });
  if (changed) await afterTransactionChange(ctx, transactionId);
  return applied;
}

async function recordPollError(
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

  const schedule = (
    row: Pick<TransactionRow, 'status' | 'finalizedAt' | 'createdAt'>,
    errors: number,
    rateLimited: boolean,
  ) => (isPollable(ctx, row) ? new Date(Date.now() + delayFor(ctx, adapter, row, errors, rateLimited)) : null);

  let updated: Pick<TransactionRow, 'status' | 'nextPollAt'> | undefined;
  try {
    const result = await askProvider(ctx, adapter, tx);
    const next = learnsNothing(tx, result) ? schedule(tx, 0, false) : undefined;
    const version = next === undefined ? undefined : await recordQuietPoll(ctx, tx, next);
    if (version !== undefined) {
      updated = { ...tx, nextPollAt: next ?? null };
      if (run && next) {
        keep(
          rememberedRows(ctx),
          tx.id,
          { row: { ...tx, pollErrors: 0, rowVersion: version }, attempt: run.attempt },
          ROWS_REMEMBERED,
        );
      }
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
