import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptOutcome, statusWalk } from '../../../test/support/adapter-contract';
import { routeAsset, testSignal } from '../../../test/support/route-assets';
import type { CatalogChain, CatalogSnapshot } from '../../catalog/snapshot';
import { whatCounts } from '../../tracking/apply-status';
import type { PollFields } from '../../tracking/poll-row';
import { explorerUrlsOf } from '../../transactions/explorer';
import type { StatusFields } from '../../transactions/status-fields';
import type { RunningSimulator } from '../simulator-kit';
import type { StatusResult } from '../types';
import { createLifiAdapter } from './adapter';
import { startLifiSimulator } from './simulator';

const DEPOSITOR = '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0';
const RECIPIENT = '0x9f5E2B1f5Fa4D5a3b8ab7A0FB0e4c6dD1A2b3C4D';
const eth = routeAsset('ethereum', 'ETH');
const arbUsdc = routeAsset('arbitrum', 'USDC');
const input = {
  src: eth,
  dst: arbUsdc,
  amountBase: 10n ** 18n,
  slippageBps: 50,
  depositor: DEPOSITOR,
  recipient: RECIPIENT,
};

const catalog = {
  chain: (key: string) => ({ key, explorerTxUrl: `https://${key}.explorer.test/tx/{hash}` }) as CatalogChain,
} as CatalogSnapshot;

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startLifiSimulator({ port: 0, defaults: { autoDepositMs: 0 } });
});
afterAll(() => sim.close());

async function refundedOnDestination(): Promise<StatusResult> {
  expect(await scriptOutcome(sim.url, RECIPIENT, 'refund-on-destination')).toBe(200);
  const adapter = createLifiAdapter({
    config: { key: 'LIFI', enabled: true, baseUrl: sim.url, apiKey: undefined, deadlineMs: 2500 },
    baseUrl: sim.url,
  });
  const [route] = await adapter.quote(input, testSignal());
  if (!route) throw new Error('no route');
  const { trackingContext } = await adapter.execute(
    { ...input, routeId: route.routeId, providerQuote: route.providerQuote, transactionId: 'tx_refund_chain' },
    testSignal(),
  );
  const statusInput = {
    ...input,
    trackingContext,
    hash: '',
    inboundHash: '',
    createdAt: new Date(),
    srcAmountBase: input.amountBase,
  };
  const settled = (await statusWalk(adapter, statusInput, (r) => r.status !== 'PENDING', 8)).at(-1);
  if (settled?.status === 'PENDING') throw new Error('the refund never settled');
  return settled as StatusResult;
}

describe('a LI.FI refund that lands on the receiving chain', () => {
  it('is REFUND with its transaction on the receiving chain, recorded by the poll, and its explorer link points there', async () => {
    const result = await refundedOnDestination();
    expect(result).toMatchObject({ status: 'REFUND', outboundChain: 'arbitrum' });
    const pending = {
      id: 'tx_refund_chain',
      provider: 'LIFI',
      status: 'PENDING',
      substatus: null,
      srcChain: 'ethereum',
      dstChain: 'arbitrum',
      hash: result.inboundHash,
      inboundHash: result.inboundHash,
      outboundHash: null,
      trackingContext: {},
      dstAsset: { decimals: 6 },
    } as unknown as PollFields;
    const row = { ...pending, ...whatCounts(pending, result, {}).patch } as unknown as StatusFields;
    expect(row.status).toBe('REFUND');
    expect(explorerUrlsOf(catalog, row).outbound).toBe(`https://arbitrum.explorer.test/tx/${result.outboundHash}`);
  });

  it('a refund LI.FI pays back on the sending chain keeps its link there', () => {
    const row = {
      provider: 'LIFI',
      status: 'REFUND',
      srcChain: 'ethereum',
      dstChain: 'arbitrum',
      hash: '0xin',
      inboundHash: '0xin',
      outboundHash: '0xout',
      trackingContext: {},
    } as unknown as StatusFields;
    expect(explorerUrlsOf(catalog, row).outbound).toBe('https://ethereum.explorer.test/tx/0xout');
  });
});
