import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerErrorKind } from '../../../test/support/adapter-contract';
import { testSignal } from '../../../test/support/route-assets';
import { startSimulator } from '../simulator-kit';
import { type ChainflipSimulator, startChainflipSimulator } from './simulator';
import { mapSwapStatus } from './status';
import { chainflipAdapterFor, ethToBtcQuote, openEthToBtcChannel } from './test-channel';
import { swapStatusSchema } from './wire';

let sim: ChainflipSimulator;
beforeAll(async () => {
  sim = await startChainflipSimulator({ port: 0 });
});
afterAll(() => sim.close());

const adapterFor = chainflipAdapterFor;
const quoteInput = ethToBtcQuote;

describe('quote errors: a request the backend could not parse is ours to see', () => {
  async function quoteAgainst(status: number, message: string) {
    const backend = await startSimulator('chainflip-backend', [
      { method: 'GET', pattern: /^\/v2\/quote$/, kind: 'quote', handle: () => ({ status, body: { message } }) },
    ]);
    try {
      return await adapterFor(backend.url).quote(quoteInput, testSignal());
    } finally {
      await backend.close();
    }
  }

  it('"invalid request" is REJECTED, not an empty route list', async () => {
    expect(await providerErrorKind(quoteAgainst(400, 'invalid request'))).toBe('REJECTED');
  });
  // The backend's refusals that are no route are one table with THORNode's: ../no-route-refusals.test.ts.
});

describe('status: the client hash against the deposit Chainflip saw on our channel', () => {
  it('verifies the deposit and withdraws another hash, the status coming from the channel either way', async () => {
    const adapter = chainflipAdapterFor(sim.url);
    sim.configure({ settleAfterPolls: 0, outcome: 'success', autoDepositMs: 0 });
    const input = await openEthToBtcChannel(adapter);
    const settled = await adapter.status(input, testSignal());
    expect(settled).toMatchObject({ status: 'SUCCESS', substatus: 'COMPLETED' });
    const deposit = settled.inboundHash as string;

    const own = await adapter.status({ ...input, hash: deposit }, testSignal());
    expect(own.hashCheck).toEqual({ hash: deposit, verdict: 'verified', decidesStatus: false });
    const stranger = `0x${'ab'.repeat(32)}`;
    const other = await adapter.status({ ...input, hash: stranger }, testSignal());
    expect(other.status).toBe('SUCCESS');
    expect(other.hashCheck).toMatchObject({ hash: stranger, verdict: 'rejected', decidesStatus: false });
  });

  it('a swap with both egresses is SUCCESS marked PARTIAL, with what went each way', () => {
    const result = mapSwapStatus(
      swapStatusSchema.parse({
        state: 'COMPLETED',
        srcAsset: 'ETH',
        srcChain: 'Ethereum',
        destAsset: 'BTC',
        destChain: 'Bitcoin',
        deposit: { amount: '2000000000000000000', txRef: '0x01' },
        swapEgress: { amount: '3000000', txRef: 'aa'.repeat(32), witnessedAt: 1 },
        refundEgress: { amount: '990000000000000000', txRef: '0x02', witnessedAt: 1 },
        fees: [],
      }),
    );
    expect(result).toMatchObject({
      status: 'SUCCESS',
      substatus: 'PARTIAL',
      partial: { delivered: '0.03 BTC', refunded: '0.99 ETH', refundHash: '0x02' },
      dstAmountBase: 3_000_000n,
    });
  });
});
