import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accuracyLine, accuracyReport, readAccuracy } from '../bench/soak/accuracy';
import { startTestApp, type TestApp } from './support/app';

const relay = {
  provider: 'RELAY',
  swaps: 10,
  promised: 10,
  keptShare: 0.9,
  medianP50ErrorSeconds: 30,
  estimates: 0,
  estimatesKeptShare: null,
};
const chainflip = {
  provider: 'CHAINFLIP',
  swaps: 9,
  promised: 4,
  keptShare: 0.5,
  medianP50ErrorSeconds: 15,
  estimates: 4,
  estimatesKeptShare: 0.25,
};

describe("the soak's route-time accuracy", () => {
  it('adds the providers up to the share of promises kept, against the 90 % goal', () => {
    const accuracy = accuracyReport([relay, chainflip]);
    expect(accuracy).toMatchObject({ goal: 0.9, settled: 19, promised: 14, kept: 11, goalMet: false, estimates: 4 });
    expect(accuracy.keptShare).toBeCloseTo(11 / 14);
    expect(accuracy.estimatesKeptShare).toBe(0.25);
    expect(accuracyLine(accuracy)).toBe(
      "route times: 78.6 % of 14 swaps shown our p90 finished within it (goal 90 %; BELOW the goal); RELAY 90 % of 10, p50 off by 30 s, CHAINFLIP 50 % of 4, p50 off by 15 s; 25 % of 4 shown the provider's estimate finished within it",
    );
    expect(accuracyReport([relay]).goalMet).toBe(true);
  });

  it('says so when no swap was shown a p90', () => {
    const none = accuracyReport([{ ...relay, promised: 0, keptShare: null, medianP50ErrorSeconds: null }]);
    expect(none).toMatchObject({ promised: 0, keptShare: null, goalMet: null });
    expect(accuracyLine(none)).toBe(
      'route times: — of 0 swaps shown our p90 finished within it (goal 90 %; no swap was shown our p90); RELAY — of 0, p50 off by —',
    );
  });

  describe('read from the database', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t?.stop());

    it('folds the swaps the worker has not rolled up yet, then reads what the Operations page reads', async () => {
      const now = new Date();
      // Relay: 10 swaps shown a 300 s p90, 9 within it; Chainflip: 4 shown one, 2 within, one shown none, and two
      // shown the provider's 60 s estimate (one within it): those are not our promises.
      const swaps: [string, number, number | null][] = [
        ...Array.from({ length: 9 }, (): [string, number, number] => ['RELAY', 200, 300]),
        ['RELAY', 400, 300],
        ['CHAINFLIP', 50, 60],
        ['CHAINFLIP', 60, 60],
        ['CHAINFLIP', 90, 60],
        ['CHAINFLIP', 120, 60],
        ['CHAINFLIP', 90, null],
      ];
      for (const [provider, seconds, p90] of swaps) {
        await t.app.sql`
          insert into route_time_deltas (day, provider, src_chain, dst_chain, src_asset_id, dst_asset_id,
            execute_seconds, shown_p50_seconds, shown_p90_seconds)
          values (date_trunc('day', ${now.toISOString()}::timestamptz, 'UTC'), ${provider}, 'ethereum', 'bitcoin',
            1, 2, ${seconds}, ${p90 === null ? null : p90 / 2}, ${p90})`;
      }
      for (const seconds of [50, 90]) {
        await t.app.sql`
          insert into route_time_deltas (day, provider, src_chain, dst_chain, src_asset_id, dst_asset_id,
            execute_seconds, estimate_seconds)
          values (date_trunc('day', ${now.toISOString()}::timestamptz, 'UTC'), 'CHAINFLIP', 'ethereum', 'bitcoin',
            1, 2, ${seconds}, 60)`;
      }
      const accuracy = await readAccuracy(t.app, now);
      expect(accuracy).toMatchObject({ settled: 17, promised: 14, kept: 11, goalMet: false, estimates: 2 });
      expect(accuracy.estimatesKeptShare).toBe(0.5);
      expect(accuracy.byProvider.map(({ provider, promised, keptShare }) => [provider, promised, keptShare])).toEqual([
        ['RELAY', 10, 0.9],
        ['CHAINFLIP', 4, 0.5],
      ]);
      const [left] = await t.app.sql<{ n: number }[]>`select count(*)::int as n from route_time_deltas`;
      expect(left?.n).toBe(0);
    });
  });
});
