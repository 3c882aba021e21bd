import { describe, expect, it } from 'vitest';
import { TX_STATUSES } from './statuses';
import { canReopen, canTransition } from './transitions';

const HASH = 'ab'.repeat(32);
const verified = { hash: HASH, verdict: 'verified', decidesStatus: true } as const;

describe('status transitions', () => {
  it('leaves a final status only for FAILED → REFUND', () => {
    const moves = TX_STATUSES.flatMap((from) =>
      TX_STATUSES.filter((to) => from !== 'PENDING' && canTransition(from, to)).map((to) => `${from} → ${to}`),
    );
    expect(moves).toEqual(['FAILED → REFUND']);
  });

  it('takes no refund after an expiry: a swap that expired waiting for its deposit leaves only by canReopen', () => {
    expect(TX_STATUSES.filter((to) => canTransition('FAILED', to, 'EXPIRED'))).toEqual([]);
    expect(canTransition('FAILED', 'REFUND', 'FAILED')).toBe(true);
  });

  it('re-opens only an expired swap, and only on a verified check of the hash reported', () => {
    const expired = { status: 'FAILED', substatus: 'EXPIRED' } as const;
    expect(canReopen(expired, HASH, verified)).toBe(true);
    expect(canReopen(expired, HASH, undefined)).toBe(false);
    expect(canReopen(expired, HASH, { hash: HASH, verdict: 'unknown', decidesStatus: true })).toBe(false);
    expect(
      canReopen(expired, HASH, { hash: HASH, verdict: 'rejected', reason: 'another vault', decidesStatus: true }),
    ).toBe(false);
    expect(canReopen(expired, 'cd'.repeat(32), verified)).toBe(false);
    expect(canReopen({ status: 'FAILED', substatus: 'FAILED' }, HASH, verified)).toBe(false);
    for (const status of TX_STATUSES.filter((s) => s !== 'FAILED')) {
      expect(canReopen({ status, substatus: 'EXPIRED' }, HASH, verified)).toBe(false);
    }
  });
});
