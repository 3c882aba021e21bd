import { describe, expect, it } from 'vitest';
import { formatTimeSpan, formatUsualDuration } from '../../app/_kit/format';
import { feeShare, LARGE_FEE_SHARE, modeLabel, sortRoutes, usualTime } from '../../app/(public)/_swap/route-labels';

const steps = [{ type: 'swap', name: 'Chainflip swap', image: '' }];

describe('route cards a person can tell apart (#46 item 10)', () => {
  it("labels Chainflip's DCA and regular routes differently, as THORChain's streaming and rapid ones", () => {
    const dca = modeLabel({ provider: 'CHAINFLIP', routeId: 'chainflip:dca', steps });
    const regular = modeLabel({ provider: 'CHAINFLIP', routeId: 'chainflip:regular', steps });
    expect(dca?.label).toBe('DCA');
    expect(regular?.label).toBe('Regular');
    expect(dca?.hint).not.toBe(regular?.hint);
    expect(modeLabel({ provider: 'THORCHAIN', routeId: 'thorchain:streaming', steps })?.label).toBe('Streaming');
    expect(modeLabel({ provider: 'RELAY', routeId: 'relay:1', steps })).toBeNull();
  });

  it('measures the fee against what is sent, and knows when it cannot', () => {
    const route = (srcUsd: string, feeUsd: number | null) => ({
      src: { usd: srcUsd, formatted: '', currency: 'BTC', amount: '1' },
      fee: { usd: feeUsd, formatted: null, currency: 'USD', details: [] },
    });
    // The review's case: a 5,000 BTC quote with a $113M fee, 24 % of it.
    expect(feeShare(route('470000000', 113_000_000))).toBeCloseTo(0.24, 2);
    expect(feeShare(route('470000000', 113_000_000))).toBeGreaterThanOrEqual(LARGE_FEE_SHARE);
    expect(feeShare(route('1000', 3))).toBeLessThan(LARGE_FEE_SHARE);
    expect(feeShare(route('', 3))).toBeNull();
    expect(feeShare(route('1000', null))).toBeNull();
  });
});

describe('route times on the cards (#48)', () => {
  const observed = (p50Seconds: number, p90Seconds: number) => ({
    p50Seconds,
    p90Seconds,
    samples: 40,
    source: 'observed' as const,
  });

  it('say the p50–p90 span in one unit where they share it', () => {
    expect(formatTimeSpan(180, 480)).toBe('3–8 min');
    expect(formatTimeSpan(20, 45)).toBe('20–45 s');
    expect(formatTimeSpan(45, 120)).toBe('45 s–2 min');
    expect(formatTimeSpan(300, 300)).toBe('about 5 min');
    expect(formatTimeSpan(3600, 3 * 3600)).toBe('1–3 h');
  });

  it('say one duration in one unit, short enough for a late badge in a table column', () => {
    expect(formatUsualDuration(45)).toBe('45 s');
    expect(formatUsualDuration(2400)).toBe('40 min');
    expect(formatUsualDuration(9000)).toBe('2.5 h');
    expect(formatUsualDuration(7200)).toBe('2 h');
  });

  it("read 'usually' from our swaps, 'about' from the provider, nothing when neither knows", () => {
    expect(usualTime({ observedTime: observed(180, 480), estimatedTime: 60 })?.text).toBe('usually 3–8 min');
    expect(usualTime({ observedTime: observed(180, 480), estimatedTime: 60 })?.hint).toMatch(/last 40 swaps/);
    const provider = { p50Seconds: 600, p90Seconds: 600, samples: 2, source: 'provider' as const };
    expect(usualTime({ observedTime: provider, estimatedTime: 600 })?.text).toBe('about 10 min');
    expect(usualTime({ observedTime: null, estimatedTime: 90 })?.text).toBe('about 2 min');
    expect(usualTime({ observedTime: null, estimatedTime: 0 })).toBeNull();
  });

  it('sort by speed (p50, else the estimate; unknown last), keeping the better amount first among equals', () => {
    const routes = [
      { id: 'best', observedTime: observed(600, 900), estimatedTime: 60 },
      { id: 'unknown', observedTime: null, estimatedTime: 0 },
      { id: 'quick', observedTime: observed(60, 120), estimatedTime: 600 },
      { id: 'estimate', observedTime: null, estimatedTime: 60 },
    ];
    expect(sortRoutes(routes, 'amount').map((r) => r.id)).toEqual(['best', 'unknown', 'quick', 'estimate']);
    expect(sortRoutes(routes, 'speed').map((r) => r.id)).toEqual(['quick', 'estimate', 'best', 'unknown']);
  });
});
