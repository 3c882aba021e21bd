import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldRouteTimeDeltas } from '../server/rollups/route-times';
import { backfillRouteTimes } from '../server/route-times/backfill';
import { observedTime, readRouteTimes } from '../server/route-times/times';
import { startTestApp, type TestApp } from './support/app';
import { WALLETS } from './support/fixtures';
import { insertTransactions } from './support/seed-transactions';

/**
 * Swaps that were loaded already settled (the demo dataset) never pass through the settle trigger:
 * the backfill records their route times once, and gives pending swaps their expected-by time.
 */

let t: TestApp;
const NOW = new Date('2026-11-20T12:00:00Z');
const HOUR = 3_600_000;
const ROUTE = { provider: 'CHAINFLIP', srcChain: 'ethereum', dstChain: 'bitcoin', srcAssetId: 1, dstAssetId: 2 };

beforeAll(async () => {
  t = await startTestApp({ ROUTE_TIME_MIN_SAMPLES: '5', ROUTE_TIME_WINDOW_DAYS: '30', LATE_FACTOR: '2' });
});
afterAll(() => t?.stop());

/** Swaps inserted as SUCCESS, `minutes` from execute to final: no UPDATE to SUCCESS, so no trigger. */
async function loadSettled(minutes: number[]) {
  const rows = await insertTransactions(
    t.app,
    minutes.map(() => ({
      wallet: WALLETS.evm,
      recipient: WALLETS.bitcoin,
      provider: 'CHAINFLIP',
      status: 'SUCCESS' as const,
      createdAt: new Date(NOW.getTime() - 2 * HOUR),
    })),
  );
  for (const [i, row] of rows.entries()) {
    await t.app.sql`update transactions set finalized_at = created_at + ${minutes[i] ?? 0} * interval '1 minute'
      where id = ${row.id}`;
  }
  return rows;
}

const samplesNow = async () => observedTime(await readRouteTimes(t.app, NOW), ROUTE, 0);

describe('route-time backfill', () => {
  it('records swaps loaded settled once, however often it runs, and gives pending swaps an expected-by time', async () => {
    await loadSettled([2, 3, 4, 5, 6, 7]);
    const [pending] = await insertTransactions(t.app, [
      {
        wallet: WALLETS.evm,
        recipient: WALLETS.bitcoin,
        provider: 'CHAINFLIP',
        createdAt: new Date(NOW.getTime() - HOUR),
      },
    ]);
    const [noData] = await insertTransactions(t.app, [
      { wallet: WALLETS.evm, recipient: WALLETS.bitcoin, provider: 'LIFI', createdAt: new Date(NOW.getTime() - HOUR) },
    ]);
    expect(await samplesNow()).toBeNull();

    const first = await backfillRouteTimes(t.app, NOW);
    expect(first).toEqual({ settled: 6, expected: 1 });
    const observed = await samplesNow();
    expect(observed).toMatchObject({ source: 'observed', samples: 6 });
    const p90 = observed?.p90Seconds ?? 0;
    expect(p90).toBeGreaterThanOrEqual(6 * 60);

    const [expectation] = await t.app.sql<{ id: string; expected_by: string | null; late_at: string | null }[]>`
      select id, expected_by, late_at from transactions where id in (${pending?.id ?? ''}, ${noData?.id ?? ''})
      order by provider`;
    const created = NOW.getTime() - HOUR;
    expect(expectation?.id).toBe(pending?.id);
    expect(new Date(expectation?.expected_by ?? 0).getTime()).toBe(created + p90 * 1000);
    expect(new Date(expectation?.late_at ?? 0).getTime()).toBe(created + p90 * 2 * 1000);
    const [unknown] = await t.app.sql<{ expected_by: Date | null }[]>`
      select expected_by from transactions where id = ${noData?.id ?? ''}`;
    expect(unknown?.expected_by).toBeNull();

    // Again: the days are rebuilt, not added to; the pending swap keeps its expectation.
    expect(await backfillRouteTimes(t.app, NOW)).toEqual({ settled: 6, expected: 0 });
    expect(await samplesNow()).toMatchObject({ samples: 6 });

    // A swap the trigger records (settled by an UPDATE, as polls settle) counts once after another backfill.
    await t.app.sql`update transactions set status = 'SUCCESS', finalized_at = created_at + interval '5 minutes'
      where id = ${pending?.id ?? ''}`;
    await foldRouteTimeDeltas(t.app);
    expect(await samplesNow()).toMatchObject({ samples: 7 });
    expect(await backfillRouteTimes(t.app, NOW)).toEqual({ settled: 7, expected: 0 });
    expect(await samplesNow()).toMatchObject({ samples: 7 });

    // What each swap was shown is rebuilt as the trigger records it: our p90 a promise, the provider's estimate apart.
    const [ours, theirs] = await loadSettled([3, 30]);
    await t.app.sql`update transactions set quote = jsonb_build_object('observedTime',
        jsonb_build_object('p50Seconds', 240, 'p90Seconds', 300, 'source', 'observed')) where id = ${ours?.id ?? ''}`;
    await t.app.sql`update transactions set quote = jsonb_build_object('observedTime',
        jsonb_build_object('p50Seconds', 600, 'p90Seconds', 600, 'source', 'provider')) where id = ${theirs?.id ?? ''}`;
    expect(await backfillRouteTimes(t.app, NOW)).toEqual({ settled: 9, expected: 0 });
    const [promises] = await t.app.sql<{ promised: number; kept: number; estimates: number; estimates_kept: number }[]>`
      select sum(promised)::int as promised, sum(kept)::int as kept, sum(estimates)::int as estimates,
        sum(estimates_kept)::int as estimates_kept from route_time_daily`;
    expect(promises).toEqual({ promised: 1, kept: 1, estimates: 1, estimates_kept: 0 });
  });
});
