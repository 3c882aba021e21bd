import { describe, expect, it } from 'vitest';
import { keepsInWindows } from './sampler';

/** A repeatable stream of numbers in [0, 1) (xorshift32), so the shares below are the same on every run. */
function repeatable(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 2 ** 32;
  };
}

/** `count` requests at random times over `periods` periods of 1 s, each asked in time order; the times kept. */
function arrivals(ratio: number, count: number, periods: number, seed = 7) {
  const arrival = repeatable(seed);
  const times = Array.from({ length: count }, () => arrival() * periods * 1000).sort((a, b) => a - b);
  let now = 0;
  const keep = keepsInWindows(ratio, { periodMs: 1000, now: () => now, random: repeatable(seed + 1) });
  return times.filter((at) => {
    now = at;
    return keep();
  });
}

describe('keepsInWindows', () => {
  it('keeps the ratio of new traces, however they arrive', () => {
    for (const ratio of [0.01, 0.1, 0.5]) {
      const kept = arrivals(ratio, 200_000, 500).length / 200_000;
      expect(kept, String(ratio)).toBeGreaterThan(ratio * 0.9);
      expect(kept, String(ratio)).toBeLessThan(ratio * 1.1);
    }
    // A trickle (one request every few seconds) is kept at the ratio too: the window's place is random.
    expect(arrivals(0.1, 20_000, 60_000).length / 20_000).toBeCloseTo(0.1, 1);
  });

  it('keeps them together: within one window of ratio × period in each period', () => {
    // One by one (a coin per request), the kept ones of a period spread over all of it, and the context
    // storage's hook ran on every promise whenever one was in flight (`context.ts`).
    const kept = arrivals(0.01, 100_000, 100);
    expect(kept.length).toBeGreaterThan(0);
    const byPeriod = new Map<number, number[]>();
    for (const at of kept) byPeriod.set(Math.floor(at / 1000), [...(byPeriod.get(Math.floor(at / 1000)) ?? []), at]);
    for (const [period, times] of byPeriod) {
      expect(Math.max(...times) - Math.min(...times), `period ${period}`).toBeLessThan(10);
    }
  });

  it('keeps every trace at 1 and none at 0', () => {
    expect(arrivals(1, 1000, 10)).toHaveLength(1000);
    expect(arrivals(0, 1000, 10)).toHaveLength(0);
  });
});
