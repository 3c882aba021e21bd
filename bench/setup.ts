/** The bench's own world: a fresh database, Redis prefixes of its own, simulators, the load generator. */
import type { Redis } from 'ioredis';
import postgres from 'postgres';
import { ensureDatabase, migrateDatabase } from '../drizzle/migrate';
import { seedCatalog } from '../drizzle/seed/seed';
import { createDb } from '../server/db';
import { type Simulators, startSimulators, stopSimulators } from '../server/providers/simulators';
import { createWorkerRedis } from '../server/redis';
import { appEnv, type BenchSettings, childEnv, newAuthSecret, REDIS_PREFIXES, scaledCount, scaledMs } from './config';
import { LoadGenerator } from './load';
import { type ChildHandle, startChild } from './procs';
import type { Report } from './report';

export interface ApiServers {
  /** The lean server with the rate limiter, as configured. */
  port: number;
  /** The same context with the rate limiter removed. */
  noLimitPort: number;
  child: ChildHandle;
}

export interface AssetIds {
  eth: number;
  btc: number;
}

export interface Bench {
  settings: BenchSettings;
  /** The bench's own pool on the bench database (also used for the execute claim-race baseline). */
  sql: postgres.Sql;
  redis: Redis;
  sims: Simulators;
  /** The environment servers under test are configured from. */
  env: Record<string, string>;
  load: LoadGenerator;
  report: Report;
  assets: AssetIds;
  /** Scaled duration in ms. */
  ms(seconds: number, minMs?: number): number;
  /** Scaled loop count. */
  count(n: number, min?: number): number;
  /** The shared lean API child, started on first use. */
  api(): Promise<ApiServers>;
  /** Another lean API child with config overrides; the caller stops it. */
  startApi(overrides?: Record<string, string>): Promise<ApiServers>;
  resetSimulators(): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Deletes every key under the bench prefixes (and their BullMQ hash-tagged forms), in batches. */
export async function clearRedis(redis: Redis, prefixes: readonly string[] = REDIS_PREFIXES): Promise<number> {
  let deleted = 0;
  for (const prefix of prefixes) {
    for (const pattern of [`${prefix}:*`, `{${prefix}}:*`]) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        cursor = next;
        if (keys.length) deleted += await redis.unlink(...keys);
      } while (cursor !== '0');
    }
  }
  return deleted;
}

export async function dropDatabase(url: string) {
  const admin = postgres(url.replace(/\/[^/]*$/, '/postgres'), { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${new URL(url).pathname.slice(1)}" with (force)`).catch(() => {});
  await admin.end();
}

export async function prepareDatabase(url: string) {
  await ensureDatabase(url, { reset: true });
  await migrateDatabase(url);
  const handle = createDb({ url, poolMax: 1, connectTimeoutMs: 5000 });
  try {
    await seedCatalog(handle.db);
  } finally {
    await handle.close();
  }
}

async function startApiChild(env: Record<string, string>): Promise<ApiServers> {
  const child = await startChild('api', new URL('./serve.ts', import.meta.url).pathname, ['lean'], {
    env: childEnv(env),
  });
  return { port: child.info.port as number, noLimitPort: child.info.noLimitPort as number, child };
}

export async function startBench(settings: BenchSettings, report: Report): Promise<Bench> {
  await prepareDatabase(settings.databaseUrl);
  const sql = postgres(settings.databaseUrl, { max: 24, onnotice: () => {}, idle_timeout: 20 });
  const redis = createWorkerRedis(settings.redisUrl);
  await clearRedis(redis);
  const sims = await startSimulators({ defaults: { autoDepositMs: 0 } });
  const env = appEnv(settings, sims, newAuthSecret());
  const load = await LoadGenerator.start();
  const [eth] = await sql<{ id: number }[]>`select id from assets where chain_key = 'ethereum' and is_native`;
  const [btc] = await sql<{ id: number }[]>`select id from assets where chain_key = 'bitcoin' and is_native`;
  if (!eth || !btc) throw new Error('bench: catalog seed has no native ETH or BTC');

  let shared: Promise<ApiServers> | undefined;
  const started: ApiServers[] = [];
  const bench: Bench = {
    settings,
    sql,
    redis,
    sims,
    env,
    load,
    report,
    assets: { eth: eth.id, btc: btc.id },
    ms: (seconds, minMs) => scaledMs(settings, seconds, minMs),
    count: (n, min) => scaledCount(settings, n, min),
    api() {
      shared ??= startApiChild(env).then((api) => {
        started.push(api);
        return api;
      });
      return shared;
    },
    async startApi(overrides = {}) {
      return startApiChild({ ...env, ...overrides });
    },
    resetSimulators() {
      for (const sim of Object.values(sims)) sim.reset();
    },
    async close() {
      await Promise.all(started.map((a) => a.child.stop()));
      await load.stop().catch(() => {});
      await stopSimulators(sims).catch(() => {});
      await clearRedis(redis).catch(() => {});
      redis.disconnect();
      await sql.end({ timeout: 5 }).catch(() => {});
      if (!settings.keepDatabase) {
        // A moment for the children's pools to let go before the database is dropped.
        await sleep(200);
        await dropDatabase(settings.databaseUrl);
      }
    },
  };
  return bench;
}
