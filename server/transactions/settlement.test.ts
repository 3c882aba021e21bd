import { describe, expect, it } from 'vitest';
import { presentSettlement, SETTLEMENT_KEY, settle } from './settlement';

const BTC = { id: 1, symbol: 'BTC', contract: null, image: null, chain: 'bitcoin', decimals: 8 };
const row = (status: string, trackingContext: Record<string, unknown> = {}) => ({
  status,
  srcChain: 'bitcoin',
  trackingContext,
  srcAmount: '0.25',
  srcAsset: BTC,
  walletAddress: 'bc1qsender',
  outboundHash: 'refund-hash' as string | null,
  feeAmount: null as string | null,
});

describe('what settling records and shows (#46 item 5)', () => {
  it('keeps the amount shown before the first time the provider settles on another, and only then', () => {
    const tx = {
      trackingContext: {} as Record<string, unknown>,
      dstAmount: '7.41735155',
      dstAmountBase: '7417351550000000000',
      srcAsset: BTC,
    };
    const settled = settle(tx, { status: 'SUCCESS', dstAmountBase: 7_408_725_600_000_000_000n });
    expect(settled).toEqual({ quotedDstAmount: '7.41735155' });
    // The same amount again, or a pending answer, adds nothing.
    expect(settle(tx, { status: 'SUCCESS', dstAmountBase: 7_417_351_550_000_000_000n })).toBeUndefined();
    expect(settle(tx, { status: 'PENDING', dstAmountBase: 1n })).toBeUndefined();
    // A later settlement keeps the first quote.
    const after = { ...tx, trackingContext: { [SETTLEMENT_KEY]: settled }, dstAmount: '7.4087256' };
    expect(settle(after, { status: 'SUCCESS', dstAmountBase: 1n })).toBeUndefined();
  });

  it('keeps the refund’s amount in the source asset and its transaction, as each answer adds them', () => {
    const tx = { trackingContext: {} as Record<string, unknown>, dstAmount: '7.4', dstAmountBase: '1', srcAsset: BTC };
    const first = settle(tx, { status: 'PENDING', refund: { amountBase: 24_875_000n } });
    expect(first).toEqual({ refund: { amount: '0.24875' } });
    const next = { ...tx, trackingContext: { [SETTLEMENT_KEY]: first } };
    expect(settle(next, { status: 'REFUND', refund: { hash: 'refund-hash' } })).toEqual({
      refund: { amount: '0.24875', hash: 'refund-hash' },
    });
  });

  it('shows a refund while it is on its way and once done, never on a swap that failed or paid out after', () => {
    const context = { [SETTLEMENT_KEY]: { refund: { amount: '0.24875', hash: 'refund-hash' } } };
    const refund = {
      amount: '0.24875',
      kept: '0.00125',
      to: 'bc1qsender',
      chain: 'bitcoin',
      hash: 'refund-hash',
      feeReported: false,
    };
    expect(presentSettlement(row('REFUND', context))).toEqual({ quotedDstAmount: null, refund });
    expect(presentSettlement(row('PENDING', context)).refund).toEqual(refund);
    expect(presentSettlement(row('FAILED', context)).refund).toBeNull();
    expect(presentSettlement(row('SUCCESS', context)).refund).toBeNull();
    // A refund recorded before tracking kept its details: its transaction, no amount.
    expect(presentSettlement(row('REFUND')).refund).toEqual({ ...refund, amount: null, kept: null });
    // A refund the provider says landed on another chain (LI.FI on the destination) names that chain.
    expect(presentSettlement(row('REFUND', { outboundChain: 'arbitrum' })).refund?.chain).toBe('arbitrum');
  });
});
