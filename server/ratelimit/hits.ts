import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { rateLimitHits } from '../../drizzle/schema';
import type { AppContext } from '../context';
import { flushRateLimitHits, hitKeys } from './hit-counter';

const ROLLUP_LEASE_MS = 120_000;
const INSERT_CHUNK = 1000;

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
