import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptOutcome } from '../../test/support/adapter-contract';
import { routeAsset, testSignal } from '../../test/support/route-assets';
import { startChainflipSimulator } from './chainflip/simulator';
import { chainflipAdapterFor, ethToBtcQuote } from './chainflip/test-channel';
import { withResilience } from './resilience';
import { type RunningSimulator, type SimResponse, startSimulator } from './simulator-kit';
import { createThorchainAdapter } from './thorchain/adapter';
import { startThorchainSimulator } from './thorchain/simulator';
import type { ProviderAdapter, QuoteInput } from './types';

const EVM_WALLET = '0x86d526d6624AbC0178cF7296cD538Ecc080A95F1';
const btcToEthQuote: QuoteInput = {
  src: routeAsset('bitcoin', 'BTC'),
  dst: routeAsset('ethereum', 'ETH'),
  amountBase: 10_000_000n,
  slippageBps: 100,
  recipient: EVM_WALLET,
};
const thorchainAdapterFor = (url: string) =>
  createThorchainAdapter({
    config: { key: 'THORCHAIN', enabled: true, baseUrl: url, apiKey: undefined, deadlineMs: 2500 },
    baseUrl: url,
  });
const policy = {
  breakerThreshold: 1,
  halfOpenAfterMs: 60_000,
  budget: { points: 100, windowSeconds: 60 },
  reservedPoints: 0,
  statusRetries: 1,
};

/** THORNode's gRPC gateway: a plain quote-handler error is HTTP 400 code 3, one of the simulated swap HTTP 500 code 2. */
const thornodeError = (status: number, message: string): SimResponse => ({
  status,
  body: { code: status === 400 ? 3 : 2, message, details: [] },
});
/** The Chainflip backend's ServiceError: 400, or 503 for a disabled asset. */
const chainflipError = (status: number, message: string): SimResponse => ({ status, body: { message } });

interface Refusal {
  provider: 'THORCHAIN' | 'CHAINFLIP';
  upstream: string;
  answer: SimResponse;
}

// Strings from thornode x/thorchain swap_current.go, querier_quotes.go, handler_swap.go, and
// chainflip-sdk-monorepo packages/swap/src/quoting/QuoteRequest.ts.
const REFUSALS: Refusal[] = [
  ...(
    [
      [500, 'failed to simulate swap: fail to add outbound tx: not enough asset to pay for fees'],
      [500, 'failed to simulate swap: fail to add outbound tx: outbound amount does not meet requirements (95/100)'],
      [500, 'failed to simulate swap: emit asset 95 less than price limit 100'],
      [400, 'generated memo too long for source chain'],
      [400, 'amount less than dust threshold'],
      [500, 'failed to simulate swap: pool(ETH.ETH) is not available'],
      [500, "failed to simulate swap: pool ETH.ETH doesn't exist"],
      [400, 'invariant broken: emit 51000 less than outbound fee 72000'],
      [500, 'failed to simulate swap: zero emit asset'],
      [500, 'failed to simulate swap: streaming swaps are paused'],
    ] as const
  ).map(([status, upstream]) => ({
    provider: 'THORCHAIN' as const,
    upstream,
    answer: thornodeError(status, upstream),
  })),
  ...(
    [
      [400, 'insufficient liquidity for requested amount'],
      [400, 'expected amount is below minimum swap amount (1000)'],
      [503, 'Asset Flip is disabled'],
      [400, 'swap output amount is lower than the egress fee (50000)'],
      [400, 'egress amount (41000) is lower than minimum egress amount (60000)'],
    ] as const
  ).map(([status, upstream]) => ({
    provider: 'CHAINFLIP' as const,
    upstream,
    answer: chainflipError(status, upstream),
  })),
];

const ROUTES = {
  THORCHAIN: { pattern: /^\/thorchain\/quote\/swap$/, adapterFor: thorchainAdapterFor, input: btcToEthQuote },
  CHAINFLIP: { pattern: /^\/v2\/quote\/?$/, adapterFor: chainflipAdapterFor, input: ethToBtcQuote },
};

/** Quotes three times past a breaker that opens on one upstream failure: no route each time, breaker closed. */
async function expectNoRouteWithoutOutage(adapter: ProviderAdapter, input: QuoteInput) {
  const guarded = withResilience(adapter, policy, undefined, 'test');
  for (let attempt = 0; attempt < 3; attempt++) expect(await guarded.quote(input, testSignal())).toEqual([]);
  expect(guarded.breakerState()).toBe('closed');
}

describe("an upstream refusal that is the request's fault is no route, not an outage", () => {
  it.each(REFUSALS)('$provider "$upstream"', async ({ provider, answer }) => {
    const { pattern, adapterFor, input } = ROUTES[provider];
    const backend = await startSimulator(`${provider}-refusal`, [
      { method: 'GET', pattern, kind: 'quote', handle: () => answer },
    ]);
    try {
      await expectNoRouteWithoutOutage(adapterFor(backend.url), input);
    } finally {
      await backend.close();
    }
  });
});

describe('the simulators script these refusals by what the quote names (POST /__sim/scripts)', () => {
  const sims: RunningSimulator[] = [];
  beforeAll(async () => {
    sims.push(await startThorchainSimulator({ port: 0 }), await startChainflipSimulator({ port: 0 }));
  });
  afterAll(() => Promise.all(sims.map((sim) => sim.close())));

  it('THORChain no-route-pool-unavailable, keyed by the destination', async () => {
    const [thornode] = sims as [RunningSimulator];
    expect(await scriptOutcome(thornode.url, EVM_WALLET, 'no-route-pool-unavailable')).toBe(200);
    await expectNoRouteWithoutOutage(thorchainAdapterFor(thornode.url), btcToEthQuote);
    const other = { ...btcToEthQuote, recipient: '0xde709f2102306220921060314715629080e2fb77' };
    expect(await thorchainAdapterFor(thornode.url).quote(other, testSignal())).not.toEqual([]);
  });

  it('Chainflip no-route-egress-fee, keyed by the quoted amount (the quote names no recipient)', async () => {
    const chainflip = sims[1] as RunningSimulator;
    expect(await scriptOutcome(chainflip.url, String(ethToBtcQuote.amountBase), 'no-route-egress-fee')).toBe(200);
    await expectNoRouteWithoutOutage(chainflipAdapterFor(chainflip.url), ethToBtcQuote);
    const other = { ...ethToBtcQuote, amountBase: ethToBtcQuote.amountBase * 2n };
    expect(await chainflipAdapterFor(chainflip.url).quote(other, testSignal())).not.toEqual([]);
  });
});
