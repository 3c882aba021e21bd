import { decodeFunctionData, parseAbi } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { providerErrorKind } from '../../../test/support/adapter-contract';
import { routeAsset, testSignal } from '../../../test/support/route-assets';
import type { RunningSimulator } from '../simulator-kit';
import type { ExecutionResult, ProviderAdapter, StatusInput, StatusResult } from '../types';
import { createLifiAdapter } from './adapter';
import { startLifiSimulator } from './simulator';
import { type LifiRoute, routesResponseSchema } from './wire';

const DEPOSITOR = '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0';
const RECIPIENT = '0x9f5E2B1f5Fa4D5a3b8ab7A0FB0e4c6dD1A2b3C4D';
const STRANGER = '0xde709f2102306220921060314715629080e2fb77';
const ETH = 10n ** 18n;

let sim: RunningSimulator;
let adapter: ProviderAdapter;

beforeAll(async () => {
  sim = await startLifiSimulator({ port: 0 });
  adapter = createLifiAdapter({
    config: { key: 'LIFI', enabled: true, baseUrl: sim.url, apiKey: undefined, deadlineMs: 2500 },
    baseUrl: sim.url,
  });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const eth = routeAsset('ethereum', 'ETH');
const arbUsdc = routeAsset('arbitrum', 'USDC');
const randomHash = () =>
  `0x${[...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;

const input = { src: eth, dst: arbUsdc, amountBase: ETH, slippageBps: 50, depositor: DEPOSITOR, recipient: RECIPIENT };

async function executed(): Promise<ExecutionResult> {
  const [route] = await adapter.quote(input, testSignal());
  if (!route) throw new Error('no route');
  return adapter.execute(
    { ...input, routeId: route.routeId, providerQuote: route.providerQuote, transactionId: 'tx_test' },
    testSignal(),
  );
}

const statusInput = (trackingContext: Record<string, unknown>, hash: string, createdAt = new Date()): StatusInput => ({
  trackingContext,
  hash,
  inboundHash: '',
  src: eth,
  dst: arbUsdc,
  createdAt,
  depositor: DEPOSITOR,
  recipient: RECIPIENT,
  srcAmountBase: ETH,
});

async function register(body: Record<string, unknown>) {
  const response = await fetch(`${sim.url}/__sim/lifi/transfers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fromChain: 1, toChain: 42161, bridge: 'across', ...body }),
  });
  expect(response.status).toBe(201);
}

async function poll(input: StatusInput, times: number): Promise<StatusResult[]> {
  const seen: StatusResult[] = [];
  for (let i = 0; i < times; i++) {
    const result = await adapter.status(input, testSignal());
    seen.push(result);
    if (result.status !== 'PENDING') break;
  }
  return seen;
}

describe('INVALID ("a third party service is not available") is waited out, not final', () => {
  it('keeps polling through INVALID and reaches the real ending', async () => {
    const execution = await executed();
    const hash = randomHash();
    // Each poll asks twice on INVALID (again without the bridge), so six answers cover three polls.
    await register({ txHash: hash, outcome: 'success', fromAddress: DEPOSITOR, invalidPolls: 6 });
    sim.configure({ settleAfterPolls: 2 });
    const seen = await poll(statusInput(execution.trackingContext, hash), 12);
    expect(seen.slice(0, 3).map((s) => [s.status, s.upstreamState, s.substatus])).toEqual([
      ['PENDING', 'INVALID', 'DELAYED'],
      ['PENDING', 'INVALID', 'DELAYED'],
      ['PENDING', 'INVALID', 'DELAYED'],
    ]);
    expect(seen.at(-1)).toMatchObject({ status: 'SUCCESS', substatus: 'COMPLETED' });
  });

  it('never infers FAILED from INVALID, however old the swap: it stays pending (and goes stale for support)', async () => {
    const execution = await executed();
    const hash = randomHash();
    await register({ txHash: hash, fromAddress: DEPOSITOR, invalidPolls: 100 });
    const weekOld = new Date(Date.now() - 7 * 24 * 3600_000);
    const result = await adapter.status(statusInput(execution.trackingContext, hash, weekOld), testSignal());
    expect(result).toMatchObject({ status: 'PENDING', upstreamState: 'INVALID', substatus: 'DELAYED' });
  });
});

describe('a hash counts only when LI.FI ties its transfer to this swap', () => {
  it('the transfer made with the execute calldata is verified', async () => {
    const execution = await executed();
    const hash = randomHash();
    await register({ txHash: hash, outcome: 'success', fromAddress: DEPOSITOR });
    sim.configure({ settleAfterPolls: 0 });
    const result = await adapter.status(statusInput(execution.trackingContext, hash), testSignal());
    expect(result.status).toBe('SUCCESS');
    expect(result.hashCheck).toEqual({ hash, verdict: 'verified', decidesStatus: true });
  });

  it.each([
    ['another LI.FI transfer', { transactionId: `0x${'77'.repeat(32)}`, fromAddress: DEPOSITOR }, /LI.FI transfer/],
    ['another sender', { fromAddress: STRANGER }, /sent by/],
    ['another amount', { fromAddress: DEPOSITOR, fromAmount: '1000' }, /sent 1000/],
  ])('a refunded transfer of %s is rejected and its status does not count', async (_label, foreign, reason) => {
    const execution = await executed();
    const hash = randomHash();
    await register({ txHash: hash, outcome: 'refund', ...foreign });
    sim.configure({ settleAfterPolls: 0 });
    const result = await adapter.status(statusInput(execution.trackingContext, hash), testSignal());
    expect(result).toMatchObject({ status: 'PENDING', upstreamState: 'hash_rejected' });
    expect(result.hashCheck).toMatchObject({
      verdict: 'rejected',
      decidesStatus: true,
      reason: expect.stringMatching(reason),
    });
  });
});

async function twoStepRoute(): Promise<LifiRoute> {
  const response = await fetch(`${sim.url}/v1/advanced/routes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      fromChainId: 1,
      fromAmount: ETH.toString(),
      fromTokenAddress: '0x0000000000000000000000000000000000000000',
      fromAddress: DEPOSITOR,
      toChainId: 42161,
      toTokenAddress: arbUsdc.address,
      toAddress: RECIPIENT,
    }),
  });
  const route = routesResponseSchema.parse(await response.json()).routes.find((r) => r.steps.length === 2);
  if (!route) throw new Error('no two-step route');
  return route;
}

describe('multi-step routes: only single-transaction routes are offered and executed', () => {
  it('a locked multi-step route is refused at execute, before any step is built', async () => {
    const [offered] = await adapter.quote(input, testSignal());
    expect(offered?.routeId).toBe('lifi:across');
    const twoStep = await twoStepRoute();
    const execution = adapter.execute(
      {
        ...input,
        routeId: 'lifi:uniswap+stargate',
        providerQuote: { lifiRouteId: twoStep.id, steps: twoStep.steps },
        transactionId: 'tx_test',
      },
      testSignal(),
    );
    expect(await providerErrorKind(execution)).toBe('NO_ROUTE');
    expect(sim.log.filter((l) => l.kind === 'execute')).toHaveLength(0);
  });
});

describe('multi-step routes: a later step is built only after the earlier one settled', () => {
  const stepTransaction = (step: unknown) =>
    fetch(`${sim.url}/v1/advanced/stepTransaction`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(step),
    });

  it('refuses the second step first, in LI.FI’s error shape, and builds it once the first is DONE', async () => {
    const [first, second] = (await twoStepRoute()).steps;
    const early = await stepTransaction(second);
    expect(early.status).toBe(422);
    expect(await early.json()).toEqual({
      message: expect.stringMatching(/previous step of this route has not been executed/),
      code: 1004,
    });

    expect((await stepTransaction(first)).status).toBe(200);
    const hash = randomHash();
    await register({ txHash: hash, outcome: 'success', bridge: 'uniswap', toChain: 1 });
    sim.configure({ settleAfterPolls: 1 });
    const stillPending = await stepTransaction(second);
    expect(stillPending.status).toBe(422);
    for (let i = 0; i < 3; i++) await fetch(`${sim.url}/v1/status?txHash=${hash}`);
    expect((await stepTransaction(second)).status).toBe(200);
  });
});

describe('execute holds the locked minimum', () => {
  const ethUsdc = routeAsset('ethereum', 'USDC');
  const swapInput = { ...input, src: ethUsdc, dst: eth, amountBase: 3_200_000_000n };
  const swapAbi = parseAbi([
    'function swapTokensGeneric(bytes32 transactionId, string integrator, string referrer, address receiver, uint256 minAmountOut, (address callTo, address approveTo, address sendingAssetId, address receivingAssetId, uint256 fromAmount, bytes callData, bool requiresDeposit)[] swapData)',
  ]);

  async function locked(quote: typeof input = input) {
    const [route] = await adapter.quote(quote, testSignal());
    if (!route?.dstMinAmountBase) throw new Error('no route');
    sim.reset();
    return {
      minimum: route.dstMinAmountBase,
      execute: { ...quote, routeId: route.routeId, providerQuote: route.providerQuote, transactionId: 'tx_test' },
    };
  }

  const stepRequests = () => sim.log.filter((entry) => entry.kind === 'execute');

  it('refuses when even the expected output fell below the locked minimum', async () => {
    const { execute } = await locked();
    sim.configure({ priceShiftBps: -300 });
    expect(await providerErrorKind(adapter.execute(execute, testSignal()))).toBe('TERMS_CHANGED');
  });

  it('within the slippage, asks again with a tighter slippage so the calldata enforces the locked minimum', async () => {
    const { execute, minimum } = await locked(swapInput);
    sim.configure({ priceShiftBps: -20 });
    const result = await adapter.execute(execute, testSignal());
    expect(result.dstMinAmountBase).toBeGreaterThanOrEqual(minimum);
    expect(result.dstMinAmountBase).toBeLessThan(minimum + minimum / 10_000n);
    const call = decodeFunctionData({ abi: swapAbi, data: result.exec?.providerCalldata as `0x${string}` });
    expect(call.args[4]).toBe(result.dstMinAmountBase);
    const slippages = stepRequests().map((entry) => (entry.body as { action: { slippage: number } }).action.slippage);
    expect(slippages).toHaveLength(2);
    expect(slippages[0]).toBe(0.005);
    expect(slippages[1]).toBeLessThan(0.005);
  });

  it('an unchanged price is executed with one step request and the locked minimum', async () => {
    const { execute, minimum } = await locked();
    const result = await adapter.execute(execute, testSignal());
    expect(result.dstMinAmountBase).toBe(minimum);
    expect(stepRequests()).toHaveLength(1);
  });
});
