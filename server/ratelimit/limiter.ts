import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config';

/** The rate-limit budget a public endpoint draws on. */
export type RouteClass = keyof Config['rateLimits']['perClient'];

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  routeClass: RouteClass;
  windowSeconds: number;
}

export interface RateLimiter {
  consume(routeClass: RouteClass, client: string): Promise<RateDecision>;
}

/**
 * Fixed windows per client and route class in Redis, shared by every web instance. When Redis
 * is unreachable the library's insurance limiter (per process, in memory) takes over.
 */
export function createRateLimiter(config: Config, redis: Redis): RateLimiter {
  const { windowSeconds, perClient } = config.rateLimits;
  const limiters = Object.fromEntries(
    (Object.keys(perClient) as RouteClass[]).map((routeClass) => [
      routeClass,
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${config.redisPrefix}:rl:${routeClass}`,
        points: perClient[routeClass],
        duration: windowSeconds,
        // A client already over the limit is refused from memory until its window ends: no Redis
        // round trip for traffic that cannot get through anyway.
        inMemoryBlockOnConsumed: perClient[routeClass] + 1,
        inMemoryBlockDuration: windowSeconds,
        insuranceLimiter: new RateLimiterMemory({ points: perClient[routeClass], duration: windowSeconds }),
      }),
    ]),
  ) as Record<RouteClass, RateLimiterRedis>;

  return {
    async consume(routeClass, client) {
      const limit = perClient[routeClass];
      const decide = (res: RateLimiterRes, allowed: boolean): RateDecision => ({
        allowed,
        limit,
        remaining: Math.max(0, res.remainingPoints),
        resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
        routeClass,
        windowSeconds,
      });
      try {
        return decide(await limiters[routeClass].consume(client), true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decide(rejection, false);
        throw rejection;
      }
    },
  };
}

/** X-RateLimit-* (reset in seconds) plus the IETF RateLimit-Policy / RateLimit fields. */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(d.limit),
    'x-ratelimit-remaining': String(d.remaining),
    'x-ratelimit-reset': String(d.resetSeconds),
    'ratelimit-policy': `"${d.routeClass}";q=${d.limit};w=${d.windowSeconds}`,
    ratelimit: `"${d.routeClass}";r=${d.remaining};t=${d.resetSeconds}`,
  };
  if (!d.allowed) headers['retry-after'] = String(d.resetSeconds);
  return headers;
}
