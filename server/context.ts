import 'server-only';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { type Config, loadConfig } from './config';
import { createDb, type DbHandle, listenSqlOf } from './db';
import { createIdempotencyStore, type IdempotencyStore } from './http/idempotency';
import { createLogger, type Logger } from './log';
import { createProviderMetrics, type ProviderMetrics } from './observability/provider-metrics';
import { createProviderRegistry, type ProviderRegistry } from './providers/registry';
import { flushRateLimitHits } from './ratelimit/hit-counter';
import { createRateLimiter, type RateLimiter } from './ratelimit/limiter';
import { primaryReads, type Reads, replicatedReads } from './reads';
import { createWebRedis } from './redis';
import { createQueue, createTrackingScheduler, type TrackingScheduler } from './tracking/queues';
import { type ChangeFeed, createChangeFeed } from './transactions/changes';

/** Everything a domain function may need, built once per process and passed down. */
export interface AppContext {
  config: Config;
  db: DbHandle['db'];
  sql: DbHandle['sql'];
  /** Where status, history, dashboard and stream catch-up reads go: the primary, or a replica with read-your-writes. */
  reads: Reads;
  /** The connection status answers' `LISTEN` runs on; absent behind a transaction pooler without DATABASE_LISTEN_URL. */
  listenSql?: DbHandle['sql'];
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
  const transactionPooled = config.databasePooler === 'transaction';
  const handle = createDb({
    url: config.databaseUrl,
    poolMax: config.databasePoolMax,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    transactionPooled,
  });
  const replica = config.databaseReadUrl
    ? createDb({
        url: config.databaseReadUrl,
        poolMax: config.databasePoolMax,
        connectTimeoutMs: config.databaseConnectTimeoutMs,
        transactionPooled,
      })
    : undefined;
  const listenSql = listenSqlOf(handle, {
    listenUrl: config.databaseListenUrl,
    transactionPooled,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
  });
  const redis = createWebRedis(config, config.dependencyTimeoutMs);
  // Upstream budgets and client shares: a quote counts every provider in the same turn, so one write carries them all.
  const upstreamRedis = createWebRedis(config, config.dependencyTimeoutMs, { autoPipelining: true });
  const tracking = createTrackingScheduler(createQueue('tracking', redis, config.redisPrefix));
  const webhookQueue = createQueue('webhooks', redis, config.redisPrefix);
  const log = createLogger(config.logLevel);
  if (config.webhooks.allowPrivateTargets) {
    log.warn(
      'WEBHOOK_ALLOW_PRIVATE_TARGETS is on: webhooks may go to loopback and private addresses, and over plain http to them. Development and tests only.',
    );
  }
  const metrics = createProviderMetrics(handle.db, (error) => log.warn({ err: error }, 'provider metrics not written'));
  const changes = createChangeFeed(config, config.redisPrefix, log, config.dependencyTimeoutMs);
  const reads = replica
    ? replicatedReads({
        primary: handle,
        replica,
        redis,
        redisPrefix: config.redisPrefix,
        maxLagMs: config.databaseReadMaxLagMs,
        onError: (error, what) => log.warn({ err: error }, what),
      })
    : primaryReads(handle);
  return {
    config,
    db: handle.db,
    sql: handle.sql,
    reads,
    listenSql,
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
      reads.close();
      await Promise.all([handle.close(), replica?.close(), listenSql !== handle.sql && listenSql?.end({ timeout: 2 })]);
    },
  };
}

let processContext: AppContext | undefined;

export function getAppContext(): AppContext {
  processContext ??= createAppContext(loadConfig());
  return processContext;
}
