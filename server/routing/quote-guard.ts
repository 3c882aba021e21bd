import { createHash } from 'node:crypto';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { ProviderKey } from '../config';
import type { AppContext } from '../context';
import type { ResilientAdapter } from '../providers/resilience';
import type { PublicRoute } from './present';
import type { SwapPair } from './validate';

/** The request as providers see it: what the routes depend on, in a stable order. */
function cacheKey(ctx: AppContext, pair: SwapPair): string {
  const normalized = JSON.stringify([
    pair.src.id,
    pair.dst.id,
    pair.amountBase.toString(),
    pair.slippageBps,
    pair.depositor ?? '',
    pair.recipient ?? '',
    [...pair.exclude].sort(),
  ]);
  return `${ctx.config.redisPrefix}:quote-cache:${createHash('sha256').update(normalized).digest('hex')}`;
}

/** Routes another caller got for the same request a moment ago, shared by every web process. */
export async function cachedRoutes(ctx: AppContext, pair: SwapPair): Promise<PublicRoute[] | undefined> {
  if (!ctx.config.quoteBudget.cacheMs) return undefined;
  const raw = await ctx.redis.get(cacheKey(ctx, pair)).catch(() => null);
  return raw ? (JSON.parse(raw) as PublicRoute[]) : undefined;
}

/** Only a fan-out where every provider answered is kept: a failure must not stick for the next caller. */
export async function cacheRoutes(ctx: AppContext, pair: SwapPair, routes: PublicRoute[]) {
  const ttl = ctx.config.quoteBudget.cacheMs;
  if (!ttl) return;
  await ctx.redis.set(cacheKey(ctx, pair), JSON.stringify(routes), 'PX', ttl).catch(() => {});
}

const shareLimiters = new WeakMap<AppContext, Map<ProviderKey, RateLimiterRedis>>();

function shareLimiter(ctx: AppContext, key: ProviderKey): RateLimiterRedis | undefined {
  const budget = ctx.providers.budget(key);
  if (!budget) return undefined;
  let limiters = shareLimiters.get(ctx);
  if (!limiters) {
    limiters = new Map();
    shareLimiters.set(ctx, limiters);
  }
  let limiter = limiters.get(key);
  if (!limiter) {
    const points = Math.max(1, Math.floor((budget.points * ctx.config.quoteBudget.clientSharePercent) / 100));
    limiter = new RateLimiterRedis({
      // The budgets' connection: the shares of every candidate go out together, in one write.
      storeClient: ctx.providers.redis ?? ctx.redis,
      keyPrefix: `${ctx.config.redisPrefix}:upstream-share:${key}`,
      points,
      duration: budget.windowSeconds,
      insuranceLimiter: new RateLimiterMemory({ points, duration: budget.windowSeconds }),
    });
    limiters.set(key, limiter);
  }
  return limiter;
}

/**
 * Splits the candidates by whether this client still has a share of each provider's upstream
 * budget this window; taking a share counts one call. `retryAfterSeconds` is the soonest a held
 * back provider frees up again.
 */
export async function takeClientShares(
  ctx: AppContext,
  candidates: ResilientAdapter[],
  client: string,
): Promise<{ allowed: ResilientAdapter[]; heldBack: number; retryAfterSeconds: number }> {
  const outcomes = await Promise.all(
    candidates.map(async (adapter) => {
      const limiter = shareLimiter(ctx, adapter.key);
      if (!limiter) return { adapter, ok: true, waitMs: 0 };
      try {
        await limiter.consume(client);
        return { adapter, ok: true, waitMs: 0 };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return { adapter, ok: false, waitMs: rejection.msBeforeNext };
        return { adapter, ok: true, waitMs: 0 };
      }
    }),
  );
  const heldBack = outcomes.filter((o) => !o.ok);
  return {
    allowed: outcomes.filter((o) => o.ok).map((o) => o.adapter),
    heldBack: heldBack.length,
    retryAfterSeconds: Math.max(1, Math.ceil(Math.min(...heldBack.map((o) => o.waitMs), 60_000) / 1000)),
  };
}
