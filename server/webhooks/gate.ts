import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { keep } from '../bounded-map';

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
 * `unprovenSlots` of this worker's slots, so the rest are always free for endpoints that answer. That
 * shared lane is fair per owner: one attempt in it per owner at a time, new endpoints' or failing
 * ones', and endpoints that have failed take all but one of its slots. When it is full, an owner with
 * nothing in it takes the place of the oldest attempt that has gone GIVE_WAY_AFTER_MS unanswered (that
 * attempt is cut short as a failure, and its owner makes none give way for an attempt's bound), so a
 * new endpoint's first delivery never waits behind a few accounts' hanging receivers, new or not. A
 * slot that frees is kept for the oldest job that may take it: of an owner with nothing in the lane,
 * and not failing when the failing share is full.
 *
 * A job that may not go now is parked: the worker moves it back to delayed (no slot held, no attempt
 * counted), and the attempt that frees its place hands its id back to be woken. Its delay is only a
 * safety net, for a wake that was lost.
 */
export interface GateSettings {
  endpointConcurrency: number;
  backoffMs: number;
  attemptTimeoutMs: number;
  unprovenSlots: number;
}

export const PROMPT_ANSWER_MS = 2_000;
/**
 * How long an attempt in a full shared lane runs before an owner with nothing in it may take its place:
 * what a new endpoint's first delivery waits at most behind others' hanging receivers, with room left
 * under 2 s for the queue's own latency.
 */
export const GIVE_WAY_AFTER_MS = 1_000;
export const MAX_PAUSE_MS = 10 * 60_000;
/** A parked job comes back by itself after this at most (sooner if the attempt ahead of it ends by its bound). */
export const PARK_SAFETY_MS = 5_000;
/** Beyond the attempt's bound: the attempt's log is written under the lease too. */
const LEASE_MARGIN_MS = 5_000;
/** An endpoint nobody attempted for a day starts again as unknown. */
const STATE_TTL_MS = 24 * 3600_000;
/** Jobs this process parked for want of an unproven slot, woken first come first served. */
const LOCAL_WAITERS = 10_000;
/** Spreads jobs coming back for the same attempt's place a little. */
const RIPE_JITTER_MS = 50;

/** How an attempt went, for the endpoint's standing: `none` when nothing was sent (the message was gone, say). */
export type AttemptVerdict = 'prompt' | 'slow' | 'failed' | 'none';

export interface Lease {
  endpointId: string;
  token: string;
  proven: boolean;
  /** Aborted when the attempt, unanswered after GIVE_WAY_AFTER_MS, gives its place in the shared lane away. */
  signal?: AbortSignal;
}

/** Why an attempt was cut short: it gave its place in the shared lane to another account's delivery. */
export const GAVE_WAY = `no answer within ${GIVE_WAY_AFTER_MS / 1000} s; its place went to another account's delivery`;

/** A place in this process's shared lane: an attempt (it may be made to give way), or one kept for a woken job. */
interface LanePlace {
  at: number;
  ownerId: string;
  failing: boolean;
  abort?: AbortController;
  /** An admit in flight means to take its place. */
  claimed?: boolean;
}

interface Waiting {
  queuedAt: number;
  ownerId: string;
  failing: boolean;
}

export type Admission =
  | { admitted: true; lease: Lease }
  | { admitted: false; retryAt: number; why: 'paused' | 'busy' | 'unproven-slots-taken' };

/** Who a job is for: its endpoint and the account that owns it (the shared lane is fair per owner). */
export interface AdmitOptions {
  jobId: string;
  queuedAt: number;
  ownerId?: string;
  ignorePause?: boolean;
}

const ADMIT = `
local now = tonumber(ARGV[1])
local function park()
  redis.call('ZADD', KEYS[3], 'NX', ARGV[9], ARGV[8])
  redis.call('PEXPIRE', KEYS[3], ARGV[7])
end
local state = redis.call('HMGET', KEYS[1], 'pausedUntil', 'proven', 'failures')
local pausedUntil = tonumber(state[1] or '0')
if ARGV[6] == '0' and pausedUntil > now then
  park()
  return {'paused', pausedUntil}
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local proven = state[2] == '1'
local cap = 1
if proven then cap = tonumber(ARGV[4]) end
if redis.call('ZCARD', KEYS[2]) >= cap then
  park()
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  return {'busy', tonumber(oldest[2])}
end
local failing = tonumber(state[3] or '0') > 0
if not proven and ((failing and ARGV[10] == '0') or (not failing and ARGV[5] == '0')) then
  if failing then return {'unproven', 1} end
  return {'unproven', 0}
end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[7])
redis.call('ZREM', KEYS[3], ARGV[8])
if proven then return {'admitted', 1} end
if failing then return {'admitted', 2} end
return {'admitted', 0}
`;

/** Ends a lease, moves the endpoint's standing on, and pops as many parked jobs as there are places free now. */
const SETTLE = `
local now = tonumber(ARGV[3])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[1], 'probeUntil')
local verdict = ARGV[2]
if verdict == 'failed' then
  local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
  local pause = math.min(tonumber(ARGV[4]) * 2 ^ math.min(failures - 1, 30), tonumber(ARGV[5]))
  redis.call('HSET', KEYS[1], 'pausedUntil', now + pause, 'proven', '0')
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
  return {}
end
if verdict ~= 'none' then
  local proven = '0'
  if verdict == 'prompt' then proven = '1' end
  redis.call('HSET', KEYS[1], 'failures', 0, 'pausedUntil', 0, 'proven', proven)
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
end
local state = redis.call('HMGET', KEYS[1], 'pausedUntil', 'proven')
if tonumber(state[1] or '0') > now then return {} end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local cap = 1
if state[2] == '1' then cap = tonumber(ARGV[7]) end
local free = cap - redis.call('ZCARD', KEYS[2])
if free < 1 then return {} end
local popped = redis.call('ZPOPMIN', KEYS[3], free)
local ids = {}
for i = 1, #popped, 2 do ids[#ids + 1] = popped[i] end
return ids
`;

/**
 * Where a new message's job starts: ready (`go`), or parked. An endpoint that has answered promptly
 * takes its messages as they come (its attempts are short: one that finds its places taken is parked
 * then). One that has not has a single message out at a time, its probe, until that attempt settles:
 * the rest are parked at once, so a burst for a hanging endpoint costs the worker nothing. A paused
 * endpoint's messages are parked until the pause ends.
 */
const PLACE = `
local now = tonumber(ARGV[1])
local function park()
  redis.call('ZADD', KEYS[3], 'NX', now, ARGV[2])
  redis.call('PEXPIRE', KEYS[3], ARGV[4])
end
local state = redis.call('HMGET', KEYS[1], 'pausedUntil', 'proven', 'probeUntil')
local pausedUntil = tonumber(state[1] or '0')
if pausedUntil > now then
  park()
  return {'paused', pausedUntil}
end
if state[2] == '1' then return {'go', 1} end
local probeUntil = tonumber(state[3] or '0')
if probeUntil > now then
  park()
  return {'busy', probeUntil}
end
redis.call('HSET', KEYS[1], 'probeUntil', now + tonumber(ARGV[5]))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {'go', 0}
`;

type Script = (...args: (string | number)[]) => Promise<unknown>;
const SCRIPTS = { switchyardWebhookAdmit: ADMIT, switchyardWebhookSettle: SETTLE, switchyardWebhookPlace: PLACE };

function commands(redis: Redis) {
  const named = redis as unknown as Record<keyof typeof SCRIPTS, Script>;
  for (const [name, lua] of Object.entries(SCRIPTS)) {
    if (!(name in named)) redis.defineCommand(name, { numberOfKeys: 3, lua });
  }
  return {
    admit: named.switchyardWebhookAdmit.bind(redis) as (...args: (string | number)[]) => Promise<[string, number]>,
    settle: named.switchyardWebhookSettle.bind(redis) as (...args: (string | number)[]) => Promise<string[]>,
    place: named.switchyardWebhookPlace.bind(redis) as (...args: (string | number)[]) => Promise<[string, number]>,
  };
}

export interface EndpointGate {
  /**
   * `jobId` is what a refused job is parked as, to be handed back by `settle` when its turn comes;
   * parked jobs go back oldest `queuedAt` first, so one woken and beaten to the place keeps its turn.
   */
  admit(endpointId: string, options: AdmitOptions): Promise<Admission>;
  /** Ends the attempt; answers the ids of parked jobs that may go now. */
  settle(lease: Lease, verdict: AttemptVerdict): Promise<string[]>;
  /** Whether a refused job is still parked; one handed back while it was on its way to delayed is not. */
  isParked(endpointId: string, jobId: string): Promise<boolean>;
}

/** A new message's job: ready now, or parked until `readyAt` at the latest. */
export type Placement = { ready: true } | { ready: false; readyAt: number; endpointId: string };

/** Where each new message's job starts (see PLACE), for all of a fan-out's messages in one round trip. */
export async function placeNewMessages(
  redis: Redis,
  redisPrefix: string,
  settings: Pick<GateSettings, 'endpointConcurrency' | 'attemptTimeoutMs'>,
  messages: { endpointId: string; jobId: string }[],
  { now = Date.now(), random = Math.random }: { now?: number; random?: () => number } = {},
): Promise<Placement[]> {
  const run = commands(redis);
  const probeMs = settings.attemptTimeoutMs + LEASE_MARGIN_MS;
  const answers = await Promise.all(
    messages.map(({ endpointId, jobId }) =>
      run.place(...keysOf(redisPrefix, endpointId), now, jobId, settings.endpointConcurrency, STATE_TTL_MS, probeMs),
    ),
  );
  return answers.map(([verdict, value], i): Placement => {
    if (verdict === 'go') return { ready: true };
    const readyAt = verdict === 'paused' ? afterPause(value, now, random) : whenBusy(value, now, random);
    return { ready: false, readyAt, endpointId: messages[i]?.endpointId ?? '' };
  });
}

/** Whether a job parked in Redis (not in a worker's own list) is still waiting to be handed back. */
export async function isParkedInRedis(redis: Redis, redisPrefix: string, endpointId: string, jobId: string) {
  return (await redis.zscore(keysOf(redisPrefix, endpointId)[2] as string, jobId)) !== null;
}

const afterPause = (pausedUntil: number, now: number, random: () => number) =>
  pausedUntil + random() * Math.max(100, (pausedUntil - now) / 4);
/** Parked behind an attempt: woken when it settles, or by itself once that attempt's lease runs out, within PARK_SAFETY_MS. */
const whenBusy = (until: number, now: number, random: () => number) =>
  now + Math.min(until - now, PARK_SAFETY_MS) * (1 + random() / 4);

/** An endpoint's state, leases and parked jobs: hash-tagged by endpoint, so they sit in one Redis Cluster slot. */
const keysOf = (redisPrefix: string, endpointId: string) =>
  ['state', 'leases', 'parked'].map((key) => `${redisPrefix}:webhooks:{${endpointId}}:${key}`);

export function createEndpointGate(
  redis: Redis,
  redisPrefix: string,
  settings: GateSettings,
  { now = Date.now, random = Math.random }: { now?: () => number; random?: () => number } = {},
): EndpointGate {
  const run = commands(redis);
  const keys = (endpointId: string) => keysOf(redisPrefix, endpointId);
  const leaseMs = settings.attemptTimeoutMs + LEASE_MARGIN_MS;
  /** Endpoints that have failed may hold all but one of the shared lane's slots: one stays for new endpoints. */
  const failingSlots = Math.max(1, settings.unprovenSlots - 1);
  /** This process's places in the shared lane: attempts (which may be made to give way) and places kept for a woken job. */
  const lane = new Map<string, LanePlace>();
  /** Woken job → the place kept for it. */
  const keptFor = new Map<string, string>();
  /** Jobs parked here for want of a slot in the lane, with when each was queued, for whom, and whether its endpoint has failed. */
  const waiting = new Map<string, Waiting>();
  /** Owners one of whose attempts gave way: until when they may not make another give way. */
  const gaveWay = new Map<string, number>();
  const jitter = (ms: number) => ms * (1 + random() / 4);
  const inLane = (ownerId: string) => [...lane.values()].some((place) => place.ownerId === ownerId);
  const failingInLane = () => [...lane.values()].filter((place) => place.failing).length;
  const dropStaleKept = (at: number) => {
    for (const [jobId, token] of keptFor) {
      if ((lane.get(token)?.at ?? 0) + PARK_SAFETY_MS > at) continue;
      lane.delete(token);
      keptFor.delete(jobId);
    }
  };
  /** The attempt longest in the lane that no other admit means to take the place of. */
  const oldestAttempt = () => {
    let oldest: [string, LanePlace] | undefined;
    for (const entry of lane) {
      if (entry[1].abort && !entry[1].claimed && (!oldest || entry[1].at < oldest[1].at)) oldest = entry;
    }
    return oldest;
  };

  return {
    async admit(endpointId, { jobId, queuedAt, ownerId = endpointId, ignorePause = false }) {
      const at = now();
      const token = randomBytes(9).toString('base64url');
      dropStaleKept(at);
      waiting.delete(jobId);
      const kept = keptFor.get(jobId);
      if (kept !== undefined) {
        keptFor.delete(jobId);
        lane.delete(kept);
      }
      const mayDisplace = !inLane(ownerId) && (gaveWay.get(ownerId) ?? 0) <= at;
      const oldest = oldestAttempt();
      const displaced =
        mayDisplace && lane.size >= settings.unprovenSlots && oldest && oldest[1].at + GIVE_WAY_AFTER_MS <= at
          ? oldest
          : undefined;
      const mayTake = !inLane(ownerId) && (lane.size < settings.unprovenSlots || displaced !== undefined);
      const mayTakeFailing = mayTake && failingInLane() - (displaced?.[1].failing ? 1 : 0) < failingSlots;
      // Counted as failing until Redis says: concurrent admits never overfill the failing share.
      const abort = new AbortController();
      if (mayTake) lane.set(token, { at, ownerId, failing: true, abort });
      if (displaced) displaced[1].claimed = true;
      let answer: [string, number];
      try {
        answer = await run.admit(
          ...keys(endpointId),
          at,
          token,
          at + leaseMs,
          settings.endpointConcurrency,
          mayTake ? 1 : 0,
          ignorePause ? 1 : 0,
          STATE_TTL_MS,
          jobId,
          queuedAt,
          mayTakeFailing ? 1 : 0,
        );
      } catch (error) {
        lane.delete(token);
        if (displaced) displaced[1].claimed = false;
        throw error;
      }
      const [verdict, value] = answer;
      const proven = verdict === 'admitted' && value === 1;
      if (displaced) {
        displaced[1].claimed = false;
        // Still in the lane (its attempt has not ended meanwhile): it gives way to this one.
        if (verdict === 'admitted' && !proven && lane.delete(displaced[0])) {
          keep(gaveWay, displaced[1].ownerId, at + leaseMs, LOCAL_WAITERS);
          displaced[1].abort?.abort(GAVE_WAY);
        }
      }
      if (verdict === 'admitted') {
        if (proven) lane.delete(token);
        else lane.set(token, { at, ownerId, failing: value === 2, abort });
        return { admitted: true, lease: { endpointId, token, proven, signal: proven ? undefined : abort.signal } };
      }
      lane.delete(token);
      if (verdict === 'paused') return { admitted: false, why: 'paused', retryAt: afterPause(value, at, random) };
      if (verdict === 'busy') return { admitted: false, why: 'busy', retryAt: whenBusy(value, at, random) };
      if (waiting.size < LOCAL_WAITERS) waiting.set(jobId, { queuedAt, ownerId, failing: value === 1 });
      const since = oldestAttempt()?.[1].at ?? at;
      // One that may make a hanging attempt give way comes back when the oldest has gone unanswered long enough.
      if (mayDisplace && !value) {
        return {
          admitted: false,
          why: 'unproven-slots-taken',
          retryAt: Math.max(at, since + GIVE_WAY_AFTER_MS) + random() * RIPE_JITTER_MS,
        };
      }
      const freedBy = since + leaseMs - at;
      return { admitted: false, why: 'unproven-slots-taken', retryAt: at + jitter(Math.min(freedBy, PARK_SAFETY_MS)) };
    },

    async settle(lease, verdict) {
      const heldPlace = lane.delete(lease.token);
      const woken = await run.settle(
        ...keys(lease.endpointId),
        lease.token,
        verdict,
        now(),
        settings.backoffMs,
        MAX_PAUSE_MS,
        STATE_TTL_MS,
        settings.endpointConcurrency,
      );
      if (!heldPlace || !waiting.size) return woken;
      const at = now();
      dropStaleKept(at);
      if (lane.size >= settings.unprovenSlots) return woken;
      const failingFull = failingInLane() >= failingSlots;
      let next: [string, Waiting] | undefined;
      for (const entry of waiting) {
        if (inLane(entry[1].ownerId) || (failingFull && entry[1].failing)) continue;
        if (!next || entry[1].queuedAt < next[1].queuedAt) next = entry;
      }
      if (next) {
        const [jobId, { ownerId, failing }] = next;
        waiting.delete(jobId);
        const token = randomBytes(9).toString('base64url');
        lane.set(token, { at, ownerId, failing });
        keptFor.set(jobId, token);
        woken.push(jobId);
      }
      return woken;
    },

    async isParked(endpointId, jobId) {
      return waiting.has(jobId) || isParkedInRedis(redis, redisPrefix, endpointId, jobId);
    },
  };
}
