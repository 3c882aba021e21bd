import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerErrorKind } from '../../../test/support/adapter-contract';
import { routeAsset, testSignal } from '../../../test/support/route-assets';
import { startSimulator } from '../simulator-kit';
import type { StatusInput } from '../types';
import { createChainflipAdapter } from './adapter';
import { type ChainflipSimulator, startChainflipSimulator } from './simulator';
import { mapSwapStatus } from './status';
import { swapStatusSchema } from './wire';

const ETH = routeAsset('ethereum', 'ETH');
const BTC = routeAsset('bitcoin', 'BTC');
const EVM_WALLET = '0x2afba9278e30ccf6a6ceb3a8b6e336b70068f045';
const BTC_WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const ONE_ETH = 10n ** 18n;

let sim: ChainflipSimulator;
beforeAll(async () => {
  sim = await startChainflipSimulator({ port: 0 });
});
afterAll(() => sim.close());

const adapterFor = (url: string) =>
  createChainflipAdapter({
    config: { key: 'CHAINFLIP', enabled: true, baseUrl: url, apiKey: undefined, deadlineMs: 2500 },
    baseUrl: url,
  });
const quoteInput = { src: ETH, dst: BTC, amountBase: ONE_ETH, slippageBps: 100 };

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

  it.each([
    [400, 'insufficient liquidity for requested amount'],
    [400, 'expected amount is below minimum swap amount (1000)'],
    [503, 'Asset Flip is disabled'],
  ])('%s "%s" is no route', async (status, message) => {
    expect(await quoteAgainst(status, message)).toEqual([]);
  });
});

describe('status: the client hash against the deposit Chainflip saw on our channel', () => {
  it('verifies the deposit and withdraws another hash, the status coming from the channel either way', async () => {
    const adapter = adapterFor(sim.url);
    const [route] = await adapter.quote(quoteInput, testSignal());
    if (!route) throw new Error('no route');
    sim.configure({ settleAfterPolls: 0, outcome: 'success', autoDepositMs: 0 });
    const executed = await adapter.execute(
      {
        ...quoteInput,
        depositor: EVM_WALLET,
        recipient: BTC_WALLET,
        routeId: route.routeId,
        providerQuote: route.providerQuote,
        transactionId: 'tx_test',
      },
      testSignal(),
    );
    const input: StatusInput = {
      trackingContext: executed.trackingContext,
      hash: '',
      inboundHash: '',
      src: ETH,
      dst: BTC,
      createdAt: new Date(),
      depositor: EVM_WALLET,
      recipient: BTC_WALLET,
      srcAmountBase: ONE_ETH,
    };
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
