import { describe, expect, it } from 'vitest';
import type { TrackResult } from '../../app/(public)/_lib/api';
import { trackOutcome } from '../../app/(public)/_swap/track-outcome';

const SENT = `0x${'ab'.repeat(32)}`;

const answer = (over: {
  hash?: string;
  inboundHash?: string;
  status?: TrackResult['transaction']['status'];
  final?: boolean;
  tracking?: boolean;
}): TrackResult => ({
  transaction: {
    id: 'tx_test',
    hash: over.hash ?? '',
    inboundHash: over.inboundHash ?? '',
    provider: 'RELAY',
    status: over.status ?? 'PENDING',
  },
  final: over.final ?? false,
  tracking: over.tracking ?? true,
});

describe('what the page may say after reporting a wallet hash to track', () => {
  it('tracking only when track took this very hash (hex compared without case) and follows it', () => {
    expect(trackOutcome(SENT, answer({ hash: SENT.toUpperCase().replace('0X', '0x') }))).toEqual({ kind: 'tracking' });
    expect(trackOutcome(SENT, answer({ inboundHash: SENT }))).toEqual({ kind: 'tracking' });
    expect(trackOutcome(SENT, answer({ hash: SENT, tracking: false }))).toEqual({ kind: 'recorded' });
  });

  it('a final swap took nothing, whatever hash it holds', () => {
    expect(trackOutcome(SENT, answer({ hash: SENT, status: 'SUCCESS', final: true, tracking: false }))).toEqual({
      kind: 'final',
      status: 'SUCCESS',
    });
    expect(trackOutcome(SENT, answer({ status: 'REFUND', final: true, tracking: false }))).toEqual({
      kind: 'final',
      status: 'REFUND',
    });
  });

  it('a swap tracked by another hash did not take this one', () => {
    const other = `0x${'cd'.repeat(32)}`;
    expect(trackOutcome(SENT, answer({ hash: other }))).toEqual({ kind: 'other-hash', held: other });
  });
});
