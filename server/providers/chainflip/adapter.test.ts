import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { providerErrorKind as errorKind, quoteFaultContract } from '../../../test/support/adapter-contract';
import { routeAsset, testSignal } from '../../../test/support/route-assets';
import { ProviderError } from '../errors';
import type { AdapterOptions } from '../options';
import type { ExecuteInput, ProviderAdapter, ProviderRoute, RouteAsset, StatusInput, StatusResult } from '../types';
import { type ChainflipAdapterTuning, createChainflipAdapter } from './adapter';
import { minPriceX128 } from './price';
import { type ChainflipOutcome, type ChainflipSimulator, startChainflipSimulator } from './simulator';
import { mapSwapStatus } from './status';
import { CHANNEL_ID, type SwapStatusInput, swapStatusSchema } from './wire';

const ETH = routeAsset('ethereum', 'ETH');
const USDC = routeAsset('ethereum', 'USDC');
const FLIP = routeAsset('ethereum', 'FLIP');
const BTC = routeAsset('bitcoin', 'BTC');
const SOL = routeAsset('solana', 'SOL');
const ARB_ETH = routeAsset('arbitrum', 'ETH');
const ARB_USDC = routeAsset('arbitrum', 'USDC');

const EVM_WALLET = '0x2afba9278e30ccf6a6ceb3a8b6e336b70068f045';
const BTC_WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const SOL_WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const WALLETS: Record<string, string> = {
  ethereum: EVM_WALLET,
  arbitrum: EVM_WALLET,
  bitcoin: BTC_WALLET,
  solana: SOL_WALLET,
};

const ONE_ETH = 10n ** 18n;
const META_KEYS = [
  'providerQuoteId',
  'selectedQuoteId',
  'executionMode',
  'walletExecution',
  'depositAddress',
  'depositMemo',
  'channelId',
  'expiresAt',
];

let sim: ChainflipSimulator;

const adapterOptions = (apiKey?: string): AdapterOptions => ({
  config: { key: 'CHAINFLIP', enabled: true, baseUrl: sim.url, apiKey, deadlineMs: 2500 },
  baseUrl: sim.url,
});
const newAdapter = (tuning?: ChainflipAdapterTuning) => createChainflipAdapter(adapterOptions(), tuning);

const quoteInput = (src: RouteAsset, dst: RouteAsset, amountBase: bigint) => ({
  src,
  dst,
  amountBase,
  slippageBps: 100,
});

function executeInput(src: RouteAsset, dst: RouteAsset, amountBase: bigint, route: ProviderRoute): ExecuteInput {
  return {
    ...quoteInput(src, dst, amountBase),
    depositor: WALLETS[src.chain] as string,
    recipient: WALLETS[dst.chain] as string,
    routeId: route.routeId,
    providerQuote: route.providerQuote,
    transactionId: 'tx_test',
  };
}

const statusInput = (trackingContext: Record<string, unknown>, hash = ''): StatusInput => ({
  trackingContext,
  hash,
  inboundHash: '',
  src: ETH,
  dst: BTC,
  createdAt: new Date(),
  depositor: WALLETS.ethereum as string,
  recipient: WALLETS.bitcoin as string,
  srcAmountBase: ONE_ETH,
});

async function firstRoute(
  adapter: ProviderAdapter,
  src: RouteAsset,
  dst: RouteAsset,
  amount: bigint,
  routeId?: string,
) {
  const routes = await adapter.quote(quoteInput(src, dst, amount), testSignal());
  const route = routeId ? routes.find((r) => r.routeId === routeId) : routes[0];
  if (!route) throw new Error(`no ${routeId ?? 'route'} for ${src.symbol}->${dst.symbol}`);
  return route;
}

async function openChannel(
  adapter: ProviderAdapter,
  src: RouteAsset,
  dst: RouteAsset,
  amount: bigint,
  routeId?: string,
) {
  const route = await firstRoute(adapter, src, dst, amount, routeId);
  const result = await adapter.execute(executeInput(src, dst, amount, route), testSignal());
  return { route, result };
}

const reportDeposit = (hash: string, context: Record<string, unknown>) =>
  fetch(`${sim.url}/__sim/deposits`, { method: 'POST', body: JSON.stringify({ hash, context }) });

async function scriptOutcome(key: string, outcome: ChainflipOutcome): Promise<number> {
  const response = await fetch(`${sim.url}/__sim/chainflip/scripts`, {
    method: 'POST',
    body: JSON.stringify({ scripts: [{ key, outcome }] }),
  });
  return response.status;
}

async function pollUntilFinal(adapter: ProviderAdapter, trackingContext: Record<string, unknown>) {
  const seen: StatusResult[] = [];
  for (let i = 0; i < 12; i++) {
    const result = await adapter.status(statusInput(trackingContext), testSignal());
    seen.push(result);
    if (result.status !== 'PENDING') break;
  }
  return seen;
}

beforeAll(async () => {
  // Tests about something other than the deposit: it is made at the channel's first status read.
  sim = await startChainflipSimulator({ port: 0, defaults: { autoDepositMs: 0 } });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => {
  sim.reset();
});

describe('supports', () => {
  const adapter = () => newAdapter();

  it.each([
    [ETH, BTC],
    [BTC, SOL],
    [USDC, ARB_USDC],
    [ARB_ETH, ETH],
    [FLIP, routeAsset('solana', 'USDC')],
  ])('accepts Chainflip assets on both sides (%#)', (src, dst) => {
    expect(adapter().supports(src, dst)).toBe(true);
  });

  it.each([
    ['same asset', ETH, ETH],
    ['a non-Chainflip token', routeAsset('ethereum', 'WBTC'), BTC],
    ['bridged USDC.e', routeAsset('arbitrum', 'USDC.e'), ETH],
    ['a chain Chainflip lacks', routeAsset('optimism', 'ETH'), BTC],
    ['USDT on Solana (not listed)', routeAsset('solana', 'USDT'), BTC],
    ['a look-alike contract', { ...USDC, address: '0x0000000000000000000000000000000000000001' }, BTC],
  ])('refuses %s', (_label, src, dst) => {
    expect(adapter().supports(src, dst)).toBe(false);
  });
});

describe('quote', () => {
  it('asks /v2/quote with Chainflip names and base units, and prices ETH -> BTC near the seed ratio', async () => {
    const routes = await newAdapter().quote(quoteInput(ETH, BTC, ONE_ETH), testSignal());

    const entry = sim.log.at(-1);
    const url = new URL(entry?.path ?? '', sim.url);
    expect(url.pathname).toBe('/v2/quote');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      srcChain: 'Ethereum',
      srcAsset: 'ETH',
      destChain: 'Bitcoin',
      destAsset: 'BTC',
      amount: '1000000000000000000',
      isVaultSwap: 'false',
      isOnChain: 'false',
      dcaV2Enabled: 'true',
      brokerCommissionBps: '0',
    });

    expect(routes.map((r) => r.routeId)).toEqual(['chainflip:regular']);
    const [route] = routes as [ProviderRoute];
    const ideal = (ONE_ETH * 3200n * 10n ** 8n) / (95_000n * ONE_ETH);
    expect(route.dstAmountBase).toBeLessThan(ideal);
    expect(route.dstAmountBase).toBeGreaterThan((ideal * 99n) / 100n);
    expect(route.dstMinAmountBase).toBe((route.dstAmountBase * 9_900n) / 10_000n);
    expect(route.estimatedTimeSeconds).toBe(24 + 12 + 600);
    expect(route.expiresAt).toBeUndefined();
    expect(route.srcUsd).toBeUndefined();
    expect(route.steps.map((s) => s.type)).toEqual(['deposit', 'swap']);
    expect(route.steps.every((s) => s.name.startsWith('Chainflip') && s.image.startsWith('https://'))).toBe(true);
  });

  it('reports fees per asset in human units, without USD', async () => {
    const [route] = await newAdapter().quote(quoteInput(ETH, BTC, ONE_ETH), testSignal());
    const fee = route?.fee;
    expect(fee?.usd).toBeNull();
    expect(fee?.currency).toBeNull();
    expect(fee?.formatted).toMatch(/ ETH \+ .* USDC \+ .* BTC/);
    expect(fee?.details.map((d) => [d.type, d.currency])).toEqual([
      ['gas', 'ETH'],
      ['network', 'USDC'],
      ['gas', 'BTC'],
      ['liquidity', 'ETH'],
      ['liquidity', 'USDC'],
    ]);
    const ingress = fee?.details[0];
    expect(ingress?.label).toBe('Deposit (ingress) fee');
    expect(Number(ingress?.amount)).toBeCloseTo(0.5 / 3200, 8);
    expect(fee?.details.every((d) => d.amountUsd === null)).toBe(true);
  });

  it('keeps route ids stable and providerQuote plain JSON', async () => {
    const adapter = newAdapter();
    const first = await adapter.quote(quoteInput(USDC, SOL, 20_000n * 10n ** 6n), testSignal());
    const second = await adapter.quote(quoteInput(USDC, SOL, 20_000n * 10n ** 6n), testSignal());
    expect(first.map((r) => r.routeId)).toEqual(second.map((r) => r.routeId));
    for (const route of first) {
      expect(JSON.parse(JSON.stringify(route.providerQuote))).toStrictEqual(route.providerQuote);
    }
  });

  it('offers DCA above the chunk size, best payout first', async () => {
    const routes = await newAdapter().quote(quoteInput(USDC, SOL, 20_000n * 10n ** 6n), testSignal());
    expect(routes.map((r) => r.routeId)).toEqual(['chainflip:dca', 'chainflip:regular']);
    const [dca, regular] = routes as [ProviderRoute, ProviderRoute];
    expect(dca.dstAmountBase).toBeGreaterThan(regular.dstAmountBase);
    expect(dca.estimatedTimeSeconds).toBe(regular.estimatedTimeSeconds + 3 * 2 * 6);
    expect(dca.providerQuote).toMatchObject({ type: 'DCA', dcaParams: { numberOfChunks: 4, chunkIntervalBlocks: 2 } });
    expect(dca.steps[1]?.name).toBe('Chainflip DCA swap');
    const ideal = (20_000n * 10n ** 9n) / 180n;
    expect(dca.dstAmountBase).toBeGreaterThan((ideal * 99n) / 100n);
  });

  it.each([
    ['below the minimum', ETH, BTC, 10n ** 14n],
    ['beyond the liquidity', USDC, BTC, 5_000_000n * 10n ** 6n],
  ])('returns [] when the backend answers 400 for an amount %s', async (_label, src, dst, amount) => {
    expect(await newAdapter().quote(quoteInput(src, dst, amount), testSignal())).toEqual([]);
    expect(sim.log).toHaveLength(1);
  });

  it('returns [] without a call for an unsupported pair', async () => {
    expect(await newAdapter().quote(quoteInput(routeAsset('ethereum', 'WBTC'), BTC, 10n ** 8n), testSignal())).toEqual(
      [],
    );
    expect(sim.log).toHaveLength(0);
  });
});

describe('upstream faults', () => {
  const quote = (signal = testSignal()) => newAdapter().quote(quoteInput(ETH, BTC, ONE_ETH), signal);

  quoteFaultContract(
    () => sim,
    (signal) => quote(signal),
  );

  it('faults on execute and status surface as provider errors, not as results', async () => {
    const adapter = newAdapter();
    const route = await firstRoute(adapter, ETH, BTC, ONE_ETH);
    sim.configure({ faults: { execute: 'ratelimit' } });
    expect(await errorKind(adapter.execute(executeInput(ETH, BTC, ONE_ETH, route), testSignal()))).toBe('RATE_LIMITED');
    sim.configure({ faults: { execute: 'none' } });
    const { trackingContext } = await adapter.execute(executeInput(ETH, BTC, ONE_ETH, route), testSignal());
    sim.configure({ faults: { status: 'error5xx' } });
    expect(await errorKind(adapter.status(statusInput(trackingContext), testSignal()))).toBe('UNAVAILABLE');
    sim.configure({ faults: { status: 'malformed' } });
    expect(await errorKind(adapter.status(statusInput(trackingContext), testSignal()))).toBe('BAD_RESPONSE');
  });
});

describe('execute (deposit channel)', () => {
  it('opens a REGULAR channel from ETH with the SDK fill-or-kill price and maps the 201 answer', async () => {
    const adapter = newAdapter();
    const { route, result } = await openChannel(adapter, ETH, BTC, ONE_ETH);
    const stored = route.providerQuote as {
      estimatedPrice: string;
      egressAmount: string;
      intermediateAmount: string;
      fees?: { type: string }[];
    };
    const opened = sim.openedChannels().at(-1);

    expect(opened?.body).toEqual({
      srcAsset: { asset: 'ETH', chain: 'Ethereum' },
      destAsset: { asset: 'BTC', chain: 'Bitcoin' },
      destAddress: BTC_WALLET,
      amount: ONE_ETH.toString(),
      fillOrKillParams: {
        retryDurationBlocks: 100,
        refundAddress: EVM_WALLET,
        minPriceX128: minPriceX128(stored.estimatedPrice, 100, 18, 8),
        maxOraclePriceSlippage: 100,
      },
      quote: {
        egressAmount: stored.egressAmount,
        estimatedPrice: stored.estimatedPrice,
        intermediateAmount: stored.intermediateAmount,
        recommendedSlippageTolerancePercent: 1,
        recommendedLivePriceSlippageTolerancePercent: 1,
      },
    });
    const satsPerEth = Number((BigInt(opened?.body.fillOrKillParams.minPriceX128 ?? '0') * ONE_ETH) / 2n ** 128n);
    expect(satsPerEth / 1e8).toBeCloseTo(Number(stored.estimatedPrice) * 0.99, 6);

    const channelId = opened?.id as string;
    expect(channelId).toMatch(CHANNEL_ID);
    expect(channelId).toContain('-Ethereum-');
    const depositAddress = result.providerResult.depositAddress as string;
    expect(depositAddress).toMatch(/^0x[0-9a-f]{40}$/);
    expect(result.providerResult).toEqual({
      channelId,
      depositAddress,
      status: 'AWAITING_DEPOSIT',
      execution: 'deposit-channel',
    });
    expect(result.exec).toEqual({
      chainId: 1,
      providerTarget: depositAddress,
      value: ONE_ETH.toString(),
      srcToken: 'native',
      srcAmount: ONE_ETH.toString(),
      meta: {
        executionMode: 'deposit-channel',
        walletExecution: false,
        depositAddress,
        channelId,
        expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    });
    const expiresIn = Date.parse(result.exec?.meta.expiresAt ?? '') - Date.now();
    expect(expiresIn).toBeGreaterThan(23 * 3600_000);
    expect(Object.keys(result.exec?.meta ?? {}).every((k) => META_KEYS.includes(k))).toBe(true);
    expect(result.depositDeadline).toBeInstanceOf(Date);
    expect(result.depositDeadline?.toISOString()).toBe(result.exec?.meta.expiresAt);
    expect(result.trackingContext).toEqual({
      channelId,
      depositAddress,
      srcChain: 'Ethereum',
      issuedBlock: Number(channelId.split('-')[0]),
      openedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      quotedFees: stored.fees,
    });
    // The quote's own fee lines, the pools' fees among them: what tracking compares the status fees with.
    expect(new Set(stored.fees?.map((fee) => fee.type))).toEqual(
      new Set(['INGRESS', 'NETWORK', 'EGRESS', 'LIQUIDITY']),
    );
    expect(adapter.canTrack(result.trackingContext, '')).toBe(true);
  });

  it('passes dcaParams for the DCA route and sends no native value for a token deposit', async () => {
    const amount = 20_000n * 10n ** 6n;
    const { result } = await openChannel(newAdapter(), USDC, SOL, amount, 'chainflip:dca');
    const body = sim.openedChannels().at(-1)?.body;
    expect(body?.dcaParams).toEqual({ numberOfChunks: 4, chunkIntervalBlocks: 2 });
    expect(body?.destAddress).toBe(SOL_WALLET);
    expect(result.exec).toMatchObject({
      chainId: 1,
      value: '0',
      srcToken: USDC.address,
      srcAmount: amount.toString(),
    });
  });

  it('omits dcaParams on the regular route even when a DCA quote existed', async () => {
    await openChannel(newAdapter(), USDC, SOL, 20_000n * 10n ** 6n, 'chainflip:regular');
    expect(sim.openedChannels().at(-1)?.body).not.toHaveProperty('dcaParams');
  });

  it('opens a Bitcoin channel with a null chain id and a taproot deposit address', async () => {
    const amount = 5_000_000n;
    const { result } = await openChannel(newAdapter(), BTC, ARB_ETH, amount);
    expect(result.exec).toMatchObject({ chainId: null, value: amount.toString(), srcToken: 'native' });
    expect(result.exec?.providerTarget).toMatch(/^bc1p[ac-hj-np-z02-9]{58}$/);
    expect(result.trackingContext.srcChain).toBe('Bitcoin');
  });

  it('leaves out the oracle slippage when the quote has no live-price protection (FLIP)', async () => {
    await openChannel(newAdapter(), FLIP, ETH, 100_000n * ONE_ETH);
    expect(sim.openedChannels().at(-1)?.body.fillOrKillParams).not.toHaveProperty('maxOraclePriceSlippage');
  });

  it('maps a refused channel (bad address) to REJECTED with the backend message', async () => {
    const adapter = newAdapter();
    const route = await firstRoute(adapter, ETH, BTC, ONE_ETH);
    const input = { ...executeInput(ETH, BTC, ONE_ETH, route), recipient: EVM_WALLET };
    const error = await adapter.execute(input, testSignal()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe('REJECTED');
    expect((error as ProviderError).message).toContain('is not a valid "Bitcoin" address');
  });

  it('refuses a route id or pair that does not match the stored quote, without calling upstream', async () => {
    const adapter = newAdapter();
    const route = await firstRoute(adapter, ETH, BTC, ONE_ETH);
    const input = { ...executeInput(ETH, BTC, ONE_ETH, route), routeId: 'chainflip:dca' };
    expect(await errorKind(adapter.execute(input, testSignal()))).toBe('REJECTED');
    const otherPair = { ...executeInput(SOL, BTC, ONE_ETH, route), depositor: SOL_WALLET };
    expect(await errorKind(adapter.execute(otherPair, testSignal()))).toBe('REJECTED');
    expect(sim.log.filter((e) => e.kind === 'execute')).toHaveLength(0);
  });
});

describe('status end to end', () => {
  it('walks a successful swap to SUCCESS with the payout hash and amount', async () => {
    sim.configure({ outcome: 'success', settleAfterPolls: 4 });
    const adapter = newAdapter();
    const { route, result } = await openChannel(adapter, ETH, BTC, ONE_ETH);
    const seen = await pollUntilFinal(adapter, result.trackingContext);

    expect(seen.map((s) => s.upstreamState)).toEqual(['RECEIVING', 'SWAPPING', 'SENDING', 'SENT', 'COMPLETED']);
    expect(seen.slice(0, -1).every((s) => s.status === 'PENDING' && !s.notFound)).toBe(true);
    expect(seen.map((s) => s.substatus)).toEqual([
      'WAITING_SOURCE_CONFIRMATIONS',
      'SWAPPING',
      'WAITING_DESTINATION',
      'WAITING_DESTINATION',
      'COMPLETED',
    ]);
    const final = seen.at(-1) as StatusResult;
    expect(final.status).toBe('SUCCESS');
    expect(final.outboundHash).toMatch(/^[0-9a-f]{64}$/);
    expect(seen[3]?.outboundHash).toBe(final.outboundHash);
    expect(final.inboundHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(final.dstAmountBase).toBe(route.dstAmountBase);
    expect(final.fee).toMatchObject({ currency: 'USDC', amountUsd: null });
    expect(sim.log.at(-1)?.path).toBe(`/v2/swaps/${result.trackingContext.channelId}`);
  });

  it('reports a refund egress in SENDING and SENT as a refund in progress, then REFUND on the source chain', async () => {
    sim.configure({ outcome: 'refund', settleAfterPolls: 4 });
    const adapter = newAdapter();
    const { result } = await openChannel(adapter, ETH, BTC, ONE_ETH);
    const seen = await pollUntilFinal(adapter, result.trackingContext);

    expect(seen.map((s) => [s.upstreamState, s.status, s.substatus])).toEqual([
      ['RECEIVING', 'PENDING', 'WAITING_SOURCE_CONFIRMATIONS'],
      ['SWAPPING', 'PENDING', 'SWAPPING'],
      ['SENDING', 'PENDING', 'REFUND_IN_PROGRESS'],
      ['SENT', 'PENDING', 'REFUND_IN_PROGRESS'],
      ['COMPLETED', 'REFUND', 'REFUNDED'],
    ]);
    expect(seen.some((s) => /payout/i.test(s.detail))).toBe(false);
    const final = seen.at(-1) as StatusResult;
    expect(final.outboundHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(final.outboundHash).not.toBe(final.inboundHash);
    expect(seen[2]?.outboundHash).toBeUndefined();
    expect(seen[3]?.outboundHash).toBe(final.outboundHash);
    expect(final.dstAmountBase).toBeUndefined();
    expect(final.fee?.currency).toBe('ETH');
  });

  it('walks a failed swap to FAILED with the reason', async () => {
    sim.configure({ outcome: 'failure', settleAfterPolls: 3 });
    const adapter = newAdapter();
    const { result } = await openChannel(adapter, ETH, BTC, ONE_ETH);
    const seen = await pollUntilFinal(adapter, result.trackingContext);
    expect(seen.map((s) => s.upstreamState)).toEqual(['RECEIVING', 'SWAPPING', 'SENDING', 'FAILED']);
    expect(seen.slice(0, -1).every((s) => s.status === 'PENDING')).toBe(true);
    expect(seen.at(-1)).toMatchObject({
      status: 'FAILED',
      upstreamState: 'FAILED',
      detail: 'The swap broadcast was aborted',
    });
  });

  it('a rejected deposit whose refund is in flight is a refund in progress, never FAILED, then REFUND', async () => {
    sim.configure({ outcome: 'success', settleAfterPolls: 3 });
    expect(await scriptOutcome(BTC_WALLET, 'rejected')).toBe(200);
    const adapter = newAdapter();
    const { result } = await openChannel(adapter, ETH, BTC, ONE_ETH);
    const seen = await pollUntilFinal(adapter, result.trackingContext);

    expect(seen.map((s) => [s.upstreamState, s.status, s.substatus])).toEqual([
      ['RECEIVING', 'PENDING', 'WAITING_SOURCE_CONFIRMATIONS'],
      ['FAILED', 'PENDING', 'REFUND_IN_PROGRESS'],
      ['FAILED', 'PENDING', 'REFUND_IN_PROGRESS'],
      ['FAILED', 'REFUND', 'REFUNDED'],
    ]);
    const [, scheduled, sent, refunded] = seen as [StatusResult, StatusResult, StatusResult, StatusResult];
    expect(scheduled.detail).toBe('The deposit was rejected by the broker; its refund is on its way');
    expect(scheduled.outboundHash).toBeUndefined();
    expect(refunded.outboundHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(sent.outboundHash).toBe(refunded.outboundHash);
    expect(refunded.inboundHash).toBe(seen[0]?.inboundHash);
  });

  it('a partial fill pays out, waits for its refund, and keeps the refund reference beside the payout hash', async () => {
    sim.configure({ outcome: 'success', settleAfterPolls: 5 });
    expect(await scriptOutcome(SOL_WALLET, 'partial')).toBe(200);
    const adapter = newAdapter();
    const amount = 20_000n * 10n ** 6n;
    const { route, result } = await openChannel(adapter, USDC, SOL, amount, 'chainflip:dca');
    const seen = await pollUntilFinal(adapter, result.trackingContext);

    expect(seen.map((s) => [s.upstreamState, s.status, s.substatus])).toEqual([
      ['RECEIVING', 'PENDING', 'WAITING_SOURCE_CONFIRMATIONS'],
      ['SWAPPING', 'PENDING', 'SWAPPING'],
      ['SENDING', 'PENDING', 'WAITING_DESTINATION'],
      ['SENT', 'PENDING', 'WAITING_DESTINATION'],
      ['COMPLETED', 'PENDING', 'REFUND_IN_PROGRESS'],
      ['COMPLETED', 'SUCCESS', 'PARTIAL'],
    ]);
    const final = seen.at(-1) as StatusResult;
    const refundHash = (final.partial as { refundHash?: string } | undefined)?.refundHash as string;
    expect(refundHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(final.outboundHash).not.toBe(refundHash);
    expect(seen.slice(3).every((s) => s.outboundHash === final.outboundHash)).toBe(true);
    expect(seen[4]?.detail).toContain(refundHash);
    expect(final.detail).toContain(refundHash);
    expect(final.partial).toMatchObject({
      delivered: expect.stringMatching(/ SOL$/),
      refunded: expect.stringMatching(/ USDC$/),
    });
    expect(final.dstAmountBase).toBeLessThan(route.dstAmountBase / 2n);
    expect(final.dstAmountBase).toBeGreaterThan(route.dstAmountBase / 3n);
  });

  it('reports FAILED for a channel that expired without a deposit', async () => {
    sim.configure({ autoDepositMs: null });
    const adapter = newAdapter();
    const { result } = await openChannel(adapter, ETH, BTC, ONE_ETH);
    expect((await adapter.status(statusInput(result.trackingContext), testSignal())).status).toBe('PENDING');
    const expired = await fetch(`${sim.url}/__sim/chainflip/expire`, {
      method: 'POST',
      body: JSON.stringify({ channelId: result.trackingContext.channelId }),
    });
    expect(expired.status).toBe(200);
    expect(await adapter.status(statusInput(result.trackingContext), testSignal())).toMatchObject({
      status: 'FAILED',
      upstreamState: 'WAITING',
      substatus: 'EXPIRED',
    });
  });

  it('can track by the deposit transaction once the backend has seen it', async () => {
    sim.configure({ settleAfterPolls: 3 });
    const adapter = newAdapter();
    const { result } = await openChannel(adapter, ETH, BTC, ONE_ETH);
    const receiving = await adapter.status(statusInput(result.trackingContext), testSignal());
    const depositHash = receiving.inboundHash as string;
    expect(depositHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(adapter.canTrack({}, depositHash)).toBe(true);
    expect(adapter.canTrack({}, '')).toBe(false);
    const byHash = await adapter.status(statusInput({}, depositHash), testSignal());
    expect(byHash.notFound).toBeUndefined();
    expect(byHash.inboundHash).toBe(depositHash);
  });
});

describe('a channel waits for its deposit', () => {
  const DEPOSIT = `0x${'5e'.repeat(32)}`;

  beforeEach(() => {
    sim.configure({ autoDepositMs: null, settleAfterPolls: 2 });
  });

  it('stays WAITING with no deposit however often it is asked', async () => {
    const adapter = newAdapter();
    const { result } = await openChannel(adapter, ETH, BTC, ONE_ETH);
    const seen: StatusResult[] = [];
    for (let i = 0; i < 6; i++) seen.push(await adapter.status(statusInput(result.trackingContext), testSignal()));
    expect(seen.every((s) => s.status === 'PENDING' && s.upstreamState === 'WAITING')).toBe(true);
    expect(seen.every((s) => s.inboundHash === undefined)).toBe(true);
  });

  it('takes a reported hash as its deposit, and walks its stages from then on', async () => {
    const adapter = newAdapter();
    const { result } = await openChannel(adapter, ETH, BTC, ONE_ETH);
    for (let i = 0; i < 4; i++) await adapter.status(statusInput(result.trackingContext), testSignal());

    const report = await reportDeposit(DEPOSIT, result.trackingContext);
    expect(report.status).toBe(200);
    expect(await report.json()).toEqual({ seen: true });

    const receiving = await adapter.status(statusInput(result.trackingContext, DEPOSIT), testSignal());
    expect(receiving).toMatchObject({ status: 'PENDING', upstreamState: 'RECEIVING', inboundHash: DEPOSIT });
    expect(receiving.hashCheck).toEqual({ hash: DEPOSIT, verdict: 'verified', decidesStatus: false });
    const body = await (await fetch(`${sim.url}/v2/swaps/${result.trackingContext.channelId}`)).json();
    expect(body.deposit).toMatchObject({ amount: ONE_ETH.toString(), txRef: DEPOSIT });
    expect((await adapter.status(statusInput(result.trackingContext), testSignal())).upstreamState).toBe('COMPLETED');
  });

  it('finds the channel a report names by its deposit address alone', async () => {
    const { result } = await openChannel(newAdapter(), ETH, BTC, ONE_ETH);
    const report = await reportDeposit(DEPOSIT, { depositAddress: result.trackingContext.depositAddress });
    expect(report.status).toBe(200);
    expect((await (await fetch(`${sim.url}/v2/swaps/${DEPOSIT}`)).json()).depositChannel.id).toBe(
      result.trackingContext.channelId,
    );
  });

  it('refuses a second report for the same channel, and a report naming no open channel (404)', async () => {
    const { result } = await openChannel(newAdapter(), ETH, BTC, ONE_ETH);
    expect((await reportDeposit(DEPOSIT, result.trackingContext)).status).toBe(200);
    const again = await reportDeposit(`0x${'77'.repeat(32)}`, result.trackingContext);
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ message: 'no swap waits for this deposit' });
    const body = await (await fetch(`${sim.url}/v2/swaps/${result.trackingContext.channelId}`)).json();
    expect(body.deposit.txRef).toBe(DEPOSIT);
    expect((await reportDeposit(DEPOSIT, { channelId: '8399999-Ethereum-424242' })).status).toBe(404);
    expect((await reportDeposit(DEPOSIT, {})).status).toBe(404);
  });

  it('deposits by itself with a hash of its own once autoDepositMs has passed, not before', async () => {
    const adapter = newAdapter();
    sim.configure({ autoDepositMs: 3_600_000 });
    const { result } = await openChannel(adapter, ETH, BTC, ONE_ETH);
    expect((await adapter.status(statusInput(result.trackingContext), testSignal())).upstreamState).toBe('WAITING');
    sim.configure({ autoDepositMs: 0 });
    const deposited = await adapter.status(statusInput(result.trackingContext), testSignal());
    expect(deposited.upstreamState).toBe('RECEIVING');
    expect(deposited.inboundHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await reportDeposit(DEPOSIT, result.trackingContext)).status).toBe(404);
  });

  it('expires when its time is up without a deposit, and takes no deposit after', async () => {
    const shortLived = await startChainflipSimulator({ channelLifetimeMs: 0, defaults: { autoDepositMs: 0 } });
    try {
      const adapter = createChainflipAdapter({ ...adapterOptions(), baseUrl: shortLived.url });
      const { result } = await openChannel(adapter, ETH, BTC, ONE_ETH);
      expect(await adapter.status(statusInput(result.trackingContext), testSignal())).toMatchObject({
        status: 'FAILED',
        upstreamState: 'WAITING',
        substatus: 'EXPIRED',
      });
      const report = await fetch(`${shortLived.url}/__sim/deposits`, {
        method: 'POST',
        body: JSON.stringify({ hash: DEPOSIT, context: result.trackingContext }),
      });
      expect(report.status).toBe(404);
    } finally {
      await shortLived.close();
    }
  });
});

describe('simulator scripts', () => {
  it("scripts Chainflip's own endings, refuses unknown ones, and the latest script for a key wins", async () => {
    const bad = await fetch(`${sim.url}/__sim/chainflip/scripts`, {
      method: 'POST',
      body: JSON.stringify({ scripts: [{ key: BTC_WALLET, outcome: 'exploded' }] }),
    });
    expect(bad.status).toBe(400);
    expect(await scriptOutcome(BTC_WALLET, 'rejected')).toBe(200);
    sim.script(BTC_WALLET, 'refund');
    sim.configure({ settleAfterPolls: 0 });
    const adapter = newAdapter();
    const { result } = await openChannel(adapter, ETH, BTC, ONE_ETH);
    expect(await adapter.status(statusInput(result.trackingContext), testSignal())).toMatchObject({
      status: 'REFUND',
      upstreamState: 'COMPLETED',
    });
  });
});

describe('not-found limiter', () => {
  const unknown = { channelId: '8399999-Ethereum-424242' };

  it('stops asking after 8 not-founds, so the backend never bans this process', async () => {
    const adapter = newAdapter();
    const results: StatusResult[] = [];
    for (let i = 0; i < 12; i++) results.push(await adapter.status(statusInput(unknown), testSignal()));

    expect(sim.log.filter((e) => e.kind === 'status')).toHaveLength(8);
    expect(results.every((r) => r.status === 'PENDING' && r.notFound === true)).toBe(true);
    expect(results.slice(8).map((r) => r.detail)).toEqual(Array(4).fill('backing off: not-found limiter'));

    const careless = newAdapter();
    for (let i = 0; i < 3; i++) expect((await careless.status(statusInput(unknown), testSignal())).notFound).toBe(true);
    expect(await errorKind(careless.status(statusInput(unknown), testSignal()))).toBe('RATE_LIMITED');

    sim.reset();
    expect((await careless.status(statusInput(unknown), testSignal())).notFound).toBe(true);
  });

  it('asks again once the 60 s window has slid past the old not-founds', async () => {
    let now = 1_000_000;
    const adapter = newAdapter({ notFoundGuard: { now: () => now } });
    for (let i = 0; i < 9; i++) await adapter.status(statusInput(unknown), testSignal());
    expect(sim.log).toHaveLength(8);
    now += 60_001;
    expect((await adapter.status(statusInput(unknown), testSignal())).detail).not.toContain('backing off');
    expect(sim.log).toHaveLength(9);
  });

  it('the simulator bans a client past the limit, per client, and lifts the ban after banMs', async () => {
    const limited = await startChainflipSimulator({ notFoundLimit: { windowMs: 60_000, maxNotFounds: 2, banMs: 250 } });
    try {
      const get = (client: string) =>
        fetch(`${limited.url}/v2/swaps/1-Ethereum-1`, { headers: { 'cf-connecting-ip': client } });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await get('10.0.0.1')).status);
      expect(statuses).toEqual([404, 404, 404, 429]);
      expect(await (await get('10.0.0.1')).json()).toEqual({ message: 'Too many requests, please try again later' });
      expect((await get('10.0.0.2')).status).toBe(404);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await get('10.0.0.1')).status).toBe(404);
    } finally {
      await limited.close();
    }
  });

  it('the simulator window slides: spaced not-founds never ban', async () => {
    const limited = await startChainflipSimulator({ notFoundLimit: { windowMs: 100, maxNotFounds: 2 } });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        statuses.push((await fetch(`${limited.url}/v2/swaps/abc`)).status);
        statuses.push((await fetch(`${limited.url}/v2/swaps/abc`)).status);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      expect(statuses).toEqual(Array(6).fill(404));
    } finally {
      await limited.close();
    }
  });
});

describe('simulator wire format', () => {
  it('answers quote refusals with {message} and 400', async () => {
    const tooSmall = await fetch(
      `${sim.url}/v2/quote?srcChain=Ethereum&srcAsset=ETH&destChain=Bitcoin&destAsset=BTC&amount=1000`,
    );
    expect(tooSmall.status).toBe(400);
    expect((await tooSmall.json()).message).toMatch(/^expected amount is below minimum swap amount \(\d+\)$/);
    const unknown = await fetch(
      `${sim.url}/v2/quote?srcChain=Ethereum&srcAsset=DOGE&destChain=Bitcoin&destAsset=BTC&amount=1000`,
    );
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ message: 'invalid request' });
  });

  it('refuses an invalid channel body the way ts-rest does', async () => {
    const response = await fetch(`${sim.url}/api/openSwapDepositChannel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ srcAsset: { asset: 'ETH', chain: 'Ethereum' } }),
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.bodyErrors.issues.length).toBeGreaterThan(0);
  });

  it('finds a swap by its numeric swap id once it is swapping, and 404s unknown ids', async () => {
    sim.configure({ settleAfterPolls: 3 });
    const adapter = newAdapter();
    const { result } = await openChannel(adapter, ETH, BTC, ONE_ETH);
    const channelUrl = `${sim.url}/v2/swaps/${result.trackingContext.channelId}`;
    const receiving = await (await fetch(channelUrl)).json();
    expect(receiving.state).toBe('RECEIVING');
    expect(receiving).not.toHaveProperty('swapId');
    await fetch(channelUrl);
    const sending = await (await fetch(channelUrl)).json();
    expect(sending.state).toBe('SENDING');
    const bySwapId = await fetch(`${sim.url}/v2/swaps/${sending.swapId}`);
    expect(bySwapId.status).toBe(200);
    expect((await bySwapId.json()).depositChannel.id).toBe(result.trackingContext.channelId);
    const missing = await fetch(`${sim.url}/v2/swaps/99999999`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'resource not found' });
  });

  it('answers a rejected deposit the way getSwapState does: FAILED, no swap id, the refund egress inside', async () => {
    sim.configure({ settleAfterPolls: 3 });
    sim.script(BTC_WALLET, 'rejected');
    const { result } = await openChannel(newAdapter(), ETH, BTC, ONE_ETH);
    const channelUrl = `${sim.url}/v2/swaps/${result.trackingContext.channelId}`;
    await fetch(channelUrl);
    const rejected = await (await fetch(channelUrl)).json();
    expect(rejected).toMatchObject({
      state: 'FAILED',
      fees: [],
      deposit: {
        amount: ONE_ETH.toString(),
        failure: {
          mode: 'DEPOSIT_REJECTED',
          reason: { name: 'TransactionRejectedByBroker', message: 'The deposit was rejected by the broker' },
        },
      },
      swap: { originalInputAmount: ONE_ETH.toString(), swappedOutputAmount: '0' },
      refundEgress: { amount: ONE_ETH.toString(), scheduledAt: expect.any(Number) },
    });
    expect(rejected).not.toHaveProperty('swapId');
    expect(rejected.deposit).not.toHaveProperty('witnessedAt');
    expect(rejected.refundEgress).not.toHaveProperty('txRef');
    const sent = await (await fetch(channelUrl)).json();
    expect(sent.refundEgress.txRef).toMatch(/^0x[0-9a-f]{64}$/);
    expect(sent.refundEgress).not.toHaveProperty('witnessedAt');
  });
});

describe('api key', () => {
  it('sends x-api-key only when configured', async () => {
    await createChainflipAdapter(adapterOptions('cf-key-1')).quote(quoteInput(ETH, BTC, ONE_ETH), testSignal());
    expect(sim.log.at(-1)?.headers['x-api-key']).toBe('cf-key-1');
    await newAdapter().quote(quoteInput(ETH, BTC, ONE_ETH), testSignal());
    expect(sim.log.at(-1)?.headers['x-api-key']).toBeUndefined();
  });

  it('polls at the State Chain cadence', () => {
    expect(newAdapter().pollIntervalMs).toBe(6_000);
  });
});

describe('minPriceX128 (SDK vectors from functions.test.ts)', () => {
  it.each([
    ['25.02922538655223706836', 150, 8, 18, '83892489958826316385497263710123985244108278726772'],
    ['2458.206', 0, 18, 6, '836484156059252456516448240236'],
    ['600', 0, 18, 10, '2041694201525630780780247644590609'],
    ['0', 100, 18, 6, '0'],
  ])('price %s less %i bps', (price, slippage, srcDecimals, destDecimals, expected) => {
    expect(minPriceX128(price, slippage, srcDecimals, destDecimals)).toBe(expected);
  });

  it('refuses a price in exponent form', () => {
    expect(() => minPriceX128('1e5', 100, 18, 6)).toThrow(RangeError);
  });
});

describe('mapSwapStatus', () => {
  const map = (body: SwapStatusInput) => mapSwapStatus(swapStatusSchema.parse(body));
  const channel = {
    id: '86-Ethereum-85',
    depositAddress: '0x6aa69332b63bb5b1d7ca5355387edd5624e181f2',
    isExpired: false,
  };
  const deposit = { amount: '5000000000000000000', txRef: '0xabc1', witnessedAt: 552000 };
  const swapDone = { originalInputAmount: '4999949999999650000', swappedOutputAmount: '4192904666034' };

  // Copied: swap snapshot "retrieves a swap in COMPLETED status".
  const completed = {
    brokers: [],
    deposit: { amount: '5000000000000000000', witnessedAt: 552000, witnessedBlockIndex: '92-400' },
    depositChannel: {
      createdAt: 516000,
      depositAddress: '0x6aa69332b63bb5b1d7ca5355387edd5624e181f2',
      estimatedExpiryTime: 1640998260000,
      id: '86-Ethereum-85',
      isExpired: false,
      openedThroughBackend: false,
      srcChainExpiryBlock: '265',
    },
    destAddress: '1yMmfLti1k3huRQM2c47WugwonQMqTvQ2GUFxnU7Pcs7xPo',
    destAsset: 'DOT',
    destChain: 'Assethub',
    estimatedDurationSeconds: 127.5,
    estimatedDurationsSeconds: { deposit: 24, egress: 91.5, swap: 12 },
    fees: [
      { amount: '4556242', asset: 'USDC', chain: 'Ethereum', type: 'NETWORK' },
      { amount: '45516860', asset: 'USDC', chain: 'Ethereum', type: 'BROKER' },
      { amount: '50000000350000', asset: 'ETH', chain: 'Ethereum', type: 'INGRESS' },
      { amount: '197450000', asset: 'DOT', chain: 'Assethub', type: 'EGRESS' },
    ],
    fillOrKillParams: { minPrice: '0', refundAddress: '0x2afba9…', retryDurationBlocks: 100 },
    lastStatechainUpdateAt: 1640995200000,
    srcAsset: 'ETH',
    srcChain: 'Ethereum',
    srcChainRequiredBlockConfirmations: 2,
    state: 'COMPLETED' as const,
    swap: {
      originalInputAmount: '4999949999999650000',
      remainingInputAmount: '0',
      swappedInputAmount: '4999949999999650000',
      swappedIntermediateAmount: '4506169140',
      swappedOutputAmount: '4192904666034',
      regular: { '…': '…' },
    },
    swapEgress: {
      amount: '4192707216034',
      scheduledAt: 564000,
      scheduledBlockIndex: '94-595',
      txRef: '104-2',
      witnessedAt: 624000,
      witnessedBlockIndex: '104-7',
    },
  };

  // Copied: swap snapshot "retrieves a swap with FillOrKillParams in COMPLETED".
  const refunded = {
    depositChannel: {
      id: '86-Ethereum-85',
      depositAddress: '0x6aa69332b63bb5b1d7ca5355387edd5624e181f2',
      isExpired: false,
      '…': '…',
    },
    fees: [
      { amount: '50000000350000', asset: 'ETH', chain: 'Ethereum', type: 'INGRESS' },
      { amount: '105000000490000', asset: 'ETH', chain: 'Ethereum', type: 'EGRESS' },
      { amount: '2658298', asset: 'ETH', chain: 'Ethereum', type: 'REFUND' },
    ],
    refundEgress: {
      amount: '999844999999160000',
      scheduledAt: 564000,
      scheduledBlockIndex: '94-594',
      txRef: '0xd2398250c9fa869f0eb7659015549ed46178c95cedd444c3539f655068f6a7d9',
      witnessedAt: 624000,
      witnessedBlockIndex: '104-7',
    },
    srcAsset: 'ETH',
    srcChain: 'Ethereum',
    destAsset: 'DOT',
    destChain: 'Assethub',
    state: 'COMPLETED' as const,
    swap: {
      originalInputAmount: '4999949999999650000',
      remainingInputAmount: '4999949999999650000',
      swappedInputAmount: '0',
      swappedIntermediateAmount: '0',
      swappedOutputAmount: '0',
    },
    swapId: '368',
  };

  it('COMPLETED with swapEgress -> SUCCESS (copied sample)', () => {
    const result = map(completed);
    expect(result).toMatchObject({
      status: 'SUCCESS',
      upstreamState: 'COMPLETED',
      outboundHash: '104-2',
      dstAmountBase: 4192707216034n,
    });
    expect(result.inboundHash).toBeUndefined();
    expect(result.fee).toMatchObject({ amount: '50.073102', currency: 'USDC', amountUsd: null });
    expect(result.fee?.details).toHaveLength(4);
  });

  it('COMPLETED with refundEgress, a REFUND fee and zero output -> REFUND (copied sample)', () => {
    expect(map(refunded)).toMatchObject({
      status: 'REFUND',
      outboundHash: '0xd2398250c9fa869f0eb7659015549ed46178c95cedd444c3539f655068f6a7d9',
      fee: { currency: 'ETH', amount: '0.000155000003498298' },
    });
  });

  it('COMPLETED with only a REFUND fee and zero output (no egress yet reported) -> REFUND', () => {
    const { refundEgress: _omitted, ...body } = refunded;
    expect(map(body)).toMatchObject({ status: 'REFUND', outboundHash: undefined });
  });

  it('COMPLETED with both egresses (partial DCA refund) -> SUCCESS, PARTIAL, with the refund reference', () => {
    const result = map({ ...completed, refundEgress: refunded.refundEgress });
    expect(result).toMatchObject({
      status: 'SUCCESS',
      substatus: 'PARTIAL',
      outboundHash: '104-2',
      partial: { refundHash: refunded.refundEgress.txRef },
    });
    expect(result.detail).toContain(refunded.refundEgress.txRef);
  });

  it('COMPLETED with the payout witnessed and the refund still in flight -> PENDING, refund in progress', () => {
    const { witnessedAt: _w, witnessedBlockIndex: _b, ...inFlight } = refunded.refundEgress;
    expect(map({ ...completed, refundEgress: inFlight })).toMatchObject({
      status: 'PENDING',
      substatus: 'REFUND_IN_PROGRESS',
      outboundHash: '104-2',
    });
  });

  it('COMPLETED with the payout witnessed and the refund broadcast aborted -> SUCCESS, PARTIAL, nothing refunded', () => {
    const { witnessedAt: _w, witnessedBlockIndex: _b, txRef: _t, ...scheduled } = refunded.refundEgress;
    const aborted = {
      ...scheduled,
      failure: {
        mode: 'SENDING_FAILED',
        reason: { name: 'BroadcastAborted', message: 'The refund broadcast was aborted' },
      },
    };
    expect(map({ ...completed, refundEgress: aborted })).toMatchObject({
      status: 'SUCCESS',
      substatus: 'PARTIAL',
      outboundHash: '104-2',
      detail: 'Swap completed; the refund of the unswapped part failed: The refund broadcast was aborted',
      partial: { refunded: 'nothing' },
    });
  });

  it.each(['SENDING', 'SENT'] as const)(
    '%s with a refund egress alone is a refund in progress, not a payout',
    (state) => {
      const refundEgress = { amount: '100', scheduledAt: 564000, ...(state === 'SENT' ? { txRef: '0xrefund' } : {}) };
      const result = map({ state, depositChannel: channel, deposit, swap: swapDone, refundEgress, fees: [] });
      expect(result).toMatchObject({ status: 'PENDING', substatus: 'REFUND_IN_PROGRESS' });
      expect(result.detail).not.toMatch(/payout/i);
      expect(result.outboundHash).toBe(state === 'SENT' ? '0xrefund' : undefined);
    },
  );

  it.each(['RECEIVING', 'SWAPPING', 'SENDING', 'SENT'] as const)('%s -> PENDING', (state) => {
    const result = map({ state, depositChannel: channel, deposit, swap: swapDone, fees: [] });
    expect(result).toMatchObject({ status: 'PENDING', upstreamState: state, inboundHash: '0xabc1' });
    expect(result.outboundHash).toBeUndefined();
  });

  it('WAITING -> PENDING, and WAITING on an expired channel -> FAILED', () => {
    expect(map({ state: 'WAITING', depositChannel: channel, fees: [] }).status).toBe('PENDING');
    expect(map({ state: 'WAITING', depositChannel: { ...channel, isExpired: true }, fees: [] })).toMatchObject({
      status: 'FAILED',
      detail: 'The deposit channel expired without a deposit',
    });
  });

  it('FAILED -> FAILED with the egress failure reason', () => {
    const swapEgress = {
      amount: '100',
      failure: {
        mode: 'SENDING_FAILED',
        reason: { name: 'BroadcastAborted', message: 'The swap broadcast was aborted' },
      },
    };
    expect(map({ state: 'FAILED', deposit, swap: swapDone, swapEgress, fees: [] })).toMatchObject({
      status: 'FAILED',
      detail: 'The swap broadcast was aborted',
    });
  });

  it('FAILED with a witnessed refundEgress -> REFUND; an unwitnessed one is a refund in progress', () => {
    const witnessed = { amount: '100', txRef: '0xrefund', witnessedAt: 624000 };
    expect(map({ state: 'FAILED', deposit, refundEgress: witnessed, fees: [] })).toMatchObject({
      status: 'REFUND',
      outboundHash: '0xrefund',
    });
    const { witnessedAt: _w, ...pending } = witnessed;
    expect(map({ state: 'FAILED', deposit, refundEgress: pending, fees: [] })).toMatchObject({
      status: 'PENDING',
      substatus: 'REFUND_IN_PROGRESS',
      outboundHash: '0xrefund',
    });
  });

  // Copied: swap.test.ts "retrieves a swap in FAILED status (deposit failed w/ refund)", trimmed.
  const rejectedDeposit = {
    deposit: {
      amount: '1000000',
      failedAt: 21689748000,
      failedBlockIndex: '3614958-465',
      failure: {
        failedAt: 21689748000,
        failedBlockIndex: '3614958-465',
        mode: 'DEPOSIT_REJECTED',
        reason: { message: 'The deposit was rejected by the broker', name: 'TransactionRejectedByBroker' },
      },
      txRef: '9dccc57dc24a62635e946b06629a01646741e728edeacfed0e30d9638e82b378',
    },
    destAsset: 'ETH',
    destChain: 'Ethereum',
    fees: [],
    refundEgress: {
      amount: '1000000',
      scheduledAt: 21689748000,
      scheduledBlockIndex: '3614958-1117',
      txRef: '7cc616d54e33a2f7685186994120eb32b6fcbdc2344b4238db5115f6b2cf3277',
      witnessedAt: 21690432000,
      witnessedBlockIndex: '3615072-1060',
    },
    srcAsset: 'BTC',
    srcChain: 'Bitcoin',
    state: 'FAILED' as const,
    swap: {
      originalInputAmount: '1000000',
      remainingInputAmount: '1000000',
      swappedInputAmount: '0',
      swappedIntermediateAmount: '0',
      swappedOutputAmount: '0',
    },
  };

  it('a rejected deposit: REFUND once its refund is witnessed (copied sample), a refund in progress before', () => {
    expect(map(rejectedDeposit)).toMatchObject({
      status: 'REFUND',
      substatus: 'REFUNDED',
      inboundHash: rejectedDeposit.deposit.txRef,
      outboundHash: rejectedDeposit.refundEgress.txRef,
    });
    const { witnessedAt: _w, witnessedBlockIndex: _b, ...sent } = rejectedDeposit.refundEgress;
    expect(map({ ...rejectedDeposit, refundEgress: sent })).toMatchObject({
      status: 'PENDING',
      substatus: 'REFUND_IN_PROGRESS',
      outboundHash: sent.txRef,
      reason: 'The deposit was rejected by the broker',
    });
    const { txRef: _t, ...scheduled } = sent;
    expect(map({ ...rejectedDeposit, refundEgress: scheduled })).toMatchObject({
      status: 'PENDING',
      substatus: 'REFUND_IN_PROGRESS',
    });
    const { refundEgress: _r, ...noEgressYet } = rejectedDeposit;
    expect(map(noEgressYet)).toMatchObject({ status: 'PENDING', reason: 'The deposit was rejected by the broker' });
    const { reason: _why, ...unexplained } = rejectedDeposit.deposit.failure;
    expect(map({ ...noEgressYet, deposit: { ...rejectedDeposit.deposit, failure: unexplained } })).toMatchObject({
      substatus: 'REFUND_IN_PROGRESS',
      reason: 'The deposit was rejected',
    });
  });

  it('FAILED stays FAILED where Chainflip reports that no refund follows and nothing was paid out', () => {
    const { refundEgress: _r, ...noRefund } = rejectedDeposit;
    const ignored = { ...noRefund.deposit, failure: { ...noRefund.deposit.failure, mode: 'DEPOSIT_IGNORED' } };
    expect(map({ ...noRefund, deposit: ignored })).toMatchObject({
      status: 'FAILED',
      detail: 'The deposit was rejected by the broker',
    });
    // Copied: snapshot "retrieves multiple DCA swaps in FAILED status if refund egress fails but swap completes".
    const refundIgnored = {
      amount: '999844999999160000',
      failedAt: 624000,
      failedBlockIndex: '104-1',
      failure: {
        failedAt: 624000,
        failedBlockIndex: '104-1',
        mode: 'REFUND_OUTPUT_TOO_SMALL',
        reason: {
          message: 'The amount is below the minimum egress amount.',
          name: 'ethereumIngressEgress.BelowEgressDustLimit',
        },
      },
      scheduledAt: 564000,
      scheduledBlockIndex: '94-594',
    };
    // With the payout delivered, the swapper was paid: only the dust remainder did not come back.
    expect(map({ ...completed, state: 'FAILED', refundEgress: refundIgnored })).toMatchObject({
      status: 'SUCCESS',
      substatus: 'PARTIAL',
      detail:
        'Swap completed; the unswapped remainder could not be refunded: The amount is below the minimum egress amount.',
      partial: { refunded: 'nothing' },
    });
    const { swapEgress: _payout, ...noPayout } = completed;
    expect(map({ ...noPayout, state: 'FAILED', refundEgress: refundIgnored })).toMatchObject({
      status: 'FAILED',
      detail: 'The amount is below the minimum egress amount.',
    });
  });

  it('rejects an unknown state as a schema mismatch', () => {
    expect(swapStatusSchema.safeParse({ state: 'EXPLODED', fees: [] }).success).toBe(false);
  });
});
