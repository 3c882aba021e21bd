import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { rateLimitHits } from '../../drizzle/schema';
import type { AppContext } from '../context';

const minuteOf = (ms: number) => Math.floor(ms / 60_000) * 60_000;
const hitsKey = (prefix: string, minute: number) => `${prefix}:rl-hits:${minute}`;
const KEEP_UNROLLED_SECONDS = 3 * 3600;

/** Counts one 429 for the dashboard: per minute, route class and hashed client. */
export async function recordRateLimitHit(
  redis: Redis,
  prefix: string,
  routeClass: string,
  clientHash: string,
  now = Date.now(),
) {
  const key = hitsKey(prefix, minuteOf(now));
  await redis.multi().hincrby(key, `${routeClass}|${clientHash}`, 1).expire(key, KEEP_UNROLLED_SECONDS).exec();
}

/**
 * Moves every finished minute's counters from Redis into Postgres. The key is renamed before it
 * is read, so a concurrent hit lands in a fresh key rather than being lost or counted twice.
 */
export async function rollupRateLimitHits(
  ctx: AppContext,
  redis: Redis = ctx.redis,
  now = Date.now(),
): Promise<number> {
  const prefix = ctx.config.redisPrefix;
  const current = minuteOf(now);
  let rows = 0;
  for (const key of await redis.keys(`${prefix}:rl-hits:*`)) {
    const leftover = key.endsWith(':rolling');
    const minute = Number(
      key
        .replace(/:rolling$/, '')
        .split(':')
        .at(-1),
    );
    if (!Number.isFinite(minute) || (!leftover && minute >= current)) continue;
    const processing = leftover ? key : `${key}:rolling`;
    if (!leftover && (await redis.renamenx(key, processing)) !== 1) continue;
    const counts = await redis.hgetall(processing);
    const values = Object.entries(counts).map(([field, hits]) => {
      const [routeClass = 'unknown', clientHash = 'unknown'] = field.split('|');
      return { minute: new Date(minute), routeClass, clientHash, hits: Number(hits) };
    });
    if (values.length) {
      await ctx.db
        .insert(rateLimitHits)
        .values(values)
        .onConflictDoUpdate({
          target: [rateLimitHits.minute, rateLimitHits.routeClass, rateLimitHits.clientHash],
          set: { hits: sql`${rateLimitHits.hits} + excluded.hits` },
        });
    }
    await redis.del(processing);
    rows += values.length;
  }
  return rows;
}
