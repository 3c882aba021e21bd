import { parseUnits } from 'viem';
import { formatAmount } from '../catalog/amounts';
import { getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import { notFound } from '../errors';
import { feePrices } from '../fees/summary';
import { newTransactionId, PUBLIC_ID_PATTERN } from '../ids';
import { isProviderError, ProviderError, providerAppError } from '../providers/errors';
import type { ExecPayload, ExecutionResult, ProviderKey, ProviderResult, RouteAsset } from '../providers/types';
import { activeTracing } from '../tracing/active';
import { announceTransactionChange, fenceTransactionReads } from '../transactions/changes';
import { withDeadline } from './deadline';
import { type ClaimedLock, claimSharedInProcess, type LockRow, releaseLock } from './execute-claim';
import { type Execution, record, type Terms } from './execute-record';
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

/** Claim, call the provider, record the transaction, schedule its tracking, and present it. */
export async function executeLock(ctx: AppContext, request: ExecuteRequest): Promise<ExecuteResult> {
  if (!PUBLIC_ID_PATTERN.test(request.lockId) || !request.lockId.startsWith('lk_')) throw notFound('Lock', 'lockId');
  return claimSharedInProcess(ctx, request.lockId, async (lock) => {
    const execution = await callProvider(ctx, lock, await getCatalog(ctx));
    const terms = agreedTerms(execution);
    const answer = present(execution, terms);
    const { trackable } = await record(ctx, execution, request.referralCode, terms, answer);
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

/** The fee and destination amount the provider's answer settles on, else those of the locked route. */
function agreedTerms({ result, dst, route, prices }: Execution): Terms {
  return {
    fee: result.fee ? presentFee(result.fee, prices) : route.fee,
    dstAmountBase: result.dstAmountBase ?? parseUnits(route.dst.amount, dst.decimals),
  };
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
