import { locks } from '../../drizzle/schema';
import { referralAsGiven } from '../affiliates/referrals';
import { getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import { AppError } from '../errors';
import { feePrices } from '../fees/summary';
import { newLockId } from '../ids';
import { providerAppError } from '../providers/errors';
import type { ResilientAdapter } from '../providers/resilience';
import type { ProviderRoute } from '../providers/types';
import { observedTime, routeTimes } from '../route-times/times';
import { type PublicRoute, presentRoute } from './present';
import { quoteProvider, routeKeyOf } from './quote';
import type { SwapPair } from './validate';

export interface LockRequest {
  pair: SwapPair;
  provider: string;
  routeId?: string;
  referralCode?: string;
  interface: 'v1' | 'legacy';
}

export interface LockedQuote extends PublicRoute {
  lockId: string;
  expiresAt: string;
  ttlMs: number;
}

const MIN_LOCK_TTL_MS = 5_000;

const unavailable = (message: string) =>
  new AppError('PROVIDER_UNAVAILABLE', message, {
    status: 409,
    field: 'provider',
    problems: [{ code: 'PROVIDER_UNAVAILABLE', field: 'provider', message }],
  });

async function selectProvider(ctx: AppContext, request: LockRequest): Promise<ResilientAdapter> {
  const key = request.provider.trim().toUpperCase();
  if (!ctx.providers.isKnown(key)) {
    const message = `Unknown provider "${request.provider}"`;
    throw new AppError('VALIDATION_ERROR', message, {
      problems: [{ code: 'VALIDATION_ERROR', field: 'provider', message }],
    });
  }
  const adapter = ctx.providers.get(key);
  const catalog = await getCatalog(ctx);
  if (!adapter || !catalog.activeSources.has(key)) throw unavailable(`${key} is not active`);
  if (request.pair.exclude.includes(key)) throw unavailable(`${key} is in exclude`);
  if (!adapter.supports(request.pair.src, request.pair.dst)) throw unavailable(`${key} does not serve this pair`);
  return adapter;
}

function chooseRoute(routes: ProviderRoute[], routeId: string | undefined): ProviderRoute | undefined {
  if (routeId) return routes.find((r) => r.routeId === routeId);
  return routes[0];
}

/** The lock lives as long as config allows and the provider's own quote stays valid, less a margin. */
export function lockTtl(ctx: AppContext, route: ProviderRoute, now: number): number {
  const providerLimit = route.expiresAt
    ? route.expiresAt.getTime() - now - ctx.config.lockExpiryMarginMs
    : Number.POSITIVE_INFINITY;
  return Math.min(ctx.config.lockTtlMs, providerLimit);
}

/** Re-quotes the chosen provider and records a short-lived lock on one of its routes, so execute runs on terms the client saw. */
export async function lockRoute(ctx: AppContext, request: LockRequest): Promise<LockedQuote> {
  const adapter = await selectProvider(ctx, request);
  const { pair } = request;
  const outcome = await quoteProvider(ctx, adapter, pair);
  await ctx.metrics?.recordQuotes([outcome]);
  if (!outcome.ok) {
    await ctx.metrics?.recordFailure(adapter.key, 'lock');
    throw providerAppError(outcome.error, adapter.key);
  }
  const route = chooseRoute(outcome.routes, request.routeId);
  if (!route) {
    throw unavailable(
      request.routeId
        ? `Route ${request.routeId} is no longer offered by ${adapter.key}`
        : `${adapter.key} has no route for this pair now`,
    );
  }
  const now = Date.now();
  const ttlMs = Math.floor(lockTtl(ctx, route, now));
  if (ttlMs < MIN_LOCK_TTL_MS) throw unavailable(`${adapter.key}'s quote expires too soon to lock`);
  const expiresAt = new Date(now + ttlMs);
  const prices = feePrices(await getCatalog(ctx), [pair.src, pair.dst]);
  const times = observedTime(await routeTimes(ctx), routeKeyOf(adapter.key, pair), route.estimatedTimeSeconds);
  const publicRoute = presentRoute(adapter.key, route, pair.src, pair.dst, pair.amountBase, prices, times);
  const lockId = newLockId();
  const referral = await referralAsGiven(ctx, request.referralCode);
  await ctx.db.insert(locks).values({
    id: lockId,
    interface: request.interface,
    provider: adapter.key,
    routeId: route.routeId,
    srcChain: pair.src.chain,
    srcAssetId: pair.src.id,
    dstChain: pair.dst.chain,
    dstAssetId: pair.dst.id,
    amount: pair.amount,
    amountBase: pair.amountBase.toString(),
    slippageBps: pair.slippageBps,
    depositor: pair.depositor as string,
    recipient: pair.recipient as string,
    referralCode: referral?.code ?? null,
    referralOwnerId: referral?.ownerId ?? null,
    route: publicRoute as unknown as Record<string, unknown>,
    providerQuote: route.providerQuote,
    expiresAt,
    createdAt: new Date(now),
  });
  return { ...publicRoute, lockId, expiresAt: expiresAt.toISOString(), ttlMs };
}
