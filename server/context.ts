import 'server-only';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { type Config, loadConfig } from './config';
import { createDb, type DbHandle } from './db';
import { createIdempotencyStore, type IdempotencyStore } from './http/idempotency';
import { createLogger, type Logger } from './log';
import { createProviderMetrics, type ProviderMetrics } from './observability/provider-metrics';
import { createProviderRegistry, type ProviderRegistry } from './providers/registry';
import { flushRateLimitHits } from './ratelimit/hit-counter';
import { createRateLimiter, type RateLimiter } from './ratelimit/limiter';
import { createWebRedis } from './redis';
import { createQueue, createTrackingScheduler, type TrackingScheduler } from './tracking/queues';
import { type ChangeFeed, createChangeFeed } from './transactions/changes';

/** Everything a domain function may need, built once per process and passed down. */
export interface AppContext {
  config: Config;
  db: DbHandle['db'];
  sql: DbHandle['sql'];
  redis: Redis;
  log: Logger;
  providers: ProviderRegistry;
  /** Per-provider outcome counters for the dashboard; absent where nothing records them. */
  metrics?: ProviderMetrics;
  rateLimiter?: RateLimiter;
  idempotency?: IdempotencyStore;
  /** Schedules status polling; absent in processes that do not track. */
  tracking?: TrackingScheduler;
  /** Transaction changes from every process; subscribes only once something watches. */
  changes: ChangeFeed;
  /** Where status changes are handed to the worker for webhook fan-out; absent where nothing sends webhooks. */
  webhookQueue?: Queue;
  close(): Promise<void>;
}

export function createAppContext(config: Config): AppContext {
  const handle = createDb({
    url: config.databaseUrl,
    poolMax: config.databasePoolMax,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
  });
  const redis = createWebRedis(config.redisUrl, config.dependencyTimeoutMs);
  // Upstream budgets and client shares: a quote counts every provider in the same turn, so one write carries them all.
  const upstreamRedis = createWebRedis(config.redisUrl, config.dependencyTimeoutMs, { autoPipelining: true });
  const tracking = createTrackingScheduler(createQueue('tracking', redis, config.redisPrefix));
  const webhookQueue = createQueue('webhooks', redis, config.redisPrefix);
  const log = createLogger(config.logLevel);
  if (config.webhooks.allowPrivateTargets) {
    log.warn(
      'WEBHOOK_ALLOW_PRIVATE_TARGETS is on: webhooks may go to loopback and private addresses, and over plain http to them. Development and tests only.',
    );
  }
  const metrics = createProviderMetrics(handle.db, (error) => log.warn({ err: error }, 'provider metrics not written'));
  const changes = createChangeFeed(config.redisUrl, config.redisPrefix, log, config.dependencyTimeoutMs);
  return {
    config,
    db: handle.db,
    sql: handle.sql,
    redis,
    log,
    providers: createProviderRegistry(config, upstreamRedis, log),
    tracking,
    changes,
    webhookQueue,
    metrics,
    rateLimiter: createRateLimiter(config, redis),
    idempotency: createIdempotencyStore(handle.sql, config.idempotencyTtlSeconds),
    async close() {
      changes.close();
      await metrics.stop();
      await tracking.close().catch(() => {});
      await webhookQueue.close().catch(() => {});
      await flushRateLimitHits(redis).catch(() => {});
      redis.disconnect();
      upstreamRedis.disconnect();
      await handle.close();
    },
  };
}

let processContext: AppContext | undefined;

export function getAppContext(): AppContext {
  processContext ??= createAppContext(loadConfig());
  return processContext;
}
