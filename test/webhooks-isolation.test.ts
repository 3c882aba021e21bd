import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../server/config';
import { type AppContext, createAppContext } from '../server/context';
import { listen } from '../server/lifecycle';
import { sharedQueue } from '../server/tracking/queues';
import { deliverMessage } from '../server/webhooks/deliver';
import {
  type Admission,
  createEndpointGate,
  MAX_PAUSE_MS,
  PARK_SAFETY_MS,
  placeNewMessages,
} from '../server/webhooks/gate';
import { referredSwap as swapFor, affiliateWithCode as withCode } from './support/affiliates';
import type { TestApp } from './support/app';
import { withAppAndWorker } from './support/app-with-worker';
import { callerFor, outcomeOf, signedInUser } from './support/dashboard';
import { waitUntil } from './support/processes';
import { startHangingReceiver, startReceiver } from './support/webhook-receivers';

vi.setConfig({ testTimeout: 60_000 });

let t: TestApp;

withAppAndWorker(
  {
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // Hanging receivers hang for the whole test: nothing here ends an attempt by its bound.
    WEBHOOK_TIMEOUT_MS: '60000',
    WEBHOOK_ENDPOINT_BACKOFF_MS: '600000',
    WORKER_LOCK_DURATION_MS: '5000',
  },
  (app) => {
    t = app;
  },
  { worker: true },
);

const affiliateWithCode = (code: string) => withCode(t, code);
const referredSwap = (code: string) => swapFor(t, code);

describe('one endpoint cannot hold up another', () => {
  it('a healthy endpoint’s deliveries go out while ten endpoints hang with thirty swaps queued for them', async () => {
    const hanging = await startHangingReceiver();
    const healthy = await startReceiver();
    const stallers = [await affiliateWithCode('STALLA'), await affiliateWithCode('STALLB')];
    for (const [n, caller] of stallers.entries()) {
      for (let i = 0; i < 5; i++) await caller.webhooks.create({ url: hanging.urlFor(`${n}-${i}`) });
    }
    const asHealthy = await affiliateWithCode('HEALTHY');
    await asHealthy.webhooks.create({ url: healthy.url });
    const deliveredToHealthy = (ids: string[]) => () =>
      ids.every((id) => healthy.events().some((e) => e.data.id === id && e.type === 'transaction.created'));
    try {
      // The healthy endpoint has answered before, as a working receiver has when others start to hang.
      expect(await waitUntil(deliveredToHealthy([await referredSwap('HEALTHY')]))).toBe(true);

      for (let i = 0; i < 30; i++) await referredSwap(i % 2 ? 'STALLA' : 'STALLB');
      expect(await waitUntil(() => hanging.open().size >= stallers.length)).toBe(true);

      const later = [await referredSwap('HEALTHY'), await referredSwap('HEALTHY'), await referredSwap('HEALTHY')];
      expect(await waitUntil(deliveredToHealthy(later))).toBe(true);

      // Delivered while every request to the hanging endpoints was still held open, none given up on.
      expect(hanging.held.filter((r) => r.ended)).toEqual([]);
      // One attempt in flight per endpoint that never answered, and one per owner in the shared lane.
      const open = hanging.open();
      expect(Math.max(...open.values())).toBe(1);
      expect(new Set([...open.keys()].map((path) => path.split('-')[0])).size).toBe(open.size);
      expect(open.size).toBeLessThanOrEqual(stallers.length);
    } finally {
      await hanging.stop();
      await healthy.stop();
    }
  });

  it('a failing endpoint is paused: what is queued for it meanwhile waits in delayed, not attempted', async () => {
    const failing = await startReceiver(() => 500);
    const asAffiliate = await affiliateWithCode('FAILING');
    const { endpoint } = await asAffiliate.webhooks.create({ url: failing.url });
    const queue = sharedQueue(t.app, 'webhooks');
    try {
      const first = await referredSwap('FAILING');
      expect(await waitUntil(() => failing.requests.length === 1)).toBe(true);
      const more = [await referredSwap('FAILING'), await referredSwap('FAILING'), await referredSwap('FAILING')];
      const createdFor = () => t.app.sql<{ id: string }[]>`
        select id from webhook_messages where endpoint_id = ${endpoint.id} and transaction_id = any(${more})
          and event_type = 'transaction.created'`;
      expect(await waitUntil(async () => (await createdFor()).length === 3)).toBe(true);
      const messages = await createdFor();
      const deferred = async () => {
        const jobs = await Promise.all(messages.map((m) => queue.getJob(m.id)));
        const states = await Promise.all(jobs.map((job) => job?.getState()));
        return jobs.every((job, i) => states[i] === 'delayed' && job?.attemptsMade === 0);
      };
      expect(await waitUntil(deferred)).toBe(true);
      expect(failing.requests).toHaveLength(1);
      expect(JSON.parse(failing.requests[0]?.body ?? '{}').data.id).toBe(first);
      const [attempts] = await t.app.sql`
        select count(*)::int as n from webhook_deliveries where endpoint_id = ${endpoint.id}`;
      expect(attempts?.n).toBe(1);
    } finally {
      await asAffiliate.webhooks.delete({ endpointId: endpoint.id });
      await failing.stop();
    }
  });
});

describe('the endpoint gate (real Redis, injected clock)', () => {
  const settings = { endpointConcurrency: 2, backoffMs: 1_000, attemptTimeoutMs: 10_000, unprovenSlots: 2 };
  let clock = 1_000_000;
  let gateCount = 0;
  const gate = () =>
    createEndpointGate(t.app.redis, `${t.app.config.redisPrefix}:gate${++gateCount}`, settings, {
      now: () => clock,
      random: () => 0,
    });
  const admitted = (admission: Admission) => {
    if (!admission.admitted) throw new Error(`not admitted: ${admission.why}`);
    return admission.lease;
  };

  it('pauses an endpoint after each failure, twice as long each time, and lets it go when the pause ends', async () => {
    const g = gate();
    const first = admitted(await g.admit('whe_a', { jobId: 'j1', queuedAt: clock }));
    expect(first.proven).toBe(false);
    expect(await g.admit('whe_a', { jobId: 'j2', queuedAt: clock })).toMatchObject({ admitted: false, why: 'busy' });
    expect(await g.settle(first, 'failed')).toEqual([]);
    expect(await g.admit('whe_a', { jobId: 'j2', queuedAt: clock })).toEqual({
      admitted: false,
      why: 'paused',
      retryAt: clock + 1_000,
    });

    clock += 1_000;
    await g.settle(admitted(await g.admit('whe_a', { jobId: 'j2', queuedAt: clock })), 'failed');
    clock += 1_999;
    expect(await g.admit('whe_a', { jobId: 'j3', queuedAt: clock })).toMatchObject({
      admitted: false,
      why: 'paused',
      retryAt: clock + 1,
    });
    expect(await g.admit('whe_a', { jobId: 'j4', queuedAt: clock, ignorePause: true })).toMatchObject({
      admitted: true,
    });
  });

  it('never pauses longer than MAX_PAUSE_MS, and a prompt answer ends the pause and allows more in flight', async () => {
    const g = gate();
    for (let i = 0; i < 20; i++)
      await g.settle(
        admitted(await g.admit('whe_b', { jobId: `j${i}`, queuedAt: clock, ignorePause: true })),
        'failed',
      );
    expect(await g.admit('whe_b', { jobId: 'later', queuedAt: clock })).toEqual({
      admitted: false,
      why: 'paused',
      retryAt: clock + MAX_PAUSE_MS,
    });
    const probe = admitted(await g.admit('whe_b', { jobId: 'probe', queuedAt: clock, ignorePause: true }));
    // The prompt answer ends the pause: the job parked during it is handed back, and two may go now.
    expect(await g.settle(probe, 'prompt')).toEqual(['later']);
    const both = [
      admitted(await g.admit('whe_b', { jobId: 'later', queuedAt: clock })),
      admitted(await g.admit('whe_b', { jobId: 'x', queuedAt: clock })),
    ];
    expect(both.map((lease) => lease.proven)).toEqual([true, true]);
    expect(await g.admit('whe_b', { jobId: 'y', queuedAt: clock })).toMatchObject({ admitted: false, why: 'busy' });
  });

  it('hands parked jobs back in the order they came, as places free up', async () => {
    const g = gate();
    const lease = admitted(await g.admit('whe_d', { jobId: 'first', queuedAt: clock }));
    for (const jobId of ['second', 'third', 'fourth']) {
      clock += 1;
      const refused = await g.admit('whe_d', { jobId, queuedAt: clock });
      expect(refused).toMatchObject({ admitted: false, why: 'busy' });
      if (!refused.admitted) expect(refused.retryAt).toBeLessThanOrEqual(clock + PARK_SAFETY_MS);
    }
    // A prompt answer: the endpoint may have two in flight, so two parked jobs go.
    expect(await g.settle(lease, 'prompt')).toEqual(['second', 'third']);
    // A job handed back before it reached delayed finds itself no longer parked, and goes by itself.
    expect([await g.isParked('whe_d', 'second'), await g.isParked('whe_d', 'fourth')]).toEqual([false, true]);
    const second = admitted(await g.admit('whe_d', { jobId: 'second', queuedAt: clock }));
    admitted(await g.admit('whe_d', { jobId: 'third', queuedAt: clock }));
    expect(await g.settle(second, 'prompt')).toEqual(['fourth']);
  });

  it('keeps a woken job’s turn when another takes the place first', async () => {
    const g = gate();
    await g.settle(admitted(await g.admit('whe_e', { jobId: 'probe', queuedAt: clock })), 'prompt');
    const [one, two] = [
      admitted(await g.admit('whe_e', { jobId: 'a', queuedAt: clock })),
      admitted(await g.admit('whe_e', { jobId: 'b', queuedAt: clock })),
    ];
    const oldQueuedAt = clock;
    clock += 10;
    expect(await g.admit('whe_e', { jobId: 'old', queuedAt: oldQueuedAt })).toMatchObject({ why: 'busy' });
    expect(await g.admit('whe_e', { jobId: 'new', queuedAt: clock })).toMatchObject({ why: 'busy' });
    expect(await g.settle(one, 'prompt')).toEqual(['old']);
    // Before 'old' is back, a job already waiting takes the place: 'old' is parked again, still first.
    const racer = admitted(await g.admit('whe_e', { jobId: 'racer', queuedAt: clock }));
    expect(await g.admit('whe_e', { jobId: 'old', queuedAt: oldQueuedAt })).toMatchObject({ why: 'busy' });
    expect(await g.settle(two, 'prompt')).toEqual(['old']);
    expect(await g.settle(racer, 'prompt')).toEqual(['new']);
  });

  it('places a new endpoint’s messages one at a time until it answers promptly', async () => {
    const prefix = `${t.app.config.redisPrefix}:placement`;
    const g = createEndpointGate(t.app.redis, prefix, settings, { now: () => clock, random: () => 0 });
    const place = (jobId: string) =>
      placeNewMessages(t.app.redis, prefix, settings, [{ endpointId: 'whe_p', jobId }], {
        now: clock,
        random: () => 0,
      });
    expect(await place('m1')).toEqual([{ ready: true }]);
    // The first is its probe: those after it wait parked, costing the worker nothing until it settles.
    expect(await place('m2')).toEqual([{ ready: false, readyAt: clock + PARK_SAFETY_MS, endpointId: 'whe_p' }]);
    const probe = admitted(await g.admit('whe_p', { jobId: 'm1', queuedAt: clock }));
    expect(await g.settle(probe, 'prompt')).toEqual(['m2']);
    expect(await place('m3')).toEqual([{ ready: true }]);

    await g.settle(admitted(await g.admit('whe_p', { jobId: 'm2', queuedAt: clock })), 'failed');
    expect(await place('m4')).toEqual([{ ready: false, readyAt: clock + 1_000, endpointId: 'whe_p' }]);
  });

  it('gives endpoints that have not answered promptly at most their share of this process’s slots', async () => {
    const g = gate();
    await g.settle(admitted(await g.admit('whe_c', { jobId: 'c1', queuedAt: clock })), 'prompt');
    const one = admitted(await g.admit('whe_new1', { jobId: 'n1', queuedAt: clock }));
    admitted(await g.admit('whe_new2', { jobId: 'n2', queuedAt: clock }));
    expect(await g.admit('whe_new3', { jobId: 'n3', queuedAt: clock })).toMatchObject({
      admitted: false,
      why: 'unproven-slots-taken',
    });
    expect(await g.admit('whe_c', { jobId: 'c2', queuedAt: clock })).toMatchObject({
      admitted: true,
      lease: { proven: true },
    });
    // The slot one unproven attempt frees goes to the job that waited for it.
    expect(await g.settle(one, 'failed')).toEqual(['n3']);
    expect((await g.admit('whe_new3', { jobId: 'n3', queuedAt: clock })).admitted).toBe(true);
  });
});

describe('every attempt is bounded', () => {
  let bounded: AppContext;
  beforeAll(() => {
    bounded = createAppContext(parseConfig({ ...t.env, WEBHOOK_TIMEOUT_MS: '300' }));
  });
  afterAll(() => bounded?.close());

  /** Answers a status line, then never the rest of the headers; records when the sender hangs up. */
  async function startDribbler() {
    const sockets = new Set<Socket>();
    const seen = { requests: 0, senderClosed: 0 };
    const server: Server = createServer();
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.once('data', () => {
        seen.requests++;
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n');
      });
      socket.on('close', () => {
        seen.senderClosed++;
      });
    });
    const port = await listen(server, 0, '127.0.0.1');
    return {
      url: `http://127.0.0.1:${port}/slow`,
      seen,
      stop: () => {
        for (const socket of sockets) socket.destroy();
        return new Promise((resolve) => server.close(resolve));
      },
    };
  }

  it('gives up on a receiver that never finishes its answer, and logs why', async () => {
    const dribbler = await startDribbler();
    const asAffiliate = await affiliateWithCode('SLOWPOKE');
    const { endpoint } = await asAffiliate.webhooks.create({ url: dribbler.url });
    try {
      await t.app.sql`
        insert into webhook_messages (id, endpoint_id, transaction_id, event_type, digest, payload)
        values ('msg_boundedAttempt00000000', ${endpoint.id}, 'tx_none', 'transaction.created', 'x', '{}'::jsonb)`;
      const outcome = await deliverMessage(bounded, 'msg_boundedAttempt00000000', { lastAttempt: false });
      expect(outcome).toMatchObject({ delivered: false, statusCode: null, error: 'no answer within 0.3 s' });
      expect(dribbler.seen.requests).toBe(1);
      expect(await waitUntil(() => dribbler.seen.senderClosed === 1)).toBe(true);
    } finally {
      await asAffiliate.webhooks.delete({ endpointId: endpoint.id });
      await dribbler.stop();
    }
  });
});

describe('endpoints per account', () => {
  it('caps an account at WEBHOOK_MAX_ENDPOINTS_PER_OWNER (5), even when it asks for more at once', async () => {
    const affiliate = await signedInUser(t.app, 'affiliate');
    const asAffiliate = await callerFor(t.app, affiliate.headers);
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        outcomeOf(asAffiliate.webhooks.create({ url: `https://93.184.215.14/${i}` })),
      ),
    );
    expect(outcomes.filter((o) => o === 'OK')).toHaveLength(5);
    expect(outcomes.filter((o) => o === 'CONFLICT')).toHaveLength(3);
    await expect(asAffiliate.webhooks.create({ url: 'https://93.184.215.14/one-more' })).rejects.toThrow(
      'You already have 5 webhook endpoints, the most one account may have; delete one first',
    );
    const [row] = await t.app.sql`select count(*)::int as n from webhook_endpoints where owner_id = ${affiliate.id}`;
    expect(row?.n).toBe(5);
  });
});
