import { and, eq, is, Param, Placeholder, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type postgres from 'postgres';
import { locks, transactionEvents, transactions } from '../../drizzle/schema';
import type { AssetSnapshot } from '../../drizzle/schema/swaps';
import { type Referral, referralAsGiven } from '../affiliates/referrals';
import { walletKey } from '../catalog/addresses';
import { formatAmount, usdValue } from '../catalog/amounts';
import { providerName } from '../catalog/names';
import type { AppContext } from '../context';
import { AppError } from '../errors';
import type { FeePrices } from '../fees/summary';
import type { ExecutionResult, ProviderAdapter, RouteAsset } from '../providers/types';
import { expectationAtExecute } from '../route-times/expect';
import { hashKey } from '../transactions/keys';
import { type ClaimedLock, type LockRow, releaseLock } from './execute-claim';
import type { PublicFee, PublicRoute } from './present';

/** What the provider answered for a claimed lock, with the assets it was asked about. */
export interface Execution {
  lock: ClaimedLock;
  adapter: ProviderAdapter;
  src: RouteAsset;
  dst: RouteAsset;
  route: PublicRoute;
  transactionId: string;
  result: ExecutionResult;
  prices: FeePrices;
}

/** The fee and destination amount a swap is recorded and answered with. */
export interface Terms {
  fee: PublicFee;
  dstAmountBase: bigint;
}

const snapshot = (asset: RouteAsset): AssetSnapshot => ({
  id: asset.id,
  symbol: asset.symbol,
  contract: asset.isNative ? null : asset.address,
  image: asset.image,
  chain: asset.chain,
  decimals: asset.decimals,
});

type TransactionInsert = typeof transactions.$inferInsert;
type EventInsert = typeof transactionEvents.$inferInsert;

interface RecordValues {
  lockId: string;
  /** The claim's fencing token, as text: a bare placeholder gets no column encoder. */
  claimedAt: string;
  transactionId: string;
  tx: TransactionInsert;
  ev: EventInsert;
}

const recordStatements = new WeakMap<AppContext, ReturnType<typeof prepareRecord>>();

/** Placeholders named `<prefix>.<key>` for every key of a row's values. */
const placeholdersFor = <T extends object>(prefix: 'tx' | 'ev', values: T) =>
  Object.fromEntries(Object.keys(values).map((key) => [key, sql.placeholder(`${prefix}.${key}`)])) as T;

/**
 * The recording statement's text and parameter list, built by drizzle once per process with a
 * placeholder for every value (the rows always carry the same keys); each execute only fills them
 * in, encoding each value with its column's own mapper as drizzle does.
 */
function prepareRecord({ db }: AppContext, sampleTransaction: TransactionInsert, sampleEvent: EventInsert) {
  const used = db
    .update(locks)
    .set({
      state: 'used',
      usedAt: sql`now()`,
      transactionId: sql`${sql.placeholder('transactionId')}`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(locks.id, sql.placeholder('lockId')),
        eq(locks.state, 'executing'),
        eq(locks.claimedAt, sql.placeholder('claimedAt')),
      ),
    )
    .returning({ id: locks.id });
  const created = db.insert(transactions).values(placeholdersFor('tx', sampleTransaction));
  const noted = db.insert(transactionEvents).values(placeholdersFor('ev', sampleEvent));
  const query = new PgDialect().sqlToQuery(
    sql`with used as (${used.getSQL()}), created as (${created.getSQL()}), noted as (${noted.getSQL()})
        select 1 / count(*) as claimed from used`,
  );
  const fill = (values: RecordValues) =>
    query.params.map((param): unknown => {
      const placeholder =
        is(param, Param) && is(param.value, Placeholder) ? param.value : is(param, Placeholder) ? param : undefined;
      if (!placeholder) return param;
      const [group, key] = placeholder.name.split('.') as [keyof RecordValues, string | undefined];
      const value = key === undefined ? values[group] : (values[group] as Record<string, unknown>)[key];
      if (value === null || value === undefined) return null;
      return is(param, Param) ? param.encoder.mapToDriverValue(value) : value;
    }) as postgres.ParameterOrJSON<never>[];
  return { sql: query.sql, fill };
}

/** A code given at execute replaces the lock's, and is checked the same way. */
async function referralFor(ctx: AppContext, lock: LockRow, referralCode: string | undefined): Promise<Referral | null> {
  if (referralCode !== undefined) return referralAsGiven(ctx, referralCode);
  return lock.referralCode ? { code: lock.referralCode, ownerId: lock.referralOwnerId } : null;
}

const DIVISION_BY_ZERO = '22012';

/**
 * The transaction (with the answer kept for the swapper to see again), its first event and the lock
 * marked used: all or nothing.
 */
export async function record(
  ctx: AppContext,
  execution: Execution,
  referralCode: string | undefined,
  terms: Terms,
  answer: object,
) {
  const { lock, adapter, src, dst, route, transactionId, result } = execution;
  const { fee, dstAmountBase } = terms;
  const referral = await referralFor(ctx, lock, referralCode);
  const trackable = adapter.canTrack(result.trackingContext, '');
  // The provider sent the source transaction itself: what is left is waiting for it to confirm.
  const submitted = !!result.providerResult.txHash;
  const srcUsd = usdValue(BigInt(lock.amountBase), src.decimals, src.priceUsd) ?? (route.src.usd || null);
  const expected = expectationAtExecute(ctx, route.observedTime, new Date());

  const transaction: TransactionInsert = {
    id: transactionId,
    lockId: lock.id,
    provider: lock.provider,
    status: 'PENDING',
    substatus: submitted ? 'WAITING_SOURCE_CONFIRMATIONS' : null,
    hash: result.providerResult.txHash ?? '',
    inboundHash: result.providerResult.txHash ?? '',
    hashKey: hashKey(result.providerResult.txHash),
    inboundHashKey: hashKey(result.providerResult.txHash),
    srcChain: src.chain,
    dstChain: dst.chain,
    srcAsset: snapshot(src),
    dstAsset: snapshot(dst),
    srcAmount: lock.amount,
    dstAmount: formatAmount(dstAmountBase, dst.decimals),
    srcAmountBase: lock.amountBase,
    dstAmountBase: dstAmountBase.toString(),
    amountUsd: srcUsd,
    walletAddress: lock.depositor,
    recipientWalletAddress: lock.recipient,
    walletKey: walletKey(src.chainType, lock.depositor),
    recipientWalletKey: walletKey(dst.chainType, lock.recipient),
    quotedFeeUsd: fee.usd === null ? null : String(fee.usd),
    feeDetails: fee.details,
    referralCode: referral?.code ?? null,
    referralOwnerId: referral?.ownerId ?? null,
    quote: route as unknown as Record<string, unknown>,
    providerResult: result.providerResult as unknown as Record<string, unknown>,
    execution: answer as unknown as Record<string, unknown>,
    trackingContext: result.trackingContext,
    nextPollAt: trackable ? new Date() : null,
    depositDeadline: submitted ? null : (result.depositDeadline ?? new Date(Date.now() + ctx.config.deposits.windowMs)),
    expectedBy: expected?.expectedBy ?? null,
    lateAt: expected?.lateAt ?? null,
  };
  const event: EventInsert = {
    transactionId,
    type: 'created',
    toStatus: 'PENDING',
    message: `Executed lock ${lock.id} through ${providerName(lock.provider)}`,
    data: {
      lockId: lock.id,
      referralCode: referral?.code ?? null,
      execution: result.providerResult.execution,
      trackable,
      ...(submitted ? { substatus: 'WAITING_SOURCE_CONFIRMATIONS' } : {}),
    },
  };
  let statement = recordStatements.get(ctx);
  if (!statement) {
    statement = prepareRecord(ctx, transaction, event);
    recordStatements.set(ctx, statement);
  }
  // One statement, so one round trip and all or nothing: when the claim is no longer ours the
  // division by zero aborts it, inserts included.
  const values = {
    lockId: lock.id,
    claimedAt: lock.claimedAt.toISOString(),
    transactionId,
    tx: transaction,
    ev: event,
  };
  await ctx.sql.unsafe(statement.sql, statement.fill(values), { prepare: true }).catch(async (error) => {
    if ((error as { code?: string }).code === DIVISION_BY_ZERO) throw claimOutlived(ctx);
    // Lost on the way (a pooler or database restart): if it did not commit, the lock goes back now
    // rather than after the sweep's EXECUTE_CLAIM_TIMEOUT_MS; if it did, the lock is used and this matches nothing.
    await releaseLock(ctx, lock).catch(() => {});
    throw error;
  });
  return { trackable };
}

/**
 * The sweep handed this execute's claim back (it outlived EXECUTE_CLAIM_TIMEOUT_MS, so was taken for
 * a crash's) before the swap was recorded: nothing was recorded, and the lock is free again unless it
 * expired or another execute has taken it since, which a retry is told.
 */
function claimOutlived(ctx: AppContext): AppError {
  return new AppError(
    'SERVICE_UNAVAILABLE',
    `This execute took longer than its claim on the lock allows (${ctx.config.worker.executeClaimTimeoutMs} ms) and recorded nothing; execute the lock again`,
    { field: 'lockId' },
  );
}
