import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scriptOutcome, statusWalk } from '../../../test/support/adapter-contract';
import { type ChainflipSimulator, startChainflipSimulator } from './simulator';
import { BTC_WALLET, chainflipAdapterFor, openEthToBtcChannel } from './test-channel';

let sim: ChainflipSimulator;

beforeAll(async () => {
  sim = await startChainflipSimulator({ port: 0, defaults: { autoDepositMs: 0 } });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('a partial fill whose refund egress is ignored before the payout is broadcast', () => {
  it('is PENDING while the payout flies (upstream FAILED), then SUCCESS PARTIAL with the ignored refund named', async () => {
    expect(await scriptOutcome(sim.url, BTC_WALLET, 'partial-refund-ignored-first')).toBe(200);
    const adapter = chainflipAdapterFor(sim.url);
    const input = await openEthToBtcChannel(adapter);
    const seen = await statusWalk(adapter, input, (r) => r.status === 'SUCCESS', 10);
    const upstreamFailedWhilePending = seen.filter((r) => r.upstreamState === 'FAILED' && r.status === 'PENDING');
    expect(upstreamFailedWhilePending.length).toBeGreaterThan(0);
    expect(upstreamFailedWhilePending[0]).toMatchObject({ substatus: 'WAITING_DESTINATION' });
    expect(upstreamFailedWhilePending[0]?.detail).toMatch(/refund of the unswapped part was ignored/);
    expect(seen.map((r) => r.status)).not.toContain('FAILED');
    expect(seen.at(-1)).toMatchObject({ status: 'SUCCESS', substatus: 'PARTIAL', partial: { refunded: 'nothing' } });
    expect(seen.at(-1)?.detail).toMatch(/below the minimum egress amount/);
  });
});
