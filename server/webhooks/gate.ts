import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Which endpoint may be attempted now, so that a slow, hanging or failing endpoint never holds the
 * worker slots other endpoints' deliveries need. Per endpoint, in Redis, across every worker:
 *
 * - at most `endpointConcurrency` attempts in flight, and only one until the endpoint has answered
 *   promptly (a 2xx within PROMPT_ANSWER_MS) — a lease each, expiring after the attempt's bound;
 * - after a failed attempt, a pause (`backoffMs`, doubling with each failure in a row, at most
 *   MAX_PAUSE_MS) during which it is not attempted at all.
 *
 * And per process: attempts to endpoints that have not answered promptly take at most
 * `unprovenSlots` of this worker's slots, so the rest are always free for endpoints that answer.
 * A job that may not go now is told when to try again; the worker moves it back to delayed, which
 * neither holds a slot nor counts as an attempt.
 */
export interface GateSettings {
  endpointConcurrency: number;
  backoffMs: number;
  attemptTimeoutMs: number;
  unprovenSlots: number;
}

export const PROMPT_ANSWER_MS = 2_000;
export const MAX_PAUSE_MS = 10 * 60_000;
/** Beyond the attempt's bound: the attempt's log is written under the lease too. */
const LEASE_MARGIN_MS = 5_000;
/** An endpoint nobody attempted for a day starts again as unknown. */
const STATE_TTL_MS = 24 * 3600_000;
const SHORTEST_WAIT_MS = 50;

/** How an attempt went, for the endpoint's standing: `none` when nothing was sent (the message was gone, say). */
export type AttemptVerdict = 'prompt' | 'slow' | 'failed' | 'none';

export interface Lease {
  endpointId: string;
  token: string;
  proven: boolean;
}

export type Admission =
  | { admitted: true; lease: Lease }
  | { admitted: false; retryAt: number; why: 'paused' | 'busy' | 'unproven-slots-taken' };

const ADMIT = `
local now = tonumber(ARGV[1])
local state = redis.call('HMGET', KEYS[1], 'pausedUntil', 'proven')
local pausedUntil = tonumber(state[1] or '0')
if ARGV[6] == '0' and pausedUntil > now then return {'paused', pausedUntil} end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local proven = state[2] == '1'
local cap = 1
if proven then cap = tonumber(ARGV[4]) end
if redis.call('ZCARD', KEYS[2]) >= cap then
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  return {'busy', tonumber(oldest[2])}
end
if not proven and ARGV[5] == '0' then return {'unproven', 0} end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[7])
if proven then return {'admitted', 1} end
return {'admitted', 0}
`;

const SETTLE = `
redis.call('ZREM', KEYS[2], ARGV[1])
local verdict = ARGV[2]
if verdict == 'none' then return 0 end
local now = tonumber(ARGV[3])
if verdict == 'failed' then
  local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
  local pause = math.min(tonumber(ARGV[4]) * 2 ^ math.min(failures - 1, 30), tonumber(ARGV[5]))
  redis.call('HSET', KEYS[1], 'pausedUntil', now + pause, 'proven', '0')
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
  return pause
end
local proven = '0'
if verdict == 'prompt' then proven = '1' end
redis.call('HSET', KEYS[1], 'failures', 0, 'pausedUntil', 0, 'proven', proven)
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return 0
`;

type Admit = (...args: (string | number)[]) => Promise<[string, number]>;
type Settle = (...args: (string | number)[]) => Promise<number>;

function commands(redis: Redis): { admit: Admit; settle: Settle } {
  const named = redis as unknown as Record<string, Admit & Settle>;
  if (!('switchyardWebhookAdmit' in named)) {
    redis.defineCommand('switchyardWebhookAdmit', { numberOfKeys: 2, lua: ADMIT });
    redis.defineCommand('switchyardWebhookSettle', { numberOfKeys: 2, lua: SETTLE });
  }
  return {
    admit: (named.switchyardWebhookAdmit as Admit).bind(redis),
    settle: (named.switchyardWebhookSettle as Settle).bind(redis),
  };
}

export interface EndpointGate {
  admit(endpointId: string, options?: { ignorePause?: boolean }): Promise<Admission>;
  settle(lease: Lease, verdict: AttemptVerdict): Promise<void>;
}

export function createEndpointGate(
  redis: Redis,
  redisPrefix: string,
  settings: GateSettings,
  { now = Date.now, random = Math.random }: { now?: () => number; random?: () => number } = {},
): EndpointGate {
  const run = commands(redis);
  // Hash-tagged by endpoint, so both keys sit in one Redis Cluster slot.
  const keys = (endpointId: string) => [
    `${redisPrefix}:webhooks:{${endpointId}}:state`,
    `${redisPrefix}:webhooks:{${endpointId}}:leases`,
  ];
  const leaseMs = settings.attemptTimeoutMs + LEASE_MARGIN_MS;
  /** This process's attempts (and reservations) to unproven endpoints: when each began. */
  const unproven = new Map<string, number>();
  /** Busy means try again after about as long as the oldest attempt has already taken, within its bound. */
  const waitFor = (elapsed: number, longest: number) =>
    Math.min(Math.max(elapsed, SHORTEST_WAIT_MS), Math.max(longest, SHORTEST_WAIT_MS)) * (1 + random());

  return {
    async admit(endpointId, { ignorePause = false } = {}) {
      const at = now();
      const token = randomBytes(9).toString('base64url');
      const oldestUnproven = Math.min(at, ...unproven.values());
      const reserved = unproven.size < settings.unprovenSlots;
      if (reserved) unproven.set(token, at);
      let answer: [string, number];
      try {
        answer = await run.admit(
          ...keys(endpointId),
          at,
          token,
          at + leaseMs,
          settings.endpointConcurrency,
          reserved ? 1 : 0,
          ignorePause ? 1 : 0,
          STATE_TTL_MS,
        );
      } catch (error) {
        unproven.delete(token);
        throw error;
      }
      const [verdict, value] = answer;
      if (verdict === 'admitted') {
        const proven = value === 1;
        if (proven) unproven.delete(token);
        return { admitted: true, lease: { endpointId, token, proven } };
      }
      unproven.delete(token);
      if (verdict === 'paused') {
        const left = value - at;
        return { admitted: false, why: 'paused', retryAt: value + random() * Math.max(100, left / 4) };
      }
      if (verdict === 'busy') {
        const elapsed = at - (value - leaseMs);
        return { admitted: false, why: 'busy', retryAt: at + waitFor(elapsed, value - at) };
      }
      return {
        admitted: false,
        why: 'unproven-slots-taken',
        retryAt: at + waitFor(at - oldestUnproven, settings.attemptTimeoutMs),
      };
    },
    async settle(lease, verdict) {
      unproven.delete(lease.token);
      await run.settle(
        ...keys(lease.endpointId),
        lease.token,
        verdict,
        now(),
        settings.backoffMs,
        MAX_PAUSE_MS,
        STATE_TTL_MS,
      );
    },
  };
}
