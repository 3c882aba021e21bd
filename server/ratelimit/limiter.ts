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
  /**
   * Counts one request. Decided at once (no promise) when it needs no Redis: a leased position, or a
   * client over its limit, refused from memory until its window ends.
   */
  consume(routeClass: RouteClass, client: string): RateDecision | Promise<RateDecision>;
  /**
   * Counts one request only if that needs no Redis (`consume`'s answers without a promise); otherwise
   * counts nothing and answers undefined, so the caller can `consume` it instead.
   */
  consumeAtOnce(routeClass: RouteClass, client: string): RateDecision | undefined;
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

type Position = { position: number; msLeft: number };
type Counted = Position | Error;

/**
 * Leased positions not yet handed out: `next`..`last`, valid until `windowEnd` (epoch ms), out of
 * `size` the call leased (the next lease is asked for when a quarter of them is left).
 */
interface Lease {
  next: number;
  last: number;
  windowEnd: number;
  size: number;
}

/**
 * What this process knows of one key's window: the requests waiting for Redis, the positions it has
 * leased (counted in Redis already, handed out here one per request), and how fast the client asks.
 */
interface KeyState {
  waiting: ((counted: Counted) => void)[];
  inFlight: boolean;
  /** The positions being handed out, and those a refill brought while some of these were left. */
  lease: Lease;
  spare?: Lease;
  /** Redis' count after this process's last call, valid until `windowEnd` (epoch ms; 0: none yet). */
  counted: number;
  windowEnd: number;
  /** When the last call went out, and the requests of the key seen since then. */
  sentAt: number;
  seen: number;
}

/**
 * A lease covers the requests a client is expected to make here in this long, so only a client
 * asking faster than one request per this many ms gets one. Points leased and not used are
 * counted against the client until its window ends, so the horizon is short.
 */
const LEASE_HORIZON_MS = 100;
export const MAX_LEASE = 256;
/** A lease takes at most this fraction of what is left of the window: near the limit every request is counted alone. */
const LEASE_SHARE_DIVISOR = 8;
/** A lease is renewed when this fraction of it is left, so a steady client's requests never wait for Redis. */
export const REFILL_AT = 1 / 4;

/** Key states are dropped once their window has ended; looked for when the map has grown past this. */
const SWEEP_FROM_SIZE = 10_000;

/**
 * Fixed windows per client and route class in Redis, shared by every web instance. When Redis
 * is unreachable a per-process in-memory limiter takes over.
 *
 * A request costs at most one Redis round trip, usually less:
 * - the requests of a key read in the same turn of the event loop, or while its count is on its
 *   way, are counted together by one call (INCRBY n), each getting the position it would have had alone;
 * - a client asking faster than one request per LEASE_HORIZON_MS has the call count a few positions
 *   more (a lease, at most MAX_LEASE and 1/LEASE_SHARE_DIVISOR of what its window has left), which
 *   this process then hands to its next requests without asking Redis; the next lease is asked for
 *   when a quarter of this one is left, so a steady client's requests do not wait for Redis at all.
 *   Leased positions are counted in Redis before they are used, so all processes together never
 *   allow more than the limit; near the limit leases shrink to nothing and every request is counted
 *   alone. A position leased here and not used by the time another process refuses the client is
 *   the only inexactness;
 * - a client already over its limit is refused from memory until its window ends.
 */
export function createRateLimiter(config: Config, redis: Redis, clock: () => number = Date.now): RateLimiter {
  const { windowSeconds, perClient } = config.rateLimits;
  if (!(COMMAND in redis)) redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: INCR_TTL_SCRIPT });
  const incrTtl = (redis as unknown as Record<typeof COMMAND, IncrTtl>)[COMMAND].bind(redis);
  const insurance = Object.fromEntries(
    (Object.keys(perClient) as RouteClass[]).map((routeClass) => [
      routeClass,
      new RateLimiterMemory({ points: perClient[routeClass], duration: windowSeconds }),
    ]),
  ) as Record<RouteClass, RateLimiterMemory>;
  const states = new Map<string, KeyState>();
  let sweepFromSize = SWEEP_FROM_SIZE;

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

  const stateOf = (key: string, now: number): KeyState => {
    let state = states.get(key);
    if (state) return state;
    if (states.size >= sweepFromSize) {
      for (const [k, s] of states) if (s.windowEnd <= now && !s.inFlight && !s.waiting.length) states.delete(k);
      sweepFromSize = Math.max(SWEEP_FROM_SIZE, states.size * 2);
    }
    state = {
      waiting: [],
      inFlight: false,
      lease: { next: 1, last: 0, windowEnd: 0, size: 0 },
      counted: 0,
      windowEnd: 0,
      sentAt: 0,
      seen: 0,
    };
    states.set(key, state);
    return state;
  };

  /** How many positions beyond its waiting requests a call for this key takes for later ones. */
  const leaseSize = (state: KeyState, limit: number, now: number) => {
    if (!state.sentAt) return 0;
    const expected = Math.floor((state.seen * LEASE_HORIZON_MS) / Math.max(1, now - state.sentAt));
    const counted = state.windowEnd > now ? state.counted : 0;
    const share = Math.floor((limit - counted - state.waiting.length) / LEASE_SHARE_DIVISOR);
    return Math.max(0, Math.min(expected, share, MAX_LEASE));
  };

  const usable = (lease: Lease, now: number) => lease.next <= lease.last && lease.windowEnd > now;

  /** The next position this process holds leased for the key, if any: the spare lease once the current one is used up. */
  const leaseOut = (state: KeyState, now: number): Position | undefined => {
    if (state.spare && !usable(state.lease, now)) {
      state.lease = state.spare;
      state.spare = undefined;
    }
    const { lease } = state;
    return usable(lease, now) ? { position: lease.next++, msLeft: lease.windowEnd - now } : undefined;
  };

  /** Asks for the next lease while this one still lasts, once a quarter of it is left. */
  const refillAhead = (key: string, state: KeyState, limit: number) => {
    const { lease } = state;
    if (state.inFlight || state.spare || lease.last - lease.next + 1 > lease.size * REFILL_AT) return;
    sendSoon(key, limit);
  };

  const send = (key: string, state: KeyState, limit: number) => {
    const waiters = state.waiting;
    const now = clock();
    const lease = leaseSize(state, limit, now);
    if (!waiters.length && !lease) return;
    state.waiting = [];
    state.inFlight = true;
    state.sentAt = now;
    state.seen = 0;
    const settle = (reply: { consumed: number; msLeft: number } | Error) => {
      state.inFlight = false;
      if (reply instanceof Error) {
        for (const waiter of waiters) waiter(reply);
      } else {
        // Redis counted the waiters first, then the lease; the window ends no later than measured from the send.
        const before = reply.consumed - lease - waiters.length;
        for (const [index, waiter] of waiters.entries()) waiter({ position: before + index + 1, msLeft: reply.msLeft });
        state.counted = reply.consumed;
        state.windowEnd = now + reply.msLeft;
        const replyAt = clock();
        const fresh = {
          next: reply.consumed - lease + 1,
          last: Math.min(reply.consumed, limit),
          windowEnd: state.windowEnd,
          size: lease,
        };
        // A refill that arrives while the current lease lasts waits behind it.
        if (!usable(state.lease, replyAt)) state.lease = fresh;
        else if (usable(fresh, replyAt)) state.spare = fresh;
        // Requests that queued while the call was out take the leased positions first; the rest go to Redis.
        while (state.waiting.length) {
          const leased = leaseOut(state, replyAt);
          if (!leased) break;
          state.waiting.shift()?.(leased);
        }
      }
      if (state.waiting.length) send(key, state, limit);
    };
    incrTtl(key, waiters.length + lease, windowSeconds).then(
      ([consumed, msLeft]) => settle({ consumed: Number(consumed), msLeft: Number(msLeft) }),
      (error: Error) => settle(error),
    );
  };

  /**
   * Keys to send once the requests read in this turn of the event loop have been seen (setImmediate
   * runs right after the I/O callbacks of the turn): requests that arrive together travel together.
   */
  const due = new Map<string, number>();
  const sendDue = () => {
    for (const [key, limit] of due) {
      const state = states.get(key);
      if (state && !state.inFlight) send(key, state, limit);
    }
    due.clear();
  };
  const sendSoon = (key: string, limit: number) => {
    if (!due.size) setImmediate(sendDue);
    due.set(key, limit);
  };

  /**
   * One request of `key` counted without Redis: its position in the window and the window's remaining
   * ms, from a lease or refused from memory. Undefined, with nothing counted, when Redis must count it.
   */
  const countAtOnce = (key: string, limit: number): Position | undefined => {
    const now = clock();
    const state = stateOf(key, now);
    const leased = state.waiting.length ? undefined : leaseOut(state, now);
    if (leased) {
      state.seen++;
      refillAhead(key, state, limit);
      return leased;
    }
    // Redis counted past the limit in this window: every later request is refused from memory until it ends.
    if (state.counted > limit && state.windowEnd > now) {
      state.seen++;
      return { position: limit + 1, msLeft: state.windowEnd - now };
    }
    return undefined;
  };

  /** One request of `key` counted by Redis, in one call with the others of `key` read in this turn. */
  const countInRedis = (key: string, limit: number): Promise<Counted> => {
    const state = stateOf(key, clock());
    state.seen++;
    return new Promise<Counted>((resolve) => {
      state.waiting.push(resolve);
      if (!state.inFlight) sendSoon(key, limit);
    });
  };

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

  const consumeAtOnce = (routeClass: RouteClass, client: string): RateDecision | undefined => {
    const counted = countAtOnce(keyOf(routeClass, client), perClient[routeClass]);
    return counted && decision(routeClass, counted.position, counted.msLeft);
  };

  return {
    consume(routeClass, client) {
      return (
        consumeAtOnce(routeClass, client) ??
        countInRedis(keyOf(routeClass, client), perClient[routeClass]).then((counted) =>
          counted instanceof Error
            ? fromInsurance(routeClass, client)
            : decision(routeClass, counted.position, counted.msLeft),
        )
      );
    },
    consumeAtOnce,
  };
}

/** Adds X-RateLimit-* (reset in seconds) plus the IETF RateLimit-Policy / RateLimit fields to `headers`. */
export function addRateLimitHeaders(headers: Record<string, string>, d: RateDecision): void {
  const remaining = String(d.remaining);
  const reset = String(d.resetSeconds);
  headers['x-ratelimit-limit'] = String(d.limit);
  headers['x-ratelimit-remaining'] = remaining;
  headers['x-ratelimit-reset'] = reset;
  headers['ratelimit-policy'] = `"${d.routeClass}";q=${d.limit};w=${d.windowSeconds}`;
  headers.ratelimit = `"${d.routeClass}";r=${remaining};t=${reset}`;
  if (!d.allowed) headers['retry-after'] = reset;
}
