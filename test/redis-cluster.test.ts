import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushRateLimitHits } from '../server/ratelimit/hit-counter';
import { rollupRateLimitHits } from '../server/ratelimit/hits';
import { startWorkerRuntime, type WorkerRuntime } from '../workers/runtime';
import { startTestApp, type TestApp } from './support/app';
import { BTC_TO_ETH, ETH_TO_BTC } from './support/fixtures';
import { executeSwap, randomHex, waitForStatus } from './support/flows';
import { freePortRange, waitUntil } from './support/processes';
import { type PrivateRedisCluster, privateRedisCluster, redisCli } from './support/redis-cluster';

/**
 * The product on a real Redis Cluster (3 masters, Debian's redis-server in cluster mode): the web
 * process's limiter, 429 counting and rollup, upstream budgets, stream slots and queues, and a worker
 * tracking swaps through BullMQ. A multi-key command or script whose keys span slots is refused by
 * the cluster with CROSSSLOT, which every node counts: none may be counted, and every key of a queue
 * (or of the 429 counters) must sit in one slot.
 */
let cluster: PrivateRedisCluster;
let root: string;
let t: TestApp;
let worker: WorkerRuntime | undefined;

beforeAll(async () => {
  root = mkdtempSync(`${tmpdir()}/sy-cluster-`);
  cluster = privateRedisCluster({ root, basePort: await freePortRange(3), masters: 3 });
  await cluster.start();
  t = await startTestApp({
    REDIS_CLUSTER_NODES: cluster.nodes,
    RATE_LIMIT_CATALOG: '5',
    RATE_LIMIT_WINDOW_SECONDS: '60',
    PROVIDER_DEADLINE_MS: '1500',
    TRACKING_TIME_SCALE: '0.01',
    TRACKING_MIN_INTERVAL_MS: '100',
    SWEEP_INTERVAL_MS: '600000',
    WORKER_HEALTH_PORT: '0',
  });
  expect(await waitUntil(() => t.app.redis.status === 'ready', { timeoutMs: 10_000 })).toBe(true);
  worker = await startWorkerRuntime(t.app.config);
}, 60_000);

afterAll(async () => {
  await worker?.close();
  await t?.stop();
  cluster?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Every key on every master. */
function allKeys(): string[] {
  return cluster.masters().flatMap(({ port }) => redisCli(port, '--scan').stdout.split('\n').filter(Boolean));
}

const slotOf = (key: string) => Number(redisCli(cluster.ports[0] as number, 'cluster', 'keyslot', key).stdout.trim());

describe('Redis Cluster (REDIS_CLUSTER_NODES)', () => {
  it('runs the limiter, budgets, stream slots, queues and tracking with every multi-key command in one slot', async () => {
    const prefix = t.app.config.redisPrefix;
    for (const swap of [
      { provider: 'RELAY', body: ETH_TO_BTC },
      { provider: 'CHAINFLIP', body: BTC_TO_ETH },
    ]) {
      const executed = await executeSwap(t, swap.body, swap.provider);
      const final = await waitForStatus(t, executed.transaction.id, (tx) => tx.status !== 'PENDING', {
        timeoutMs: 30_000,
      });
      expect(final.transaction.status).toBe('SUCCESS');
    }
    const thorchain = await executeSwap(t, BTC_TO_ETH, 'THORCHAIN');
    const tracked = await t.post('/api/v1/transaction/track', {
      transactionId: thorchain.transaction.id,
      txHash: randomHex(),
    });
    expect(tracked.status).toBe(200);

    // A stream takes a slot in Redis (a script) and is released when the client leaves.
    const streamAbort = new AbortController();
    const stream = await t.fetch(`/api/v1/transaction/stream?transactionId=${thorchain.transaction.id}`, {
      signal: streamAbort.signal,
    });
    expect(stream.status).toBe(200);
    streamAbort.abort();

    // The limiter counts in the cluster; the 429s are counted and rolled into Postgres.
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await t.fetch('/api/v1/swap/chains')).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    await flushRateLimitHits(t.app.redis);
    const hitKeys = allKeys().filter((key) => key.startsWith(`${prefix}:{rl-hits}:`));
    expect(hitKeys.length).toBeGreaterThan(1);
    expect(new Set(hitKeys.map(slotOf)).size).toBe(1);
    await rollupRateLimitHits(t.app);
    const [hits] = await t.app.sql<{ n: number }[]>`select coalesce(sum(hits), 0)::int as n from rate_limit_hits`;
    expect(hits?.n).toBe(statuses.filter((s) => s === 429).length);

    const keys = allKeys().filter((key) => key.includes(prefix));
    const queueKeys = keys.filter((key) => key.startsWith(`{${prefix}}:`));
    expect(queueKeys.some((key) => key.startsWith(`{${prefix}}:tracking:`))).toBe(true);
    expect(new Set(queueKeys.map(slotOf)).size).toBe(1);
    expect(keys.some((key) => key.startsWith(`${prefix}:rl:catalog:`))).toBe(true);
    expect(keys.some((key) => key.startsWith(`${prefix}:upstream:`))).toBe(true);

    // Nothing the product sent spanned slots: every node counts the CROSSSLOT refusals it gave.
    for (const port of cluster.ports) {
      expect(redisCli(port, 'info', 'errorstats').stdout).not.toMatch(/CROSSSLOT/);
    }
  }, 90_000);
});
