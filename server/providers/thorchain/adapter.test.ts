import { decodeFunctionData, zeroAddress } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { providerErrorKind, quoteFaultContract } from '../../../test/support/adapter-contract';
import { routeAsset, testSignal } from '../../../test/support/route-assets';
import type { ProviderErrorKind } from '../errors';
import { type Fault, fakeHex, startSimulator } from '../simulator-kit';
import type { ExecuteInput, ProviderAdapter, QuoteInput, RouteAsset, StatusInput, StatusResult } from '../types';
import { createThorchainAdapter, THORCHAIN_ROUTER_ABI, type ThorchainAdapterOptions } from './adapter';
import { startThorchainSimulator } from './simulator';
import { mapTxStatus, type StatusMappingContext } from './status';
import type { StatusAnswer } from './wire';

let sim: Awaited<ReturnType<typeof startThorchainSimulator>>;
let adapter: ProviderAdapter;

const optionsFor = (url: string, extra: Partial<ThorchainAdapterOptions> = {}, apiKey?: string) => ({
  config: { key: 'THORCHAIN' as const, enabled: true, baseUrl: url, apiKey, deadlineMs: 2500 },
  baseUrl: url,
  ...extra,
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
const usdc = routeAsset('ethereum', 'USDC');
const dai = routeAsset('ethereum', 'DAI');
const atom = routeAsset('cosmoshub', 'ATOM');
const rune = routeAsset('thorchain', 'RUNE');
const arbEth = routeAsset('arbitrum', 'ETH');
const sol = routeAsset('solana', 'SOL');
const cacao = routeAsset('maya', 'CACAO');

const BTC_WALLET = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh';
const EVM_WALLET = '0x86d526d6624AbC0178cF7296cD538Ecc080A95F1';
const ATOM_WALLET = 'cosmos1syavy2npfyt9tcncdtsdzf7kny9lh777pahuux';
const SIM_BTC_VAULT = 'bc1qt9723ak9t7lu7a97lt9kelq4gnrlmyvk4yhzwr';
/** A 32-byte (contract-style) Cosmos address: 65 characters, where a user's own is 45. */
const LONG_ATOM_ADDRESS = 'cosmos14hj2tavq8fpesdwxxcu44rty3hh90vhujrvcmstl4zr3txmfvw9s4hmalr';
const META_KEYS = new Set([
  'providerQuoteId',
  'selectedQuoteId',
  'executionMode',
  'walletExecution',
  'depositAddress',
  'depositMemo',
  'channelId',
  'expiresAt',
]);

const quoteInput = (src: RouteAsset, dst: RouteAsset, amountBase: bigint, extra: Partial<QuoteInput> = {}) => ({
  src,
  dst,
  amountBase,
  slippageBps: 100,
  ...extra,
});

async function executeInput(
  src: RouteAsset,
  dst: RouteAsset,
  amountBase: bigint,
  depositor: string,
  recipient: string,
): Promise<ExecuteInput> {
  const [best] = await adapter.quote(quoteInput(src, dst, amountBase), testSignal());
  if (!best) throw new Error('no route to execute');
  return {
    ...quoteInput(src, dst, amountBase),
    depositor,
    recipient,
    routeId: best.routeId,
    providerQuote: best.providerQuote,
    transactionId: 'tx_test',
  };
}

async function expectKind(promise: Promise<unknown>, kind: ProviderErrorKind) {
  expect(await providerErrorKind(promise)).toBe(kind);
}

// Copied from the dev.thorchain.org quickstart (older non-streaming response).
const COPIED_QUOTE_SAMPLE = {
  dust_threshold: '10000',
  expected_amount_out: '1619355520',
  expiry: 1689143119,
  fees: { affiliate: '0', asset: 'ETH.ETH', outbound: '240000' },
  inbound_address: 'bc1qpzs9rm82m08u48842ka59hyxu36wsgzqlt6e3t',
  inbound_confirmation_blocks: 1,
  inbound_confirmation_seconds: 600,
  max_streaming_quantity: 0,
  memo: '=:ETH.ETH:0x86d526d6624AbC0178cF7296cD538Ecc080A95F1',
  notes: 'First output should be to inbound_address, second output should be change back to self, …',
  outbound_delay_blocks: 305,
  outbound_delay_seconds: 1830,
  recommended_min_amount_in: '60000',
  slippage_bps: 49,
  streaming_swap_blocks: 0,
  total_swap_seconds: 2430,
  warning: 'Do not cache this response. Do not send funds after the expiry.',
};

const queryOf = (path: string) => new URL(path, 'http://sim').searchParams;

/** An adapter that keeps what it logs, to read why a route was left out. */
function loggingAdapter() {
  const logged: Record<string, unknown>[] = [];
  const logging = createThorchainAdapter({ ...optionsFor(sim.url), log: { debug: (fields) => logged.push(fields) } });
  return { logging, logged };
}
const quoteLog = () => sim.log.filter((entry) => entry.kind === 'quote');
const randomHash = (seed: string) => fakeHex(`${seed}:${Math.random()}`).toUpperCase();

describe('supports', () => {
  it('accepts pooled chains and refuses RUNE sources, unknown chains and same-asset pairs', () => {
    expect(adapter.supports(btc, eth)).toBe(true);
    expect(adapter.supports(usdc, btc)).toBe(true);
    expect(adapter.supports(atom, btc)).toBe(true);
    expect(adapter.supports(btc, rune)).toBe(true);
    expect(adapter.supports(rune, btc)).toBe(false);
    expect(adapter.supports(sol, btc)).toBe(false);
    expect(adapter.supports(arbEth, btc)).toBe(false);
    expect(adapter.supports(btc, btc)).toBe(false);
  });

  it('uses the Maya chain set for the mayachain node', () => {
    const maya = createThorchainAdapter(optionsFor(sim.url, { node: 'mayachain' }));
    expect(maya.supports(arbEth, btc)).toBe(true);
    expect(maya.supports(rune, btc)).toBe(true);
    expect(maya.supports(cacao, btc)).toBe(false);
    expect(maya.supports(atom, btc)).toBe(false);
  });
});

describe('quote', () => {
  it('quotes BTC → ETH as streaming and rapid routes, best first, in 1e8 units', async () => {
    const routes = await adapter.quote(quoteInput(btc, eth, 10_000_000n), testSignal());
    expect(routes.map((r) => r.routeId).sort()).toEqual(['thorchain:rapid', 'thorchain:streaming']);
    expect(routes[0]!.dstAmountBase).toBeGreaterThanOrEqual(routes[1]!.dstAmountBase);

    // 0.1 BTC at 95,000 / 3,200 USD = 2.96875 ETH before fees.
    const market = 2_968_750_000_000_000_000n;
    for (const route of routes) {
      expect(route.dstAmountBase).toBeLessThan(market);
      expect(route.dstAmountBase).toBeGreaterThan((market * 98n) / 100n);
      expect(route.dstAmountBase % 10n ** 10n).toBe(0n);
      // The limit is ours: expected output less the slippage, with or without a memo to read it from.
      expect(route.dstMinAmountBase).toBe((((route.dstAmountBase / 10n ** 10n) * 9_900n) / 10_000n) * 10n ** 10n);
      expect(route.estimatedTimeSeconds).toBeGreaterThanOrEqual(600);
      expect(route.fee.usd).toBeNull();
      expect(route.fee.currency).toBe('ETH');
      expect(route.fee.formatted).toMatch(/^0\.\d+ ETH$/);
      expect(route.fee.details.map((d) => d.type)).toEqual(['network', 'liquidity']);
      for (const item of route.fee.details) {
        expect(item).toMatchObject({ currency: 'ETH', amountUsd: null });
        expect(Number(item.amount)).toBeGreaterThan(0);
      }
      expect(route.steps).toEqual([
        {
          type: 'swap',
          name: route.routeId === 'thorchain:streaming' ? 'THORChain streaming swap' : 'THORChain swap',
          image: expect.stringContaining('thorchain'),
        },
      ]);
      expect(route.expiresAt!.getTime() - Date.now()).toBeGreaterThan(14 * 60_000);
      expect(route.expiresAt!.getTime() - Date.now()).toBeLessThanOrEqual(15 * 60_000);
      expect(JSON.parse(JSON.stringify(route.providerQuote))).toEqual(route.providerQuote);
    }
    const streaming = routes.find((r) => r.routeId === 'thorchain:streaming')!;
    const rapid = routes.find((r) => r.routeId === 'thorchain:rapid')!;
    expect(streaming.estimatedTimeSeconds).toBeGreaterThan(rapid.estimatedTimeSeconds);

    const queries = quoteLog().map((entry) => queryOf(entry.path));
    expect(queries).toHaveLength(2);
    for (const q of queries) {
      expect(q.get('from_asset')).toBe('BTC.BTC');
      expect(q.get('to_asset')).toBe('ETH.ETH');
      expect(q.get('amount')).toBe('10000000');
      expect(q.get('liquidity_tolerance_bps')).toBe('100');
      expect(q.has('destination')).toBe(false);
    }
    expect(queries.map((q) => q.get('streaming_interval')).sort()).toEqual(['0', '1']);
    expect(queries.find((q) => q.get('streaming_interval') === '1')!.get('streaming_quantity')).toBe('0');
  });

  it('returns the same route ids for the same request', async () => {
    const first = await adapter.quote(quoteInput(btc, eth, 10_000_000n), testSignal());
    const second = await adapter.quote(quoteInput(btc, eth, 10_000_000n), testSignal());
    expect(second.map((r) => r.routeId)).toEqual(first.map((r) => r.routeId));
  });

  it('rescales an ERC-20 with 6 decimals to 1e8 and adds an approval step', async () => {
    const routes = await adapter.quote(quoteInput(usdc, btc, 1_000_000_000n), testSignal());
    expect(routes).toHaveLength(2);
    const q = queryOf(quoteLog()[0]!.path);
    expect(q.get('from_asset')).toBe('ETH.USDC-0XA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48');
    expect(q.get('amount')).toBe('100000000000');
    // 1,000 USDC / 95,000 = 0.01052631 BTC before fees.
    for (const route of routes) {
      expect(route.dstAmountBase).toBeLessThan(1_052_632n);
      expect(route.dstAmountBase).toBeGreaterThan(1_000_000n);
      expect(route.steps.map((s) => s.type)).toEqual(['approve', 'swap']);
      expect(route.fee.currency).toBe('BTC');
    }
  });

  it('rescales ATOM (6 decimals) and keeps the limit at the slippage when a recipient is known', async () => {
    const routes = await adapter.quote(
      quoteInput(atom, btc, 100_000_000n, { recipient: BTC_WALLET, depositor: ATOM_WALLET }),
      testSignal(),
    );
    const q = queryOf(quoteLog()[0]!.path);
    expect(q.get('amount')).toBe('10000000000');
    expect(q.get('destination')).toBe(BTC_WALLET);
    expect(q.get('refund_address')).toBe(ATOM_WALLET);
    for (const route of routes) {
      expect(route.dstMinAmountBase).toBe((route.dstAmountBase * 9_900n) / 10_000n);
    }
  });

  it('answers [] for pairs without a pool, amounts below the dust threshold, and unsupported pairs', async () => {
    expect(await adapter.quote(quoteInput(dai, btc, 10n ** 21n), testSignal())).toEqual([]);
    expect(await adapter.quote(quoteInput(btc, eth, 5_000n), testSignal())).toEqual([]);
    expect(await adapter.quote(quoteInput(btc, eth, 500n), testSignal())).toEqual([]);
    const logged = quoteLog().length;
    expect(await adapter.quote(quoteInput(rune, btc, 10n ** 10n), testSignal())).toEqual([]);
    expect(quoteLog()).toHaveLength(logged);
  });

  it('leaves out a swap below the recommended minimum that the node still quotes, and logs why', async () => {
    const answer = await fetch(`${sim.url}/thorchain/quote/swap?from_asset=BTC.BTC&to_asset=ETH.ETH&amount=11000`);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { recommended_min_amount_in: string; expected_amount_out: string };
    expect(BigInt(body.recommended_min_amount_in)).toBeGreaterThan(11_000n);
    expect(BigInt(body.expected_amount_out)).toBeGreaterThan(0n);

    const { logging, logged } = loggingAdapter();
    expect(await logging.quote(quoteInput(btc, eth, 11_000n), testSignal())).toEqual([]);
    const reason = expect.stringMatching(
      `11000 \\(1e8 units\\) is below THORChain's recommended minimum ${body.recommended_min_amount_in}`,
    );
    expect(logged).toEqual([
      { provider: 'THORCHAIN', routeId: 'thorchain:streaming', reason },
      { provider: 'THORCHAIN', routeId: 'thorchain:rapid', reason },
    ]);
    expect(
      await logging.quote(quoteInput(btc, eth, BigInt(body.recommended_min_amount_in)), testSignal()),
    ).toHaveLength(2);
  });

  it('at slippage 0, leaves out a route whose exact limit pushes the UTXO memo past 80 bytes, and logs why', async () => {
    const { logging, logged } = loggingAdapter();
    const input = quoteInput(btc, atom, 100_000_000n, { slippageBps: 0, recipient: LONG_ATOM_ADDRESS });
    expect(await logging.quote(input, testSignal())).toEqual([]);
    expect(logged.map((entry) => entry.reason)).toEqual([
      expect.stringMatching(/^the memo with the price limit \d+ does not fit the 80 bytes a bitcoin deposit carries$/),
      expect.stringMatching(/^the memo with the price limit \d+ does not fit the 80 bytes a bitcoin deposit carries$/),
    ]);
    // The node's own memo fits: it has no limit at slippage 0.
    expect(quoteLog().every((entry) => !entry.path.includes('liquidity_tolerance_bps'))).toBe(true);
    expect(await adapter.quote({ ...input, recipient: ATOM_WALLET }, testSignal())).toHaveLength(2);
  });

  it('keeps the surviving route when one of the two quotes fails', async () => {
    const partial = await startSimulator('thorchain-partial', [
      {
        method: 'GET',
        pattern: /^\/thorchain\/quote\/swap$/,
        kind: 'quote',
        handle: (req) =>
          req.url.searchParams.get('streaming_interval') === '1'
            ? { status: 500, body: { error: 'failed to simulate swap: internal' } }
            : { status: 200, body: COPIED_QUOTE_SAMPLE },
      },
    ]);
    try {
      const routes = await createThorchainAdapter(optionsFor(partial.url)).quote(
        quoteInput(btc, eth, 100_000_000n),
        testSignal(),
      );
      expect(routes).toHaveLength(1);
      expect(routes[0]).toMatchObject({
        routeId: 'thorchain:rapid',
        dstAmountBase: 16_193_555_200_000_000_000n,
        estimatedTimeSeconds: 2430,
        expiresAt: new Date(1689143119 * 1000),
        fee: { usd: null, currency: 'ETH', formatted: '0.0024 ETH' },
      });
      expect(routes[0]!.dstMinAmountBase).toBe(((1_619_355_520n * 9_900n) / 10_000n) * 10n ** 10n);
    } finally {
      await partial.close();
    }
  });

  it('calls the mayachain path for the Maya node', async () => {
    const mayaNode = await startSimulator('mayanode', [
      {
        method: 'GET',
        pattern: /^\/mayachain\/quote\/swap$/,
        kind: 'quote',
        handle: () => ({ status: 200, body: COPIED_QUOTE_SAMPLE }),
      },
    ]);
    try {
      const maya = createThorchainAdapter(optionsFor(mayaNode.url, { node: 'mayachain' }));
      const routes = await maya.quote(quoteInput(btc, eth, 10_000_000n), testSignal());
      expect(routes.map((r) => r.routeId).sort()).toEqual(['mayachain:rapid', 'mayachain:streaming']);
      expect(routes[0]!.steps.at(-1)!.name).toMatch(/^Maya Protocol/);
      expect(mayaNode.log.map((entry) => entry.path.split('?')[0])).toEqual([
        '/mayachain/quote/swap',
        '/mayachain/quote/swap',
      ]);
    } finally {
      await mayaNode.close();
    }
  });

  it('sends x-client-id only when an API key is configured', async () => {
    const keyed = createThorchainAdapter(optionsFor(sim.url, {}, 'switchyard-test'));
    await keyed.quote(quoteInput(btc, eth, 10_000_000n), testSignal());
    expect(sim.log.map((entry) => entry.headers['x-client-id'])).toEqual(['switchyard-test', 'switchyard-test']);
    sim.reset();
    await adapter.quote(quoteInput(btc, eth, 10_000_000n), testSignal());
    expect(sim.log.map((entry) => entry.headers['x-client-id'])).toEqual([undefined, undefined]);
  });
});

describe('quote faults', () => {
  quoteFaultContract(
    () => sim,
    (signal) => adapter.quote(quoteInput(btc, eth, 10_000_000n), signal),
  );
});

describe('execute', () => {
  it('UTXO source: manual deposit to the inbound address with the memo', async () => {
    const input = await executeInput(btc, eth, 10_000_000n, BTC_WALLET, EVM_WALLET);
    sim.reset();
    const result = await adapter.execute(input, testSignal());

    const q = queryOf(quoteLog()[0]!.path);
    expect(quoteLog()).toHaveLength(1);
    expect(q.get('destination')).toBe(EVM_WALLET);
    // A refund address would overflow the 80-byte OP_RETURN; THORChain refunds to the sender instead.
    expect(q.has('refund_address')).toBe(false);
    expect(q.get('streaming_interval')).toBe(input.routeId === 'thorchain:streaming' ? '1' : '0');

    const memo = result.providerResult.depositMemo!;
    expect(memo).toMatch(new RegExp(`^=:e:${EVM_WALLET}:\\d+(e\\d+)?(/1/0)?$`));
    expect(memo.length).toBeLessThanOrEqual(80);
    expect(result.providerResult).toEqual({
      status: 'AWAITING_DEPOSIT',
      depositAddress: SIM_BTC_VAULT,
      depositMemo: memo,
      execution: 'deposit-address',
    });
    const expiresAt = result.exec!.meta.expiresAt!;
    expect(result.exec).toEqual({
      chainId: null,
      providerTarget: SIM_BTC_VAULT,
      value: '10000000',
      srcToken: 'native',
      srcAmount: '10000000',
      meta: {
        selectedQuoteId: input.routeId,
        executionMode: 'deposit-address',
        walletExecution: false,
        depositAddress: SIM_BTC_VAULT,
        depositMemo: memo,
        expiresAt,
      },
    });
    expect(new Date(expiresAt).getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
    expect(result.trackingContext).toEqual({
      node: 'thorchain',
      fromAsset: 'BTC.BTC',
      toAsset: 'ETH.ETH',
      inboundAddress: SIM_BTC_VAULT,
      memo,
      expiry: Math.floor(new Date(expiresAt).getTime() / 1000),
    });
    expect(result.dstAmountBase).toBeGreaterThan(0n);
    expect(result.fee?.currency).toBe('ETH');
    expect(Object.keys(result.exec!.meta).every((k) => META_KEYS.has(k))).toBe(true);
    expect(result.depositDeadline).toEqual(new Date(expiresAt));
    expect(result.depositDeadline).toEqual(new Date((result.trackingContext.expiry as number) * 1000));
  });

  it('Cosmos source: deposit-address with the amount in uatom', async () => {
    const input = await executeInput(atom, btc, 100_000_000n, ATOM_WALLET, BTC_WALLET);
    const result = await adapter.execute(input, testSignal());
    expect(result.exec).toMatchObject({
      chainId: null,
      providerTarget: expect.stringMatching(/^cosmos1/),
      value: '100000000',
      srcToken: 'native',
      srcAmount: '100000000',
      meta: {
        executionMode: 'deposit-address',
        walletExecution: false,
        depositMemo: expect.stringMatching(new RegExp(`^=:b:${BTC_WALLET}/${ATOM_WALLET}:`)),
      },
    });
    expect(result.providerResult.status).toBe('AWAITING_DEPOSIT');
    expect(result.exec!.providerCalldata).toBeUndefined();
  });

  it('EVM native source: depositWithExpiry through the router with value', async () => {
    const input = await executeInput(eth, btc, 10n ** 18n, EVM_WALLET, BTC_WALLET);
    const result = await adapter.execute(input, testSignal());
    const inbound = (await (await fetch(`${sim.url}/thorchain/inbound_addresses`)).json()) as {
      chain: string;
      address: string;
      router?: string;
    }[];
    const ethVault = inbound.find((v) => v.chain === 'ETH')!;
    const exec = result.exec!;
    expect(exec.chainId).toBe(1);
    expect(exec.providerTarget).toBe(ethVault.router);
    expect(exec.value).toBe('1000000000000000000');
    expect(exec.srcToken).toBe('native');
    expect(exec.srcAmount).toBe('1000000000000000000');
    expect(exec.approvalTarget).toBeUndefined();
    expect(exec.approvalToken).toBeUndefined();
    expect(exec.meta).toEqual({
      selectedQuoteId: input.routeId,
      executionMode: 'evm-calldata',
      walletExecution: true,
      expiresAt: expect.any(String),
    });
    expect(exec.providerCalldata!.slice(0, 10)).toBe('0x44bc937b');
    const decoded = decodeFunctionData({ abi: THORCHAIN_ROUTER_ABI, data: exec.providerCalldata as `0x${string}` });
    const context = result.trackingContext as { memo: string; expiry: number; inboundAddress: string };
    expect(decoded.functionName).toBe('depositWithExpiry');
    expect(decoded.args).toEqual([ethVault.address, zeroAddress, 10n ** 18n, context.memo, BigInt(context.expiry)]);
    expect(context.inboundAddress).toBe(ethVault.address);
    expect(result.providerResult).toEqual({ status: 'AWAITING_WALLET', execution: 'evm-calldata' });
  });

  it('EVM token source: approval of the router for the token amount in its own decimals', async () => {
    const input = await executeInput(usdc, btc, 1_000_000_000n, EVM_WALLET, BTC_WALLET);
    const result = await adapter.execute(input, testSignal());
    const exec = result.exec!;
    expect(exec).toMatchObject({
      chainId: 1,
      value: '0',
      srcToken: usdc.address,
      srcAmount: '1000000000',
      approvalTarget: exec.providerTarget,
      approvalToken: usdc.address,
      approvalAmount: '1000000000',
    });
    const decoded = decodeFunctionData({ abi: THORCHAIN_ROUTER_ABI, data: exec.providerCalldata as `0x${string}` });
    expect(decoded.args?.[1]).toBe(usdc.address);
    expect(decoded.args?.[2]).toBe(1_000_000_000n);
    expect(String(decoded.args?.[3])).toMatch(new RegExp(`^=:b:${BTC_WALLET}/${EVM_WALLET}:`));
    expect(result.trackingContext).toMatchObject({ fromAsset: 'ETH.USDC-0XA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48' });
  });

  it('refuses unknown routes, RUNE sources and vanished routes', async () => {
    const input = await executeInput(btc, eth, 10_000_000n, BTC_WALLET, EVM_WALLET);
    await expectKind(adapter.execute({ ...input, routeId: 'thorchain:other' }, testSignal()), 'REJECTED');
    await expectKind(adapter.execute({ ...input, src: rune }, testSignal()), 'REJECTED');
    await expectKind(adapter.execute({ ...input, amountBase: 5_000n }, testSignal()), 'NO_ROUTE');
  });

  it('refuses an amount the node quotes but recommends against, saying why', async () => {
    const input = await executeInput(btc, eth, 10_000_000n, BTC_WALLET, EVM_WALLET);
    await expect(adapter.execute({ ...input, amountBase: 11_000n }, testSignal())).rejects.toMatchObject({
      kind: 'NO_ROUTE',
      message: expect.stringMatching(/is below THORChain's recommended minimum/),
    });
  });

  it('at slippage 0, refuses to hand out a memo its limit pushes past 80 bytes', async () => {
    const [route] = await adapter.quote(quoteInput(btc, atom, 100_000_000n, { slippageBps: 0 }), testSignal());
    const input: ExecuteInput = {
      ...quoteInput(btc, atom, 100_000_000n, { slippageBps: 0 }),
      depositor: BTC_WALLET,
      recipient: LONG_ATOM_ADDRESS,
      routeId: route!.routeId,
      providerQuote: route!.providerQuote,
      transactionId: 'tx_test',
    };
    await expect(adapter.execute(input, testSignal())).rejects.toMatchObject({
      kind: 'NO_ROUTE',
      message: expect.stringMatching(/does not fit the 80 bytes a bitcoin deposit carries/),
    });
  });
});

describe('status over HTTP', () => {
  // The simulator takes an unknown hash for a 0.1 BTC deposit from its default wallet.
  const statusInput = (hash: string, dst: RouteAsset, toAsset: string): StatusInput => ({
    trackingContext: { node: 'thorchain', fromAsset: 'BTC.BTC', toAsset },
    hash,
    inboundHash: '',
    src: btc,
    dst,
    createdAt: new Date(),
    depositor: BTC_WALLET,
    recipient: EVM_WALLET,
    srcAmountBase: 10_000_000n,
  });

  async function walk(input: StatusInput): Promise<StatusResult[]> {
    const seen: StatusResult[] = [];
    for (let i = 0; i < 15; i++) {
      const result = await adapter.status(input, testSignal());
      seen.push(result);
      if (result.status !== 'PENDING') break;
    }
    return seen;
  }

  it('tracks only with a hash', () => {
    expect(adapter.canTrack({ node: 'thorchain' }, '')).toBe(false);
    expect(adapter.canTrack({ node: 'thorchain' }, '  ')).toBe(false);
    expect(adapter.canTrack({ node: 'thorchain' }, 'ABC')).toBe(true);
    expect(adapter.pollIntervalMs).toBe(10_000);
  });

  it('success: walks the stages to SUCCESS with the outbound hash and amount', async () => {
    sim.configure({ outcome: 'success', settleAfterPolls: 5 });
    const hash = randomHash('success');
    const seen = await walk(statusInput(hash.toLowerCase(), eth, 'ETH.ETH'));
    expect(seen.map((s) => s.upstreamState)).toEqual([
      'inbound_confirmation_counting',
      'inbound_confirmation_counted',
      'swap_pending',
      'outbound_delay',
      'outbound_scheduled',
      'completed',
    ]);
    expect(seen.slice(0, -1).every((s) => s.status === 'PENDING' && !s.notFound)).toBe(true);
    const final = seen.at(-1)!;
    expect(final.status).toBe('SUCCESS');
    expect(final.inboundHash).toBe(hash.toLowerCase());
    expect(final.outboundHash).toBe(`0x${fakeHex(`thorchain-sim:OUT:${hash}`)}`);
    // 0.1 BTC → ETH at the simulator's rapid price, rescaled from 1e8 to 18 decimals.
    expect(final.dstAmountBase! % 10n ** 10n).toBe(0n);
    expect(final.dstAmountBase!).toBeGreaterThan(2_900_000_000_000_000_000n);
    expect(sim.log.every((entry) => entry.path === `/thorchain/tx/status/${hash}`)).toBe(true);
  });

  it('an inbound still counting confirmations is PENDING, never FAILED, and the swap goes on to SUCCESS', async () => {
    sim.configure({ outcome: 'success', settleAfterPolls: 10 });
    const hash = randomHash('unconfirmed');
    const first = (await fetch(`${sim.url}/thorchain/tx/status/${hash}`).then((r) => r.json())) as {
      stages: Record<string, unknown>;
    };
    // What querier.go writes before the inbound is final: not pending, and no swap_finalised at all.
    expect(first.stages).toEqual({
      inbound_observed: { pre_confirmation_count: 1, final_count: 0, completed: true },
      inbound_confirmation_counted: expect.objectContaining({ remaining_confirmation_seconds: 600, completed: false }),
      inbound_finalised: { completed: false },
      swap_status: { pending: false },
    });
    const seen = await walk(statusInput(hash, eth, 'ETH.ETH'));
    expect(seen[0]).toMatchObject({
      status: 'PENDING',
      substatus: 'WAITING_SOURCE_CONFIRMATIONS',
      upstreamState: 'inbound_confirmation_counting',
    });
    expect(seen.filter((s) => s.status !== 'PENDING')).toHaveLength(1);
    expect(seen.at(-1)).toMatchObject({ status: 'SUCCESS', substatus: 'COMPLETED' });
  });

  it('refund: PENDING "refund in progress" then REFUND with the refund tx', async () => {
    sim.configure({ outcome: 'refund', settleAfterPolls: 6 });
    const hash = randomHash('refund');
    const seen = await walk(statusInput(hash, eth, 'ETH.ETH'));
    expect(seen.some((s) => s.status === 'PENDING' && s.detail === 'refund in progress')).toBe(true);
    const final = seen.at(-1)!;
    expect(final).toMatchObject({ status: 'REFUND', upstreamState: 'refunded', inboundHash: hash.toLowerCase() });
    expect(final.outboundHash).toBe(fakeHex(`thorchain-sim:REFUND:${hash}`));
    expect(final.dstAmountBase).toBeUndefined();
  });

  it('failure: a swap finalised with no outbound ends FAILED', async () => {
    sim.configure({ outcome: 'failure', settleAfterPolls: 4 });
    const seen = await walk(statusInput(randomHash('failure'), eth, 'ETH.ETH'));
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.slice(0, -1).every((s) => s.status === 'PENDING')).toBe(true);
    expect(seen.at(-1)).toMatchObject({ status: 'FAILED', upstreamState: 'failed' });
  });

  it('THOR-native destination registered through the observe endpoint succeeds on swap_finalised', async () => {
    const hash = randomHash('rune');
    const response = await fetch(`${sim.url}/__sim/thorchain/observe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        hash,
        outcome: 'success',
        fromAsset: 'BTC.BTC',
        toAsset: 'THOR.RUNE',
        amount: '10000000',
      }),
    });
    expect(response.status).toBe(200);
    sim.configure({ outcome: 'failure' });
    const seen = await walk(statusInput(hash, rune, 'THOR.RUNE'));
    const final = seen.at(-1)!;
    expect(final.status).toBe('SUCCESS');
    expect(final.outboundHash).toBeUndefined();
    // 0.1 BTC ≈ 7,916 RUNE at seed prices (95,000 / 1.2), in RUNE's own 8 decimals.
    expect(final.dstAmountBase!).toBeGreaterThan(780_000_000_000n);
    expect(final.dstAmountBase!).toBeLessThan(791_666_666_667n);
  });

  it("an observed deposit pays the destination its memo names, not the latest quote's", async () => {
    const hash = fakeHex('memo-destination');
    const named = '0x00000000000000000000000000000000000000aa';
    sim.observe({ hash, memo: `=:ETH.ETH:${named}`, fromAsset: 'BTC.BTC', toAsset: 'ETH.ETH', amount: '10000000' });
    sim.configure({ settleAfterPolls: 0 });
    const answer = await fetch(`${sim.url}/thorchain/tx/status/${hash}`).then((r) => r.json());
    expect(answer.out_txs[0].to_address).toBe(named);
  });

  it('EVM inbound hash: strips 0x for the node and reports 0x-prefixed hashes back', async () => {
    const hash = fakeHex('evm-inbound');
    sim.observe({ hash: `0x${hash}`, fromAsset: 'ETH.ETH', toAsset: 'BTC.BTC', amount: '100000000' });
    sim.configure({ settleAfterPolls: 0 });
    const input: StatusInput = {
      ...statusInput(`0x${hash}`, btc, 'BTC.BTC'),
      trackingContext: { node: 'thorchain', fromAsset: 'ETH.ETH', toAsset: 'BTC.BTC' },
      src: eth,
      depositor: EVM_WALLET,
      srcAmountBase: 10n ** 18n,
    };
    const result = await adapter.status(input, testSignal());
    expect(sim.log[0]!.path).toBe(`/thorchain/tx/status/${hash.toUpperCase()}`);
    expect(result.status).toBe('SUCCESS');
    expect(result.inboundHash).toBe(`0x${hash}`);
    expect(result.outboundHash).toBe(fakeHex(`thorchain-sim:OUT:${hash.toUpperCase()}`));
    expect(result.dstAmountBase).toBeGreaterThan(3_000_000n);
  });

  it('an id the node cannot read is PENDING notFound, not an error', async () => {
    const result = await adapter.status(statusInput('not-a-hash', eth, 'ETH.ETH'), testSignal());
    expect(result).toMatchObject({ status: 'PENDING', notFound: true, upstreamState: 'not_found' });
  });

  it.each([
    ['error5xx', 'UNAVAILABLE'],
    ['ratelimit', 'RATE_LIMITED'],
    ['malformed', 'BAD_RESPONSE'],
    ['redirect', 'BAD_RESPONSE'],
  ] as [Fault, ProviderErrorKind][])('status %s → %s', async (fault, kind) => {
    sim.configure({ faults: { status: fault } });
    await expectKind(adapter.status(statusInput(randomHash('fault'), eth, 'ETH.ETH'), testSignal()), kind);
  });
});

describe('mapTxStatus', () => {
  const ethContext: StatusMappingContext = {
    toAsset: 'ETH.ETH',
    nativeChain: 'THOR',
    dstDecimals: 18,
    dstNodeDecimals: 8,
  };
  const IN_HASH = 'CF524818D42B63D25BBA0CCC4909F127CAA645C0F9CD07324F2824CC151A64C7';
  const OUT_HASH = '8B26B458D3A1F4E0C9B7A6D5E4F3A2B1C0D9E8F7A6B5C4D3E2F1A0B9C8D7E6F5';
  const inboundTx = {
    id: IN_HASH,
    chain: 'BTC',
    from_address: 'bc1q…',
    to_address: 'bc1qt9723ak9t7lu7a97lt9kelq4gnrlmyvk4yhzwr',
    coins: [{ asset: 'BTC.BTC', amount: '100000000' }],
    gas: [{ asset: 'BTC.BTC', amount: '2500' }],
    memo: '=:ETH.ETH:0x86d526d6624AbC0178cF7296cD538Ecc080A95F1',
  };
  // Illustrative full sample from THORNode's docs (the out hash, trimmed there, is completed here).
  const successSample = {
    tx: inboundTx,
    planned_out_txs: [
      { chain: 'ETH', to_address: '0x86d5…', coin: { asset: 'ETH.ETH', amount: '1619355520' }, refund: false },
    ],
    out_txs: [
      {
        id: OUT_HASH,
        chain: 'ETH',
        from_address: '0x…vault',
        to_address: '0x86d5…',
        coins: [{ asset: 'ETH.ETH', amount: '1619355520' }],
        gas: [{ asset: 'ETH.ETH', amount: '240000' }],
        memo: `OUT:${IN_HASH}`,
      },
    ],
    stages: {
      inbound_observed: { final_count: 80, completed: true },
      inbound_confirmation_counted: { completed: true },
      inbound_finalised: { completed: true },
      swap_status: { pending: false },
      swap_finalised: { completed: true },
      outbound_delay: { completed: true },
      outbound_signed: { completed: true },
    },
  };
  // Copied stages sample (NOWNodes mirror of the thornode OpenAPI examples).
  const copiedStages = {
    inbound_observed: { started: false, pre_confirmation_count: 80, final_count: 80, completed: false },
    inbound_confirmation_counted: {
      counting_start_height: 1234,
      chain: 'BTC',
      external_observed_height: 16042625,
      external_confirmation_delay_height: 16042626,
      remaining_confirmation_seconds: 600,
      completed: false,
    },
    inbound_finalised: { completed: false },
    swap_status: { pending: false, streaming: { interval: 1, quantity: 1, count: 1 } },
    swap_finalised: { completed: false },
    outbound_delay: { remaining_delay_blocks: 5, remaining_delay_seconds: 30, completed: false },
    outbound_signed: { scheduled_outbound_height: 1234, blocks_since_scheduled: 1234, completed: false },
  };
  const observedOnly = { inbound_observed: { started: true, final_count: 1, completed: true } };
  const map = (body: unknown, ctx = ethContext) => mapTxStatus(body as StatusAnswer, ctx);
  const refundOut = { ...successSample.out_txs[0], id: 'AA'.repeat(32), chain: 'BTC', memo: `REFUND:${IN_HASH}` };
  const plannedRefund = [
    { chain: 'BTC', to_address: 'bc1q…', coin: { asset: 'BTC.BTC', amount: '99000000' }, refund: true },
  ];

  it.each([
    [{ error: 'rpc error: code = Unknown desc = internal' }],
    [{ code: 3, message: 'fail to parse tx id', details: [] }],
  ])('error body %j → PENDING notFound', (body) => {
    expect(map(body)).toMatchObject({ status: 'PENDING', notFound: true, upstreamState: 'not_found' });
  });

  it('stages with nothing observed and no tx → PENDING notFound', () => {
    expect(map({ stages: copiedStages })).toMatchObject({ status: 'PENDING', notFound: true });
  });

  it('copied stages sample with a tx: outbound delay pending → PENDING, on its way (the delay is planned)', () => {
    const result = map({ tx: inboundTx, stages: copiedStages });
    expect(result).toMatchObject({
      status: 'PENDING',
      upstreamState: 'outbound_delay',
      substatus: 'WAITING_DESTINATION',
    });
    expect(result.detail).toContain('30s');
    expect(result.notFound).toBeUndefined();
  });

  it('inbound observation not yet completed → PENDING', () => {
    const result = map({ tx: inboundTx, stages: { inbound_observed: { started: true, completed: false } } });
    expect(result).toMatchObject({
      status: 'PENDING',
      upstreamState: 'inbound_observing',
      inboundHash: IN_HASH.toLowerCase(),
    });
  });

  it('confirmation counting in progress → PENDING with the remaining time', () => {
    const result = map({
      tx: inboundTx,
      stages: {
        ...observedOnly,
        inbound_confirmation_counted: { remaining_confirmation_seconds: 600, completed: false },
      },
    });
    expect(result).toMatchObject({ status: 'PENDING', upstreamState: 'inbound_confirmation_counting' });
    expect(result.detail).toContain('600s');
  });

  it('swap_status.pending (streaming) → PENDING', () => {
    const result = map({
      tx: inboundTx,
      stages: {
        ...observedOnly,
        inbound_finalised: { completed: true },
        swap_status: { pending: true, streaming: { interval: 1, quantity: 10, count: 3 } },
        swap_finalised: { completed: false },
      },
    });
    expect(result).toMatchObject({ status: 'PENDING', upstreamState: 'swap_pending', detail: 'streaming swap 3/10' });
  });

  it('outbound_delay.completed false → PENDING even with planned outs', () => {
    const result = map({
      ...successSample,
      out_txs: [],
      stages: { ...successSample.stages, outbound_delay: { remaining_delay_seconds: 90, completed: false } },
    });
    expect(result).toMatchObject({ status: 'PENDING', upstreamState: 'outbound_delay' });
  });

  it('swap finalised and outbound done (memo OUT:) → SUCCESS with outbound hash and amount', () => {
    expect(map(successSample)).toEqual({
      status: 'SUCCESS',
      detail: 'swap complete',
      upstreamState: 'completed',
      substatus: 'COMPLETED',
      inboundHash: IN_HASH.toLowerCase(),
      outboundHash: `0x${OUT_HASH.toLowerCase()}`,
      dstAmountBase: 1_619_355_520n * 10n ** 10n,
    });
  });

  it('fewer out_txs than planned → PENDING', () => {
    const twoPlanned = [...successSample.planned_out_txs, ...successSample.planned_out_txs];
    expect(map({ ...successSample, planned_out_txs: twoPlanned }).status).toBe('PENDING');
  });

  it('newer nodes without swap_finalised: swap_status.pending false and outs complete → SUCCESS', () => {
    const { swap_finalised: _dropped, ...stages } = successSample.stages;
    expect(map({ ...successSample, stages }).status).toBe('SUCCESS');
  });

  it('planned refund without its out tx → PENDING "refund in progress"', () => {
    const result = map({ ...successSample, planned_out_txs: plannedRefund, out_txs: [] });
    expect(result).toMatchObject({ status: 'PENDING', detail: 'refund in progress', upstreamState: 'refund_pending' });
  });

  it('refund out tx present but outbound_signed not completed → PENDING', () => {
    const stages = { ...successSample.stages, outbound_signed: { completed: false } };
    const result = map({ ...successSample, planned_out_txs: plannedRefund, out_txs: [refundOut], stages });
    expect(result.detail).toBe('refund in progress');
  });

  it('planned refund with its REFUND: out tx signed → REFUND with the refund hash and what came back', () => {
    const btcBack = { ...refundOut, coins: [{ asset: 'BTC.BTC', amount: '98990000' }] };
    const result = map(
      { ...successSample, planned_out_txs: plannedRefund, out_txs: [btcBack] },
      {
        ...ethContext,
        srcDecimals: 8,
      },
    );
    expect(result).toEqual({
      status: 'REFUND',
      detail: 'swap refunded to the source chain',
      upstreamState: 'refunded',
      substatus: 'REFUNDED',
      inboundHash: IN_HASH.toLowerCase(),
      outboundHash: 'aa'.repeat(32),
      refund: { amountBase: 98_990_000n, hash: 'aa'.repeat(32) },
    });
    // Before the refund is sent, the planned amount; without the source decimals, no amount at all.
    expect(
      map({ ...successSample, planned_out_txs: plannedRefund, out_txs: [] }, { ...ethContext, srcDecimals: 18 }).refund,
    ).toEqual({ amountBase: 990_000_000_000_000_000n });
    expect(map({ ...successSample, planned_out_txs: plannedRefund, out_txs: [btcBack] }).refund).toEqual({
      hash: 'aa'.repeat(32),
    });
  });

  it('a REFUND: memo alone (no refund flag) is a refund', () => {
    const result = map({ ...successSample, planned_out_txs: [], out_txs: [refundOut] });
    expect(result.status).toBe('REFUND');
  });

  it('THOR-native destination → SUCCESS on swap_finalised, without a zero outbound hash', () => {
    const ctx = { ...ethContext, toAsset: 'THOR.RUNE', dstDecimals: 8 };
    const nativeOut = { id: '0'.repeat(64), chain: 'THOR', coins: [{ asset: 'THOR.RUNE', amount: '791000000000' }] };
    const result = map(
      {
        tx: inboundTx,
        planned_out_txs: [{ chain: 'THOR', coin: nativeOut.coins[0], refund: false }],
        out_txs: [nativeOut],
        stages: { ...observedOnly, swap_status: { pending: false }, swap_finalised: { completed: true } },
      },
      ctx,
    );
    expect(result).toMatchObject({ status: 'SUCCESS', dstAmountBase: 791_000_000_000n });
    expect(result.outboundHash).toBeUndefined();
    const pending = map({ tx: inboundTx, stages: { ...observedOnly, swap_finalised: { completed: false } } }, ctx);
    expect(pending.status).toBe('PENDING');
  });

  it('inbound still counting confirmations, as the node writes it (pending false, no swap_finalised) → PENDING', () => {
    const unconfirmed = {
      inbound_observed: { pre_confirmation_count: 3, final_count: 0, completed: true },
      inbound_confirmation_counted: {
        counting_start_height: 19500000,
        chain: 'BTC',
        external_observed_height: 850000,
        external_confirmation_delay_height: 850002,
        remaining_confirmation_seconds: 1200,
        completed: false,
      },
      inbound_finalised: { completed: false },
      swap_status: { pending: false },
    };
    expect(map({ tx: inboundTx, stages: unconfirmed })).toMatchObject({
      status: 'PENDING',
      substatus: 'WAITING_SOURCE_CONFIRMATIONS',
      upstreamState: 'inbound_confirmation_counting',
    });
    const final = {
      ...unconfirmed,
      inbound_confirmation_counted: { completed: true },
      swap_finalised: { completed: false },
    };
    expect(map({ tx: inboundTx, stages: final })).toMatchObject({
      status: 'PENDING',
      upstreamState: 'inbound_confirmation_counted',
    });
  });

  it('settled by swap_status alone with nothing planned → PENDING awaiting the outbound, not FAILED', () => {
    const stages = { ...observedOnly, inbound_finalised: { completed: true }, swap_status: { pending: false } };
    expect(map({ tx: inboundTx, stages })).toMatchObject({
      status: 'PENDING',
      upstreamState: 'swap_finalised',
      substatus: 'WAITING_DESTINATION',
    });
  });

  it('THOR-native destination finalised with nothing planned or sent → FAILED, not SUCCESS', () => {
    const ctx = { ...ethContext, toAsset: 'THOR.RUNE', dstDecimals: 8 };
    const stages = { ...observedOnly, inbound_finalised: { completed: true }, swap_finalised: { completed: true } };
    expect(map({ tx: inboundTx, stages }, ctx)).toMatchObject({ status: 'FAILED', upstreamState: 'failed' });
  });

  it('swap finalised with neither planned nor sent outbound → FAILED', () => {
    const result = map({
      tx: { ...inboundTx, memo: '=:ETH.ETH:not-an-address' },
      stages: { ...observedOnly, swap_status: { pending: false }, swap_finalised: { completed: true } },
    });
    expect(result).toMatchObject({ status: 'FAILED', upstreamState: 'failed', inboundHash: IN_HASH.toLowerCase() });
  });

  it('Maya CACAO destination rescales from 1e10', () => {
    const ctx = { toAsset: 'MAYA.CACAO', nativeChain: 'MAYA', dstDecimals: 10, dstNodeDecimals: 10 };
    const result = map(
      {
        tx: inboundTx,
        planned_out_txs: [{ chain: 'MAYA', coin: { asset: 'MAYA.CACAO', amount: '12345678901' }, refund: false }],
        stages: { ...observedOnly, swap_finalised: { completed: true } },
      },
      ctx,
    );
    expect(result).toMatchObject({ status: 'SUCCESS', dstAmountBase: 12_345_678_901n });
  });
});
