import type { Redis } from 'ioredis';
import type { Config } from '../config';
import type { Logger } from '../log';
import { clientHash } from './client';
import { countRateLimitHit } from './hit-counter';
import type { RateDecision, RateLimiter, RouteClass } from './limiter';

/** Where a limiter's refusals are counted, and where a limiter that cannot decide is told. */
export interface Limiting {
  config: Pick<Config, 'rateLimits' | 'redisPrefix'>;
  redis: Redis;
  log: Pick<Logger, 'warn'>;
}

/** A decision, or undefined when the request goes through undecided (limiter off or down). */
export type Limited = RateDecision | undefined;

/** A refusal is counted for the dashboard's rate-limit activity. */
export function countRefusal(limiting: Omit<Limiting, 'log'>, client: string, decision: RateDecision) {
  if (!decision.allowed) {
    const hashed = clientHash(client, limiting.config.rateLimits.hashKey);
    countRateLimitHit(limiting.redis, limiting.config.redisPrefix, decision.routeClass, hashed);
  }
  return decision;
}

function limiterDown(limiting: Pick<Limiting, 'log'>, error: unknown): undefined {
  limiting.log.warn({ err: error }, 'rate limiter unavailable; request allowed');
  return undefined;
}

/** Counts one request of `client`: at once when it needs no Redis, else a promise that never rejects. */
export function rateLimitClient(
  limiter: RateLimiter,
  limiting: Limiting,
  routeClass: RouteClass,
  client: string,
): Limited | Promise<Limited> {
  try {
    const decision = limiter.consume(routeClass, client);
    if (!(decision instanceof Promise)) return countRefusal(limiting, client, decision);
    return decision.then(
      (decided) => countRefusal(limiting, client, decided),
      (error: unknown) => limiterDown(limiting, error),
    );
  } catch (error) {
    return limiterDown(limiting, error);
  }
}
