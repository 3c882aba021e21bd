import { and, eq, getTableColumns, is, Param, Placeholder, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type postgres from 'postgres';
import { parseUnits } from 'viem';
import { locks, transactionEvents, transactions } from '../../drizzle/schema';
import type { AssetSnapshot } from '../../drizzle/schema/swaps';
import { type Referral, referralAsGiven } from '../affiliates/referrals';
import { walletKey } from '../catalog/addresses';
import { formatAmount, usdValue } from '../catalog/amounts';
import { getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import { AppError, notFound } from '../errors';
import { type FeePrices, feePrices } from '../fees/summary';
import { newTransactionId, PUBLIC_ID_PATTERN } from '../ids';
import { perKey } from '../per-key';
import { isProviderError, ProviderError, providerAppError } from '../providers/errors';
import type {
  ExecPayload,
  ExecutionResult,
  ProviderAdapter,
  ProviderKey,
  ProviderResult,
  RouteAsset,
} from '../providers/types';
import { activeTracing } from '../tracing/active';
import { announceTransactionChange, fenceTransactionReads } from '../transactions/changes';
import { hashKey } from '../transactions/keys';
import { withDeadline } from './deadline';
import { amountDisplay, type PublicFee, type PublicRoute, presentFee } from './present';

export interface ExecuteRequest {
  lockId: string;
  referralCode?: string;
}

export interface ExecuteResult {
  provider: string;
  lockId: string;
  providerResult: ProviderResult;
  quote: Pick<PublicRoute, 'src' | 'dst' | 'steps' | 'fee' | 'feeBreakdown' | 'estimatedTime' | 'minimumReceived'>;
  fee: PublicFee;
  exec?: ExecPayload;
  transaction: { id: string; status: 'PENDING' };
}

type LockRow = typeof locks.$inferSelect;
/** A lock this execute holds: `claimedAt` is its fencing token (see `CLAIM_SQL`). */
type ClaimedLock = LockRow & { claimedAt: Date };

const snapshot = (asset: RouteAsset): AssetSnapshot => ({
  id: asset.id,
  symbol: asset.symbol,
  contract: asset.isNative ? null : asset.address,
  image: asset.image,
  chain: asset.chain,
  decimals: asset.decimals,
});

const lockColumns = Object.entries(getTableColumns(locks));

/**
 * One conditional UPDATE: exactly one caller wins a live lock, however many race for it. The same
 * statement tells a loser what it lost to (no such lock, expired, used, or held by another execute), so
 * losing costs one round trip (none in the process that holds the claim, see `claimSharedInProcess`).
 * Sent on the driver directly: a loser (19 of 20 racers on a contested lock) reads four columns
 * instead of paying for drizzle mapping a whole all-null lock row.
 *
 * The claim's time is its fencing token: the holder records the swap, or hands the lock back, only
 * while `claimed_at` is still the time it claimed at. Whole milliseconds, so the token survives the
 * round trip through a JS Date exactly; a later claim can never carry the same time, since it comes
 * after the holder's own hand-back or after the sweep found this claim older than
 * EXECUTE_CLAIM_TIMEOUT_MS.
 *
 * The claim commits without waiting for its WAL flush (`synchronous_commit` off for this statement's
 * transaction alone): it only orders racers, which see it at once all the same. A claim a database
 * crash forgets is the case the sweep already handles (the lock is free again, and the holder's record
 * then misses its fencing token and records nothing); the swap's own record still commits durably
 * before anyone is answered. The flush saved is one of the two the winner would otherwise wait for.
 */
const CLAIM_SQL = `with "claimed" as (update "locks"
    set "state" = 'executing', "claimed_at" = date_trunc('milliseconds', clock_timestamp()), "updated_at" = now()
    where "id" = $1 and "state" = 'locked' and "expires_at" > now()
    returning *)
  select "locks"."id" as "found", "claimed"."id" is not null as "won", "locks"."state" as "held_state",
    "locks"."expires_at" <= now() as "held_expired", "claimed".*
  from "locks" left join "claimed" on true, (select set_config('synchronous_commit', 'off', true)) as "async_commit"
  where "locks"."id" = $1`;

/** The winner's row, decoded column by column as drizzle would. */
function lockRow(raw: Record<string, unknown>): LockRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of lockColumns) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as LockRow;
}

/** Why a claim was lost: the lock as the losing statement saw it. */
type Held = 'missing' | 'expired' | 'used' | 'executing';

/** What a claim learnt: the lock it won (with its fencing token in `claimedAt`), else why not. */
type Claim = { lock: ClaimedLock; held?: undefined } | { lock: null; held: Held };

async function claimLock(ctx: AppContext, lockId: string): Promise<Claim> {
  const [found] = await ctx.sql.unsafe(CLAIM_SQL, [lockId], { prepare: true });
  if (!found) return { lock: null, held: 'missing' };
  if (found.won) return { lock: lockRow(found) as ClaimedLock };
  // 'locked' and live as the statement's snapshot saw it, lost all the same: a concurrent claim committed first.
  const held: Held =
    found.held_state === 'locked' && found.held_expired
      ? 'expired'
      : found.held_state === 'used'
        ? 'used'
        : 'executing';
  return { lock: null, held };
}

const LOST_CLAIM: Record<Exclude<Held, 'missing'>, string> = {
  expired: 'This lock has expired; request a new quote and lock',
  used: 'This lock was already executed; request a new quote and lock',
  executing:
    'This lock is being executed by another request; it is handed back if that execute fails, so retry shortly or request a new quote and lock',
};

function lostClaim(held: Held): AppError {
  if (held === 'missing') return notFound('Lock', 'lockId');
  return new AppError('QUOTE_EXPIRED', LOST_CLAIM[held], { field: 'lockId' });
}

/** Per process: the claim of each lock it is asking for or holds, until the swap is recorded or the lock handed back. */
const claimsInProcess = perKey((_ctx: AppContext) => new Map<string, Promise<Claim>>());

/**
 * An execute of a lock this process is already claiming, or holds, shares that claim instead of
 * asking Postgres again: while this process holds it the lock is 'executing' in the database, where
 * every other claim would lose too, and a lock that does not exist never will. Only a shared claim
 * that lost to another process is not taken as the answer (that process may hand the lock back), so
 * sharing can only refuse what the database would refuse; which caller wins stays the database's call.
 */
async function claimSharedInProcess<T>(
  ctx: AppContext,
  lockId: string,
  use: (lock: ClaimedLock) => Promise<T>,
): Promise<T> {
  const claims = claimsInProcess(ctx);
  const pending = claims.get(lockId);
  // Awaited only when there is one: a caller that waited a tick for nothing would miss a claim started meanwhile.
  const shared = pending && (await pending.catch(() => undefined));
  if (shared?.lock) throw lostClaim('executing');
  if (shared?.held === 'missing') throw lostClaim('missing');
  const claim = claimLock(ctx, lockId);
  const mine = !claims.has(lockId);
  if (mine) claims.set(lockId, claim);
  try {
    const won = await claim;
    if (!won.lock) throw lostClaim(won.held);
    return await use(won.lock);
  } finally {
    if (mine) claims.delete(lockId);
  }
}

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

/**
 * A provider hiccup never burns a lock: the claim is handed back while the lock is still valid. Only
 * this execute's own claim: once the sweep has handed it back, the lock may be someone else's.
 */
async function releaseLock(ctx: AppContext, lock: ClaimedLock) {
  await ctx.db
    .update(locks)
    .set({ state: 'locked', claimedAt: null, updatedAt: sql`now()` })
    .where(and(eq(locks.id, lock.id), eq(locks.state, 'executing'), eq(locks.claimedAt, lock.claimedAt)));
}

/**
 * What the user signs must hold the terms they locked: a payload enforcing a smaller minimum than the
 * lock showed is refused (the lock is handed back, so they can re-lock at today's price).
 */
function holdsLockedTerms(lock: LockRow, route: PublicRoute, dst: RouteAsset, result: ExecutionResult) {
  if (route.minimumReceived === undefined || result.dstMinAmountBase === undefined) return;
  const locked = parseUnits(route.minimumReceived, dst.decimals);
  if (result.dstMinAmountBase < locked) {
    throw new ProviderError(
      lock.provider as ProviderKey,
      'TERMS_CHANGED',
      `payload enforces ${result.dstMinAmountBase}, below the locked minimum ${locked}`,
    );
  }
}

type Catalog = Awaited<ReturnType<typeof getCatalog>>;

/** What the provider answered for a claimed lock, with the assets it was asked about. */
interface Execution {
  lock: ClaimedLock;
  adapter: ProviderAdapter;
  src: RouteAsset;
  dst: RouteAsset;
  route: PublicRoute;
  transactionId: string;
  result: ExecutionResult;
  prices: FeePrices;
}

/** Claim, call the provider, record the transaction, schedule its tracking, and present it. */
export async function executeLock(ctx: AppContext, request: ExecuteRequest): Promise<ExecuteResult> {
  if (!PUBLIC_ID_PATTERN.test(request.lockId) || !request.lockId.startsWith('lk_')) throw notFound('Lock', 'lockId');
  return claimSharedInProcess(ctx, request.lockId, async (lock) => {
    const execution = await callProvider(ctx, lock, await getCatalog(ctx));
    const terms = agreedTerms(execution);
    const answer = present(execution, terms);
    const { trackable } = await record(ctx, execution, request, terms, answer);
    activeTracing()?.annotate({
      'switchyard.transaction_id': execution.transactionId,
      'switchyard.provider': lock.provider,
    });
    await fenceTransactionReads(ctx, execution.transactionId);
    // Not waited for: the swap is committed, these calls never throw, and what they start is also reached
    // without them (a watcher re-reads at its heartbeat, the sweep schedules a swap whose poll is due).
    // The winner's answer is the last of a contested lock's answers, so every round trip here is the race's.
    void announceTransactionChange(ctx, execution.transactionId, true);
    if (trackable) void scheduleTracking(ctx, execution.transactionId);
    return answer;
  });
}

/** The provider's execute under its deadline; any failure hands the claim back before it is reported. */
async function callProvider(ctx: AppContext, lock: ClaimedLock, catalog: Catalog): Promise<Execution> {
  const adapter = ctx.providers.get(lock.provider);
  const src = catalog.assetById(lock.srcAssetId);
  const dst = catalog.assetById(lock.dstAssetId);
  const route = lock.route as unknown as PublicRoute;
  const transactionId = newTransactionId();
  try {
    if (!adapter || !src || !dst)
      throw new ProviderError(lock.provider as ProviderKey, 'UNAVAILABLE', 'provider or asset no longer active');
    const deadline = ctx.config.executeDeadlineMs;
    const result = await withDeadline(
      deadline,
      (signal) =>
        adapter.execute(
          {
            src,
            dst,
            amountBase: BigInt(lock.amountBase),
            slippageBps: lock.slippageBps,
            depositor: lock.depositor,
            recipient: lock.recipient,
            routeId: lock.routeId,
            providerQuote: lock.providerQuote,
            transactionId,
          },
          signal,
        ),
      () => new ProviderError(adapter.key, 'UNAVAILABLE', `no answer within ${deadline} ms`),
    );
    holdsLockedTerms(lock, route, dst, result);
    return { lock, adapter, src, dst, route, transactionId, result, prices: feePrices(catalog, [src, dst]) };
  } catch (error) {
    await releaseLock(ctx, lock);
    await ctx.metrics?.recordFailure(lock.provider, 'execute');
    if (isProviderError(error)) {
      ctx.log.warn({ provider: lock.provider, kind: error.kind, detail: error.message }, 'provider execute failed');
    }
    throw providerAppError(error, lock.provider);
  }
}

/** A code given at execute replaces the lock's, and is checked the same way. */
async function referralFor(ctx: AppContext, lock: LockRow, request: ExecuteRequest): Promise<Referral | null> {
  if (request.referralCode !== undefined) return referralAsGiven(ctx, request.referralCode);
  return lock.referralCode ? { code: lock.referralCode, ownerId: lock.referralOwnerId } : null;
}

const DIVISION_BY_ZERO = '22012';

/** The fee and destination amount the provider's answer settles on, else those of the locked route. */
function agreedTerms({ result, dst, route, prices }: Execution): Terms {
  return {
    fee: result.fee ? presentFee(result.fee, prices) : route.fee,
    dstAmountBase: result.dstAmountBase ?? parseUnits(route.dst.amount, dst.decimals),
  };
}

interface Terms {
  fee: PublicFee;
  dstAmountBase: bigint;
}

/**
 * The transaction (with the answer kept for the swapper to see again), its first event and the lock
 * marked used: all or nothing.
 */
async function record(
  ctx: AppContext,
  execution: Execution,
  request: ExecuteRequest,
  terms: Terms,
  answer: ExecuteResult,
) {
  const { lock, adapter, src, dst, route, transactionId, result } = execution;
  const { fee, dstAmountBase } = terms;
  const referral = await referralFor(ctx, lock, request);
  const trackable = adapter.canTrack(result.trackingContext, '');
  // The provider sent the source transaction itself: what is left is waiting for it to confirm.
  const submitted = !!result.providerResult.txHash;
  const srcUsd = usdValue(BigInt(lock.amountBase), src.decimals, src.priceUsd) ?? (route.src.usd || null);

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
  };
  const event: EventInsert = {
    transactionId,
    type: 'created',
    toStatus: 'PENDING',
    message: `Executed lock ${lock.id} through ${lock.provider}`,
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

/** The recorded swap is already safe: the sweep finds it by its due poll time when the queue cannot take it. */
async function scheduleTracking(ctx: AppContext, transactionId: string) {
  await ctx.tracking?.scheduleNew(transactionId).catch((error) => {
    ctx.log.warn({ err: error, transactionId }, 'could not schedule tracking; the sweep will pick it up');
  });
}

function present(execution: Execution, { fee, dstAmountBase }: Terms): ExecuteResult {
  const { lock, dst, route, transactionId, result } = execution;
  return {
    provider: lock.provider,
    lockId: lock.id,
    providerResult: result.providerResult,
    quote: {
      src: route.src,
      dst: result.dstAmountBase === undefined ? { ...route.dst } : amountDisplay(dstAmountBase, dst, undefined),
      ...(result.dstMinAmountBase !== undefined
        ? { minimumReceived: formatAmount(result.dstMinAmountBase, dst.decimals) }
        : route.minimumReceived !== undefined
          ? { minimumReceived: route.minimumReceived }
          : {}),
      steps: route.steps,
      fee,
      feeBreakdown: { total: { usd: fee.usd, formatted: fee.formatted, currency: fee.currency }, items: fee.details },
      estimatedTime: route.estimatedTime,
    },
    fee,
    ...(result.exec ? { exec: result.exec } : {}),
    transaction: { id: transactionId, status: 'PENDING' },
  };
}
