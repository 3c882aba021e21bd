import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCounts, percentile, SECONDS_TO_EXECUTE } from '../server/rollups/histogram';
import { rollupLockActivity } from '../server/rollups/locks';
import { lockActivity } from '../server/routing/lock-activity';
import { startTestApp, type TestApp } from './support/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const medianOf = (activity: Awaited<ReturnType<typeof lockActivity>>) =>
  activity.byProvider.find((p) => p.provider === 'CHAINFLIP')?.medianSecondsToExecute;

describe('median time to execute', () => {
  it('reads milliseconds for executes under a second, from the raw rows and from the rollups alike', async () => {
    const now = new Date();
    // 20 locks three hours ago, executed 32-51 ms after they were locked (what the dataset held).
    await t.app.sql`
      insert into locks (id, provider, route_id, src_chain, src_asset_id, dst_chain, dst_asset_id, amount, amount_base,
        slippage_bps, depositor, recipient, route, provider_quote, state, expires_at, used_at, created_at)
      select 'lk_ttxms' || lpad(k::text, 16, '0'), 'CHAINFLIP', 'r', 'ethereum', 1, 'bitcoin', 2, '1', 1, 100, 'a', 'b',
             '{}', '{}', 'used', at + interval '60 seconds', at + (32 + k) * interval '1 millisecond', at
      from (select k, ${now.toISOString()}::timestamptz - interval '3 hours' + k * interval '1 minute' as at
            from generate_series(0, 19) k) l`;
    const raw = medianOf(await lockActivity(t.app, { range: '24h' }, now));
    expect(raw).toBeGreaterThanOrEqual(0.041);
    expect(raw).toBeLessThanOrEqual(0.042);

    await rollupLockActivity(t.app, now);
    const [hour] = await t.app.sql<{ ttx: Record<string, number> }[]>`
      select seconds_to_execute as ttx from lock_activity_hourly where provider = 'CHAINFLIP' limit 1`;
    expect(Object.keys(hour?.ttx ?? {})).toContain('0.032');
    expect(medianOf(await lockActivity(t.app, { range: '24h' }, now))).toBe(raw);
  });

  it('reads hours rolled up before the milliseconds were kept as under a second, beside newer ones', () => {
    const legacy = addCounts(new Map(), { '1': 3 });
    expect(percentile(SECONDS_TO_EXECUTE, legacy, 0.5)).toBe(0);
    const both = addCounts(addCounts(new Map(), { '1': 1, '3': 1 }), { '0.04': 3 });
    expect(percentile(SECONDS_TO_EXECUTE, both, 0.5)).toBe(0.04);
    expect(percentile(SECONDS_TO_EXECUTE, addCounts(new Map(), { '0.37': 1, '61': 1 }), 1)).toBe(60);
  });
});
