import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { type Caller, callerFor, signedInUser } from './support/dashboard';
import { ETH_TO_BTC } from './support/fixtures';
import { executeSwap } from './support/flows';

let t: TestApp;
let admin: Caller;

beforeAll(async () => {
  t = await startTestApp();
  admin = await callerFor(t.app, (await signedInUser(t.app, 'admin')).headers);
});
afterAll(async () => {
  await t?.stop();
});

const lockOnly = async (provider: string) => {
  const res = await t.post('/api/v1/quote/lock', { ...ETH_TO_BTC, provider });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.lockId as string;
};

describe('locks.activity', () => {
  it('counts created, executed and expired locks, conversion and median time to execute by provider', async () => {
    const executedA = (await executeSwap(t, ETH_TO_BTC, 'RELAY')).lockId as string;
    const executedB = (await executeSwap(t, ETH_TO_BTC, 'RELAY')).lockId as string;
    const expired = await lockOnly('RELAY');
    await lockOnly('THORCHAIN');
    await t.app.sql`update locks set used_at = created_at + interval '10 seconds' where id = ${executedA}`;
    await t.app.sql`update locks set used_at = created_at + interval '30 seconds' where id = ${executedB}`;
    await t.app.sql`update locks set expires_at = now() - interval '1 second' where id = ${expired}`;

    const activity = await admin.locks.activity({ range: '24h' });
    const relay = activity.byProvider.find((p) => p.provider === 'RELAY');
    expect(relay).toMatchObject({ created: 3, executed: 2, expired: 1, medianSecondsToExecute: 20 });
    expect(relay?.conversion).toBeCloseTo(2 / 3);
    expect(activity.byProvider.find((p) => p.provider === 'THORCHAIN')).toMatchObject({
      created: 1,
      executed: 0,
      expired: 0,
      conversion: 0,
      medianSecondsToExecute: null,
    });
    expect(activity.totals).toMatchObject({ created: 4, executed: 2, expired: 1 });
    expect(activity.series.length).toBeGreaterThanOrEqual(24);
    expect(activity.series.reduce((sum, p) => sum + p.created, 0)).toBe(4);
    expect(activity.series.reduce((sum, p) => sum + p.expired, 0)).toBe(1);
    expect(activity.series[0]?.bucket).toBeInstanceOf(Date);
    expect(activity.recent.find((l) => l.id === expired)?.outcome).toBe('expired');
    expect(activity.recent.find((l) => l.id === executedA)?.outcome).toBe('executed');
  });

  it('an empty range has zero-filled buckets, not an error', async () => {
    await t.app.sql`update locks set created_at = now() - interval '40 days', used_at = null`;
    const activity = await admin.locks.activity({ range: '7d' });
    expect(activity.totals.created).toBe(0);
    expect(activity.series.every((p) => p.created === 0)).toBe(true);
    expect(activity.series.length).toBe(8);
  });
});

describe('rateLimits.activity', () => {
  it('sums 429s per route class and bucket, ranks the top clients, and shows the limits in force', async () => {
    await t.app.sql`
      insert into rate_limit_hits (minute, route_class, client_hash, hits) values
        (date_trunc('minute', now()), 'quote', 'client-a', 7),
        (date_trunc('minute', now()) - interval '1 minute', 'quote', 'client-b', 2),
        (date_trunc('minute', now()), 'execute', 'client-a', 3),
        (now() - interval '3 days', 'quote', 'client-old', 50)`;
    const day = await admin.rateLimits.activity({ range: '24h' });
    expect(day.total).toBe(12);
    expect(day.series.reduce((sum, p) => sum + (p.byClass.quote ?? 0), 0)).toBe(9);
    expect(day.series.reduce((sum, p) => sum + (p.byClass.execute ?? 0), 0)).toBe(3);
    expect(day.topClients.map((c) => [c.clientHash, c.hits])).toEqual([
      ['client-a', 10],
      ['client-b', 2],
    ]);
    expect(day.topClients[0]?.routeClasses).toEqual(['execute', 'quote']);
    expect(day.routeClasses).toEqual(expect.arrayContaining(['catalog', 'quote', 'execute', 'transactions']));
    expect(day.limits.perClient).toEqual(t.app.config.rateLimits.perClient);

    const week = await admin.rateLimits.activity({ range: '7d' });
    expect(week.total).toBe(62);
    expect(week.topClients[0]?.clientHash).toBe('client-old');
  });
});

describe('operations.overview', () => {
  it('reports quote latency percentiles and error rate per provider over the last hour', async () => {
    await t.app.sql`delete from provider_calls`;
    await t.app.sql`
      insert into provider_calls (provider, stage, outcome, latency_ms, created_at)
      select 'CHAINFLIP', 'quote', case when n <= 2 then 'unavailable' else 'ok' end, n * 10, now()
      from generate_series(1, 10) as n`;
    await t.app.sql`
      insert into provider_calls (provider, stage, outcome, latency_ms, created_at) values
        ('CHAINFLIP', 'quote', 'no_route', 5, now()),
        ('CHAINFLIP', 'execute', 'error', null, now()),
        ('CHAINFLIP', 'quote', 'unavailable', 9000, now() - interval '2 hours')`;
    const { providers } = await admin.operations.overview();
    const chainflip = providers.find((p) => p.provider === 'CHAINFLIP');
    expect(chainflip).toMatchObject({
      enabled: true,
      quoteCalls: 11,
      quoteErrors: 2,
      otherFailures: 1,
      breaker: 'closed',
    });
    expect(chainflip?.errorRate).toBeCloseTo(2 / 11);
    expect(chainflip?.latencyP50Ms).toBe(50);
    expect(chainflip?.latencyP95Ms).toBe(95);
    expect(providers.map((p) => p.provider)).toEqual(expect.arrayContaining(['THORCHAIN', 'RELAY', 'LIFI']));
    expect(providers.find((p) => p.provider === 'LIFI')).toMatchObject({ quoteCalls: 0, errorRate: null });
  });

  it('reads queue depth from BullMQ, and the 24 h KPIs, swaps in flight apart from those awaiting a deposit, and the stale list from Postgres', async () => {
    const stuck = (await executeSwap(t, ETH_TO_BTC, 'RELAY')).transaction.id as string;
    const unfunded = (await executeSwap(t, ETH_TO_BTC, 'RELAY')).transaction.id as string;
    await t.app.sql`update transactions set stale = true, hash = ${`0x${'5'.repeat(64)}`} where id = ${stuck}`;
    await t.app.sql`update transactions set hash = '', inbound_hash = '' where id = ${unfunded}`;
    await t.app
      .sql`update transactions set status = 'SUCCESS', amount_usd = 1000 where id not in ${t.app.sql([stuck, unfunded])}`;
    const overview = await admin.operations.overview();
    expect(overview.queues.map((q) => q.name)).toEqual(['tracking', 'maintenance', 'webhooks']);
    const tracking = overview.queues.find((q) => q.name === 'tracking');
    expect(tracking?.available).toBe(true);
    const depth = (tracking?.counts?.waiting ?? 0) + (tracking?.counts?.delayed ?? 0);
    expect(depth).toBeGreaterThan(0);
    expect(overview.stale.map((s) => s.id)).toEqual([stuck]);
    expect(overview.kpis.swaps).toBe(4);
    expect(overview.kpis.succeeded).toBe(2);
    expect(overview.kpis).toMatchObject({ inFlight: 1, awaitingDeposit: 1, stale: 1 });
    expect(overview.kpis.successRate).toBe(1);
    expect(overview.kpis.volumeUsd).toBe(2000);
  });

  it('shows each scheduled job with the age of its last success, flagging overdue, failed and unscheduled ones', async () => {
    await t.app.sql`
      insert into maintenance_runs (job, last_started_at, last_finished_at, last_succeeded_at, last_outcome, last_error, last_duration_ms)
      values
        ('maintenance.sweep', now() - interval '10 seconds', now() - interval '10 seconds', now() - interval '10 seconds', 'ok', null, 40),
        ('maintenance.refresh-prices', now() - interval '2 hours', now() - interval '2 hours', now() - interval '2 hours', 'ok', null, 900),
        ('maintenance.prune', now() - interval '5 minutes', now() - interval '5 minutes', now() - interval '30 minutes', 'failed', 'statement timeout', 5000)`;
    const { jobs } = await admin.operations.overview();
    const byJob = Object.fromEntries(jobs.map((j) => [j.job, j]));
    expect(jobs.map((j) => j.id)).toEqual([
      'sweep',
      'rollup-rate-limits',
      'refresh-prices',
      'prune',
      'sample-queues',
      'prune-webhook-deliveries',
      'rollup',
    ]);
    expect(byJob['maintenance.sweep']).toMatchObject({ intervalMs: 30_000, overdue: false, lastOutcome: 'ok' });
    expect(byJob['maintenance.sweep']?.ageMs).toBeGreaterThanOrEqual(10_000);
    expect(byJob['maintenance.refresh-prices']).toMatchObject({ intervalMs: 600_000, overdue: true });
    expect(byJob['maintenance.rollup-rate-limits']).toMatchObject({
      lastSucceededAt: null,
      ageMs: null,
      overdue: true,
    });
    expect(byJob['maintenance.sample-queues']).toMatchObject({
      intervalMs: 60_000,
      lastSucceededAt: null,
      overdue: true,
    });
    expect(byJob['maintenance.prune']).toMatchObject({
      overdue: false,
      lastOutcome: 'failed',
      lastError: 'statement timeout',
    });
    // No worker has started against this app's Redis prefix.
    expect(jobs.every((j) => j.scheduled === false && j.nextRunAt === null)).toBe(true);
  });
});
