import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
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
  /** The client is over its limit and refused from memory until its window ends: no Redis involved. */
  blocked(routeClass: RouteClass, client: string): boolean;
}

/**
 * A fixed window per key: starts the window on first use, adds `ARGV[1]` points and answers the
 * points used so far and the window's remaining ms. The same script and key layout as
 * rate-limiter-flexible's RateLimiterRedis, so processes of either version share one count.
 */
const INCR_TTL_SCRIPT = `redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX') \
local consumed = redis.call('incrby', KEYS[1], ARGV[1]) \
local ttl = redis.call('pttl', KEYS[1]) \
if ttl == -1 then \
  redis.call('expire', KEYS[1], ARGV[2]) \
  ttl = 1000 * ARGV[2] \
end \
return {consumed, ttl} \
`;

const COMMAND = 'switchyardRateLimitIncr';

type IncrTtl = (key: string, points: number, windowSeconds: number) => Promise<[number, number]>;

/** Requests of one key waiting for the count in Redis: the first one's round trip carries the rest. */
interface KeyQueue {
  waiting: ((result: { consumed: number; msLeft: number } | Error) => void)[];
  inFlight: boolean;
}

/** Keys over their limit are refused from memory; expired entries are dropped once the map grows past this. */
const BLOCKED_SWEEP_SIZE = 10_000;

/**
 * Fixed windows per client and route class in Redis, shared by every web instance. When Redis
 * is unreachable a per-process in-memory limiter takes over.
 *
 * A request costs at most one Redis round trip, and concurrent requests of one client share one:
 * while a key's count is on its way, the requests that arrive meanwhile wait and are counted
 * together by the next call (INCRBY n), each getting the position it would have had alone. A
 * client already over its limit is refused from memory until its window ends.
 */
export function createRateLimiter(config: Config, redis: Redis): RateLimiter {
  const { windowSeconds, perClient } = config.rateLimits;
  if (!(COMMAND in redis)) redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: INCR_TTL_SCRIPT });
  const incrTtl = (redis as unknown as Record<typeof COMMAND, IncrTtl>)[COMMAND].bind(redis);
  const insurance = Object.fromEntries(
    (Object.keys(perClient) as RouteClass[]).map((routeClass) => [
      routeClass,
      new RateLimiterMemory({ points: perClient[routeClass], duration: windowSeconds }),
    ]),
  ) as Record<RouteClass, RateLimiterMemory>;
  const queues = new Map<string, KeyQueue>();
  const blockedUntil = new Map<string, number>();

  const decision = (routeClass: RouteClass, position: number, msLeft: number): RateDecision => {
    const limit = perClient[routeClass];
    return {
      allowed: position <= limit,
      limit,
      remaining: Math.max(0, limit - position),
      resetSeconds: Math.max(1, Math.ceil(msLeft / 1000)),
      routeClass,
      windowSeconds,
    };
  };

  const block = (key: string, until: number) => {
    if (blockedUntil.size >= BLOCKED_SWEEP_SIZE) {
      const now = Date.now();
      for (const [k, end] of blockedUntil) if (end <= now) blockedUntil.delete(k);
    }
    blockedUntil.set(key, until);
  };

  const send = (key: string, queue: KeyQueue) => {
    const waiters = queue.waiting;
    queue.waiting = [];
    queue.inFlight = true;
    const settle = (result: { consumed: number; msLeft: number } | Error) => {
      for (const waiter of waiters) waiter(result);
      queue.inFlight = false;
      if (queue.waiting.length) send(key, queue);
      else queues.delete(key);
    };
    incrTtl(key, waiters.length, windowSeconds).then(
      ([consumed, msLeft]) => settle({ consumed: Number(consumed), msLeft: Number(msLeft) }),
      (error: Error) => settle(error),
    );
  };

  /** Redis' count for one request of `key`: its position in the window and the window's remaining ms. */
  const countInRedis = (key: string) =>
    new Promise<{ position: number; msLeft: number } | Error>((resolve) => {
      let queue = queues.get(key);
      if (!queue) {
        queue = { waiting: [], inFlight: false };
        queues.set(key, queue);
      }
      const index = queue.waiting.length;
      const batch = queue.waiting;
      batch.push((result) =>
        resolve(
          result instanceof Error
            ? result
            : { position: result.consumed - batch.length + index + 1, msLeft: result.msLeft },
        ),
      );
      if (!queue.inFlight) send(key, queue);
    });

  async function fromInsurance(routeClass: RouteClass, client: string): Promise<RateDecision> {
    try {
      const res = await insurance[routeClass].consume(client);
      return decision(routeClass, res.consumedPoints, res.msBeforeNext);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes)
        return decision(routeClass, rejection.consumedPoints, rejection.msBeforeNext);
      throw rejection;
    }
  }

  const keyOf = (routeClass: RouteClass, client: string) => `${config.redisPrefix}:rl:${routeClass}:${client}`;

  /** How long `key` is still refused from memory (0: not blocked). */
  const blockedFor = (key: string) => {
    const until = blockedUntil.get(key);
    if (until === undefined) return 0;
    const msLeft = until - Date.now();
    if (msLeft > 0) return msLeft;
    blockedUntil.delete(key);
    return 0;
  };

  return {
    blocked: (routeClass, client) => blockedFor(keyOf(routeClass, client)) > 0,
    async consume(routeClass, client) {
      const key = keyOf(routeClass, client);
      const msBlocked = blockedFor(key);
      if (msBlocked > 0) return decision(routeClass, perClient[routeClass] + 1, msBlocked);
      const counted = await countInRedis(key);
      if (counted instanceof Error) return fromInsurance(routeClass, client);
      if (counted.position > perClient[routeClass]) block(key, Date.now() + counted.msLeft);
      return decision(routeClass, counted.position, counted.msLeft);
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
