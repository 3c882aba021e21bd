import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

const TEST_KEY = /^\{?t[0-9a-f]{10}[}:]/;
const ABANDONED_AFTER_SECONDS = 2 * 3600;

/** A Redis prefix of a test's own, in the form whose keys `deleteAbandonedPrefixKeys` recognises if a run dies. */
export const newTestRedisPrefix = () => `t${randomBytes(5).toString('hex')}`;

export const testRedisUrl = () => process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A short-lived client that gives up quickly when Redis is not there. */
async function withRedis(url: string, work: (redis: Redis) => Promise<void>) {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await work(redis);
  } finally {
    redis.disconnect();
  }
}

async function scanEach(redis: Redis, pattern: string, onBatch: (keys: string[]) => Promise<void>) {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    if (keys.length) await onBatch(keys);
    cursor = next;
  } while (cursor !== '0');
}

/** A test prefix's keys: its own `prefix:*` and BullMQ's hash-tagged `{prefix}:*`. */
export async function prefixKeys(prefix: string, url = testRedisUrl()): Promise<string[]> {
  const found: string[] = [];
  await withRedis(url, async (redis) => {
    for (const pattern of [`${prefix}:*`, `{${prefix}}:*`]) {
      await scanEach(redis, pattern, async (keys) => {
        found.push(...keys);
      });
    }
  });
  return found;
}

export async function deletePrefixKeys(prefix: string, url = testRedisUrl()) {
  const keys = await prefixKeys(prefix, url);
  if (!keys.length) return;
  await withRedis(url, async (redis) => {
    for (let start = 0; start < keys.length; start += 1000) await redis.unlink(...keys.slice(start, start + 1000));
  });
}

/** Deletes test-prefix keys nobody has touched for two hours: leftovers of runs that died. */
export async function deleteAbandonedPrefixKeys(url = testRedisUrl()) {
  await withRedis(url, async (redis) => {
    for (const pattern of ['t??????????:*', '{t??????????}:*']) {
      await scanEach(redis, pattern, async (batch) => {
        const keys = batch.filter((key) => TEST_KEY.test(key));
        const pipeline = redis.pipeline();
        for (const key of keys) pipeline.object('IDLETIME', key);
        const idle = (await pipeline.exec()) ?? [];
        const abandoned = keys.filter((_, i) => Number(idle[i]?.[1] ?? 0) > ABANDONED_AFTER_SECONDS);
        if (abandoned.length) await redis.unlink(...abandoned);
      });
    }
  });
}
