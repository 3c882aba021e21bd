import 'server-only';
import { Redis, type RedisOptions } from 'ioredis';

/**
 * For the HTTP path: a request never waits on a Redis that is down. `autoPipelining` sends the
 * commands issued in one turn of the event loop as one write and one reply: for a connection that
 * carries bursts of independent commands (a quote fan-out counts four providers' budgets at once).
 */
export function createWebRedis(url: string, connectTimeoutMs = 1000, { autoPipelining = false } = {}): Redis {
  const options: RedisOptions = {
    enableAutoPipelining: autoPipelining,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: connectTimeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  };
  const redis = new Redis(url, options);
  redis.on('error', () => {});
  redis.connect().catch(() => {});
  return redis;
}

/** For BullMQ workers and queues: commands wait for the connection to come back. */
export function createWorkerRedis(url: string): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5000),
  });
  return redis;
}
