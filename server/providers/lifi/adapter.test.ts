import { toFunctionSelector } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { providerErrorKind as errorKind, quoteFaultContract } from '../../../test/support/adapter-contract';
import { routeAsset, testSignal } from '../../../test/support/route-assets';

import type { RunningSimulator } from '../simulator-kit';
import type { ExecuteInput, ProviderAdapter, ProviderRoute, QuoteInput, RouteAsset, StatusResult } from '../types';
import { createLifiAdapter, LIFI_POLL_INTERVAL_MS, lifiTokenAddress, rankRoutes } from './adapter';
import { LIFI_DIAMOND_ADDRESS, startLifiSimulator } from './simulator';
import { mapLifiStatus } from './status';
import { type LifiRoute, type LifiStatusResponse, routesResponseSchema, statusResponseSchema } from './wire';

const DEPOSITOR = '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0';
const RECIPIENT = '0x9f5E2B1f5Fa4D5a3b8ab7A0FB0e4c6dD1A2b3C4D';
const SOURCE_HASH = `0x${'ab'.repeat(32)}`;
const ETH = 10n ** 18n;
const USDC_ETHEREUM = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';

let sim: RunningSimulator;
let adapter: ProviderAdapter;

const adapterOptions = (apiKey?: string) => ({
  config: { key: 'LIFI' as const, enabled: true, baseUrl: sim.url, apiKey, deadlineMs: 2500 },
  baseUrl: sim.url,
});

beforeAll(async () => {
  sim = await startLifiSimulator({ port: 0 });
  adapter = createLifiAdapter(adapterOptions());
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const quoteInput = (src: RouteAsset, dst: RouteAsset, amountBase: bigint, extra: Partial<QuoteInput> = {}) => ({
  src,
  dst,
  amountBase,
  slippageBps: 50,
  depositor: DEPOSITOR,
  recipient: RECIPIENT,
  ...extra,
});

const executeInput = (input: QuoteInput, route: ProviderRoute): ExecuteInput => ({
  ...input,
  depositor: DEPOSITOR,
  recipient: RECIPIENT,
  routeId: route.routeId,
  providerQuote: route.providerQuote,
  transactionId: 'tx_test',
});

async function routeFor(input: QuoteInput, routeId: string): Promise<ProviderRoute> {
  const routes = await adapter.quote(input, testSignal());
  const route = routes.find((r) => r.routeId === routeId);
  if (!route) throw new Error(`no ${routeId} among ${routes.map((r) => r.routeId).join(', ')}`);
  return route;
}

const ethOnEthereum = () => routeAsset('ethereum', 'ETH');
const usdcOnArbitrum = () => routeAsset('arbitrum', 'USDC');

describe('supports', () => {
  it('takes EVM sources to any chain LI.FI names', () => {
    expect(adapter.supports(ethOnEthereum(), usdcOnArbitrum())).toBe(true);
    expect(adapter.supports(routeAsset('base', 'USDC'), routeAsset('solana', 'SOL'))).toBe(true);
    expect(adapter.supports(routeAsset('ethereum', 'USDC'), routeAsset('bitcoin', 'BTC'))).toBe(true);
  });

  it('refuses non-EVM sources, chains without a LI.FI id and same-asset pairs', () => {
    expect(adapter.supports(routeAsset('solana', 'SOL'), ethOnEthereum())).toBe(false);
    expect(adapter.supports(routeAsset('bitcoin', 'BTC'), ethOnEthereum())).toBe(false);
    expect(adapter.supports(ethOnEthereum(), routeAsset('ton', 'TON'))).toBe(false);
    expect(adapter.supports(ethOnEthereum(), routeAsset('litecoin', 'LTC'))).toBe(false);
    expect(adapter.supports(ethOnEthereum(), ethOnEthereum())).toBe(false);
  });

  it('names natives the way LI.FI does', () => {
    expect(lifiTokenAddress(ethOnEthereum())).toBe('0x0000000000000000000000000000000000000000');
    expect(lifiTokenAddress(routeAsset('solana', 'SOL'))).toBe('11111111111111111111111111111111');
    expect(lifiTokenAddress(routeAsset('bitcoin', 'BTC'))).toBe('bitcoin');
    expect(lifiTokenAddress(routeAsset('solana', 'USDC'))).toBe('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
  });

  it('polls at the SDK cadence', () => {
    expect(adapter.pollIntervalMs).toBe(LIFI_POLL_INTERVAL_MS);
    expect(LIFI_POLL_INTERVAL_MS).toBe(5_000);
  });
});

describe('quote', () => {
  it('returns one route per single-transaction LI.FI route, with amounts, fees, steps and time', async () => {
    const routes = await adapter.quote(quoteInput(ethOnEthereum(), usdcOnArbitrum(), ETH), testSignal());

    // LI.FI also offers uniswap+stargate here: two steps, two transactions — not offered (see rankRoutes).
    expect(routes.map((r) => r.routeId)).toEqual(['lifi:across']);
    const [across] = routes as [ProviderRoute];
    // 1 ETH at the seed price of 3200 USDC, less LI.FI's 0.25% and the bridge fee.
    const usdc = Number(across.dstAmountBase) / 1e6;
    expect(usdc).toBeGreaterThan(3150);
    expect(usdc).toBeLessThan(3200);
    // The simulator applies the slippage it was sent: 50 bps must arrive as 0.005.
    expect(across.dstMinAmountBase).toBe((across.dstAmountBase * 9950n) / 10_000n);
    expect(across.srcUsd).toBe('3200.00');
    expect(Number(across.dstUsd)).toBeCloseTo(usdc, 1);
    expect(across.estimatedTimeSeconds).toBe(60);
    expect(across.steps).toEqual([{ type: 'bridge', name: 'Across', image: expect.stringContaining('across') }]);
    expect(across.fee.currency).toBe('USD');
    expect(across.fee.details.map((d) => d.label)).toEqual(['LIFI Fixed Fee', 'Across bridge fee', 'Network gas']);
    const lifiFee = across.fee.details[0];
    expect(lifiFee).toMatchObject({ type: 'provider', amount: '0.0025', currency: 'ETH', amountUsd: 8 });
    const itemsUsd = across.fee.details.reduce((sum, d) => sum + (d.amountUsd ?? 0), 0);
    expect(Number(across.fee.usd)).toBeCloseTo(itemsUsd, 2);
    expect(across.fee.formatted).toBe(`$${across.fee.usd}`);
    for (const route of routes) expect(JSON.parse(JSON.stringify(route.providerQuote))).toEqual(route.providerQuote);
  });

  it('offers single-step routes of any tool (a USDC source bridges by Stargate in one step)', async () => {
    const routes = await adapter.quote(
      quoteInput(routeAsset('ethereum', 'USDC'), usdcOnArbitrum(), 5_000_000_000n),
      testSignal(),
    );
    expect(routes.map((r) => r.routeId)).toEqual(['lifi:across', 'lifi:stargate']);
  });

  it('keeps the route id for the same path while LI.FI route ids change', async () => {
    const input = quoteInput(ethOnEthereum(), usdcOnArbitrum(), ETH);
    const first = await adapter.quote(input, testSignal());
    const second = await adapter.quote(input, testSignal());
    expect(second.map((r) => r.routeId)).toEqual(first.map((r) => r.routeId));
    expect(second[0]?.providerQuote.lifiRouteId).not.toBe(first[0]?.providerQuote.lifiRouteId);
  });

  it('quotes a same-chain swap with one route', async () => {
    const routes = await adapter.quote(
      quoteInput(routeAsset('ethereum', 'USDC'), ethOnEthereum(), 3_200_000_000n),
      testSignal(),
    );
    expect(routes.map((r) => r.routeId)).toEqual(['lifi:1inch']);
    expect(routes[0]?.steps).toEqual([{ type: 'swap', name: '1inch', image: expect.any(String) }]);
    const eth = Number(routes[0]?.dstAmountBase) / 1e18;
    expect(eth).toBeGreaterThan(0.99);
    expect(eth).toBeLessThan(1);
  });

  it.each([
    ['solana', 'SOL', 9],
    ['bitcoin', 'BTC', 8],
  ])('reaches %s %s with LI.FI token names', async (chain, symbol, decimals) => {
    const dst = routeAsset(chain, symbol);
    const routes = await adapter.quote(quoteInput(routeAsset('ethereum', 'USDC'), dst, 10_000_000_000n), testSignal());
    expect(routes.length).toBeGreaterThan(0);
    const usd = (Number(routes[0]?.dstAmountBase) / 10 ** decimals) * Number(dst.priceUsd);
    expect(usd).toBeGreaterThan(9_900);
    expect(usd).toBeLessThan(10_000);
  });

  it('answers [] when LI.FI lists no route (unknown token, amount too low)', async () => {
    const unknown = { ...usdcOnArbitrum(), address: '0x000000000000000000000000000000000000dEaD' };
    expect(await adapter.quote(quoteInput(ethOnEthereum(), unknown, ETH), testSignal())).toEqual([]);
    expect(
      await adapter.quote(quoteInput(routeAsset('ethereum', 'USDC'), usdcOnArbitrum(), 10n), testSignal()),
    ).toEqual([]);
  });

  it('ranks by delivered amount, drops repeated paths and keeps at most three', async () => {
    const response = await fetch(`${sim.url}/v1/advanced/routes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        fromChainId: 1,
        fromAmount: ETH.toString(),
        fromTokenAddress: '0x0000000000000000000000000000000000000000',
        toChainId: 42161,
        toTokenAddress: usdcOnArbitrum().address,
      }),
    });
    const { routes } = routesResponseSchema.parse(await response.json());
    const [across, stargate] = routes as [LifiRoute, LifiRoute];
    expect(stargate.steps).toHaveLength(2);
    expect(rankRoutes([stargate, across]).map((r) => r.routeId)).toEqual(['lifi:across']);
    const oneStep = { ...stargate, steps: stargate.steps.slice(1), toAmount: '1' };
    expect(rankRoutes([oneStep, across]).map((r) => r.routeId)).toEqual(['lifi:across', 'lifi:stargate']);
    expect(rankRoutes([across, { ...across, toAmount: '1' }]).map((r) => r.dstAmountBase)).toEqual([
      BigInt(across.toAmount),
    ]);
    const retooled = (tool: string, toAmount: string): LifiRoute => ({
      ...across,
      toAmount,
      steps: [{ ...(across.steps[0] as LifiRoute['steps'][number]), tool }],
    });
    const many = [retooled('a', '1'), retooled('b', '4'), retooled('c', '3'), retooled('d', '2')];
    expect(rankRoutes(many).map((r) => r.routeId)).toEqual(['lifi:b', 'lifi:c', 'lifi:d']);
  });
});

describe('upstream faults', () => {
  quoteFaultContract(
    () => sim,
    (signal) => adapter.quote(quoteInput(ethOnEthereum(), usdcOnArbitrum(), ETH), signal),
  );

  it.each([
    ['error5xx', 'UNAVAILABLE'],
    ['ratelimit', 'RATE_LIMITED'],
    ['malformed', 'BAD_RESPONSE'],
  ] as const)('%s on stepTransaction is %s', async (fault, kind) => {
    const input = quoteInput(ethOnEthereum(), usdcOnArbitrum(), ETH);
    const route = await routeFor(input, 'lifi:across');
    sim.configure({ faults: { execute: fault } });
    expect(await errorKind(adapter.execute(executeInput(input, route), testSignal()))).toBe(kind);
  });

  it.each([
    ['error5xx', 'UNAVAILABLE'],
    ['ratelimit', 'RATE_LIMITED'],
    ['redirect', 'BAD_RESPONSE'],
  ] as const)('%s on status is %s', async (fault, kind) => {
    sim.configure({ faults: { status: fault } });
    const status = adapter.status(
      {
        trackingContext: { fromChainId: 1, toChainId: 42161, bridge: 'across' },
        hash: SOURCE_HASH,
        inboundHash: SOURCE_HASH,
        src: ethOnEthereum(),
        dst: usdcOnArbitrum(),
        createdAt: new Date(),
        depositor: DEPOSITOR,
        recipient: RECIPIENT,
        srcAmountBase: ETH,
      },
      testSignal(),
    );
    expect(await errorKind(status)).toBe(kind);
  });
});

describe('execute', () => {
  const bridgeSelector = toFunctionSelector(
    'startBridgeTokensViaAcross((bytes32,string,string,address,address,address,uint256,uint256,bool,bool))',
  );
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

  it('builds wallet calldata for a native source without an approval', async () => {
    const input = quoteInput(ethOnEthereum(), usdcOnArbitrum(), ETH);
    const route = await routeFor(input, 'lifi:across');
    const result = await adapter.execute(executeInput(input, route), testSignal());
    const firstStep = (route.providerQuote.steps as { id: string }[])[0];

    const { exec } = result;
    expect(exec).toBeDefined();
    expect(exec?.chainId).toBe(1);
    expect(exec?.providerTarget).toBe(LIFI_DIAMOND_ADDRESS);
    expect(exec?.providerCalldata?.startsWith(bridgeSelector)).toBe(true);
    expect(exec?.providerCalldata).toContain(RECIPIENT.slice(2).toLowerCase());
    expect(exec?.value).toBe('1000000000000000000');
    expect(exec?.srcToken).toBe('native');
    expect(exec?.srcAmount).toBe(ETH.toString());
    expect(exec?.approvalTarget).toBeUndefined();
    expect(exec?.approvalToken).toBeUndefined();
    expect(exec?.allSteps).toBeUndefined();
    expect(exec?.meta).toEqual({
      providerQuoteId: firstStep?.id,
      selectedQuoteId: route.providerQuote.lifiRouteId,
      executionMode: 'evm-calldata',
      walletExecution: true,
    });
    expect(result.providerResult).toEqual({
      status: 'AWAITING_WALLET',
      requestId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      execution: 'evm-calldata',
    });
    expect(result.trackingContext).toEqual({
      fromChainId: 1,
      toChainId: 42161,
      bridge: 'across',
      transactionId: result.providerResult.requestId,
    });
    expect(result.dstAmountBase).toBe(route.dstAmountBase);
  });

  it('asks for an ERC-20 approval to the LI.FI diamond for a token source', async () => {
    const input = quoteInput(routeAsset('ethereum', 'USDC'), routeAsset('arbitrum', 'ETH'), 5_000_000_000n);
    const route = await routeFor(input, 'lifi:across');
    const { exec } = await adapter.execute(executeInput(input, route), testSignal());
    expect(exec).toMatchObject({
      chainId: 1,
      providerTarget: LIFI_DIAMOND_ADDRESS,
      value: '0',
      srcToken: USDC_ETHEREUM,
      srcAmount: '5000000000',
      approvalTarget: LIFI_DIAMOND_ADDRESS,
      approvalToken: USDC_ETHEREUM,
      approvalAmount: '5000000000',
    });
  });

  it('reports the minimum its calldata enforces', async () => {
    const input = quoteInput(ethOnEthereum(), usdcOnArbitrum(), ETH);
    const route = await routeFor(input, 'lifi:across');
    const result = await adapter.execute(executeInput(input, route), testSignal());
    expect(result.dstMinAmountBase).toBe(route.dstMinAmountBase);
  });

  it('fills the wallet addresses when the quote had none', async () => {
    const input = quoteInput(ethOnEthereum(), usdcOnArbitrum(), ETH, { depositor: undefined, recipient: undefined });
    const route = await routeFor(input, 'lifi:across');
    const result = await adapter.execute(executeInput(input, route), testSignal());
    expect(result.exec?.providerCalldata).toContain(RECIPIENT.slice(2).toLowerCase());
  });

  it('keeps raw provider payloads out of exec.meta', async () => {
    const input = quoteInput(ethOnEthereum(), usdcOnArbitrum(), ETH);
    for (const routeId of ['lifi:across']) {
      const { exec } = await adapter.execute(executeInput(input, await routeFor(input, routeId)), testSignal());
      for (const key of Object.keys(exec?.meta ?? {})) expect(META_KEYS).toContain(key);
      const meta = JSON.stringify(exec?.meta);
      for (const raw of ['transactionRequest', 'estimate', 'action', 'includedSteps', DEPOSITOR]) {
        expect(meta).not.toContain(raw);
      }
    }
  });

  it('refuses a locked quote without steps as a route that is gone', async () => {
    const input = quoteInput(ethOnEthereum(), usdcOnArbitrum(), ETH);
    const route = await routeFor(input, 'lifi:across');
    const broken = { ...route, providerQuote: { lifiRouteId: 'x', steps: [] } };
    expect(await errorKind(adapter.execute(executeInput(input, broken), testSignal()))).toBe('NO_ROUTE');
  });
});

async function reportDeposit(hash: string, context: Record<string, unknown>) {
  const response = await fetch(`${sim.url}/__sim/deposits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ hash, context }),
  });
  return response.status;
}

const statusOf = (trackingContext: Record<string, unknown>, hash: string) =>
  adapter.status(
    {
      trackingContext,
      hash,
      inboundHash: hash,
      src: ethOnEthereum(),
      dst: usdcOnArbitrum(),
      createdAt: new Date(),
      depositor: DEPOSITOR,
      recipient: RECIPIENT,
      srcAmountBase: ETH,
    },
    testSignal(),
  );

async function executedAcross() {
  const input = quoteInput(ethOnEthereum(), usdcOnArbitrum(), ETH);
  return adapter.execute(executeInput(input, await routeFor(input, 'lifi:across')), testSignal());
}

describe('status end to end', () => {
  /** Executed, and its deposit of SOURCE_HASH seen by the simulated chain. */
  async function executed() {
    const execution = await executedAcross();
    expect(await reportDeposit(SOURCE_HASH, execution.trackingContext)).toBe(200);
    return execution;
  }

  async function pollUntilFinal(trackingContext: Record<string, unknown>): Promise<StatusResult[]> {
    const seen: StatusResult[] = [];
    for (let i = 0; i < 10; i++) {
      const result = await statusOf(trackingContext, SOURCE_HASH);
      seen.push(result);
      if (result.status !== 'PENDING') return seen;
    }
    throw new Error(`never settled: ${seen.map((s) => s.upstreamState).join(' → ')}`);
  }

  it('walks a success to SUCCESS with the destination hash and delivered amount', async () => {
    sim.configure({ outcome: 'success' });
    const execution = await executed();
    const seen = await pollUntilFinal(execution.trackingContext);
    expect(seen.map((s) => s.upstreamState)).toEqual([
      'NOT_FOUND',
      'PENDING/WAIT_SOURCE_CONFIRMATIONS',
      'PENDING/WAIT_DESTINATION_TRANSACTION',
      'DONE/COMPLETED',
    ]);
    expect(seen[0]).toMatchObject({ status: 'PENDING', notFound: true });
    expect(seen[1]).toMatchObject({ status: 'PENDING', inboundHash: SOURCE_HASH });
    expect(seen[1]?.hashCheck).toEqual({ hash: SOURCE_HASH, verdict: 'verified', decidesStatus: true });
    expect(seen[1]?.notFound).toBeUndefined();
    const final = seen.at(-1);
    expect(final).toMatchObject({ status: 'SUCCESS', inboundHash: SOURCE_HASH });
    expect(final?.outboundHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(final?.outboundHash).not.toBe(SOURCE_HASH);
    expect(final?.dstAmountBase).toBe(execution.dstAmountBase);
    expect(final?.fee).toMatchObject({ amount: '8.00', currency: 'USD', amountUsd: 8 });
    expect(sim.log.filter((l) => l.kind === 'status').every((l) => l.path.includes('bridge=across'))).toBe(true);
  });

  it('walks a failure to FAILED', async () => {
    sim.configure({ outcome: 'failure' });
    const seen = await pollUntilFinal((await executed()).trackingContext);
    expect(seen.at(-1)).toMatchObject({ status: 'FAILED', upstreamState: 'FAILED/SLIPPAGE_EXCEEDED' });
    expect(seen.at(-1)?.outboundHash).toBeUndefined();
    expect(seen.at(-1)?.dstAmountBase).toBeUndefined();
    expect(seen.slice(0, -1).every((s) => s.status === 'PENDING')).toBe(true);
  });

  it('walks a refund through REFUND_IN_PROGRESS to REFUND', async () => {
    sim.configure({ outcome: 'refund' });
    const seen = await pollUntilFinal((await executed()).trackingContext);
    expect(seen.map((s) => s.upstreamState)).toContain('PENDING/REFUND_IN_PROGRESS');
    expect(seen.find((s) => s.upstreamState === 'PENDING/REFUND_IN_PROGRESS')?.status).toBe('PENDING');
    expect(seen.at(-1)).toMatchObject({ status: 'REFUND', upstreamState: 'DONE/REFUNDED' });
    expect(seen.at(-1)?.dstAmountBase).toBeUndefined();
  });

  it('asks again without the bridge when LI.FI says INVALID for it', async () => {
    const registered = await fetch(`${sim.url}/__sim/lifi/transfers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        txHash: SOURCE_HASH,
        outcome: 'refund',
        fromChain: 1,
        toChain: 42161,
        bridge: 'stargate',
      }),
    });
    expect(registered.status).toBe(201);
    const seen = await pollUntilFinal({ fromChainId: 1, toChainId: 42161, bridge: 'across' });
    expect(seen.at(-1)?.status).toBe('REFUND');
    const paths = sim.log.filter((l) => l.kind === 'status').map((l) => l.path);
    expect(paths.some((p) => p.includes('bridge=across'))).toBe(true);
    expect(paths.some((p) => !p.includes('bridge='))).toBe(true);
  });

  it('tracks by the source hash, or by the LI.FI transaction id when there is no hash yet', async () => {
    expect(adapter.canTrack({ fromChainId: 1, toChainId: 42161, bridge: 'across' }, '')).toBe(false);
    expect(adapter.canTrack({ fromChainId: 1, toChainId: 42161, bridge: 'across' }, SOURCE_HASH)).toBe(true);
    expect(adapter.canTrack({ transactionId: '0x01' }, '')).toBe(true);

    const base = {
      src: ethOnEthereum(),
      dst: usdcOnArbitrum(),
      createdAt: new Date(),
      hash: '',
      inboundHash: '',
      depositor: DEPOSITOR,
      recipient: RECIPIENT,
      srcAmountBase: ETH,
    };
    const waiting = await adapter.status({ ...base, trackingContext: {} }, testSignal());
    expect(waiting).toMatchObject({ status: 'PENDING', notFound: true });
    expect(sim.log).toHaveLength(0);

    await adapter.status({ ...base, trackingContext: { transactionId: '0xfeed' } }, testSignal());
    expect(sim.log[0]?.path).toContain('txHash=0xfeed');
  });
});

describe('a swap waits for its deposit', () => {
  it('is not found by its LI.FI transaction id, however often asked, while nothing was deposited', async () => {
    sim.configure({ settleAfterPolls: 1 });
    const { trackingContext } = await executedAcross();
    for (let i = 0; i < 3; i++) {
      expect(await statusOf(trackingContext, '')).toMatchObject({ status: 'PENDING', upstreamState: 'NOT_FOUND' });
    }
  });

  it('takes the hash the simulated chain saw; the transfer is then found by that hash and by the transaction id', async () => {
    sim.configure({ settleAfterPolls: 1 });
    const { trackingContext } = await executedAcross();
    expect(await statusOf(trackingContext, '')).toMatchObject({ upstreamState: 'NOT_FOUND' });
    expect(await reportDeposit(SOURCE_HASH, trackingContext)).toBe(200);
    expect((await statusOf(trackingContext, SOURCE_HASH)).upstreamState).toBe('NOT_FOUND');
    const done = await statusOf(trackingContext, '');
    expect(done).toMatchObject({ status: 'SUCCESS', inboundHash: SOURCE_HASH });
  });

  it('refuses a second report; a hash LI.FI cannot tie to a transfer stays unknown', async () => {
    sim.configure({ settleAfterPolls: 1 });
    const { trackingContext } = await executedAcross();
    expect(await reportDeposit(SOURCE_HASH, trackingContext)).toBe(200);
    const stranger = `0x${'cd'.repeat(32)}`;
    expect(await reportDeposit(stranger, trackingContext)).toBe(404);
    expect(await reportDeposit(SOURCE_HASH, trackingContext)).toBe(404);
    for (let i = 0; i < 3; i++) {
      const result = await statusOf(trackingContext, stranger);
      expect(result).toMatchObject({ status: 'PENDING', upstreamState: 'NOT_FOUND' });
      expect(result.hashCheck).toMatchObject({ hash: stranger, verdict: 'unknown' });
    }
  });

  it('deposits by itself under its own hash once the auto deposit is due', async () => {
    sim.configure({ settleAfterPolls: 1, autoDepositMs: 0 });
    const { trackingContext } = await executedAcross();
    expect((await statusOf(trackingContext, '')).upstreamState).toBe('NOT_FOUND');
    const done = await statusOf(trackingContext, '');
    expect(done.status).toBe('SUCCESS');
    expect(done.inboundHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(done.inboundHash).not.toBe(trackingContext.transactionId);
    expect(await reportDeposit(SOURCE_HASH, trackingContext)).toBe(404);
  });
});

describe('simulator wire format', () => {
  it('GET /v1/quote answers one step with a hex value, and 404/1002 for noroute', async () => {
    const query = new URLSearchParams({
      fromChain: '1',
      toChain: '42161',
      fromToken: '0x0000000000000000000000000000000000000000',
      toToken: usdcOnArbitrum().address,
      fromAddress: DEPOSITOR,
      fromAmount: ETH.toString(),
    });
    const ok = await fetch(`${sim.url}/v1/quote?${query}`);
    const step = await ok.json();
    expect(ok.status).toBe(200);
    expect(step).toMatchObject({ type: 'lifi', tool: 'across', transactionRequest: { value: '0xde0b6b3a7640000' } });
    expect(step.estimate.approvalAddress).toBe(LIFI_DIAMOND_ADDRESS);

    sim.configure({ faults: { quote: 'noroute' } });
    const none = await fetch(`${sim.url}/v1/quote?${query}`);
    expect(none.status).toBe(404);
    expect(await none.json()).toEqual({ message: 'No available quotes for the requested transfer', code: 1002 });
  });

  it('answers 400 with a LI.FI validation error for a bad routes body', async () => {
    const response = await fetch(`${sim.url}/v1/advanced/routes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fromChainId: 1 }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 1011 });
  });
});

describe('api key', () => {
  it('sends x-lifi-api-key only when configured', async () => {
    const input = quoteInput(ethOnEthereum(), usdcOnArbitrum(), ETH);
    await adapter.quote(input, testSignal());
    expect(sim.log[0]?.headers['x-lifi-api-key']).toBeUndefined();

    sim.reset();
    await createLifiAdapter(adapterOptions('key-123')).quote(input, testSignal());
    expect(sim.log[0]?.headers['x-lifi-api-key']).toBe('key-123');
  });
});

describe('mapLifiStatus', () => {
  // Copied from LI.FI's status-recovery docs page, trimmed; status/substatus set per row.
  const sample = {
    transactionId: '0x1695bded7c1634dce4a200bdec72be0ed6cc5f7153ec2dc832b271d790eb00c8',
    sending: {
      txHash: '0x1695bded7c1634dce4a200bdec72be0ed6cc5f7153ec2dc832b271d790eb00c8',
      txLink: 'https://etherscan.io/tx/0x1695bded…',
      chainId: 1,
      amount: '10000000',
      token: {
        address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
        chainId: 1,
        symbol: 'USDC',
        decimals: 6,
        name: 'USD Coin',
        coinKey: 'USDC',
        priceUSD: '0.999606',
      },
      amountUSD: '9.9961',
      gasPrice: '65729222',
      gasUsed: '220266',
      gasToken: {
        address: '0x0000000000000000000000000000000000000000',
        chainId: 1,
        symbol: 'ETH',
        decimals: 18,
        name: 'ETH',
        coinKey: 'ETH',
        priceUSD: '2923.27',
      },
      gasAmount: '14477912813052',
      gasAmountUSD: '0.0423',
      timestamp: 1737625200,
    },
    receiving: {
      txHash: '0xdef456789abc...',
      txLink: 'https://arbiscan.io/tx/0xdef456789abc...',
      chainId: 42161,
      amount: '9965731',
      '…': '…',
    },
  };
  const ARBITRUM_USDC = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
  const body = (status: string, substatus?: string, extra: Record<string, unknown> = {}): LifiStatusResponse =>
    statusResponseSchema.parse({ ...sample, status, ...(substatus ? { substatus } : {}), ...extra });

  it('DONE + COMPLETED is SUCCESS with both hashes and the received amount', () => {
    expect(mapLifiStatus(body('DONE', 'COMPLETED'))).toEqual({
      status: 'SUCCESS',
      detail: 'completed',
      upstreamState: 'DONE/COMPLETED',
      substatus: 'COMPLETED',
      inboundHash: '0x1695bded7c1634dce4a200bdec72be0ed6cc5f7153ec2dc832b271d790eb00c8',
      outboundHash: '0xdef456789abc...',
      dstAmountBase: 9965731n,
    });
  });

  it('DONE + PARTIAL is SUCCESS, keeping the amount only when the expected token arrived', () => {
    const other = {
      ...sample.receiving,
      token: {
        ...sample.sending.token,
        chainId: 42161,
        symbol: 'USDT',
        address: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9',
      },
    };
    const partial = mapLifiStatus(body('DONE', 'PARTIAL', { receiving: other }), { dstTokenAddress: ARBITRUM_USDC });
    expect(partial.status).toBe('SUCCESS');
    expect(partial.detail).toContain('partially completed: received USDT');
    expect(partial.dstAmountBase).toBeUndefined();

    const same = { ...other, token: { ...other.token, symbol: 'USDC', address: ARBITRUM_USDC.toLowerCase() } };
    const full = mapLifiStatus(body('DONE', 'PARTIAL', { receiving: same }), { dstTokenAddress: ARBITRUM_USDC });
    expect(full.dstAmountBase).toBe(9965731n);
  });

  it.each([
    ['DONE', 'REFUNDED', 'REFUND'],
    ['FAILED', 'REFUNDED', 'REFUND'],
    ['FAILED', 'SLIPPAGE_EXCEEDED', 'FAILED'],
    ['FAILED', 'NOT_PROCESSABLE_REFUND_NEEDED', 'FAILED'],
    ['FAILED', 'EXPIRED', 'FAILED'],
    ['FAILED', undefined, 'FAILED'],
    ['INVALID', undefined, 'PENDING'],
  ])('%s + %s is %s', (status, substatus, expected) => {
    const result = mapLifiStatus(body(status, substatus));
    expect(result.status).toBe(expected);
    expect(result.upstreamState).toBe(substatus ? `${status}/${substatus}` : status);
    expect(result.dstAmountBase).toBeUndefined();
  });

  it.each([
    'WAIT_SOURCE_CONFIRMATIONS',
    'WAIT_DESTINATION_TRANSACTION',
    'BRIDGE_NOT_AVAILABLE',
    'CHAIN_NOT_AVAILABLE',
    'REFUND_IN_PROGRESS',
    'UNKNOWN_ERROR',
    'INTENT_AWAITING_FUNDS',
  ])('PENDING + %s stays PENDING', (substatus) => {
    const result = mapLifiStatus(body('PENDING', substatus, { receiving: { chainId: 42161 } }));
    expect(result).toMatchObject({ status: 'PENDING', upstreamState: `PENDING/${substatus}` });
    expect(result.outboundHash).toBeUndefined();
    expect(result.notFound).toBeUndefined();
  });

  it('NOT_FOUND is PENDING and not found', () => {
    expect(mapLifiStatus(statusResponseSchema.parse({ status: 'NOT_FOUND' }))).toEqual({
      status: 'PENDING',
      notFound: true,
      detail: 'LI.FI has not seen the source transaction yet',
      upstreamState: 'NOT_FOUND',
      substatus: 'NOT_FOUND_UPSTREAM',
    });
  });

  it('sums feeCosts in USD when present', () => {
    const feeCosts = [
      { name: 'LIFI Fixed Fee', token: sample.sending.token, amount: '25000', amountUSD: '0.025', included: true },
      { name: 'Across bridge fee', token: sample.sending.token, amount: '4000', amountUSD: '0.004', included: true },
    ];
    const result = mapLifiStatus(body('DONE', 'COMPLETED', { feeCosts }));
    expect(result.fee).toEqual({
      amount: '0.03',
      currency: 'USD',
      amountUsd: 0.03,
      details: [
        { label: 'LIFI Fixed Fee', amount: '0.025', currency: 'USDC', amountUsd: 0.025, included: true },
        { label: 'Across bridge fee', amount: '0.004', currency: 'USDC', amountUsd: 0.004, included: true },
      ],
    });
    expect(mapLifiStatus(body('DONE', 'COMPLETED')).fee).toBeUndefined();
  });
});
