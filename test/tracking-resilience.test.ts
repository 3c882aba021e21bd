import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pollTransaction } from '../server/tracking/poll';
import { createQueue, createTrackingScheduler } from '../server/tracking/queues';
import { sweep } from '../server/tracking/sweep';
import { canTransition } from '../server/transactions/transitions';
import { startWorkerRuntime, type WorkerRuntime } from '../workers/runtime';
import { startTestApp, type TestApp } from './support/app';
import { firstRow } from './support/assertions';
import { BTC_TO_ETH, ETH_TO_BTC } from './support/fixtures';
import { executeSwap, waitForStatus } from './support/flows';
import { spawnEntry, waitUntil } from './support/processes';

let t: TestApp;
let worker: WorkerRuntime | undefined;
const OVERRIDES = {
  PROVIDER_DEADLINE_MS: '1500',
  TRACKING_TIME_SCALE: '0.01',
  TRACKING_MIN_INTERVAL_MS: '100',
  WORKER_LOCK_DURATION_MS: '2000',
  SWEEP_INTERVAL_MS: '600000',
  SWEEP_GRACE_MS: '0',
};

beforeAll(async () => {
  t = await startTestApp(OVERRIDES);
});
afterAll(() => t?.stop());
beforeEach(() => {
  for (const sim of Object.values(t.sims)) sim.reset();
});
afterEach(async () => {
  await worker?.close();
  worker = undefined;
});

async function queueKeys(app: TestApp) {
  return app.app.redis.keys(`{${app.app.config.redisPrefix}}:tracking:*`);
}

describe('transitions', () => {
  it('allows PENDING to anything and FAILED to REFUND only', () => {
    for (const to of ['SUCCESS', 'FAILED', 'REFUND'] as const) expect(canTransition('PENDING', to)).toBe(true);
    expect(canTransition('FAILED', 'REFUND')).toBe(true);
    for (const from of ['SUCCESS', 'REFUND'] as const) {
      for (const to of ['PENDING', 'SUCCESS', 'FAILED', 'REFUND'] as const) expect(canTransition(from, to)).toBe(false);
    }
    expect(canTransition('FAILED', 'SUCCESS')).toBe(false);
    expect(canTransition('FAILED', 'PENDING')).toBe(false);
  });

  it('never lets a provider answer move a final state backwards', async () => {
    t.sims.RELAY.configure({ outcome: 'success', settleAfterPolls: 1 });
    const executed = await executeSwap(t, ETH_TO_BTC, 'RELAY');
    const id = executed.transaction.id;
    await t.app.sql`update transactions set status = 'FAILED', finalized_at = now() where id = ${id}`;
    await pollTransaction(t.app, id);
    await pollTransaction(t.app, id);
    const row = await firstRow(t.app.sql`select status from transactions where id = ${id}`);
    expect(row.status).toBe('FAILED');
    const events = await t.app
      .sql`select type from transaction_events where transaction_id = ${id} and type = 'ignored_regression'`;
    expect(events.length).toBeGreaterThan(0);
  });
});

describe('sweep', () => {
  // The sweep acts on every overdue transaction, so each test gets a database and Redis prefix of its own.
  let s: TestApp;
  beforeEach(async () => {
    s = await startTestApp(OVERRIDES);
  });
  afterEach(async () => {
    await worker?.close();
    worker = undefined;
    await s?.stop();
  });

  it('restores tracking for pending swaps after their Redis keys are gone', async () => {
    s.sims.RELAY.configure({ outcome: 'success', settleAfterPolls: 2 });
    const a = await executeSwap(s, ETH_TO_BTC, 'RELAY');
    const b = await executeSwap(s, BTC_TO_ETH, 'CHAINFLIP');
    const keys = await queueKeys(s);
    expect(keys.length).toBeGreaterThan(0);
    await s.app.redis.del(...keys);
    expect(await queueKeys(s)).toEqual([]);
    await s.app
      .sql`update transactions set next_poll_at = now() - interval '1 minute' where id in ${s.app.sql([a.transaction.id, b.transaction.id])}`;

    const report = await sweep(s.app, s.app.tracking as never);
    expect(report.rescheduled).toBe(2);
    const queue = createQueue('tracking', s.app.redis, s.app.config.redisPrefix);
    expect(await queue.getJob(a.transaction.id)).toBeTruthy();
    expect(await queue.getJob(b.transaction.id)).toBeTruthy();
    await queue.close();

    worker = await startWorkerRuntime(s.app.config);
    const done = await waitForStatus(s, a.transaction.id, (tx) => tx.status === 'SUCCESS');
    expect(done.final).toBe(true);
  });

  it('flags swaps in flight past the configured age as stale, once', async () => {
    const executed = await executeSwap(s, BTC_TO_ETH, 'CHAINFLIP');
    // In flight: its deposit was seen seven hours ago, on a route with no times (no late_at).
    await s.app.sql`update transactions set created_at = now() - interval '7 hours', inbound_hash = ${'c'.repeat(64)},
      expected_by = null, late_at = null where id = ${executed.transaction.id}`;
    const first = await sweep(
      s.app,
      createTrackingScheduler(createQueue('tracking', s.app.redis, s.app.config.redisPrefix)),
    );
    expect(first.flaggedStale).toBe(1);
    const again = await sweep(s.app, s.app.tracking as never);
    expect(again.flaggedStale).toBe(0);
    const row = await firstRow(s.app.sql`select stale, status from transactions where id = ${executed.transaction.id}`);
    expect(row).toEqual({ stale: true, status: 'PENDING' });
    const events = await s.app
      .sql`select type from transaction_events where transaction_id = ${executed.transaction.id} and type = 'stale'`;
    expect(events).toHaveLength(1);
  });

  it('leaves a swap past the configured age but within the time its provider quoted unflagged, until it is late', async () => {
    const executed = await executeSwap(s, BTC_TO_ETH, 'CHAINFLIP');
    const id = executed.transaction.id;
    // A long streaming swap: quoted at ten hours, in flight for seven, on a route with no times (no late_at).
    await s.app.sql`update transactions set created_at = now() - interval '7 hours', inbound_hash = ${'d'.repeat(64)},
      quote = jsonb_set(quote, '{estimatedTime}', '36000'), expected_by = null, late_at = null where id = ${id}`;
    const onTime = await sweep(s.app, s.app.tracking as never);
    expect(onTime.flaggedStale).toBe(0);
    await s.app.sql`update transactions set created_at = now() - interval '11 hours' where id = ${id}`;
    const late = await sweep(s.app, s.app.tracking as never);
    expect(late.flaggedStale).toBe(1);
    expect(await firstRow(s.app.sql`select stale, substatus from transactions where id = ${id}`)).toEqual({
      stale: true,
      substatus: 'DELAYED',
    });
  });

  it('leaves a swap with route times to lateness: the fixed age flags only swaps without them', async () => {
    const executed = await executeSwap(s, BTC_TO_ETH, 'CHAINFLIP');
    const id = executed.transaction.id;
    // In flight for seven hours on a route whose times made it late after two.
    await s.app.sql`update transactions set created_at = now() - interval '7 hours', inbound_hash = ${'e'.repeat(64)},
      expected_by = now() - interval '6 hours', late_at = now() - interval '5 hours' where id = ${id}`;
    const withRouteTimes = await sweep(s.app, s.app.tracking as never);
    expect(withRouteTimes.flaggedStale).toBe(0);
    expect(await firstRow(s.app.sql`select stale from transactions where id = ${id}`)).toEqual({ stale: false });
    await s.app.sql`update transactions set expected_by = null, late_at = null where id = ${id}`;
    const without = await sweep(s.app, s.app.tracking as never);
    expect(without.flaggedStale).toBe(1);
  });

  it('hands back an execute claim that a crash left without a transaction', async () => {
    const locked = await s.post('/api/v1/quote/lock', { ...ETH_TO_BTC, provider: 'RELAY' });
    const lockId = locked.body.data.lockId;
    await s.app
      .sql`update locks set state = 'executing', claimed_at = now() - interval '10 minutes' where id = ${lockId}`;
    const report = await sweep(s.app, s.app.tracking as never);
    expect(report.releasedClaims).toBe(1);
    expect((await firstRow(s.app.sql`select state from locks where id = ${lockId}`)).state).toBe('locked');
    const executed = await s.post('/api/v1/quote/execute', { lockId });
    expect(executed.status).toBe(200);
  });
});

describe('one poll per transaction', () => {
  it('deduplicates concurrent track calls into one job', async () => {
    t.sims.LIFI.configure({ settleAfterPolls: 1000 });
    const { USDC_ETH_TO_ARB } = await import('./support/fixtures');
    const executed = await executeSwap(t, USDC_ETH_TO_ARB, 'LIFI');
    const hash = `0x${'cd'.repeat(32)}`;
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.post('/api/v1/transaction/track', { transactionId: executed.transaction.id, txHash: hash }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const queue = createQueue('tracking', t.app.redis, t.app.config.redisPrefix);
    const counts = await queue.getJobCounts('waiting', 'delayed', 'active', 'prioritized');
    const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'prioritized']);
    await queue.close();
    expect(jobs.filter((j) => j.id === executed.transaction.id)).toHaveLength(1);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
  });
});

/** A worker process whose status calls may take long (the simulator is told to be slow). */
const slowWorkerEnv = () => ({ ...t.env, ...OVERRIDES, PROVIDER_DEADLINE_MS: '10000', WORKER_HEALTH_PORT: '0' });
const pollInFlight = () => t.sims.RELAY.log.some((e) => e.kind === 'status');

describe('worker shutdown', () => {
  it('finishes the in-flight poll on SIGTERM before exiting', async () => {
    t.sims.RELAY.configure({ outcome: 'success', settleAfterPolls: 50, slowMs: 1500, faults: { status: 'slow' } });
    const graceful = spawnEntry('workers/main.ts', slowWorkerEnv());
    const executed = await executeSwap(t, ETH_TO_BTC, 'RELAY');
    await waitUntil(pollInFlight);
    const exited = new Promise<number | null>((resolve) => graceful.once('exit', resolve));
    graceful.kill('SIGTERM');
    expect(await exited).toBe(0);
    const row = await firstRow(
      t.app.sql`select poll_attempts, last_poll_error from transactions where id = ${executed.transaction.id}`,
    );
    expect(row.poll_attempts).toBeGreaterThanOrEqual(1);
    expect(row.last_poll_error).toBeNull();
    const queue = createQueue('tracking', t.app.redis, t.app.config.redisPrefix);
    const job = await queue.getJob(executed.transaction.id);
    expect(await job?.getState()).toBe('delayed');
    await queue.close();
  }, 60_000);
});

describe('worker crash', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGKILL');
  });

  it('lets another worker finish a transaction whose worker was SIGKILLed mid-poll', async () => {
    t.sims.RELAY.configure({ outcome: 'success', settleAfterPolls: 2, slowMs: 8000, faults: { status: 'slow' } });
    child = spawnEntry('workers/main.ts', slowWorkerEnv());
    const executed = await executeSwap(t, ETH_TO_BTC, 'RELAY');
    expect(await waitUntil(pollInFlight)).toBe(true);
    child.kill('SIGKILL');
    await new Promise((r) => child?.once('exit', r));
    t.sims.RELAY.configure({ faults: { status: 'none' } });

    worker = await startWorkerRuntime(t.app.config);
    const done = await waitForStatus(t, executed.transaction.id, (tx) => tx.status === 'SUCCESS', {
      timeoutMs: 20_000,
    });
    expect(done.transaction.outboundHash).toBeTruthy();
  }, 60_000);
});
