import type { Redis } from 'ioredis';
import { type Config, loadConfig } from './config';
import { createDb, type DbHandle } from './db';
import { createLogger, type Logger } from './log';
import { createWebRedis } from './redis';

/** Everything a domain function may need, built once per process and passed down. */
export interface AppContext {
  config: Config;
  db: DbHandle['db'];
  sql: DbHandle['sql'];
  redis: Redis;
  log: Logger;
  close(): Promise<void>;
}

export function createAppContext(config: Config): AppContext {
  const handle = createDb({
    url: config.databaseUrl,
    poolMax: config.databasePoolMax,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
  });
  const redis = createWebRedis(config.redisUrl, config.dependencyTimeoutMs);
  return {
    config,
    db: handle.db,
    sql: handle.sql,
    redis,
    log: createLogger(config.logLevel),
    async close() {
      redis.disconnect();
      await handle.close();
    },
  };
}

let processContext: AppContext | undefined;

export function getAppContext(): AppContext {
  processContext ??= createAppContext(loadConfig());
  return processContext;
}
