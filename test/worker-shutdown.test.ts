import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createQueue } from '../server/tracking/queues';
import { startWorkerRuntime, type WorkerRuntime } from '../workers/runtime';
import { startTestApp, type TestApp } from './support/app';
import { ETH_TO_BTC } from './support/fixtures';
import { executeSwap, waitForStatus } from './support/flows';
import { waitUntil } from './support/processes';
import { stopInSteps } from './support/stop';
import { FAST_TRACKING } from './support/tracking-app';

let t: TestApp;
const started: WorkerRuntime[] = [];

beforeAll(async () => {
  t = await startTestApp(FAST_TRACKING);
});
afterEach(() =>
  stopInSteps(
    'workers',
    started.splice(0).map((w, i) => [`worker ${i}`, () => w.close()]),
  ),
);
afterAll(() => t?.stop());

function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Backends of this test's database waiting on a lock: a poll stuck behind the row the test holds. */
const waitingOnLock = async () =>
  (
    await t.app.sql`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`
  )[0]?.n as number;

it('hands a job stuck on the database back when its worker stops, and another worker finishes it', async () => {
  t.sims.RELAY.configure({ outcome: 'success', settleAfterPolls: 1 });
  const executed = await executeSwap(t, ETH_TO_BTC, 'RELAY');
  const id: string = executed.transaction.id;

  // The swap's row held by another session, as a database in failover holds a write: the poll's write waits.
  const locked = deferred();
  const release = deferred();
  const holding = t.app.sql.begin(async (tx) => {
    await tx`select id from transactions where id = ${id} for update`;
    locked.resolve();
    await release.promise;
  });
  await locked.promise;

  // The worker's wait for its active jobs to finish is over when the test says so (an injected clock).
  const handBackDue = deferred();
  const first = await startWorkerRuntime(t.app.config, { waitToHandBack: () => handBackDue.promise });
  started.push(first);
  expect(await waitUntil(async () => (await waitingOnLock()) > 0)).toBe(true);

  const closing = first.close();
  handBackDue.resolve();
  await closing;

  // Back in the queue, not failed: no attempt counted, waiting for the next worker.
  const queue = createQueue('tracking', t.app.redis, t.app.config.redisPrefix);
  const job = await queue.getJob(id);
  expect(await job?.getState()).toBe('waiting');
  expect(job?.attemptsMade).toBe(0);
  await queue.close();

  release.resolve();
  await holding;
  started.push(await startWorkerRuntime(t.app.config));
  const settled = await waitForStatus(t, id, (tx) => tx.status === 'SUCCESS');
  expect(settled.final).toBe(true);
  // Applied once, though the first worker's abandoned poll ran on once the row was free: no event twice.
  const repeated = await t.app.sql`select type, message, count(*)::int as n from transaction_events
    where transaction_id = ${id} and type <> 'poll_error' group by type, message having count(*) > 1`;
  expect(repeated).toEqual([]);
});
