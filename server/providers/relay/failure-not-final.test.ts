import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scriptOutcome, statusWalk } from '../../../test/support/adapter-contract';
import { routeAsset, testSignal } from '../../../test/support/route-assets';
import type { RunningSimulator } from '../simulator-kit';
import { createRelayAdapter } from './adapter';
import { FAILURE_THEN_REFUND_STAGES } from './sim-stages';
import { startRelaySimulator } from './simulator';
import { mapRelayStatus, RELAY_FAILURE_FINAL_AFTER_MS } from './status';

const ETH = routeAsset('ethereum', 'ETH');
const ARB_USDC = routeAsset('arbitrum', 'USDC');
const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const RECIPIENT = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const SWAP_START = Date.UTC(2026, 10, 1, 12, 0, 0);

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startRelaySimulator({ port: 0, defaults: { autoDepositMs: 0 } });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe("Relay's failure is not final", () => {
  it('walks pending -> failure (several polls) -> pending -> refund as PENDING, refund in progress, then REFUND', async () => {
    expect(await scriptOutcome(sim.url, RECIPIENT, 'failure-then-refund')).toBe(200);
    const adapter = createRelayAdapter({
      config: { key: 'RELAY', enabled: true, baseUrl: sim.url, apiKey: undefined, deadlineMs: 2500 },
      baseUrl: sim.url,
    });
    const input = { src: ETH, dst: ARB_USDC, amountBase: 10n ** 18n, slippageBps: 100 };
    const { trackingContext } = await adapter.execute(
      {
        ...input,
        depositor: USER,
        recipient: RECIPIENT,
        routeId: 'relay:swap',
        providerQuote: {},
        transactionId: 'tx_f',
      },
      testSignal(),
    );
    const tracked = {
      trackingContext,
      hash: '',
      inboundHash: '',
      src: ETH,
      dst: ARB_USDC,
      createdAt: new Date(),
      depositor: USER,
      recipient: RECIPIENT,
      srcAmountBase: input.amountBase,
    };
    const seen = await statusWalk(adapter, tracked, (r) => r.status === 'REFUND', 12);
    expect(seen.map((r) => r.upstreamState)).toEqual(FAILURE_THEN_REFUND_STAGES);
    const failures = seen.filter((r) => r.upstreamState === 'failure');
    expect(failures.every((r) => r.status === 'PENDING' && r.substatus === 'REFUND_IN_PROGRESS')).toBe(true);
    expect(seen.map((r) => r.status)).not.toContain('FAILED');
    expect(seen.at(-1)).toMatchObject({ status: 'REFUND', substatus: 'REFUNDED' });
  });

  const failureAt = (updatedAtSeconds: number) => ({
    status: 'failure',
    inTxHashes: ['0xin'],
    txHashes: [],
    updatedAt: updatedAtSeconds,
  });

  it('is FAILED once it has held for the window by its updatedAt, not a moment before', () => {
    const changed = SWAP_START / 1000 + 60;
    const justBefore = { now: changed * 1000 + RELAY_FAILURE_FINAL_AFTER_MS - 1 };
    const atWindow = { now: changed * 1000 + RELAY_FAILURE_FINAL_AFTER_MS };
    expect(mapRelayStatus(failureAt(changed), justBefore)).toMatchObject({
      status: 'PENDING',
      substatus: 'REFUND_IN_PROGRESS',
    });
    expect(mapRelayStatus(failureAt(changed), atWindow)).toMatchObject({ status: 'FAILED', upstreamState: 'failure' });
  });

  it('without a timestamp, the window counts from when tracking first saw the failure, never from the swap start', () => {
    const body = { status: 'failure', inTxHashes: ['0xin'] };
    const seen = SWAP_START + 2 * RELAY_FAILURE_FINAL_AFTER_MS;
    expect(mapRelayStatus(body, { now: seen })).toMatchObject({ status: 'PENDING', timed: true });
    expect(mapRelayStatus(body, { now: seen + RELAY_FAILURE_FINAL_AFTER_MS - 1, firstSeen: seen }).status).toBe(
      'PENDING',
    );
    expect(mapRelayStatus(body, { now: seen + RELAY_FAILURE_FINAL_AFTER_MS, firstSeen: seen }).status).toBe('FAILED');
  });
});

describe('a Relay refund is one of the whole deposit (#46 item 5)', () => {
  it('says so while on its way and names its transaction once sent; Relay states no amount', () => {
    expect(mapRelayStatus({ status: 'failure' }).refund).toEqual({});
    expect(mapRelayStatus({ status: 'refund', txHashes: ['0xrefund'] }).refund).toEqual({ hash: '0xrefund' });
    expect(mapRelayStatus({ status: 'success', txHashes: ['0xpayout'] }).refund).toBeUndefined();
  });
});
