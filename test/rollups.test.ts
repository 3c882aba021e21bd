import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { affiliateOverview } from '../server/affiliates/attribution';
import { pruneSamples } from '../server/maintenance/retention';
import { operationsOverview } from '../server/observability/operations';
import { operationsTrends } from '../server/observability/trends';
import { rollUpEverything, rollupActivity } from '../server/rollups/run';
import { foldSwapDeltas } from '../server/rollups/swaps';
import { rolledUntil } from '../server/rollups/watermarks';
import { windowParts } from '../server/rollups/window';
import { lockActivity } from '../server/routing/lock-activity';
import { RANGE_WINDOWS, RANGES, type Range } from '../server/schemas/ranges';
import { startTestApp, type TestApp } from './support/app';
import { WALLETS } from './support/fixtures';
import { insertTransactions, type SyntheticTx } from './support/seed-transactions';

/**
 * The dashboard's aggregates read rollups (kept by a trigger's deltas, or rolled by the maintenance job
 * once an hour has settled) plus live raw rows. Each is compared with the same figure computed from the
 * raw rows alone, before and after the job, across status changes, and for windows that do not start on
 * an hour.
 */

let t: TestApp;
const HOUR = 3600_000;
const ADMIN = { userId: 'admin', email: 'admin@switchyard.test', role: 'admin' as const, sessionId: 'session-admin' };
const OWNERS = ['aff-one', 'aff-two'] as const;

beforeAll(async () => {
  t = await startTestApp({ UNEXECUTED_LOCKS_RETENTION_DAYS: '2' });
});
afterAll(() => t?.stop());

describe('windows', () => {
  it('split into a raw head, whole hours and days, and the raw tail past the rollup', () => {
    const since = new Date('2026-11-01T10:20:00Z');
    const now = new Date('2026-11-08T15:45:00Z');
    const parts = windowParts(since, now, new Date('2026-11-08T13:00:00Z'), true);
    const iso = (s: { from: Date; to: Date }) => [s.from.toISOString(), s.to.toISOString()];
    expect(parts.raw.map(iso)).toEqual([
      ['2026-11-01T10:20:00.000Z', '2026-11-01T11:00:00.000Z'],
      ['2026-11-08T13:00:00.000Z', '2026-11-08T15:45:00.001Z'],
    ]);
    expect(parts.hours.map(iso)).toEqual([
      ['2026-11-01T11:00:00.000Z', '2026-11-02T00:00:00.000Z'],
      ['2026-11-08T00:00:00.000Z', '2026-11-08T13:00:00.000Z'],
    ]);
    expect(parts.days && iso(parts.days)).toEqual(['2026-11-02T00:00:00.000Z', '2026-11-08T00:00:00.000Z']);
    expect(windowParts(since, now, null, true)).toMatchObject({ hours: [], days: null, rolledFrom: null });
    expect(windowParts(since, now, 'all', false).raw.map(iso)).toEqual([
      ['2026-11-01T10:20:00.000Z', '2026-11-01T11:00:00.000Z'],
    ]);
  });
});

/** Lock activity from the raw rows alone: the figure the rollups must reproduce. */
async function locksFromRaw(range: Range, now: Date) {
  const { hours, bucket } = RANGE_WINDOWS[range];
  const since = new Date(now.getTime() - hours * HOUR).toISOString();
  const at = now.toISOString();
  const byProvider = await t.app.sql<
    { provider: string; created: number; executed: number; expired: number; median: number | null }[]
  >`
    select provider, count(*)::int as created, count(*) filter (where state = 'used')::int as executed,
           count(*) filter (where state = 'locked' and expires_at <= ${at}::timestamptz)::int as expired,
           percentile_cont(0.5) within group (order by floor(extract(epoch from used_at - created_at)))
             filter (where state = 'used') as median
    from locks where created_at >= ${since}::timestamptz and created_at <= ${at}::timestamptz
    group by provider order by created desc, provider`;
  const series = await t.app.sql<{ bucket: string; created: number; executed: number; expired: number }[]>`
    select date_trunc(${bucket}, created_at, 'UTC')::text as bucket, count(*)::int as created,
           count(*) filter (where state = 'used')::int as executed,
           count(*) filter (where state = 'locked' and expires_at <= ${at}::timestamptz)::int as expired
    from locks where created_at >= ${since}::timestamptz and created_at <= ${at}::timestamptz
    group by 1 order by 1`;
  return { byProvider, series };
}

async function expectLocksMatchRaw(now: Date) {
  for (const range of RANGES) {
    const activity = await lockActivity(t.app, { range }, now);
    const raw = await locksFromRaw(range, now);
    expect(
      activity.byProvider.map((p) => [p.provider, p.created, p.executed, p.expired, p.medianSecondsToExecute]),
      range,
    ).toEqual(raw.byProvider.map((p) => [p.provider, p.created, p.executed, p.expired, p.median]));
    const nonEmpty = activity.series.filter((p) => p.created > 0);
    expect(
      nonEmpty.map((p) => [p.bucket.getTime(), p.created, p.executed, p.expired]),
      range,
    ).toEqual(raw.series.map((s) => [new Date(s.bucket).getTime(), s.created, s.executed, s.expired]));
  }
}

describe('lock activity', () => {
  const now = new Date();

  beforeAll(async () => {
    // 700 locks over the last ~3.5 days, one every 7 minutes: used after a whole number of seconds,
    // expired unused, or (the newest) still open; the last few are minutes old.
    await t.app.sql`
      insert into locks (id, provider, route_id, src_chain, src_asset_id, dst_chain, dst_asset_id, amount, amount_base,
        slippage_bps, depositor, recipient, route, provider_quote, state, expires_at, used_at, created_at)
      select 'lk_rollup' || lpad(k::text, 13, '0'), (array['RELAY', 'THORCHAIN', 'LIFI'])[1 + k % 3], 'r', 'ethereum', 1,
             'bitcoin', 2, '1', 1, 100, 'a', 'b', '{}', '{}',
             case when k % 5 = 0 then 'locked' else 'used' end::lock_state,
             at + interval '60 seconds',
             case when k % 5 = 0 then null else at + ((k % 50) + 1) * interval '1 second' end,
             at
      from (select k, ${now.toISOString()}::timestamptz - (700 - k) * interval '7 minutes' + interval '30 seconds' as at
            from generate_series(0, 699) k) l`;
  });

  it('before any rollup, everything is read raw and matches', async () => {
    expect(await rolledUntil(t.app, 'locks')).toBeNull();
    await expectLocksMatchRaw(now);
  });

  it('rolled up to the settled hours, the rollups plus the live part match the raw rows', async () => {
    await rollupActivity(t.app, now);
    const rolled = (await rolledUntil(t.app, 'locks')) as Date;
    expect(rolled.getTime()).toBeLessThanOrEqual(now.getTime() - 3 * 60_000);
    expect(rolled.getTime() % HOUR).toBe(0);
    const [hours] = await t.app.sql<{ n: number }[]>`select count(*)::int as n from lock_activity_hourly`;
    expect(hours?.n).toBeGreaterThan(70);
    await expectLocksMatchRaw(now);
  });

  it('a second run changes nothing, and rows written since are read live until rolled', async () => {
    await rollupActivity(t.app, now);
    await t.app.sql`
      insert into locks (id, provider, route_id, src_chain, src_asset_id, dst_chain, dst_asset_id, amount, amount_base,
        slippage_bps, depositor, recipient, route, provider_quote, state, expires_at, created_at)
      values ('lk_rollupfresh0000000000', 'CHAINFLIP', 'r', 'ethereum', 1, 'bitcoin', 2, '1', 1, 100, 'a', 'b', '{}', '{}',
              'locked', ${new Date(now.getTime() + 60_000).toISOString()}, ${new Date(now.getTime() - 1000).toISOString()})`;
    await expectLocksMatchRaw(now);
  });

  it('retention deletes unexecuted locks once rolled and past their days; their counts stay', async () => {
    const before = await lockActivity(t.app, { range: '7d' }, now);
    const [old] = await t.app.sql<{ n: number }[]>`
      select count(*)::int as n from locks where state = 'locked' and created_at < now() - interval '2 days'`;
    expect(old?.n).toBeGreaterThan(0);
    const report = await pruneSamples(t.app);
    expect(report.unexecutedLocks).toBe(old?.n);
    const [left] = await t.app.sql<{ unexecuted: number; used: number }[]>`
      select count(*) filter (where state = 'locked' and created_at < now() - interval '2 days')::int as unexecuted,
             count(*) filter (where state = 'used')::int as used
      from locks`;
    expect(left).toEqual({ unexecuted: 0, used: 560 });
    const after = await lockActivity(t.app, { range: '7d' }, now);
    expect(after.totals).toEqual(before.totals);
    expect(after.byProvider).toEqual(before.byProvider);
  });

  it('retention keeps unexecuted locks the rollup has not reached, however old', async () => {
    await t.app.sql`update rollup_watermarks set rolled_until = now() - interval '10 days' where name = 'locks'`;
    await t.app.sql`
      insert into locks (id, provider, route_id, src_chain, src_asset_id, dst_chain, dst_asset_id, amount, amount_base,
        slippage_bps, depositor, recipient, route, provider_quote, state, expires_at, created_at)
      values ('lk_rollupancient00000000', 'RELAY', 'r', 'ethereum', 1, 'bitcoin', 2, '1', 1, 100, 'a', 'b', '{}', '{}',
              'locked', now() - interval '9 days', now() - interval '9 days')`;
    expect((await pruneSamples(t.app)).unexecutedLocks).toBe(0);
    expect(await t.app.sql`select 1 from locks where id = 'lk_rollupancient00000000'`).toHaveLength(1);
  });
});

/** Attribution from the raw rows alone, as it was computed before the rollups. */
async function affiliatesFromRaw(range: Range, now: Date) {
  const { hours } = RANGE_WINDOWS[range];
  const since = new Date(now.getTime() - hours * HOUR).toISOString();
  return t.app.sql<
    { code: string; swaps: number; succeeded: number; finished: number; volume: string; fees: string }[]
  >`
    select rc.code, count(t.id)::int as swaps, count(t.id) filter (where t.status = 'SUCCESS')::int as succeeded,
           count(t.id) filter (where t.status <> 'PENDING')::int as finished,
           coalesce(sum(t.amount_usd) filter (where t.status = 'SUCCESS'), 0)::float8::text as volume,
           coalesce(sum(t.fee_usd) filter (where t.status = 'SUCCESS'), 0)::float8::text as fees
    from referral_codes rc
    left join transactions t on t.referral_owner_id = rc.owner_id and lower(t.referral_code) = lower(rc.code)
      and t.created_at >= ${since}::timestamptz
    where rc.owner_id = any(${t.app.sql.array([...OWNERS])})
    group by rc.code order by rc.code`;
}

async function expectAffiliatesMatchRaw(now: Date) {
  for (const range of RANGES) {
    const overview = await affiliateOverview(t.app, ADMIN, { range }, now);
    const raw = await affiliatesFromRaw(range, now);
    const byCode = (a: { code: string }, b: { code: string }) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);
    const mine = overview.codes.filter((c) => (OWNERS as readonly string[]).includes(c.ownerId)).sort(byCode);
    expect(
      mine.map((c) => [c.code, c.swaps, c.volumeUsd, c.feesUsd, c.successRate]),
      range,
    ).toEqual(
      [...raw]
        .sort(byCode)
        .map((r) => [r.code, r.swaps, Number(r.volume), Number(r.fees), r.finished ? r.succeeded / r.finished : null]),
    );
    expect(
      overview.series.reduce((sum, p) => sum + p.swaps, 0),
      range,
    ).toBe(overview.totals.swaps);
  }
}

describe('affiliate attribution', () => {
  const now = new Date();
  let swaps: SyntheticTx[];

  beforeAll(async () => {
    await t.app
      .sql`insert into referral_codes (code, owner_id) values ('ONE-A', ${OWNERS[0]}), ('one-b', ${OWNERS[0]}), ('TWO', ${OWNERS[1]})`;
    const codes: [string | null, string | null][] = [
      ['ONE-A', OWNERS[0] as string],
      ['one-a', OWNERS[0] as string],
      ['ONE-B', OWNERS[0] as string],
      ['TWO', OWNERS[1] as string],
      ['TWO', null],
      ['ONE-A', OWNERS[1] as string],
      [null, null],
    ];
    // Every 37 minutes over 40 days, so windows start inside hours, days and the rollups' edges.
    swaps = await insertTransactions(
      t.app,
      Array.from({ length: 1560 }, (_, i) => {
        const [referralCode, referralOwnerId] = codes[i % codes.length] as [string | null, string | null];
        return {
          status: (['SUCCESS', 'PENDING', 'FAILED', 'REFUND', 'SUCCESS'] as const)[i % 5],
          wallet: WALLETS.evm,
          recipient: WALLETS.bitcoin,
          referralCode,
          referralOwnerId,
          createdAt: new Date(now.getTime() - (i * 37 + 3) * 60_000),
          amountUsd: String(100 + (i % 13)),
          feeUsd: String(1 + (i % 4)),
        };
      }),
    );
  }, 120_000);

  it('from deltas not folded yet', async () => {
    await expectAffiliatesMatchRaw(now);
  });

  it('folded, and after status and fee changes that are deltas again', async () => {
    await foldSwapDeltas(t.app);
    expect(await t.app.sql`select 1 from swap_rollup_deltas limit 1`).toHaveLength(0);
    await expectAffiliatesMatchRaw(now);
    const some = swaps.filter((_, i) => i % 11 === 1).map((s) => s.id);
    await t.app
      .sql`update transactions set status = 'SUCCESS', fee_amount_usd = 9.5 where id = any(${t.app.sql.array(some)})`;
    await t.app
      .sql`update transactions set status = 'REFUND' where id = any(${t.app.sql.array(swaps.filter((_, i) => i % 17 === 0).map((s) => s.id))})`;
    await expectAffiliatesMatchRaw(now);
    await foldSwapDeltas(t.app);
    await expectAffiliatesMatchRaw(now);
  });

  it('an affiliate sees only their own codes, from the same rollups', async () => {
    const own = await affiliateOverview(
      t.app,
      { ...ADMIN, userId: OWNERS[1] as string, role: 'affiliate' },
      { range: '30d' },
      now,
    );
    const raw = (await affiliatesFromRaw('30d', now)).filter((r) => r.code === 'TWO');
    expect(own.codes.map((c) => [c.code, c.swaps])).toEqual(raw.map((r) => [r.code, r.swaps]));
    expect(own.totals.swaps).toBe(raw[0]?.swaps);
  });

  it('concurrent folds take disjoint batches: nothing counted twice', async () => {
    await t.app.sql`update transactions set amount_usd = amount_usd + 1 where referral_code is not null`;
    await Promise.all([foldSwapDeltas(t.app), foldSwapDeltas(t.app), foldSwapDeltas(t.app)]);
    await expectAffiliatesMatchRaw(now);
  });
});

describe('operations', () => {
  it('24 h KPIs and pending figures match the raw rows, folded or not', async () => {
    const now = new Date();
    const oracle = async () => {
      const [row] = await t.app.sql<
        { swaps: number; succeeded: number; failed: number; refunded: number; volume: string; pending: number }[]
      >`
        select count(*) filter (where created_at >= ${new Date(now.getTime() - 24 * HOUR).toISOString()}::timestamptz)::int as swaps,
               count(*) filter (where created_at >= ${new Date(now.getTime() - 24 * HOUR).toISOString()}::timestamptz and status = 'SUCCESS')::int as succeeded,
               count(*) filter (where created_at >= ${new Date(now.getTime() - 24 * HOUR).toISOString()}::timestamptz and status = 'FAILED')::int as failed,
               count(*) filter (where created_at >= ${new Date(now.getTime() - 24 * HOUR).toISOString()}::timestamptz and status = 'REFUND')::int as refunded,
               coalesce(sum(amount_usd) filter (where created_at >= ${new Date(now.getTime() - 24 * HOUR).toISOString()}::timestamptz and status = 'SUCCESS'), 0)::float8::text as volume,
               count(*) filter (where status = 'PENDING')::int as pending
        from transactions`;
      return row;
    };
    for (const fold of [false, true]) {
      if (fold) await foldSwapDeltas(t.app);
      const { kpis } = await operationsOverview(t.app, now);
      const raw = await oracle();
      expect(kpis, `folded: ${fold}`).toMatchObject({
        swaps: raw?.swaps,
        succeeded: raw?.succeeded,
        failed: raw?.failed,
        refunded: raw?.refunded,
        volumeUsd: Number(raw?.volume),
        inFlight: (raw?.pending ?? 0) - kpis.awaitingDeposit,
      });
    }
  });

  it('trends: quote calls, error rate and latency percentiles per bucket match the raw calls', async () => {
    const now = new Date();
    await t.app.sql`delete from provider_calls`;
    await t.app.sql`delete from rollup_watermarks where name = 'provider_calls'`;
    await t.app.sql`
      insert into provider_calls (provider, stage, outcome, latency_ms, created_at)
      select (array['RELAY', 'LIFI'])[1 + k % 2], case when k % 9 = 0 then 'execute' else 'quote' end,
             case when k % 7 = 0 then 'unavailable' when k % 11 = 0 then 'no_route' else 'ok' end,
             case when k % 13 = 0 then null when k % 3 = 0 then 100 + 25 * (k % 36) else 5 * ((k * 37) % 20) end,
             ${now.toISOString()}::timestamptz - k * interval '3 minutes' - interval '5 seconds'
      from generate_series(0, 2400) k`;
    const oracle = async (range: Range) => {
      const { hours, bucket } = RANGE_WINDOWS[range];
      const since = new Date(Math.floor((now.getTime() - hours * HOUR) / HOUR) * HOUR).toISOString();
      return t.app.sql<
        { bucket: string; provider: string; calls: number; errors: number; p50: number | null; p95: number | null }[]
      >`
        select date_trunc(${bucket}, created_at, 'UTC')::text as bucket, provider, count(*)::int as calls,
               count(*) filter (where outcome not in ('ok', 'no_route'))::int as errors,
               percentile_cont(0.5) within group (order by latency_ms) as p50,
               percentile_cont(0.95) within group (order by latency_ms) as p95
        from provider_calls where stage = 'quote' and created_at >= ${since}::timestamptz
        group by 1, 2 order by 2, 1`;
    };
    const compare = async () => {
      for (const range of RANGES) {
        const trends = await operationsTrends(t.app, { range }, now);
        const got = trends.providers.flatMap((p) =>
          p.points
            .filter((x) => x.calls > 0)
            .map((x) => [
              x.bucket.getTime(),
              p.provider,
              x.calls,
              Math.round((x.errorRate ?? 0) * x.calls),
              x.p50Ms,
              x.p95Ms,
            ]),
        );
        const rounded = (v: number | null) => (v === null ? null : Math.round(v));
        const raw = (await oracle(range)).map((r) => [
          new Date(r.bucket).getTime(),
          r.provider,
          r.calls,
          r.errors,
          rounded(r.p50),
          rounded(r.p95),
        ]);
        expect(got, range).toEqual(raw);
      }
    };
    await compare();
    await rollUpEverything(t.app, now);
    expect(await rolledUntil(t.app, 'provider_calls')).not.toBeNull();
    await compare();
  });
});
