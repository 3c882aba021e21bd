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

  it('keeps the ratio at every time of the second: a request at :00 as often as one at :00.5', () => {
    for (const phase of [0, 1, 500, 995, 999]) {
      let now = 0;
      const keep = keepsInWindows(0.01, { periodMs: 1000, now: () => now, random: repeatable(11) });
      let kept = 0;
      for (let period = 0; period < 100_000; period++) {
        now = period * 1000 + phase;
        if (keep()) kept++;
      }
      expect(kept / 100_000, `phase ${phase} ms`).toBeGreaterThan(0.0085);
      expect(kept / 100_000, `phase ${phase} ms`).toBeLessThan(0.0115);
    }
  });

  it('keeps them together: one window of ratio × period a period', () => {
    // One by one (a coin per request), the kept ones spread over the whole period, and the context
    // storage's hook ran on every promise whenever one was in flight (`context.ts`).
    const kept = arrivals(0.01, 100_000, 100);
    expect(kept.length).toBeGreaterThan(500);
    // Runs of kept requests less than a window apart: a window, or two when one opens as the last closes.
    const runs: number[][] = [];
    for (const at of kept) {
      const run = runs.at(-1);
      if (run && at - (run.at(-1) as number) < 10) run.push(at);
      else runs.push([at]);
    }
    expect(runs.length).toBeLessThanOrEqual(101);
    for (const run of runs) expect((run.at(-1) as number) - (run[0] as number)).toBeLessThan(20);
  });

  it('keeps every trace at 1 and none at 0', () => {
    expect(arrivals(1, 1000, 10)).toHaveLength(1000);
    expect(arrivals(0, 1000, 10)).toHaveLength(0);
  });
});
