import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { providerErrorKind } from '../../../test/support/adapter-contract';
import { routeAsset, testSignal } from '../../../test/support/route-assets';
import type { RunningSimulator } from '../simulator-kit';
import type { ExecuteInput, QuoteInput, StatusInput } from '../types';
import { createRelayAdapter, type RelayAdapter } from './adapter';
import { startRelaySimulator } from './simulator';

const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const RECIPIENT = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const ethEth = routeAsset('ethereum', 'ETH');
const arbUsdc = routeAsset('arbitrum', 'USDC');

let sim: RunningSimulator;
let sparse: RunningSimulator;
let adapter: RelayAdapter;

const adapterFor = (url: string) =>
  createRelayAdapter({
    config: { key: 'RELAY', enabled: true, baseUrl: url, apiKey: undefined, deadlineMs: 2500 },
    baseUrl: url,
  });

beforeAll(async () => {
  sim = await startRelaySimulator({ port: 0 });
  sparse = await startRelaySimulator({ port: 0, omitOptionalFields: true });
  adapter = adapterFor(sim.url);
});
afterAll(async () => {
  await sim.close();
  await sparse.close();
});
beforeEach(() => sim.reset());

const quoteInput: QuoteInput = {
  src: ethEth,
  dst: arbUsdc,
  amountBase: 10n ** 18n,
  slippageBps: 100,
  depositor: USER,
  recipient: RECIPIENT,
};

async function locked(): Promise<{ execute: ExecuteInput; minimum: bigint }> {
  const [route] = await adapter.quote(quoteInput, testSignal());
  if (!route?.dstMinAmountBase) throw new Error('no route');
  return {
    minimum: route.dstMinAmountBase,
    execute: {
      ...quoteInput,
      depositor: USER,
      recipient: RECIPIENT,
      routeId: route.routeId,
      providerQuote: route.providerQuote,
      transactionId: 'tx_test',
    },
  };
}

const quoteBodies = () => sim.log.filter((entry) => entry.kind === 'quote').map((entry) => entry.path);

describe('optional upstream fields are optional', () => {
  it('a quote without currency symbols, names, metadata or USD amounts is still a good quote', async () => {
    const raw = await fetch(`${sparse.url}/quote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        user: USER,
        recipient: RECIPIENT,
        originChainId: 1,
        destinationChainId: 42161,
        originCurrency: '0x0000000000000000000000000000000000000000',
        destinationCurrency: arbUsdc.address,
        amount: '1000000000000000000',
        tradeType: 'EXACT_INPUT',
      }),
    });
    const body = (await raw.json()) as { details: { currencyOut: Record<string, Record<string, unknown>> } };
    expect(body.details.currencyOut.currency).not.toHaveProperty('symbol');
    expect(body.details.currencyOut).not.toHaveProperty('amountUsd');

    const [route] = await adapterFor(sparse.url).quote(quoteInput, testSignal());
    expect(route?.dstAmountBase).toBeGreaterThan(3_000_000_000n);
    expect(route?.dstUsd).toBeUndefined();
    expect(route?.fee.details.every((item) => item.currency === '')).toBe(true);
  });
});

describe('execute holds the locked terms', () => {
  it('refuses when even the expected output fell below the locked minimum', async () => {
    const { execute } = await locked();
    sim.configure({ priceShiftBps: -300 });
    expect(await providerErrorKind(adapter.execute(execute, testSignal()))).toBe('TERMS_CHANGED');
  });

  it('within the slippage, re-quotes with a tighter tolerance so the solver enforces the locked minimum', async () => {
    const { execute, minimum } = await locked();
    sim.reset();
    sim.configure({ priceShiftBps: -40 });
    const result = await adapter.execute(execute, testSignal());
    expect(result.dstMinAmountBase).toBeGreaterThanOrEqual(minimum);
    expect(result.dstMinAmountBase).toBeLessThan(minimum + minimum / 10_000n);
    expect(quoteBodies()).toHaveLength(2);
  });

  it('an unchanged price is executed with one quote and the locked minimum', async () => {
    const { execute, minimum } = await locked();
    sim.reset();
    const result = await adapter.execute(execute, testSignal());
    expect(result.dstMinAmountBase).toBe(minimum);
    expect(quoteBodies()).toHaveLength(1);
  });
});

describe('the client hash against the deposit Relay reports for our request id', () => {
  async function statusInput(hash: string): Promise<StatusInput> {
    const { execute } = await locked();
    const result = await adapter.execute(execute, testSignal());
    return {
      trackingContext: result.trackingContext,
      hash,
      inboundHash: '',
      src: ethEth,
      dst: arbUsdc,
      createdAt: new Date(),
      depositor: USER,
      recipient: RECIPIENT,
      srcAmountBase: 10n ** 18n,
    };
  }

  it('the deposit Relay saw verifies the hash; another hash is withdrawn, without touching the status', async () => {
    const deposit = `0x${'12'.repeat(32)}`;
    const input = await statusInput(deposit);
    const notified = await adapter.notifyDeposit(1, deposit, input.trackingContext.requestId as string, testSignal());
    expect(notified.indexed).toBe(true);
    sim.configure({ settleAfterPolls: 0 });
    const own = await adapter.status(input, testSignal());
    expect(own).toMatchObject({ status: 'SUCCESS', substatus: 'COMPLETED' });
    expect(own.hashCheck).toEqual({ hash: deposit, verdict: 'verified', decidesStatus: false });

    const stranger = `0x${'34'.repeat(32)}`;
    const other = await adapter.status({ ...input, hash: stranger }, testSignal());
    expect(other.status).toBe('SUCCESS');
    expect(other.hashCheck).toMatchObject({ hash: stranger, verdict: 'rejected', decidesStatus: false });
  });
});
