import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../server/context';
import { createWorkerRedis } from '../server/redis';
import { pollTransaction } from '../server/tracking/poll';
import { bullPrefix, createQueue, enqueue } from '../server/tracking/queues';
import { trackingProcessor } from '../workers/processors/tracking';
import { startTestApp, type TestApp } from './support/app';
import { ETH_TO_BTC } from './support/fixtures';
import { executeSwap } from './support/flows';
import { deletePrefixKeys, newTestRedisPrefix } from './support/redis-prefixes';
import { countingContext } from './support/round-trips';
import { stopInSteps } from './support/stop';

let t: TestApp;
let counted: { ctx: AppContext; statements: string[]; close(): Promise<void> };

beforeAll(async () => {
  // The catalog is read once per process in production; the tests' default re-reads it on every use.
  // Polls a job's transaction again after ~20 ms, for the test through BullMQ.
  t = await startTestApp({ CATALOG_CACHE_MS: '600000', TRACKING_TIME_SCALE: '0.001', TRACKING_MIN_INTERVAL_MS: '20' });
  counted = countingContext(t.app);
});
afterAll(() => stopInSteps('poll cost test', [['counting client', () => counted?.close()], ...(t?.stopSteps ?? [])]));

const row = async (id: string) => {
  const [tx] = await t.app.sql<{ poll_attempts: number; next_poll_at: string | null; last_upstream_state: string }[]>`
    select poll_attempts, next_poll_at, last_upstream_state from transactions where id = ${id}`;
  const [events] = await t.app.sql<{ n: number }[]>`
    select count(*)::int as n from transaction_events where transaction_id = ${id}`;
  return { ...tx, events: events?.n };
};

const requestIdOf = async (id: string) => {
  const [tx] = await t.app.sql<{ requestId: string }[]>`
    select tracking_context->>'requestId' as "requestId" from transactions where id = ${id}`;
  return tx?.requestId as string;
};

/**
 * The swap's deposit seen and its answer recorded, as a poll outside the counted context does: the polls
 * measured below start from a swap in flight whose provider has nothing new to say.
 */
async function depositSeen(id: string) {
  await pollTransaction(t.app, id);
  await pollTransaction(t.app, id);
}

/** The Relay simulator's status requests so far, by path and query. */
const statusCalls = () => t.sims.RELAY.log.filter((entry) => entry.kind === 'status').map((entry) => entry.path);

describe('a tracking poll', () => {
  it('that learns nothing new costs one read and one write, and still counts the poll and sets the next', async () => {
    t.sims.RELAY.configure({ settleAfterPolls: 1_000_000_000 });
    const { transaction } = await executeSwap(t, ETH_TO_BTC, 'RELAY');
    await depositSeen(transaction.id);
    const first = await pollTransaction(counted.ctx, transaction.id);
    expect(first.keepTracking).toBe(true);
    const learnt = await row(transaction.id);
    const statusPath = `/api/v1/transaction/status?transactionId=${transaction.id}`;
    const before = await t.fetch(statusPath);
    const beforeText = await before.text();

    counted.statements.length = 0;
    const quiet = await pollTransaction(counted.ctx, transaction.id);
    expect(counted.statements, counted.statements.join('\n')).toHaveLength(2);
    expect(counted.statements[0]).toMatch(/^select/i);
    expect(counted.statements[1]).toMatch(/^update/i);
    expect(quiet).toMatchObject({ keepTracking: true, status: 'PENDING' });

    const after = await row(transaction.id);
    expect(after.poll_attempts).toBe(Number(learnt.poll_attempts) + 1);
    expect(after.events).toBe(learnt.events);
    expect(after.last_upstream_state).toBe(learnt.last_upstream_state);
    expect(new Date(after.next_poll_at as string).getTime()).toBeGreaterThan(Date.now() - 1000);

    // Nothing a client can see changed: the same status bytes and ETag, so a wallet's poll gets 304.
    const etag = before.headers.get('etag') as string;
    const again = await t.fetch(statusPath);
    expect(await again.text()).toBe(beforeText);
    expect(again.headers.get('etag')).toBe(etag);
    expect((await t.fetch(statusPath, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it("in a tracking job, that follows this worker's own last run of the job starts from the row it wrote: one write, no read", async () => {
    t.sims.RELAY.configure({ settleAfterPolls: 1_000_000_000 });
    const { transaction } = await executeSwap(t, ETH_TO_BTC, 'RELAY');
    await depositSeen(transaction.id);
    await pollTransaction(counted.ctx, transaction.id, { attempt: 1 });
    await pollTransaction(counted.ctx, transaction.id, { attempt: 2 });
    const remembered = await row(transaction.id);

    counted.statements.length = 0;
    const quiet = await pollTransaction(counted.ctx, transaction.id, { attempt: 3 });
    expect(counted.statements, counted.statements.join('\n')).toHaveLength(1);
    expect(counted.statements[0]).toMatch(/^update/i);
    expect(quiet).toMatchObject({ keepTracking: true, status: 'PENDING' });
    const after = await row(transaction.id);
    expect(after.poll_attempts).toBe(Number(remembered.poll_attempts) + 1);
    expect(after.events).toBe(remembered.events);

    // Another worker ran the job in between (its start count moved by two): read afresh.
    counted.statements.length = 0;
    await pollTransaction(counted.ctx, transaction.id, { attempt: 5 });
    expect(counted.statements.map((s) => s.slice(0, 6).toLowerCase())).toEqual(['select', 'update']);
    // Outside a job (support's "poll now") nothing is remembered either, and what was is forgotten.
    await pollTransaction(counted.ctx, transaction.id, { attempt: 6 });
    counted.statements.length = 0;
    await pollTransaction(counted.ctx, transaction.id);
    expect(counted.statements.map((s) => s.slice(0, 6).toLowerCase())).toEqual(['select', 'update']);
    counted.statements.length = 0;
    await pollTransaction(counted.ctx, transaction.id, { attempt: 7 });
    expect(counted.statements.map((s) => s.slice(0, 6).toLowerCase())).toEqual(['select', 'update']);
    expect((await row(transaction.id)).poll_attempts).toBe(Number(after.poll_attempts) + 4);
  });

  it("written by anybody else since this worker's last run, the row is read again and the provider asked again with it", async () => {
    t.sims.RELAY.configure({ settleAfterPolls: 1_000_000_000 });
    const { transaction } = await executeSwap(t, ETH_TO_BTC, 'RELAY');
    const other = await executeSwap(t, ETH_TO_BTC, 'RELAY');
    await depositSeen(transaction.id);
    await depositSeen(other.transaction.id);
    await pollTransaction(counted.ctx, transaction.id, { attempt: 1 });
    await pollTransaction(counted.ctx, transaction.id, { attempt: 2 });
    const before = await row(transaction.id);
    // Another writer changes what the provider is to be asked about (here: the request the swap is tracked by).
    const otherRequestId = await requestIdOf(other.transaction.id);
    expect(otherRequestId).not.toBe(await requestIdOf(transaction.id));
    await t.app
      .sql`update transactions set tracking_context = jsonb_set(tracking_context, '{requestId}', to_jsonb(${otherRequestId}::text))
      where id = ${transaction.id}`;

    const asked = statusCalls().length;
    counted.statements.length = 0;
    const outcome = await pollTransaction(counted.ctx, transaction.id, { attempt: 3 });
    expect(outcome).toMatchObject({ keepTracking: true, status: 'PENDING' });
    // The remembered row's quiet write finds the row changed, so the poll starts over from the row as it is.
    expect(counted.statements.map((s) => s.slice(0, 6).toLowerCase())).toEqual(['update', 'select', 'update']);
    const calls = statusCalls().slice(asked);
    expect(calls).toHaveLength(2);
    expect(calls[1]).toContain(encodeURIComponent(otherRequestId));
    expect((await row(transaction.id)).poll_attempts).toBe(Number(before.poll_attempts) + 1);
  });

  it("through BullMQ's worker, each run after a job's first on the same worker costs one write and no read", async () => {
    t.sims.RELAY.configure({ settleAfterPolls: 1_000_000_000 });
    const { transaction } = await executeSwap(t, ETH_TO_BTC, 'RELAY');
    await depositSeen(transaction.id);
    const connections = [createWorkerRedis(t.app.config.redisUrl), createWorkerRedis(t.app.config.redisUrl)];
    // A queue of the test's own: the app's queue already holds this transaction's job.
    const prefix = newTestRedisPrefix();
    const queue = createQueue('tracking', connections[0] as Redis, prefix);
    counted.statements.length = 0;
    const worker = new Worker('tracking', trackingProcessor(counted.ctx), {
      prefix: bullPrefix(prefix),
      connection: connections[1] as Redis,
      concurrency: 1,
    });
    try {
      await enqueue(queue, 'tracking.poll', { transactionId: transaction.id }, { jobId: transaction.id });
      let polls = 0;
      for (let i = 0; i < 200 && polls < 6; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        polls = Number((await row(transaction.id)).poll_attempts);
      }
      expect(polls).toBeGreaterThanOrEqual(6);
    } finally {
      await worker.close();
      await queue.close();
      for (const redis of connections) redis.disconnect();
      // The job is still delayed when the test ends: its keys would outlive the run.
      await deletePrefixKeys(prefix);
    }
    const pollReads = counted.statements.filter(
      (statement) => /row_version/.test(statement) && /^select/i.test(statement),
    );
    // The first run reads the row and is remembered; every later run on this worker starts from what it wrote.
    expect(pollReads).toHaveLength(1);
  });

  it('that learns something takes the locked path and records it', async () => {
    t.sims.RELAY.configure({ settleAfterPolls: 0, outcome: 'success' });
    const { transaction } = await executeSwap(t, ETH_TO_BTC, 'RELAY');
    const outcome = await pollTransaction(counted.ctx, transaction.id);
    expect(outcome.status).toBe('SUCCESS');
    const after = await row(transaction.id);
    expect(after.next_poll_at).toBeNull();
    const [changed] = await t.app.sql`select to_status from transaction_events
      where transaction_id = ${transaction.id} and type = 'status_changed'`;
    expect(changed?.to_status).toBe('SUCCESS');
  });
});
