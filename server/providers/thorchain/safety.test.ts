import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { providerErrorKind } from '../../../test/support/adapter-contract';
import { routeAsset, testSignal } from '../../../test/support/route-assets';
import { withResilience } from '../resilience';
import { fakeHex, startSimulator } from '../simulator-kit';
import type { ExecuteInput, ProviderAdapter, QuoteInput, RouteAsset, StatusInput, StatusResult } from '../types';
import { createThorchainAdapter } from './adapter';
import { fitMemoLimit, memoLimit } from './memo';
import { type SimDeposit, startThorchainSimulator, type ThorchainSimulator } from './simulator';
import { mapTxStatus } from './status';
import type { StatusAnswer } from './wire';

let sim: ThorchainSimulator;
let adapter: ProviderAdapter;

const optionsFor = (url: string) => ({
  config: { key: 'THORCHAIN' as const, enabled: true, baseUrl: url, apiKey: undefined, deadlineMs: 2500 },
  baseUrl: url,
});

beforeAll(async () => {
  sim = await startThorchainSimulator({ port: 0 });
  adapter = createThorchainAdapter(optionsFor(sim.url));
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => sim.reset());

const btc = routeAsset('bitcoin', 'BTC');
const eth = routeAsset('ethereum', 'ETH');
const BTC_WALLET = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
const EVM_WALLET = '0x86d526d6624AbC0178cF7296cD538Ecc080A95F1';
const OTHER_EVM_WALLET = '0xde709f2102306220921060314715629080e2fb77';

/** A status read of a BTC → ETH swap of 0.1 BTC under `hash`. */
const statusInput = (hash: string, extra: Partial<StatusInput> = {}): StatusInput => ({
  trackingContext: { node: 'thorchain', fromAsset: 'BTC.BTC', toAsset: 'ETH.ETH' },
  hash,
  inboundHash: '',
  src: btc,
  dst: eth,
  createdAt: new Date(),
  depositor: BTC_WALLET,
  recipient: EVM_WALLET,
  srcAmountBase: 10_000_000n,
  ...extra,
});

/** A breaker that opens at the first failure and stays open for the test; no budget to speak of, no retries. */
const guardedPolicy = {
  breakerThreshold: 1,
  halfOpenAfterMs: 60_000,
  budget: { points: 1000, windowSeconds: 60 },
  reservedPoints: 0,
  statusRetries: 0,
};

const quoteInput = (src: RouteAsset, dst: RouteAsset, amountBase: bigint, extra: Partial<QuoteInput> = {}) => ({
  src,
  dst,
  amountBase,
  slippageBps: 100,
  depositor: src.chainType === 'EVM' ? EVM_WALLET : BTC_WALLET,
  recipient: dst.chainType === 'EVM' ? EVM_WALLET : BTC_WALLET,
  ...extra,
});

/** Quote (as lock does) and turn the chosen route into execute's input. */
async function locked(src: RouteAsset, dst: RouteAsset, amountBase: bigint, extra: Partial<QuoteInput> = {}) {
  const input = quoteInput(src, dst, amountBase, extra);
  const [route] = await adapter.quote(input, testSignal());
  if (!route) throw new Error('no route');
  const execute: ExecuteInput = {
    ...input,
    depositor: input.depositor,
    recipient: input.recipient,
    routeId: route.routeId,
    providerQuote: route.providerQuote,
    transactionId: 'tx_test',
  };
  return { route, execute };
}

const gatewayError = (message: string, status = 500) => ({
  status,
  body: { code: status === 400 ? 3 : 2, message, details: [] },
});

describe('quote errors in THORNode v3 shape (gRPC gateway: HTTP 400 or 500 {code, message})', () => {
  const base = () => `${sim.url}/thorchain/quote/swap?from_asset=BTC.BTC&to_asset=ETH.ETH&amount=10000000`;

  it("the simulator answers bad input the way the node does: HTTP 400 with the handler's message", async () => {
    const badDestination = await fetch(`${base()}&destination=not-an-address`);
    expect(badDestination.status).toBe(400);
    expect(await badDestination.json()).toEqual({
      code: 3,
      message: 'bad destination address: not-an-address is not recognizable',
      details: [],
    });
    const both = await fetch(`${base()}&tolerance_bps=100&liquidity_tolerance_bps=100`);
    expect(both.status).toBe(400);
    expect(await both.json()).toMatchObject({ message: expect.stringMatching(/must only include one of/) });
    const tooLong = await fetch(
      `${base()}&destination=${EVM_WALLET}&refund_address=${BTC_WALLET}&streaming_interval=1`,
    );
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({ message: 'generated memo too long for source chain' });
    const dust = await fetch(`${sim.url}/thorchain/quote/swap?from_asset=BTC.BTC&to_asset=ETH.ETH&amount=9999`);
    expect(dust.status).toBe(400);
    expect(await dust.json()).toMatchObject({ message: 'amount less than dust threshold' });
  });

  it('the simulator fails the swap itself, HTTP 500 code 2, when its output misses a tolerance_bps limit', async () => {
    // 0.1 BTC → ETH loses about 9.7 bps to the pool and 2.1 bps to the outbound fee.
    const missesAfterFee = await fetch(`${base()}&tolerance_bps=11`);
    expect(missesAfterFee.status).toBe(500);
    expect(await missesAfterFee.json()).toMatchObject({
      code: 2,
      message: expect.stringMatching(
        /^failed to simulate swap: .*outbound amount does not meet requirements \(\d+\/\d+\)$/,
      ),
    });
    const missesBeforeFee = await fetch(`${base()}&tolerance_bps=5`);
    expect(await missesBeforeFee.json()).toMatchObject({
      code: 2,
      message: expect.stringMatching(/less than price limit/),
    });
    expect((await fetch(`${base()}&tolerance_bps=100`)).status).toBe(200);
  });

  it('a bad destination is REJECTED and never opens the circuit breaker; amounts below the minimum are no route', async () => {
    const guarded = withResilience(adapter, guardedPolicy, undefined, 'test');
    const bad = guarded.quote(quoteInput(btc, eth, 10_000_000n, { recipient: 'not-an-address' }), testSignal());
    expect(await providerErrorKind(bad)).toBe('REJECTED');
    expect(await guarded.quote(quoteInput(btc, eth, 2_000n), testSignal())).toEqual([]);
    expect(await guarded.quote(quoteInput(btc, eth, 11_000n), testSignal())).toEqual([]);
    expect(guarded.breakerState()).toBe('closed');
    expect(await guarded.quote(quoteInput(btc, eth, 10_000_000n), testSignal())).toHaveLength(2);

    sim.configure({ faults: { quote: 'error5xx' } });
    expect(await providerErrorKind(guarded.quote(quoteInput(btc, eth, 10_000_000n), testSignal()))).toBe('UNAVAILABLE');
    expect(guarded.breakerState()).toBe('open');
  });

  it('status reads and swap calls each have their own breaker: one failing does not refuse the other', async () => {
    const guarded = withResilience(adapter, { ...guardedPolicy, breakerThreshold: 2 }, undefined, 'test');
    const read = statusInput(fakeHex('breaker-read').toUpperCase());
    const calls = (kind: string) => sim.log.filter((e) => e.kind === kind).length;

    sim.configure({ faults: { status: 'error5xx' } });
    for (let i = 0; i < 2; i++) expect(await providerErrorKind(guarded.status(read, testSignal()))).toBe('UNAVAILABLE');
    expect(guarded.breakerState()).toBe('open');
    // The status breaker is open: no read reaches the provider; the quote breaker is not: quotes do.
    const statusCalls = calls('status');
    expect(await providerErrorKind(guarded.status(read, testSignal()))).toBe('UNAVAILABLE');
    expect(calls('status')).toBe(statusCalls);
    expect(await guarded.quote(quoteInput(btc, eth, 10_000_000n), testSignal())).toHaveLength(2);

    sim.configure({ faults: { status: 'none', quote: 'error5xx' } });
    const other = withResilience(adapter, { ...guardedPolicy, breakerThreshold: 2 }, undefined, 'test');
    for (let i = 0; i < 2; i++) {
      expect(await providerErrorKind(other.quote(quoteInput(btc, eth, 10_000_000n), testSignal()))).toBe('UNAVAILABLE');
    }
    expect(other.breakerState()).toBe('open');
    const quoteCalls = calls('quote');
    expect(await providerErrorKind(other.quote(quoteInput(btc, eth, 10_000_000n), testSignal()))).toBe('UNAVAILABLE');
    expect(calls('quote')).toBe(quoteCalls);
    const before = calls('status');
    await other.status(read, testSignal());
    expect(calls('status')).toBe(before + 1);
  });

  it.each([
    ['must only include one of: tolerance_bps or liquidity_tolerance_bps', 'REJECTED'],
    ['bad refund address: nope is not recognizable', 'REJECTED'],
    ['refusing quote on node with stale state', 'UNAVAILABLE'],
  ])('a gateway error "%s" is %s', async (message, kind) => {
    const node = await startSimulator('thornode-v3', [
      { method: 'GET', pattern: /^\/thorchain\/quote\/swap$/, kind: 'quote', handle: () => gatewayError(message) },
    ]);
    try {
      const quoting = createThorchainAdapter(optionsFor(node.url)).quote(
        quoteInput(btc, eth, 10_000_000n),
        testSignal(),
      );
      expect(await providerErrorKind(quoting)).toBe(kind);
    } finally {
      await node.close();
    }
  });
  // THORNode's refusals that are no route are one table with Chainflip's: ../no-route-refusals.test.ts.
});

describe('the memo keeps a price limit', () => {
  it('a limit too long for the memo is rounded up to fewer digits, never down, and reads back as written', () => {
    const memo = `=:g:cosmos14hj2tavq8fpesdwxxcu44rty3hh90vhujrvcmstl4zr3txmfvw9s4hmalr`;
    const limit = 2_110_526_315_789n;
    const fitted = fitMemoLimit(memo, limit, 80);
    expect(fitted).toEqual({ memo: `${memo}:21105264e5`, limit: 2_110_526_400_000n });
    expect(memoLimit(fitted?.memo)).toBe(fitted?.limit);
    expect(fitMemoLimit(memo, 123n, 80)).toEqual({ memo: `${memo}:123`, limit: 123n });
    expect(fitMemoLimit(`${memo}:0/1/0`, limit, 80)).toEqual({ memo: `${memo}:2111e9/1/0`, limit: 2_111_000_000_000n });
    expect(fitMemoLimit(memo, limit, 72)).toBeUndefined();
  });

  it('slippage 0 limits the swap to the expected output, not to nothing', async () => {
    const { route, execute } = await locked(btc, eth, 10_000_000n, { slippageBps: 0 });
    expect(route.dstMinAmountBase).toBe(route.dstAmountBase);
    const result = await adapter.execute(execute, testSignal());
    const memo = result.providerResult.depositMemo as string;
    expect(memoLimit(memo)).toBe(BigInt(route.providerQuote.expectedAmountOut as string));
    expect(result.dstMinAmountBase).toBe(route.dstAmountBase);
  });
});

describe('execute holds the locked terms', () => {
  it('refuses when the price fell below the locked minimum between lock and execute', async () => {
    const { execute } = await locked(btc, eth, 10_000_000n);
    sim.configure({ priceShiftBps: -300 });
    expect(await providerErrorKind(adapter.execute(execute, testSignal()))).toBe('TERMS_CHANGED');
  });

  it('within the slippage, the memo carries the locked minimum, not the fresh (lower) one', async () => {
    const { route, execute } = await locked(btc, eth, 10_000_000n);
    sim.configure({ priceShiftBps: -50 });
    const result = await adapter.execute(execute, testSignal());
    const lockedMin = BigInt(route.providerQuote.minAmountOut as string);
    expect(memoLimit(result.providerResult.depositMemo)).toBe(lockedMin);
    expect(result.dstMinAmountBase).toBe(route.dstMinAmountBase);
    expect(result.dstAmountBase).toBeLessThan(route.dstAmountBase);
  });

  it('EVM calldata carries the same memo the limit was written into', async () => {
    const { route, execute } = await locked(eth, btc, 10n ** 18n);
    sim.configure({ priceShiftBps: -50 });
    const result = await adapter.execute(execute, testSignal());
    const memo = result.trackingContext.memo as string;
    expect(memoLimit(memo)).toBe(BigInt(route.providerQuote.minAmountOut as string));
    expect(result.exec?.providerCalldata).toContain(Buffer.from(memo).toString('hex'));
  });
});

describe('partial streaming swaps', () => {
  async function walk(input: StatusInput): Promise<StatusResult[]> {
    const seen: StatusResult[] = [];
    for (let i = 0; i < 15; i++) {
      const result = await adapter.status(input, testSignal());
      seen.push(result);
      if (result.status !== 'PENDING') break;
    }
    return seen;
  }

  it('an outbound and a refund together are SUCCESS marked PARTIAL, with the swap outbound', async () => {
    const hash = fakeHex(`partial:${Math.random()}`).toUpperCase();
    sim.observe({ hash, outcome: 'partial', amount: '10000000' });
    sim.configure({ settleAfterPolls: 4 });
    const seen = await walk(statusInput(hash));
    const final = seen.at(-1) as StatusResult;
    expect(final).toMatchObject({ status: 'SUCCESS', substatus: 'PARTIAL', upstreamState: 'partial' });
    expect(final.outboundHash).toBe(`0x${fakeHex(`thorchain-sim:OUT:${hash}`)}`);
    expect(final.partial?.delivered).toMatch(/ ETH$/);
    expect(final.partial?.refunded).toBe('0.04975 BTC');
    // Half of 0.1 BTC was swapped: about half of what the whole would have brought.
    expect(final.dstAmountBase).toBeGreaterThan(1_400_000_000_000_000_000n);
    expect(final.dstAmountBase).toBeLessThan(1_500_000_000_000_000_000n);
    expect(seen.slice(0, -1).every((s) => s.status === 'PENDING')).toBe(true);
  });

  it('maps both outbounds of a partial fill (pure mapping, as THORNode reports them)', () => {
    const inHash = 'CF524818D42B63D25BBA0CCC4909F127CAA645C0F9CD07324F2824CC151A64C7';
    const out = { chain: 'ETH', to_address: EVM_WALLET, coin: { asset: 'ETH.ETH', amount: '80000000' }, refund: false };
    const refund = {
      chain: 'BTC',
      to_address: BTC_WALLET,
      coin: { asset: 'BTC.BTC', amount: '5000000' },
      refund: true,
    };
    const stages = {
      inbound_observed: { completed: true },
      swap_status: { pending: false },
      swap_finalised: { completed: true },
      outbound_signed: { completed: true },
    };
    const body = {
      tx: { id: inHash, chain: 'BTC', coins: [{ asset: 'BTC.BTC', amount: '10000000' }], memo: '=:e:0x1' },
      planned_out_txs: [out, refund],
      out_txs: [
        { id: 'AB'.repeat(32), chain: 'ETH', coins: [out.coin], memo: `OUT:${inHash}` },
        { id: 'CD'.repeat(32), chain: 'BTC', coins: [refund.coin], memo: `REFUND:${inHash}` },
      ],
      stages,
    };
    const ctx = { toAsset: 'ETH.ETH', nativeChain: 'THOR', dstDecimals: 18, dstNodeDecimals: 8 };
    expect(mapTxStatus(body as StatusAnswer, ctx)).toMatchObject({
      status: 'SUCCESS',
      substatus: 'PARTIAL',
      outboundHash: `0x${'ab'.repeat(32)}`,
      dstAmountBase: 800_000_000_000_000_000n,
      partial: { delivered: '0.8 ETH', refunded: '0.05 BTC' },
    });
    const waiting = mapTxStatus({ ...body, out_txs: body.out_txs.slice(0, 1) } as StatusAnswer, ctx);
    expect(waiting).toMatchObject({ status: 'PENDING', upstreamState: 'partial_pending' });
    const nothingSwapped = mapTxStatus(
      { ...body, planned_out_txs: [refund], out_txs: body.out_txs.slice(1) } as StatusAnswer,
      ctx,
    );
    expect(nothingSwapped).toMatchObject({ status: 'REFUND', substatus: 'REFUNDED' });
  });
});

describe('a hash counts only when its inbound is this swap’s deposit', () => {
  async function executed() {
    const { execute } = await locked(eth, btc, 10n ** 18n);
    const result = await adapter.execute(execute, testSignal());
    const input: StatusInput = {
      trackingContext: result.trackingContext,
      hash: '',
      inboundHash: '',
      src: eth,
      dst: btc,
      createdAt: new Date(),
      depositor: EVM_WALLET,
      recipient: BTC_WALLET,
      srcAmountBase: 10n ** 18n,
    };
    return input;
  }

  it('the deposit made by following the execute payload is verified', async () => {
    const input = await executed();
    const hash = `0x${fakeHex(`own:${Math.random()}`)}`;
    sim.configure({ settleAfterPolls: 0 });
    const result = await adapter.status({ ...input, hash }, testSignal());
    expect(result.status).toBe('SUCCESS');
    expect(result.hashCheck).toEqual({ hash, verdict: 'verified', decidesStatus: true });
  });

  it.each<[string, Partial<SimDeposit>, RegExp]>([
    ['another recipient in the memo', { destination: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' }, /memo swaps to/],
    ['another sender', { fromAddress: OTHER_EVM_WALLET }, /sent by/],
    ['another amount', { amount: '50000000' }, /carries 50000000/],
    ['another vault', { toAddress: OTHER_EVM_WALLET }, /paid to/],
  ])(
    'a refunded foreign deposit with %s is rejected and its status does not count',
    async (_label, foreign, reason) => {
      const input = await executed();
      const hash = fakeHex(`foreign:${Math.random()}`).toUpperCase();
      sim.observe({
        hash,
        outcome: 'refund',
        fromAsset: 'ETH.ETH',
        toAsset: 'BTC.BTC',
        amount: '100000000',
        fromAddress: EVM_WALLET,
        refundAddress: EVM_WALLET,
        memo: foreign.destination ? undefined : (input.trackingContext.memo as string),
        ...foreign,
      });
      sim.configure({ settleAfterPolls: 0 });
      const result = await adapter.status({ ...input, hash: `0x${hash.toLowerCase()}` }, testSignal());
      expect(result.status).toBe('PENDING');
      expect(result.upstreamState).toBe('hash_rejected');
      expect(result.outboundHash).toBeUndefined();
      expect(result.hashCheck).toMatchObject({
        verdict: 'rejected',
        decidesStatus: true,
        reason: expect.stringMatching(reason),
      });
    },
  );
});
