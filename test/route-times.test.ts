import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldRouteTimeDeltas } from '../server/rollups/route-times';
import { routeTimeAccuracy } from '../server/route-times/accuracy';
import { DEPOSIT_SEEN_KEY, expectationAfterDeposit, expectationAtExecute } from '../server/route-times/expect';
import { observedFromDeposit, observedTime, readRouteTimes, routeTimes } from '../server/route-times/times';
import { whatCounts } from '../server/tracking/apply-status';
import type { PollFields } from '../server/tracking/poll-row';
import { createTrackingScheduler, sharedQueue } from '../server/tracking/queues';
import { maintenanceTasks } from '../workers/processors/maintenance';
import { startTestApp, type TestApp } from './support/app';
import { ETH_TO_BTC, WALLETS } from './support/fixtures';
import { insertTransactions } from './support/seed-transactions';

/**
 * Observed route times: a swap that succeeds leaves a delta (a trigger), the maintenance job folds deltas
 * into daily histograms, and a lookup sums the window's days. Every clock is injected.
 */

let t: TestApp;
const DAY = 86_400_000;
const NOW = new Date('2026-11-20T12:00:00Z');
const RELAY_ETH_BTC = { provider: 'RELAY', srcChain: 'ethereum', dstChain: 'bitcoin', srcAssetId: 1, dstAssetId: 2 };

beforeAll(async () => {
  t = await startTestApp({ ROUTE_TIME_MIN_SAMPLES: '5', ROUTE_TIME_WINDOW_DAYS: '30', LATE_FACTOR: '2' });
});
afterAll(() => t?.stop());

interface Settled {
  finishedAt: Date;
  seconds: number;
  depositSeconds?: number;
  provider?: string;
  shown?: { p50Seconds: number; p90Seconds: number; source?: 'observed' | 'provider' };
  srcAsset?: { id: number; symbol: string; chain: string };
}

/** Swaps executed `seconds` before `finishedAt`, then settled there the way a poll settles them (an UPDATE). */
async function settle(swaps: Settled[]) {
  const rows = await insertTransactions(
    t.app,
    swaps.map((s) => ({
      wallet: WALLETS.evm,
      recipient: WALLETS.bitcoin,
      provider: s.provider ?? 'RELAY',
      createdAt: new Date(s.finishedAt.getTime() - s.seconds * 1000),
      ...(s.srcAsset ? { srcAsset: s.srcAsset } : {}),
    })),
  );
  for (const [i, row] of rows.entries()) {
    const s = swaps[i] as Settled;
    const seen =
      s.depositSeconds === undefined
        ? {}
        : { depositSeenAt: new Date(s.finishedAt.getTime() - s.depositSeconds * 1000).toISOString() };
    await t.app.sql`
      update transactions set status = 'SUCCESS', finalized_at = ${s.finishedAt.toISOString()}::timestamptz,
        tracking_context = ${JSON.stringify(seen)}::jsonb,
        quote = ${JSON.stringify(s.shown ? { observedTime: s.shown } : {})}::jsonb
      where id = ${row.id}`;
  }
  await foldRouteTimeDeltas(t.app);
}

const minutes = (...values: number[]) => values.map((m) => m * 60);

describe('route times', () => {
  it('are the p50 and p90 of the window’s settled swaps, read from daily rollups', async () => {
    const yesterday = new Date(NOW.getTime() - DAY);
    // 10 swaps: 2..11 minutes (15 s buckets to 10 min, then whole minutes). The p50 reads each swap as its
    // bucket's middle: 6.6 min (6:07.5 and 7:07.5); the p90, a promise, as its bucket's end: 11.1 min (11:00, 12:00).
    await settle(
      minutes(2, 3, 4, 5, 6, 7, 8, 9, 10, 11).map((seconds) => ({
        finishedAt: yesterday,
        seconds,
        depositSeconds: seconds / 2,
      })),
    );
    // Outside the window: 40 days ago, an hour each; they must not count.
    await settle([1, 2, 3].map(() => ({ finishedAt: new Date(NOW.getTime() - 40 * DAY), seconds: 3600 })));
    const times = await readRouteTimes(t.app, NOW);
    expect(observedTime(times, RELAY_ETH_BTC, 900)).toEqual({
      p50Seconds: 398,
      p90Seconds: 666,
      samples: 10,
      source: 'observed',
    });
    expect(observedFromDeposit(times, RELAY_ETH_BTC)).toEqual({ p50Seconds: 203, p90Seconds: 318, samples: 10 });
    // 45 days later the same swaps have left the window.
    const later = await readRouteTimes(t.app, new Date(NOW.getTime() + 45 * DAY));
    expect(observedTime(later, RELAY_ETH_BTC, 900)).toEqual({
      p50Seconds: 900,
      p90Seconds: 900,
      samples: 0,
      source: 'provider',
    });
  });

  it('promise a p90 the swaps counted finished within, however narrow their bucket', async () => {
    // 20 fills of 1 to 4 s, all in the first bucket [0, 5): read at its start, the p90 would be 0 s, a promise
    // every one of them broke.
    const fills = Array.from({ length: 20 }, (_, i) => 1 + (i % 4));
    await settle(fills.map((seconds) => ({ finishedAt: NOW, seconds, provider: 'LIFI' })));
    const shown = observedTime(await readRouteTimes(t.app, NOW), { ...RELAY_ETH_BTC, provider: 'LIFI' }, 60);
    expect(shown).toMatchObject({ source: 'observed', samples: 20 });
    expect(fills.filter((seconds) => seconds <= (shown?.p90Seconds ?? 0)).length).toBeGreaterThanOrEqual(18);
    expect(shown?.p50Seconds).toBeGreaterThan(0);
    // The tests below count LI.FI's swaps from none.
    await t.app.sql`delete from route_time_daily where provider = 'LIFI'`;
    await t.app.sql`delete from transactions where provider = 'LIFI'`;
  });

  it('fall back to the provider’s estimate below the minimum sample, and to null without one', async () => {
    await settle(minutes(1, 1, 1).map((seconds) => ({ finishedAt: NOW, seconds, provider: 'LIFI' })));
    const times = await readRouteTimes(t.app, NOW);
    const lifi = { ...RELAY_ETH_BTC, provider: 'LIFI' };
    expect(observedTime(times, lifi, 240)).toEqual({
      p50Seconds: 240,
      p90Seconds: 240,
      samples: 3,
      source: 'provider',
    });
    expect(observedTime(times, lifi, 0)).toBeNull();
    expect(observedFromDeposit(times, lifi)).toBeNull();
  });

  it('use the asset pair’s own swaps once it has enough, the route’s before', async () => {
    const usdc = { id: 3, symbol: 'USDC', chain: 'ethereum' };
    const pair = { ...RELAY_ETH_BTC, provider: 'CHAINFLIP', srcAssetId: 3 };
    await settle(
      minutes(20, 20, 20).map((seconds) => ({ finishedAt: NOW, seconds, provider: 'CHAINFLIP', srcAsset: usdc })),
    );
    await settle(minutes(2, 2, 2, 2).map((seconds) => ({ finishedAt: NOW, seconds, provider: 'CHAINFLIP' })));
    // The pair has 3 (under 5): the route's 7 answer, mostly 2-minute swaps (the middle of [2:00, 2:15)).
    expect(observedTime(await readRouteTimes(t.app, NOW), pair, 60)).toMatchObject({
      samples: 7,
      source: 'observed',
      p50Seconds: 128,
    });
    await settle(
      minutes(20, 20).map((seconds) => ({ finishedAt: NOW, seconds, provider: 'CHAINFLIP', srcAsset: usdc })),
    );
    expect(observedTime(await readRouteTimes(t.app, NOW), pair, 60)).toEqual({
      p50Seconds: 1230,
      p90Seconds: 1260,
      samples: 5,
      source: 'observed',
    });
  });

  it('are held in process for ROUTE_TIME_CACHE_MS, then read again', async () => {
    const first = await routeTimes(t.app, NOW);
    expect(await routeTimes(t.app, new Date(NOW.getTime() + 30_000))).toBe(first);
    const stale = await routeTimes(t.app, new Date(NOW.getTime() + 61_000));
    expect(stale).toBe(first); // answered at once with what is held, while the new read runs
    // Until the new read is in, what is held; then the new one (a hang guard, not a time bound).
    await expect
      .poll(() => routeTimes(t.app, new Date(NOW.getTime() + 62_000)), { timeout: 20_000, interval: 20 })
      .not.toBe(first);
  });

  it('count the promise kept: swaps that finished within the p90 they were shown', async () => {
    await settle([
      { finishedAt: NOW, seconds: 100, provider: 'THORCHAIN', shown: { p50Seconds: 90, p90Seconds: 120 } },
      { finishedAt: NOW, seconds: 300, provider: 'THORCHAIN', shown: { p50Seconds: 90, p90Seconds: 120 } },
      { finishedAt: NOW, seconds: 50, provider: 'THORCHAIN' },
      // Below the minimum sample the provider's estimate is shown as p50 and p90: its promise, not ours.
      {
        finishedAt: NOW,
        seconds: 500,
        provider: 'THORCHAIN',
        shown: { p50Seconds: 600, p90Seconds: 600, source: 'provider' },
      },
      {
        finishedAt: NOW,
        seconds: 900,
        provider: 'THORCHAIN',
        shown: { p50Seconds: 600, p90Seconds: 600, source: 'provider' },
      },
      {
        finishedAt: NOW,
        seconds: 700,
        provider: 'THORCHAIN',
        shown: { p50Seconds: 600, p90Seconds: 600, source: 'provider' },
      },
    ]);
    const [row] = await t.app.sql<
      {
        swaps: string;
        promised: string;
        kept: string;
        estimates: string;
        estimates_kept: string;
        p50_error: Record<string, number>;
      }[]
    >`
      select swaps::text, promised::text, kept::text, estimates::text, estimates_kept::text, p50_error
      from route_time_daily where provider = 'THORCHAIN'`;
    expect(row).toMatchObject({ swaps: '6', promised: '2', kept: '1', estimates: '3', estimates_kept: '1' });
    expect(Object.values(row?.p50_error ?? {}).reduce((a, b) => a + b, 0)).toBe(2);
    // The operations page's figure: half the promises kept; |100 − 90| and |300 − 90| put the median error at 110 s.
    const thorchain = (await routeTimeAccuracy(t.app, NOW)).find((p) => p.provider === 'THORCHAIN');
    expect(thorchain).toEqual({
      provider: 'THORCHAIN',
      swaps: 6,
      promised: 2,
      keptShare: 0.5,
      estimates: 3,
      estimatesKeptShare: 1 / 3,
      medianP50ErrorSeconds: 110,
    });
    expect(await routeTimeAccuracy(t.app, new Date(NOW.getTime() + 45 * DAY))).toEqual([]);
  });
});

describe('expected by and late', () => {
  it('at execute: start plus the p90 shown, late at p90 × LATE_FACTOR; nothing without a time', () => {
    expect(expectationAtExecute(t.app, { p90Seconds: 600 }, NOW)).toEqual({
      expectedBy: new Date(NOW.getTime() + 600_000),
      lateAt: new Date(NOW.getTime() + 1_200_000),
    });
    expect(expectationAtExecute(t.app, null, NOW)).toBeNull();
    expect(expectationAtExecute(t.app, { p90Seconds: 0 }, NOW)).toBeNull();
  });

  it('records when the provider first saw the deposit, once', () => {
    const awaiting = {
      id: 'tx_x',
      status: 'PENDING',
      hash: '',
      inboundHash: '',
      trackingContext: {},
    } as unknown as PollFields;
    const seen = { status: 'PENDING', inboundHash: '0xabc', upstreamState: 'SEEN', detail: 'seen' } as const;
    const first = whatCounts(awaiting, seen as never, {}, NOW);
    expect(first.patch.trackingContext?.[DEPOSIT_SEEN_KEY]).toBe(NOW.toISOString());
    const again = whatCounts(
      { ...awaiting, inboundHash: '0xabc', trackingContext: first.patch.trackingContext ?? {} },
      seen as never,
      {},
      new Date(NOW.getTime() + DAY),
    );
    expect(again.patch.trackingContext?.[DEPOSIT_SEEN_KEY] ?? NOW.toISOString()).toBe(NOW.toISOString());
  });

  it('once the deposit is seen: from the route’s deposit → final p90, when observed', async () => {
    const swap = {
      provider: 'RELAY',
      srcAsset: { id: 1, chain: 'ethereum', symbol: 'ETH', contract: null, image: null },
      dstAsset: { id: 2, chain: 'bitcoin', symbol: 'BTC', contract: null, image: null },
    };
    const seen = new Date(NOW.getTime() + 5 * 60_000);
    const after = await expectationAfterDeposit(t.app, swap, seen);
    expect(after?.expectedBy.toISOString()).toBe(new Date(seen.getTime() + 318_000).toISOString());
    expect(await expectationAfterDeposit(t.app, { ...swap, provider: 'LIFI' }, seen)).toBeNull();
  });

  it('quotes and locks carry observedTime, and the status answer the swap’s expectedBy', async () => {
    const quoted = await t.post('/api/v1/quote', ETH_TO_BTC);
    expect(quoted.status).toBe(200);
    for (const route of quoted.body.data) expect(route).toHaveProperty('observedTime');
    const relay = quoted.body.data.find((r: { provider: string }) => r.provider === 'RELAY');
    expect(relay?.observedTime).toMatchObject({ source: 'observed', samples: 10 });
    const locked = await t.post('/api/v1/quote/lock', { ...ETH_TO_BTC, provider: 'RELAY' });
    expect(locked.body.data.observedTime).toMatchObject({ source: 'observed', p90Seconds: 666 });
    const executed = await t.post('/api/v1/quote/execute', { lockId: locked.body.data.lockId });
    expect(executed.status).toBe(200);
    const status = await t.json(`/api/v1/transaction/status?transactionId=${executed.body.data.transaction.id}`);
    expect(status.status, JSON.stringify(status.body)).toBe(200);
    const { expectedBy, transaction } = status.body.data;
    if (status.body.data.final) expect(expectedBy).toBeNull();
    else expect(Date.parse(expectedBy) - Date.parse(transaction.createdAt)).toBeCloseTo(666_000, -3);
  });
});

describe('in the worker', () => {
  it('the rollup job folds route-time deltas and the sweep tells of swaps turned late', async () => {
    const tasks = maintenanceTasks(t.app, createTrackingScheduler(sharedQueue(t.app, 'tracking')), t.app.redis);
    const [row] = await insertTransactions(t.app, [
      { wallet: WALLETS.evm, recipient: WALLETS.bitcoin, provider: 'LIFI', createdAt: new Date(Date.now() - 60_000) },
    ]);
    await t.app.sql`update transactions set status = 'SUCCESS', finalized_at = now() where id = ${row?.id as string}`;
    const deltas = () => t.app.sql<{ n: number }[]>`select count(*)::int as n from route_time_deltas`;
    expect((await deltas())[0]?.n).toBeGreaterThan(0);
    expect(await tasks['maintenance.rollup']()).toMatchObject({ routeTimes: 1 });
    expect((await deltas())[0]?.n).toBe(0);

    const [late] = await insertTransactions(t.app, [
      { wallet: WALLETS.evm, recipient: WALLETS.bitcoin, createdAt: new Date() },
    ]);
    await t.app.sql`update transactions set late_at = now() - interval '1 minute' where id = ${late?.id as string}`;
    expect(await tasks['maintenance.sweep']()).toMatchObject({ late: 1 });
  });
});
