import type { ChildProcess } from 'node:child_process';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MaintenanceJobName, SCHEDULE_IDS, SCHEDULES } from '../server/tracking/jobs';
import { createQueue } from '../server/tracking/queues';
import { startTestApp, type TestApp } from './support/app';
import { callerFor, signedInUser } from './support/dashboard';
import { BTC_TO_ETH } from './support/fixtures';
import { executeSwap } from './support/flows';
import { spawnEntry, waitUntil } from './support/processes';

/** Shortened intervals for the real worker process; every wait below is bounded by a few of them. */
const INTERVALS = {
  SWEEP_INTERVAL_MS: '1000',
  RATE_LIMIT_ROLLUP_INTERVAL_MS: '1000',
  PRICE_REFRESH_INTERVAL_MS: '1500',
  PRUNE_INTERVAL_MS: '1000',
  QUEUE_SAMPLE_INTERVAL_MS: '1000',
  ROLLUP_INTERVAL_MS: '1000',
};
const WAIT = { timeoutMs: 30_000, intervalMs: 200 };
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';

let t: TestApp;
let queue: Queue;
let worker: ChildProcess;
let startedAt: Date;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_CATALOG: '3' });
  queue = createQueue('maintenance', t.app.redis, t.app.config.redisPrefix);
  await queue.upsertJobScheduler('report-v0', { every: 60_000 }, { name: 'maintenance.report-v0', data: {} });
  await t.app.sql`update assets set price_updated_at = now() - interval '3 days'`;
  await t.app.sql`
    insert into provider_calls (provider, stage, outcome, latency_ms, created_at) values
      ('RELAY', 'quote', 'ok', 10, now() - interval '8 days'),
      ('RELAY', 'quote', 'ok', 10, now() - interval '6 days')`;
  await t.app.sql`
    insert into rate_limit_hits (minute, route_class, client_hash, hits) values
      (date_trunc('minute', now() - interval '36 days'), 'quote', 'old-client', 5),
      (date_trunc('minute', now() - interval '34 days'), 'quote', 'kept-client', 5)`;
  await t.app.sql`
    insert into queue_depth_samples (sampled_at, queue, waiting, active, delayed, failed) values
      (now() - interval '8 days', 'tracking', 1, 0, 0, 0)`;
  await t.app.sql`
insert into idempotency_keys (scope, key_hash, fingerprint, state, expires_at) values
      ('/api/v1/quote/lock:c', 'expired', 'f', 'done', now() - interval '1 minute'),
      ('/api/v1/quote/lock:c', 'live', 'f', 'done', now() + interval '1 hour')`;
  const owner = await signedInUser(t.app, 'affiliate');
  await t.app.sql`
    insert into webhook_endpoints (id, owner_id, scope, url, secret)
    values ('whe_0000000000000000000001', ${owner.id}, 'affiliate', 'https://example.com/hook', 'whsec_AAAA')`;
  await t.app.sql`
    insert into webhook_messages (id, endpoint_id, transaction_id, event_type, digest, payload, created_at) values
      ('msg_000000000000000000old1', 'whe_0000000000000000000001', 'tx_1', 'transaction.created', 'a', '{}', now() - interval '31 days'),
      ('msg_000000000000000000kept', 'whe_0000000000000000000001', 'tx_1', 'transaction.final', 'b', '{}', now() - interval '29 days')`;
  await t.app.sql`
    insert into webhook_deliveries (message_id, endpoint_id, transaction_id, event_type, attempt, latency_ms, created_at) values
      ('msg_000000000000000000old1', 'whe_0000000000000000000001', 'tx_1', 'transaction.created', 1, 5, now() - interval '31 days'),
      ('msg_000000000000000000kept', 'whe_0000000000000000000001', 'tx_1', 'transaction.final', 1, 5, now() - interval '29 days')`;
  startedAt = new Date();
  worker = spawnEntry('workers/main.ts', { ...t.env, ...INTERVALS, WORKER_HEALTH_PORT: '0' });
}, 60_000);

afterAll(async () => {
  if (worker && worker.exitCode === null) {
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    worker.kill('SIGKILL');
  }
  await queue?.close();
  await t?.stop();
}, 60_000);

async function completedCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const job of await queue.getCompleted(0, 99)) counts[job.name] = (counts[job.name] ?? 0) + 1;
  return counts;
}

describe('the worker process (workers/main.ts)', () => {
  it('keeps exactly the catalog schedules, with their configured intervals, and drops an old one', async () => {
    const expected = SCHEDULE_IDS.map((id) => ({
      key: id,
      name: SCHEDULES[id].job,
      every: Number(INTERVALS[envOf(SCHEDULES[id].job)]),
    })).sort((a, b) => a.key.localeCompare(b.key));
    const schedulers = async () =>
      (await queue.getJobSchedulers())
        .map(({ key, name, every }) => ({ key, name, every }))
        .sort((a, b) => a.key.localeCompare(b.key));
    await waitUntil(async () => JSON.stringify(await schedulers()) === JSON.stringify(expected), WAIT);
    expect(await schedulers()).toEqual(expected);
  }, 40_000);

  it('runs every scheduled job, repeatedly, and records each run for the operations page', async () => {
    const jobs = SCHEDULE_IDS.map((id) => SCHEDULES[id].job);
    const ranTwice = async () => {
      const counts = await completedCounts();
      return jobs.every((job) => (counts[job] ?? 0) >= 2);
    };
    await waitUntil(ranTwice, WAIT);
    const counts = await completedCounts();
    for (const job of jobs) expect(counts[job], job).toBeGreaterThanOrEqual(2);

    const runs = await t.app.sql<{ job: string; last_outcome: string; last_succeeded_at: string }[]>`
      select job, last_outcome, last_succeeded_at from maintenance_runs order by job`;
    expect(runs.map((r) => r.job)).toEqual([...jobs].sort());
    for (const run of runs) {
      expect(run.last_outcome, run.job).toBe('ok');
      expect(new Date(run.last_succeeded_at).getTime(), run.job).toBeGreaterThan(startedAt.getTime());
    }

    const admin = await callerFor(t.app, (await signedInUser(t.app, 'admin')).headers);
    const { jobs: shown } = await admin.operations.overview();
    expect(shown.map((j) => j.job)).toEqual(jobs);
    for (const job of shown) {
      expect(job, job.job).toMatchObject({ scheduled: true, overdue: false, lastOutcome: 'ok' });
      expect(job.ageMs, job.job).toBeLessThan(3 * job.intervalMs);
    }
  }, 40_000);

  it('ends a swap whose deposit window closed long ago, through its scheduled sweep', async () => {
    const id = (await executeSwap(t, BTC_TO_ETH, 'THORCHAIN')).transaction.id as string;
    // The deposit window closed two hours ago, past the default hour of grace.
    await t.app.sql`update transactions set deposit_deadline = now() - interval '2 hours' where id = ${id}`;
    const state = async () => {
      const [row] = await t.app.sql<{ status: string; substatus: string | null }[]>`
        select status, substatus from transactions where id = ${id}`;
      return row;
    };
    await waitUntil(async () => (await state())?.substatus === 'EXPIRED', WAIT);
    expect(await state()).toEqual({ status: 'FAILED', substatus: 'EXPIRED' });
  }, 40_000);

  it('rolls 429s served over HTTP into rate_limit_hits', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await t.fetch('/api/v1/swap/chains?perPage=1')).status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    const recorded = async () => {
      const [row] = await t.app.sql<{ hits: number }[]>`
        select coalesce(sum(hits), 0)::int as hits from rate_limit_hits where route_class = 'catalog'`;
      return row?.hits ?? 0;
    };
    await waitUntil(async () => (await recorded()) >= 2, WAIT);
    expect(await recorded()).toBe(2);
  }, 40_000);

  it('refreshes prices and prunes samples and the webhook delivery log past their retention', async () => {
    const priceAge = async () => {
      const [row] = await t.app.sql<{ updated: string }[]>`
        select price_updated_at as updated from assets where chain_key = 'ethereum' and address = ${USDC}`;
      return new Date(row?.updated ?? 0).getTime();
    };
    await waitUntil(async () => (await priceAge()) > startedAt.getTime(), WAIT);
    expect(await priceAge()).toBeGreaterThan(startedAt.getTime());

    const samples = async () => ({
      calls: (await t.app.sql`select 1 from provider_calls where created_at < now() - interval '1 day'`).length,
      hits: (await t.app.sql`select client_hash from rate_limit_hits where minute < now() - interval '1 day'`).map(
        (r) => r.client_hash,
      ),
    });
    await waitUntil(async () => (await samples()).calls === 1, WAIT);
    expect(await samples()).toEqual({ calls: 1, hits: ['kept-client'] });
    const oldQueueSamples = async () =>
      (await t.app.sql`select 1 from queue_depth_samples where sampled_at < now() - interval '1 day'`).length;
    await waitUntil(async () => (await oldQueueSamples()) === 0, WAIT);

    const webhookLog = async () => ({
      messages: (await t.app.sql`select id from webhook_messages order by id`).map((r) => r.id),
      attempts: (await t.app.sql`select message_id from webhook_deliveries order by id`).map((r) => r.message_id),
    });
    await waitUntil(async () => (await webhookLog()).messages.length === 1, WAIT);
    expect(await webhookLog()).toEqual({
      messages: ['msg_000000000000000000kept'],
      attempts: ['msg_000000000000000000kept'],
    });
  }, 40_000);

  it('samples the depth of every queue each interval, and the operations trends chart them', async () => {
    await t.app.sql`
      insert into provider_calls (provider, stage, outcome, latency_ms) values
        ('LIFI', 'quote', 'ok', 100), ('LIFI', 'quote', 'timeout', 300), ('LIFI', 'status', 'error', 50)`;
    const waitingTracking = 3;
    const tracking = createQueue('tracking', t.app.redis, t.app.config.redisPrefix);
    await tracking.addBulk(
      Array.from({ length: waitingTracking }, (_, i) => ({
        name: 'tracking.poll',
        data: { transactionId: `tx_${String(i).padStart(22, '0')}` },
        opts: { delay: 3_600_000 },
      })),
    );
    await tracking.close();
    const delayedSamples = async () =>
      (
        await t.app.sql<{ queue: string; delayed: number }[]>`
        select queue, delayed from queue_depth_samples where sampled_at > ${startedAt.toISOString()}
        order by sampled_at desc`
      ).filter((r) => r.queue === 'tracking' && r.delayed >= waitingTracking);
    await waitUntil(async () => (await delayedSamples()).length >= 2, WAIT);
    const queues = await t.app.sql<{ queue: string }[]>`
      select distinct queue from queue_depth_samples where sampled_at > ${startedAt.toISOString()} order by queue`;
    expect(queues.map((q) => q.queue)).toEqual(['maintenance', 'tracking', 'webhooks']);

    const admin = await callerFor(t.app, (await signedInUser(t.app, 'admin')).headers);
    const trends = await admin.operations.trends({ range: '24h' });
    expect(trends.bucket).toBe('hour');
    const trackingSeries = trends.queues.find((q) => q.queue === 'tracking');
    expect(trackingSeries?.points).toHaveLength(25);
    expect(trackingSeries?.points.at(-1)?.delayed).toBeGreaterThanOrEqual(waitingTracking);
    expect(trackingSeries?.points[0]).toMatchObject({ waiting: null, active: null, delayed: null });
    const lifi = trends.providers.find((p) => p.provider === 'LIFI');
    expect(lifi?.points).toHaveLength(25);
    expect(lifi?.points.at(-1)).toMatchObject({ calls: 2, errorRate: 0.5, p50Ms: 200, p95Ms: 290 });
    expect(lifi?.points[0]).toMatchObject({ calls: 0, errorRate: null, p50Ms: null });
  }, 40_000);

  it('prunes expired Idempotency-Key records', async () => {
    const liveKeys = async () =>
      (await t.app.sql`select key_hash from idempotency_keys where scope = '/api/v1/quote/lock:c'`).map(
        (k) => k.key_hash,
      );
    await waitUntil(async () => (await liveKeys()).length === 1, WAIT);
    expect(await liveKeys()).toEqual(['live']);
  }, 40_000);

  it('brings back schedules that vanished from Redis (a flush of the BullMQ keys)', async () => {
    const tracking = createQueue('tracking', t.app.redis, t.app.config.redisPrefix);
    // The running worker may restore one before the last is removed (it looks every sweep interval), so
    // what proves they vanished is that each removal found its schedule; their coming back is the worker's.
    for (const id of SCHEDULE_IDS) {
      const removed = (await queue.removeJobScheduler(id)) || (await tracking.removeJobScheduler(id));
      expect(removed, id).toBe(true);
    }
    const keys = async () => (await queue.getJobSchedulers()).map((s) => s.key).sort();
    await waitUntil(async () => (await keys()).length === SCHEDULE_IDS.length, WAIT);
    expect(await keys()).toEqual([...SCHEDULE_IDS].sort());
    await tracking.close();
  }, 40_000);
});

/** The environment variable that sets each scheduled job's interval. */
function envOf(job: MaintenanceJobName): keyof typeof INTERVALS {
  const names: Record<MaintenanceJobName, keyof typeof INTERVALS> = {
    'maintenance.sweep': 'SWEEP_INTERVAL_MS',
    'maintenance.rollup-rate-limits': 'RATE_LIMIT_ROLLUP_INTERVAL_MS',
    'maintenance.refresh-prices': 'PRICE_REFRESH_INTERVAL_MS',
    'maintenance.prune': 'PRUNE_INTERVAL_MS',
    'maintenance.sample-queues': 'QUEUE_SAMPLE_INTERVAL_MS',
    'maintenance.prune-webhook-deliveries': 'PRUNE_INTERVAL_MS',
    'maintenance.rollup': 'ROLLUP_INTERVAL_MS',
  };
  return names[job];
}
