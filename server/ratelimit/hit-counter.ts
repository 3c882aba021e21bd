import type { Redis } from 'ioredis';

const KEEP_UNROLLED_SECONDS = 3 * 3600;

const minuteOf = (ms: number) => Math.floor(ms / 60_000) * 60_000;

/** One hash per minute plus two indexes, all under one hash tag so they share a Redis Cluster slot. */
export function hitKeys(prefix: string) {
  const base = `${prefix}:{rl-hits}`;
  return {
    minute: (minute: string) => `${base}:${minute}`,
    rolling: (minute: string) => `${base}:${minute}:rolling`,
    /** Minutes with counts not yet rolled up. */
    pending: `${base}:pending`,
    /** Minutes renamed to `:rolling` and not yet written to Postgres (a crash leaves them here). */
    rollingIndex: `${base}:rolling-minutes`,
    lease: `${base}:lease`,
  };
}

/** Counts one 429 for the dashboard: per minute, route class and hashed client. */
export async function recordRateLimitHit(
  redis: Redis,
  prefix: string,
  routeClass: string,
  clientHash: string,
  now = Date.now(),
) {
  const keys = hitKeys(prefix);
  const minute = String(minuteOf(now));
  await redis
    .multi()
    .hincrby(keys.minute(minute), `${routeClass}|${clientHash}`, 1)
    .expire(keys.minute(minute), KEEP_UNROLLED_SECONDS)
    .sadd(keys.pending, minute)
    .exec();
}

const HIT_FLUSH_MS = 1000;

/** 429s counted in this process and not yet written, per Redis client: `prefix|minute|routeClass|clientHash` → hits. */
const unsent = new WeakMap<Redis, { counts: Map<string, number>; timer?: NodeJS.Timeout }>();

/**
 * Counts one 429 for the dashboard without a Redis round trip of its own: the counts of this
 * process are written together within a second (and before a rollup or shutdown), so a rejected
 * request costs at most the limiter's one round trip.
 */
export function countRateLimitHit(redis: Redis, prefix: string, routeClass: string, clientHash: string) {
  let buffer = unsent.get(redis);
  if (!buffer) {
    buffer = { counts: new Map() };
    unsent.set(redis, buffer);
  }
  const field = [prefix, minuteOf(Date.now()), routeClass, clientHash].join('|');
  buffer.counts.set(field, (buffer.counts.get(field) ?? 0) + 1);
  buffer.timer ??= setTimeout(() => void flushRateLimitHits(redis).catch(() => {}), HIT_FLUSH_MS).unref();
}

/** Writes this process's counted 429s to Redis in one round trip. */
export async function flushRateLimitHits(redis: Redis) {
  const buffer = unsent.get(redis);
  if (!buffer) return;
  clearTimeout(buffer.timer);
  buffer.timer = undefined;
  if (!buffer.counts.size) return;
  const counts = buffer.counts;
  buffer.counts = new Map();
  const multi = redis.multi();
  for (const [field, hits] of counts) {
    const [prefix = '', minute = '', routeClass, clientHash] = field.split('|');
    const keys = hitKeys(prefix);
    multi
      .hincrby(keys.minute(minute), `${routeClass}|${clientHash}`, hits)
      .expire(keys.minute(minute), KEEP_UNROLLED_SECONDS)
      .sadd(keys.pending, minute);
  }
  await multi.exec();
}
