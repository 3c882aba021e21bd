import { describe, expect, it } from 'vitest';
import { feeShare, LARGE_FEE_SHARE, modeLabel } from '../../app/(public)/_swap/route-labels';

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
