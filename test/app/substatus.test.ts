import { describe, expect, it } from 'vitest';
import { awaitingDeposit, delayNotice, SUBSTATUS_TEXT, substatusText, swapperSees } from '@/app/_kit/substatus';

const at = (over: Partial<Parameters<typeof swapperSees>[0]>) => ({
  status: 'PENDING' as const,
  substatus: null,
  hash: '',
  inboundHash: '',
  reason: null,
  ...over,
});

describe('the words for where a swap stands', () => {
  it('says nothing is confirming before any deposit is known, and names the confirmations once one is', () => {
    const channel = at({ substatus: 'WAITING_SOURCE_CONFIRMATIONS' });
    expect(substatusText(channel)).toBe('Waiting for the deposit');
    expect(substatusText(at({ substatus: 'NOT_FOUND_UPSTREAM' }))).toBe('Waiting for the deposit');
    expect(substatusText({ ...channel, inboundHash: '0xin' })).toBe('Waiting for the deposit to confirm');
    expect(substatusText({ ...channel, hash: '0xin' })).toBe('Waiting for the deposit to confirm');
    expect(substatusText(at({ substatus: 'SWAPPING' }))).toBe('Swapping');
    expect(substatusText(at({}))).toBeNull();
  });

  it('tells support the swapper is looking at the deposit instructions while the deposit is awaited', () => {
    const waiting = at({ substatus: 'WAITING_SOURCE_CONFIRMATIONS' });
    expect(awaitingDeposit(waiting)).toBe(true);
    expect(swapperSees(waiting, 'Chainflip')).toEqual({
      headline: null,
      text: 'Waiting for you: the swap starts once your deposit or wallet transaction arrives.',
    });
    expect(swapperSees(at({}), 'THORChain').text).toMatch(/^Waiting for you/);
    expect(awaitingDeposit(at({ status: 'FAILED', substatus: 'EXPIRED' }))).toBe(false);
    expect(swapperSees(at({ status: 'FAILED', substatus: 'EXPIRED' }), 'Relay').headline).toBe(SUBSTATUS_TEXT.EXPIRED);
  });

  it('keeps a rejected hash in front of the swapper, naming the provider', () => {
    const seen = swapperSees(at({ substatus: 'HASH_REJECTED' }), 'THORChain');
    expect(seen.headline).toBe(SUBSTATUS_TEXT.HASH_REJECTED);
    expect(seen.text).toMatch(/^THORChain has no record tying that transaction to this swap/);
  });

  it('says why a refund happens and what happens to the money, with or without a reason', () => {
    const sent = { hash: '0xin', inboundHash: '0xin' };
    const refunding = at({
      ...sent,
      substatus: 'REFUND_IN_PROGRESS',
      reason: 'The deposit was rejected by the broker',
    });
    expect(swapperSees(refunding, 'Chainflip')).toEqual({
      headline: 'Refund on its way',
      text: 'Chainflip could not swap it: the deposit was rejected by the broker. Chainflip is sending the deposit back to the wallet it came from, less the network fee for sending it back; nothing is needed from you.',
    });
    expect(swapperSees(at({ ...sent, status: 'REFUND', substatus: 'REFUNDED' }), 'Relay')).toEqual({
      headline: 'Refunded',
      text: 'The deposit was sent back to the wallet it came from, less the network fee for sending it back.',
    });
    expect(
      swapperSees(at({ ...sent, status: 'FAILED', substatus: 'FAILED', reason: 'The refund failed.' }), 'Chainflip'),
    ).toEqual({
      headline: 'Failed',
      text: 'Chainflip reports: the refund failed. If funds were sent, Chainflip may still refund them.',
    });
    expect(swapperSees(at({ ...sent, substatus: 'SWAPPING' }), 'Chainflip').text).toBe(
      'The swap is in progress. This page updates on its own.',
    );
  });
});

describe('the one notice that a swap is slow', () => {
  const sent = { hash: '0xin', inboundHash: '0xin' };
  const flagged = at({ ...sent, substatus: 'DELAYED' });
  const moving = at({ ...sent, substatus: 'SWAPPING' });

  it('is late against the route when the swap has its route time, never the stale flag beside it', () => {
    expect(delayNotice(flagged, { known: true, passed: true })).toBe('late');
    expect(delayNotice(moving, { known: true, passed: true })).toBe('late');
    expect(delayNotice(flagged, { known: true, passed: false })).toBeNull();
    // The status line leaves the stale flag's words to the late notice.
    expect(swapperSees(flagged, 'Relay', { known: true })).toEqual({
      headline: null,
      text: 'The swap is in progress. This page updates on its own.',
    });
  });

  it('is the stale flag only as the last resort, with no route time', () => {
    expect(delayNotice(flagged, { known: false, passed: true })).toBe('stale');
    expect(delayNotice(flagged, { known: false, passed: false })).toBe('stale');
    expect(swapperSees(flagged, 'Relay').headline).toBe(SUBSTATUS_TEXT.DELAYED);
    // Without either, past the provider's estimate is late against that.
    expect(delayNotice(moving, { known: false, passed: true })).toBe('late');
    expect(delayNotice(moving, { known: false, passed: false })).toBeNull();
  });

  it('is none once the swap is final', () => {
    expect(delayNotice({ ...flagged, status: 'SUCCESS' }, { known: true, passed: true })).toBeNull();
    expect(delayNotice({ ...flagged, status: 'FAILED' }, { known: false, passed: true })).toBeNull();
  });
});
