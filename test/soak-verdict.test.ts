import { describe, expect, it } from 'vitest';
import { judgeLoad, LOAD_SHARE_MIN, verdict } from '../bench/soak/verdict';

/** A driver doing `rate` a second until `faultAt`, then `faultedRate` a second to `end` (sampled each second). */
function run(rate: number, faultedRate: number, faultAt: number, end: number) {
  const samples = [];
  let count = 0;
  for (let at = 0; at <= end; at += 1000) {
    samples.push({ at, count: Math.round(count) });
    count += at < faultAt ? rate : faultedRate;
  }
  return { samples, count: Math.round(count), durationMs: end };
}

describe('the soak verdict', () => {
  it('passes a run below the floor that kept its own unfaulted pace through the faults', () => {
    // 15 processes on 2 cores: 12.4 locks/s unfaulted, 11 under chaos, against a floor of 10,000 in 600 s.
    const r = run(12.4, 11, 60_000, 600_000);
    const load = judgeLoad({ name: 'locks', floor: 10_000, firstFaultAt: 60_000, ...r });
    expect(load.floorMet).toBe(false);
    expect(load.ok).toBe(true);
    expect(load.unfaultedPerSecond).toBeCloseTo(12.4, 1);
    const v = verdict([], [load]);
    expect(v.passed).toBe(true);
    expect(v.notes[0]).toMatch(/below the floor/);
  });

  it('fails a run whose rate collapsed under the faults, whatever the machine', () => {
    const r = run(12, 12 * (LOAD_SHARE_MIN - 0.2), 60_000, 600_000);
    const load = judgeLoad({ name: 'locks', floor: 10_000, firstFaultAt: 60_000, ...r });
    expect(load.ok).toBe(false);
    expect(verdict([], [load]).failures[0]).toMatch(/locks: .* below the floor 10000 and \d+% of this machine/);
  });

  it('passes on the floor alone when it is met, and judges by the floor when no unfaulted window was measured', () => {
    const fast = run(30, 20, 60_000, 600_000);
    expect(judgeLoad({ name: 'fuzz', floor: 10_000, firstFaultAt: 60_000, ...fast }).ok).toBe(true);
    const noWindow = run(12, 12, 2_000, 600_000);
    const load = judgeLoad({ name: 'fuzz', floor: 10_000, firstFaultAt: 2_000, ...noWindow });
    expect(load.unfaultedPerSecond).toBeNull();
    expect(load.ok).toBe(false);
  });

  it('fails on any correctness failure however good the load', () => {
    const load = judgeLoad({ name: 'locks', floor: 10, firstFaultAt: 60_000, ...run(30, 30, 60_000, 600_000) });
    const v = verdict(['1 swaps lost'], [load]);
    expect(v.passed).toBe(false);
    expect(v.failures).toEqual(['1 swaps lost']);
  });
});
