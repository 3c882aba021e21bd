import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { rateLimitHits } from '../../drizzle/schema';
import type { AppContext } from '../context';

const KEEP_UNROLLED_SECONDS = 3 * 3600;
const ROLLUP_LEASE_MS = 120_000;
const INSERT_CHUNK = 1000;

const minuteOf = (ms: number) => Math.floor(ms / 60_000) * 60_000;

/** One hash per minute plus two indexes, all under one hash tag so they share a Redis Cluster slot. */
function hitKeys(prefix: string) {
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

/** Renames a pending minute to `:rolling`; a minute whose earlier `:rolling` is still there waits for the next run. */
const CLAIM_MINUTE = `
if redis.call('EXISTS', KEYS[4]) == 1 then return 0 end
redis.call('SREM', KEYS[1], ARGV[1])
if redis.call('EXISTS', KEYS[3]) == 0 then return 0 end
redis.call('RENAME', KEYS[3], KEYS[4])
redis.call('SADD', KEYS[2], ARGV[1])
return 1`;

const RELEASE_LEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

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

/**
 * Moves the counters of every minute, the current one included, from Redis into Postgres. A
 * minute's hash is renamed before it is read, so a hit landing meanwhile starts a fresh hash (and
 * re-marks the minute pending) rather than being lost or counted twice. A `:rolling` hash left by
 * a run that died before Postgres took it is written by the next run. One run at a time holds a lease.
 */
export async function rollupRateLimitHits(ctx: AppContext, redis: Redis = ctx.redis): Promise<number> {
  await flushRateLimitHits(ctx.redis);
  const keys = hitKeys(ctx.config.redisPrefix);
  const token = randomUUID();
  if ((await redis.set(keys.lease, token, 'PX', ROLLUP_LEASE_MS, 'NX')) !== 'OK') {
    ctx.log.debug('rate-limit rollup already running elsewhere');
    return 0;
  }
  try {
    for (const minute of await redis.smembers(keys.pending)) {
      await redis.eval(
        CLAIM_MINUTE,
        4,
        keys.pending,
        keys.rollingIndex,
        keys.minute(minute),
        keys.rolling(minute),
        minute,
      );
    }
    let rows = 0;
    for (const minute of await redis.smembers(keys.rollingIndex)) {
      rows += await writeMinute(ctx, Number(minute), await redis.hgetall(keys.rolling(minute)));
      await redis.multi().del(keys.rolling(minute)).srem(keys.rollingIndex, minute).exec();
    }
    return rows;
  } finally {
    await redis.eval(RELEASE_LEASE, 1, keys.lease, token);
  }
}

async function writeMinute(ctx: AppContext, minute: number, counts: Record<string, string>) {
  const values = Object.entries(counts).map(([field, hits]) => {
    const [routeClass = 'unknown', clientHash = 'unknown'] = field.split('|');
    return { minute: new Date(minute), routeClass, clientHash, hits: Number(hits) };
  });
  await ctx.db.transaction(async (tx) => {
    for (let start = 0; start < values.length; start += INSERT_CHUNK) {
      await tx
        .insert(rateLimitHits)
        .values(values.slice(start, start + INSERT_CHUNK))
        .onConflictDoUpdate({
          target: [rateLimitHits.minute, rateLimitHits.routeClass, rateLimitHits.clientHash],
          set: { hits: sql`${rateLimitHits.hits} + excluded.hits` },
        });
    }
  });
  return values.length;
}
