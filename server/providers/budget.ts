import { AsyncLocalStorage } from 'node:async_hooks';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ProviderError } from './errors';
import type { ProviderKey } from './types';

export interface BudgetWindow {
  points: number;
  windowSeconds: number;
}

/**
 * Why an adapter call is made: a quote preview, a swap's own call (lock quote, execute), or a status read.
 * Previews and status reads may not take the reserved end of a window; a swap's own call may.
 */
export type CallPurpose = 'preview' | 'swap' | 'status';

const currentPurpose = new AsyncLocalStorage<CallPurpose>();

/** Runs an adapter call so the upstream requests it makes are charged for this purpose. */
export const withCallPurpose = <T>(purpose: CallPurpose, work: () => Promise<T>): Promise<T> =>
  currentPurpose.run(purpose, work);

/** A provider's published limits as windows, and which window each upstream path is counted in. */
export interface RequestBudgetPlan {
  windows: Record<string, BudgetWindow>;
  windowOf(path: string): string;
}

/** A budget charged one point per upstream HTTP request, in the window its path belongs to. */
export interface RequestBudget {
  charge(path: string): Promise<void>;
}

/** A window of a provider's budget, shared by every process through Redis (this process' memory without it). */
export function createBudgetLimiter(
  { points, windowSeconds }: BudgetWindow,
  redis: Redis | undefined,
  keyPrefix: string,
): RateLimiterMemory | RateLimiterRedis {
  const memory = new RateLimiterMemory({ points, duration: windowSeconds });
  return redis
    ? new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration: windowSeconds, insuranceLimiter: memory })
    : memory;
}

/**
 * Takes one point of `key`'s budget: refused when the window is used up, or when fewer than `reserve`
 * points would be left (the point is given back). A budget store that fails refuses nothing.
 */
export async function takeFromBudget(
  limiter: RateLimiterMemory | RateLimiterRedis,
  key: ProviderKey,
  reserve: number,
  refusal: { reserved: string; usedUp: string },
): Promise<void> {
  try {
    const taken = await limiter.consume(key);
    if (taken.remainingPoints < reserve) {
      await limiter.reward(key, 1).catch(() => {});
      throw new ProviderError(key, 'RATE_LIMITED', refusal.reserved);
    }
  } catch (error) {
    if (error instanceof RateLimiterRes) throw new ProviderError(key, 'RATE_LIMITED', refusal.usedUp);
    if (error instanceof ProviderError) throw error;
  }
}

export function createRequestBudget(
  key: ProviderKey,
  plan: RequestBudgetPlan,
  reservePercent: number,
  redis: Redis | undefined,
  redisPrefix: string,
): RequestBudget {
  const limiters = new Map(
    Object.entries(plan.windows).map(([name, window]) => [
      name,
      {
        limiter: createBudgetLimiter(window, redis, `${redisPrefix}:upstream:${name}`),
        reserved: Math.ceil((window.points * reservePercent) / 100),
      },
    ]),
  );
  return {
    async charge(path) {
      const window = plan.windowOf(path);
      const budget = limiters.get(window);
      if (!budget) return;
      const purpose = currentPurpose.getStore() ?? 'swap';
      await takeFromBudget(budget.limiter, key, purpose === 'swap' ? 0 : budget.reserved, {
        reserved: `the rest of ${key}'s ${window} budget is kept for swaps in flight`,
        usedUp: `client-side ${window} budget for ${key} is used up`,
      });
    },
  };
}

const LIFI_ROUTE_PATHS = /^\/?v1\/(quote|advanced\/routes)(\/|$)/;

/** LI.FI's published limit of every endpoint but `/quote` and `/advanced/routes`, `/status` among them. */
export const LIFI_REQUESTS_PER_MINUTE: BudgetWindow = { points: 100, windowSeconds: 60 };

/**
 * LI.FI's windows (docs.li.fi rate limits): `/quote` and `/advanced/routes` share `routes` (the
 * provider's quote budget, documentedBudget), every other request is counted in `requests`.
 */
export function lifiBudgetPlan(routes: BudgetWindow, requests: BudgetWindow): RequestBudgetPlan {
  return {
    windows: { routes, requests },
    windowOf: (path) => (LIFI_ROUTE_PATHS.test(path) ? 'routes' : 'requests'),
  };
}
