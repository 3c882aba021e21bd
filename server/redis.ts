import 'server-only';
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';

/** Where Redis is: one server's URL, or the seed nodes of a Redis Cluster (which then win). */
export interface RedisTarget {
  redisUrl: string;
  redisClusterNodes: readonly string[];
}

const seedNodes = (nodes: readonly string[]) =>
  nodes.map((node) => {
    const at = node.lastIndexOf(':');
    return { host: node.slice(0, at), port: Number(node.slice(at + 1)) };
  });

/**
 * The one place that decides between a single server and a Cluster. A Cluster client answers every
 * command the product sends (each multi-key command and script keeps its keys in one hash slot), so
 * callers hold it as a `Redis`.
 */
function connect(
  to: RedisTarget | string,
  options: RedisOptions,
  cluster: Omit<ClusterOptions, 'redisOptions'> = {},
): Redis {
  const target = typeof to === 'string' ? { redisUrl: to, redisClusterNodes: [] } : to;
  if (!target.redisClusterNodes.length) return new Redis(target.redisUrl, options);
  const { lazyConnect, enableOfflineQueue, enableAutoPipelining, enableReadyCheck, retryStrategy, ...perNode } =
    options;
  const client = new Cluster(seedNodes(target.redisClusterNodes), {
    lazyConnect,
    enableOfflineQueue,
    enableAutoPipelining,
    enableReadyCheck,
    clusterRetryStrategy: retryStrategy ? (attempt) => retryStrategy(attempt) : undefined,
    // A promoted replica takes over a dead master's slots: ask again soon rather than fail.
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    retryDelayOnTryAgain: 200,
    slotsRefreshTimeout: options.connectTimeout ?? 1000,
    ...cluster,
    redisOptions: perNode,
  });
  return client as unknown as Redis;
}

/**
 * For the HTTP path: a request never waits on a Redis that is down. `autoPipelining` sends the
 * commands issued in one turn of the event loop as one write and one reply: for a connection that
 * carries bursts of independent commands (a quote fan-out counts four providers' budgets at once).
 */
export function createWebRedis(
  target: RedisTarget | string,
  connectTimeoutMs = 1000,
  { autoPipelining = false } = {},
): Redis {
  const redis = connect(target, {
    enableAutoPipelining: autoPipelining,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: connectTimeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  redis.on('error', () => {});
  redis.connect().catch(() => {});
  return redis;
}

/** For BullMQ workers and queues: commands wait for the connection to come back. */
export function createWorkerRedis(target: RedisTarget | string): Redis {
  return connect(target, {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5000),
  });
}

/** For pub/sub: commands wait for the connection, and the client subscribes again after a reconnect. */
export function createSubscriberRedis(target: RedisTarget | string, connectTimeoutMs: number): Redis {
  const redis = connect(target, {
    maxRetriesPerRequest: null,
    connectTimeout: connectTimeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  redis.on('error', () => {});
  return redis;
}
