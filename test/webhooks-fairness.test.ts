import { describe, expect, it } from 'vitest';
import {
  type Admission,
  createEndpointGate,
  type EndpointGate,
  GAVE_WAY,
  GIVE_WAY_AFTER_MS,
  type Lease,
} from '../server/webhooks/gate';
import { affiliateWithCode, referredSwap } from './support/affiliates';
import type { TestApp } from './support/app';
import { withAppAndWorker } from './support/app-with-worker';
import { waitUntil } from './support/processes';
import { startHangingReceiver, startReceiver } from './support/webhook-receivers';

/**
 * The shared lane for endpoints that have not answered promptly is fair per owner: a few accounts
 * with hanging receivers (five owners, five endpoints each, as self sign-up allows) cannot keep a new
 * honest endpoint's first delivery waiting, whether their endpoints failed before or are new; and a
 * place that frees goes to a job that can take it. Real Redis, injected clock; an attempt that is
 * never settled is a receiver that hangs.
 */
let t: TestApp;
const worker = withAppAndWorker(
  {
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // WEBHOOK_CONCURRENCY's default: the shared lane has 5 slots. A hanging attempt holds one for the whole test.
    WEBHOOK_CONCURRENCY: '10',
    WEBHOOK_TIMEOUT_MS: '60000',
    WEBHOOK_ENDPOINT_BACKOFF_MS: '200',
    WORKER_LOCK_DURATION_MS: '5000',
  },
  (app) => {
    t = app;
  },
);

// WEBHOOK_CONCURRENCY's default (10) gives the lane 5 slots.
const settings = { endpointConcurrency: 2, backoffMs: 1_000, attemptTimeoutMs: 10_000, unprovenSlots: 5 };
const OWNERS = ['usr_h1', 'usr_h2', 'usr_h3', 'usr_h4', 'usr_h5'];
const endpointsOf = (owner: string) => [1, 2, 3, 4, 5].map((n) => `whe_${owner}_${n}`);
const ownerOfEndpoint = (endpointId: string) => endpointId.split('_').slice(1, 3).join('_');

describe('the shared lane for new and failing endpoints', () => {
  let clock = 5_000_000;
  let jobs = 0;
  const ownerOfJob = new Map<string, string>();
  let gates = 0;
  const make = () =>
    createEndpointGate(t.app.redis, `${t.app.config.redisPrefix}:fair${++gates}`, settings, {
      now: () => clock,
      random: () => 0,
    });
  const admit = (g: EndpointGate, endpointId: string, ownerId: string): Promise<Admission> => {
    const jobId = `j${++jobs}`;
    ownerOfJob.set(jobId, ownerId);
    clock += 1;
    return g.admit(endpointId, { jobId, queuedAt: clock, ownerId });
  };
  const admitted = async (g: EndpointGate, endpointId: string, ownerId: string): Promise<Lease> => {
    const admission = await admit(g, endpointId, ownerId);
    if (!admission.admitted) throw new Error(`${endpointId} not admitted: ${admission.why}`);
    return admission.lease;
  };

  it('admits a new honest endpoint’s first delivery at once while 25 endpoints of 5 owners hang', async () => {
    const g = make();
    // Each hostile endpoint has failed once already (a hanging attempt ends by its bound as a failure).
    for (const owner of OWNERS) {
      for (const endpointId of endpointsOf(owner)) {
        const first = await admit(g, endpointId, owner);
        if (!first.admitted) throw new Error(`warm-up not admitted: ${first.why}`);
        await g.settle(first.lease, 'failed');
      }
    }
    clock += 2 * settings.backoffMs;

    // Every hostile endpoint has a delivery waiting; the ones admitted hang (never settled).
    const hanging: Lease[] = [];
    const refused: string[] = [];
    for (const n of [0, 1, 2, 3, 4]) {
      for (const owner of OWNERS) {
        const endpointId = endpointsOf(owner)[n] as string;
        const admission = await admit(g, endpointId, owner);
        if (admission.admitted) hanging.push(admission.lease);
        else refused.push(admission.why);
      }
    }
    const owners = hanging.map((lease) => ownerOfEndpoint(lease.endpointId));
    expect(new Set(owners).size).toBe(owners.length);
    expect(hanging.length).toBe(settings.unprovenSlots - 1);
    expect(refused.every((why) => why === 'unproven-slots-taken')).toBe(true);

    const honest = await admit(g, 'whe_honest', 'usr_honest');
    expect(honest).toMatchObject({ admitted: true, lease: { proven: false } });

    // A hanging attempt that ends frees its slot for the oldest job of an owner with nothing in the lane.
    const ended = hanging[0] as Lease;
    const woken = await g.settle(ended, 'failed');
    expect(woken).toHaveLength(1);
    const stillIn = new Set(hanging.slice(1).map((lease) => ownerOfEndpoint(lease.endpointId)));
    expect(stillIn.has(ownerOfJob.get(woken[0] as string) as string)).toBe(false);
  });

  it('admits a new honest endpoint’s first delivery once an attempt of 25 never-attempted hanging endpoints has gone unanswered', async () => {
    const g = make();
    const hanging: Lease[] = [];
    for (const n of [0, 1, 2, 3, 4]) {
      for (const owner of OWNERS) {
        const admission = await admit(g, endpointsOf(owner)[n] as string, `new_${owner}`);
        if (admission.admitted) hanging.push(admission.lease);
      }
    }
    const owners = hanging.map((lease) => ownerOfEndpoint(lease.endpointId));
    expect(new Set(owners).size).toBe(settings.unprovenSlots);
    const firstAt = clock - 24;

    // Parked until the oldest hanging attempt has gone GIVE_WAY_AFTER_MS unanswered, no longer.
    const early = await admit(g, 'whe_honest_new', 'usr_honest_new');
    expect(early).toMatchObject({ admitted: false, why: 'unproven-slots-taken' });
    expect(early.admitted || early.retryAt).toBe(firstAt + GIVE_WAY_AFTER_MS);

    clock = firstAt + GIVE_WAY_AFTER_MS;
    const honest = await admit(g, 'whe_honest_new', 'usr_honest_new');
    expect(honest).toMatchObject({ admitted: true, lease: { proven: false } });
    const gaveWay = hanging.filter((lease) => lease.signal?.aborted);
    expect(gaveWay.map((lease) => [lease.endpointId, lease.signal?.reason])).toEqual([
      [hanging[0]?.endpointId, GAVE_WAY],
    ]);
    expect(await g.settle(gaveWay[0] as Lease, 'failed')).toEqual([]);

    // The owner whose attempt gave way makes none of the others give way; another new owner does.
    clock += GIVE_WAY_AFTER_MS;
    const victimOwner = `new_${ownerOfEndpoint(hanging[0]?.endpointId as string)}`;
    expect(await admit(g, 'whe_again', victimOwner)).toMatchObject({ admitted: false });
    expect(await admit(g, 'whe_honest_2', 'usr_honest_2')).toMatchObject({ admitted: true });
    expect(hanging.filter((lease) => lease.signal?.aborted)).toHaveLength(2);
  });

  it('keeps the place a settled attempt frees for the job it wakes', async () => {
    const g = make();
    const leases: Lease[] = [];
    for (const owner of OWNERS) leases.push(await admitted(g, `whe_keep_${owner}`, `keep_${owner}`));
    expect(await admit(g, 'whe_keep_waiter', 'keep_waiter')).toMatchObject({ admitted: false });
    const waiterJob = `j${jobs}`;

    // Its place is kept for the waiter it wakes, not taken by whoever asks first: the waiter is not refused again.
    expect(await g.settle(leases[0] as Lease, 'failed')).toEqual([waiterJob]);
    expect(await admit(g, 'whe_keep_late', 'keep_late')).toMatchObject({ admitted: false });
    const back = await g.admit('whe_keep_waiter', { jobId: waiterJob, queuedAt: clock, ownerId: 'keep_waiter' });
    expect(back.admitted).toBe(true);
  });

  it('wakes a new endpoint’s job, not an older failing one’s, when the place freed is the one failing endpoints may not take', async () => {
    const g = make();
    const failingOwners = ['usr_fa', 'usr_fb', 'usr_fc', 'usr_fd', 'usr_fx'];
    for (const owner of failingOwners) await g.settle(await admitted(g, `whe_${owner}`, owner), 'failed');
    clock += 2 * settings.backoffMs;
    for (const owner of failingOwners.slice(0, 4)) await admitted(g, `whe_${owner}`, owner);
    const fresh = await admitted(g, 'whe_fresh', 'usr_fresh');
    expect(await admit(g, 'whe_usr_fx', 'usr_fx')).toMatchObject({ admitted: false, why: 'unproven-slots-taken' });
    const failingJob = `j${jobs}`;
    expect(await admit(g, 'whe_newer', 'usr_newer')).toMatchObject({ admitted: false, why: 'unproven-slots-taken' });
    const newJob = `j${jobs}`;

    const woken = await g.settle(fresh, 'slow');
    expect(woken).toEqual([newJob]);
    expect(woken).not.toContain(failingJob);
    const back = await g.admit('whe_newer', { jobId: newJob, queuedAt: clock, ownerId: 'usr_newer' });
    expect(back.admitted).toBe(true);
  });

  it('lets one owner hold one attempt in the lane, whatever its other endpoints', async () => {
    const g = make();
    const [first, second] = ['whe_solo_a', 'whe_solo_b'];
    expect((await admit(g, first as string, 'usr_solo')).admitted).toBe(true);
    expect(await admit(g, second as string, 'usr_solo')).toMatchObject({
      admitted: false,
      why: 'unproven-slots-taken',
    });
    expect((await admit(g, 'whe_other', 'usr_other')).admitted).toBe(true);
  });
});

describe('a worker delivering to 25 hanging endpoints of 5 owners', () => {
  it('delivers a new honest endpoint’s first message while every attempt to them is still held open', async () => {
    let failing = true;
    const hostile = await startHangingReceiver({ failing: () => failing });
    const honest = await startReceiver();
    const codes = OWNERS.map((_, n) => `HANG${n}`);
    const owners = await Promise.all(codes.map((code) => affiliateWithCode(t, code)));
    const endpoints: string[] = [];
    for (const [n, owner] of owners.entries()) {
      for (let i = 0; i < 5; i++)
        endpoints.push((await owner.webhooks.create({ url: hostile.urlFor(`${n}-${i}`) })).endpoint.id);
    }
    await worker.start();
    try {
      // Each hostile endpoint has failed before (as a hanging one has, once its first attempt ran out).
      for (const code of codes) await referredSwap(t, code);
      expect(await waitUntil(() => new Set(hostile.failed.map((r) => r.path)).size === 25, { timeoutMs: 60_000 })).toBe(
        true,
      );
      failing = false;
      for (let round = 0; round < 3; round++) for (const code of codes) await referredSwap(t, code);
      expect(await waitUntil(() => hostile.open().size >= settings.unprovenSlots - 1, { timeoutMs: 30_000 })).toBe(
        true,
      );

      const asHonest = await affiliateWithCode(t, 'HONEST');
      await asHonest.webhooks.create({ url: honest.url });
      const swap = await referredSwap(t, 'HONEST');
      expect(await waitUntil(() => honest.events().some((e) => e.data.id === swap), { timeoutMs: 20_000 })).toBe(true);
      // Delivered while the requests to the hanging endpoints were held open: it waited for none of them to
      // run out. On a slow machine the lane's last place may be held when it comes (kept for a woken job of a
      // hanging endpoint): it then takes the oldest attempt's place, which gives way as designed — the one end allowed.
      const ended = hostile.held.filter((r) => r.ended).length;
      expect(ended).toBeLessThanOrEqual(1);
      const gaveWay = async () =>
        (
          await t.app.sql`select count(*)::int as n from webhook_deliveries
            where endpoint_id in ${t.app.sql(endpoints)} and error = ${GAVE_WAY}`
        )[0]?.n ?? 0;
      expect(await waitUntil(async () => (await gaveWay()) >= ended)).toBe(true);
      const open = [...hostile.open().keys()].map((path) => path.split('-')[0]);
      expect(new Set(open).size).toBe(open.length);
    } finally {
      await hostile.stop();
      await honest.stop();
      for (const owner of owners) {
        for (const { id } of await owner.webhooks.list()) await owner.webhooks.delete({ endpointId: id });
      }
    }
  }, 150_000);

  it('delivers a new honest endpoint’s first message while 25 never-attempted endpoints hang: attempts give way, none runs out', async () => {
    const hostile = await startHangingReceiver();
    const honest = await startReceiver();
    const codes = OWNERS.map((_, n) => `NEWHANG${n}`);
    const owners = await Promise.all(codes.map((code) => affiliateWithCode(t, code)));
    const endpoints: string[] = [];
    for (const [n, owner] of owners.entries()) {
      for (let i = 0; i < 5; i++)
        endpoints.push((await owner.webhooks.create({ url: hostile.urlFor(`n${n}-${i}`) })).endpoint.id);
    }
    await worker.start();
    try {
      for (const code of codes) await referredSwap(t, code);
      expect(await waitUntil(() => hostile.open().size >= settings.unprovenSlots, { timeoutMs: 30_000 })).toBe(true);
      const open = [...hostile.open().keys()].map((path) => path.split('-')[0]);
      expect(new Set(open).size).toBe(open.length);

      const asHonest = await affiliateWithCode(t, 'NEWHONEST');
      await asHonest.webhooks.create({ url: honest.url });
      const swap = await referredSwap(t, 'NEWHONEST');
      expect(await waitUntil(() => honest.events().some((e) => e.data.id === swap), { timeoutMs: 20_000 })).toBe(true);
      // Attempts are bounded at 60 s: none ran out. Those that ended were cut short to make room, and say why.
      const ended = hostile.held.filter((r) => r.ended).length;
      expect(ended).toBeGreaterThanOrEqual(1);
      const gaveWay = async () =>
        (
          await t.app.sql`select count(*)::int as n from webhook_deliveries
            where endpoint_id in ${t.app.sql(endpoints)} and error = ${GAVE_WAY}`
        )[0]?.n;
      expect(await waitUntil(async () => (await gaveWay()) >= ended)).toBe(true);
      const failures = await t.app.sql`select error from webhook_deliveries
        where endpoint_id in ${t.app.sql(endpoints)} and error is distinct from ${GAVE_WAY}`;
      expect(failures).toEqual([]);
    } finally {
      await hostile.stop();
      await honest.stop();
      await t.app.sql`delete from webhook_endpoints where id in ${t.app.sql(endpoints)}`;
    }
  }, 150_000);
});
