import { Cell, Address as TonAddress } from '@ton/core';
import { decodeFunctionData, getAddress, parseAbi } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routeAsset, testSignal } from '../../../test/support/route-assets';
import { isProviderError } from '../errors';
import type { RunningSimulator } from '../simulator-kit';
import type { ExecPayload, QuoteInput, RouteAsset, StatusInput, StatusResult } from '../types';
import { createRelayAdapter, type RelayAdapter } from './adapter';
import { startRelaySimulator } from './simulator';
import { mapRelayStatus, RELAY_FAILURE_FINAL_AFTER_MS } from './status';
import { RELAY_NATIVE_CURRENCY, RELAY_PLACEHOLDER_ADDRESS, relayStatusSchema } from './wire';

const EVM_USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const EVM_RECIPIENT = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const SOL_USER = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const TON_USER = new TonAddress(0, Buffer.alloc(32, 7)).toString({ bounceable: false });
const BTC_RECIPIENT = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const depositoryAbi = parseAbi([
  'function depositNative(address depositor, bytes32 id) payable',
  'function depositErc20(address depositor, address currency, uint256 amount, bytes32 id)',
]);

const asset = {
  ethUsdc: routeAsset('ethereum', 'USDC'),
  ethEth: routeAsset('ethereum', 'ETH'),
  arbUsdc: routeAsset('arbitrum', 'USDC'),
  baseEth: routeAsset('base', 'ETH'),
  sol: routeAsset('solana', 'SOL'),
  solUsdc: routeAsset('solana', 'USDC'),
  ton: routeAsset('ton', 'TON'),
  tonUsdt: routeAsset('ton', 'USDT'),
  btc: routeAsset('bitcoin', 'BTC'),
  rune: routeAsset('thorchain', 'RUNE'),
};

let sim: RunningSimulator;
let adapter: RelayAdapter;

const adapterWith = (apiKey?: string, now?: () => number) =>
  createRelayAdapter({
    config: { key: 'RELAY', enabled: true, baseUrl: sim.url, apiKey, deadlineMs: 2500 },
    baseUrl: sim.url,
    now,
  });
/** An adapter whose clock is past the time a `failure` may hold, so a failure it reads is final. */
const failureSettledAdapter = () => adapterWith(undefined, () => Date.now() + RELAY_FAILURE_FINAL_AFTER_MS);

const quoteInput = (src: RouteAsset, dst: RouteAsset, amountBase: bigint, extra: Partial<QuoteInput> = {}) => ({
  src,
  dst,
  amountBase,
  slippageBps: 100,
  ...extra,
});

const executeInput = (src: RouteAsset, dst: RouteAsset, amountBase: bigint, depositor: string, recipient: string) => ({
  ...quoteInput(src, dst, amountBase),
  depositor,
  recipient,
  routeId: 'relay:swap',
  providerQuote: {},
  transactionId: 'tx_test',
});

/** The JSON body of the adapter's last `POST /quote/v2`, as the simulator received it. */
function lastQuoteBody(): Record<string, unknown> {
  const call = sim.log.filter((entry) => entry.method === 'POST' && entry.path === '/quote/v2').at(-1);
  return call?.body as Record<string, unknown>;
}

/** The data of the first item of the first step in `exec.allSteps`. */
function firstItemData<T>(exec: ExecPayload | undefined): T {
  const items = (exec?.allSteps?.[0]?.items ?? []) as { data?: unknown }[];
  return items[0]?.data as T;
}

async function failureKind(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return isProviderError(error) ? error.kind : `unexpected: ${String(error)}`;
  }
}

const within = (actual: bigint, expected: bigint, bps: bigint) => {
  const diff = actual > expected ? actual - expected : expected - actual;
  return diff * 10_000n <= expected * bps;
};

beforeAll(async () => {
  sim = await startRelaySimulator({ port: 0 });
  adapter = adapterWith();
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => {
  sim.reset();
});

describe('supports', () => {
  it.each([
    ['ERC-20 to ERC-20 across EVM chains', asset.ethUsdc, asset.arbUsdc, true],
    ['TON to EVM', asset.ton, asset.baseEth, true],
    ['Solana to Bitcoin', asset.sol, asset.btc, true],
    ['EVM to TON jetton', asset.ethEth, asset.tonUsdt, true],
    ['a Bitcoin source (PSBT, unsupported)', asset.btc, asset.ethEth, false],
    ['a chain without a Relay id', asset.rune, asset.ethEth, false],
    ['the same asset', asset.ethEth, asset.ethEth, false],
  ])('%s → %s', (_name, src, dst, expected) => {
    expect(adapter.supports(src, dst)).toBe(expected);
  });
});

describe('quote', () => {
  it('prices an ERC-20 bridge with Relay USD values, fees, steps and the minimum out', async () => {
    const amount = 1_000_000_000n;
    const [route, ...rest] = await adapter.quote(quoteInput(asset.ethUsdc, asset.arbUsdc, amount), testSignal());
    expect(rest).toHaveLength(0);
    expect(route?.routeId).toBe('relay:bridge');
    expect(route && within(route.dstAmountBase, amount, 100n)).toBe(true);
    expect(route?.dstAmountBase).toBeLessThan(amount);
    const expectedMin = ((route?.dstAmountBase ?? 0n) * 9_900n) / 10_000n;
    expect(route?.dstMinAmountBase).toBe(expectedMin);
    expect(route?.srcUsd).toBe('1000.00');
    expect(Number(route?.dstUsd)).toBeGreaterThan(990);
    expect(route?.estimatedTimeSeconds).toBe(24);
    expect(route?.steps.map((s) => s.type)).toEqual(['approve', 'bridge']);
    expect(route?.fee.details.map((d) => d.type)).toEqual(['gas', 'relayer']);
    const itemsUsd = route?.fee.details.reduce((sum, d) => sum + (d.amountUsd ?? 0), 0) ?? 0;
    expect(Number(route?.fee.usd)).toBeCloseTo(itemsUsd, 2);
    expect(route?.fee.formatted).toBe(`$${route?.fee.usd}`);
    expect(JSON.parse(JSON.stringify(route?.providerQuote))).toEqual(route?.providerQuote);

    const body = lastQuoteBody();
    expect(body).toEqual({
      user: RELAY_PLACEHOLDER_ADDRESS.evm,
      originChainId: 1,
      destinationChainId: 42161,
      originCurrency: asset.ethUsdc.address,
      destinationCurrency: asset.arbUsdc.address,
      amount: '1000000000',
      tradeType: 'EXACT_INPUT',
      recipient: RELAY_PLACEHOLDER_ADDRESS.evm,
      slippageTolerance: '100',
      refundTo: RELAY_PLACEHOLDER_ADDRESS.evm,
      referrer: 'switchyard',
    });
  });

  it('keeps the routeId stable across identical quotes', async () => {
    const input = quoteInput(asset.ethEth, asset.sol, 10n ** 18n);
    const [first] = await adapter.quote(input, testSignal());
    const [second] = await adapter.quote(input, testSignal());
    expect(first?.routeId).toBe('relay:swap');
    expect(second?.routeId).toBe(first?.routeId);
  });

  it('converts ETH to SOL at the seed price ratio and names Solana native by its Relay id', async () => {
    const [route] = await adapter.quote(quoteInput(asset.ethEth, asset.sol, 10n ** 18n), testSignal());
    // 1 ETH at $3200 is 17.777… SOL at $180; fees and the 30 bps swap cost stay under 1%.
    expect(route && within(route.dstAmountBase, 17_777_777_777n, 100n)).toBe(true);
    expect(route?.steps.map((s) => s.type)).toEqual(['swap']);
    const body = lastQuoteBody();
    expect(body.originCurrency).toBe(RELAY_NATIVE_CURRENCY.evm);
    expect(body.destinationCurrency).toBe('11111111111111111111111111111111');
    expect(body.destinationChainId).toBe(792703809);
    expect(body.recipient).toBe(RELAY_PLACEHOLDER_ADDRESS.svm);
  });

  it('quotes a TON source with the TON placeholder user and native id', async () => {
    const [route] = await adapter.quote(quoteInput(asset.ton, asset.baseEth, 1_000_000_000_000n), testSignal());
    // 1000 TON at $3 is $3000, 0.9375 ETH at $3200.
    expect(route && within(route.dstAmountBase, 937_500_000_000_000_000n, 100n)).toBe(true);
    expect(route?.estimatedTimeSeconds).toBe(10);
    const body = lastQuoteBody();
    expect(body.user).toBe(RELAY_PLACEHOLDER_ADDRESS.tonvm);
    expect(body.originChainId).toBe(224235520);
    expect(body.originCurrency).toBe(RELAY_NATIVE_CURRENCY.tonvm);
  });

  it("quotes a Solana token source and a Bitcoin destination, with the SDK's current Bitcoin placeholder", async () => {
    const [route] = await adapter.quote(quoteInput(asset.solUsdc, asset.btc, 950_000_000n), testSignal());
    // $950 of USDC is 0.01 BTC (1_000_000 sats) at $95000.
    expect(route && within(route.dstAmountBase, 1_000_000n, 100n)).toBe(true);
    const body = lastQuoteBody();
    expect(body.user).toBe(RELAY_PLACEHOLDER_ADDRESS.svm);
    expect(body.originCurrency).toBe(asset.solUsdc.address);
    // relay-kit `packages/sdk/src/constants/address.ts` bitcoinDeadAddress.
    expect(body.recipient).toBe('34xp4vRoCGJym3xR7yCVPFHoCNxv4Twseo');
  });

  it('uses a known depositor when it fits the origin chain, and the placeholder when it does not', async () => {
    await adapter.quote(
      quoteInput(asset.ethUsdc, asset.sol, 100_000_000n, { depositor: EVM_USER, recipient: SOL_USER }),
      testSignal(),
    );
    expect(lastQuoteBody()).toMatchObject({ user: EVM_USER, recipient: SOL_USER, refundTo: EVM_USER });
    await adapter.quote(
      quoteInput(asset.ton, asset.ethEth, 10n ** 12n, { depositor: EVM_USER, recipient: SOL_USER }),
      testSignal(),
    );
    expect(lastQuoteBody()).toMatchObject({
      user: RELAY_PLACEHOLDER_ADDRESS.tonvm,
      recipient: RELAY_PLACEHOLDER_ADDRESS.evm,
    });
  });

  it('asks /quote/v2, not the deprecated /quote, at quote and at execute', async () => {
    await adapter.quote(quoteInput(asset.ethEth, asset.baseEth, 10n ** 18n), testSignal());
    await adapter.execute(executeInput(asset.ethEth, asset.baseEth, 10n ** 18n, EVM_USER, EVM_RECIPIENT), testSignal());
    expect(sim.log.map((entry) => `${entry.method} ${entry.path}`)).toEqual(['POST /quote/v2', 'POST /quote/v2']);
  });

  it('answers [] for an unsupported pair without calling Relay', async () => {
    expect(await adapter.quote(quoteInput(asset.btc, asset.ethEth, 100_000n), testSignal())).toEqual([]);
    expect(sim.log).toHaveLength(0);
  });

  it.each([
    ['the noroute fault (NO_SWAP_ROUTES_FOUND)', () => sim.configure({ faults: { quote: 'noroute' } }), 10n ** 9n],
    ['an amount below fees (AMOUNT_TOO_LOW)', () => {}, 1n],
  ])('answers [] for %s', async (_name, arrange, amount) => {
    arrange();
    expect(await adapter.quote(quoteInput(asset.ethUsdc, asset.arbUsdc, amount), testSignal())).toEqual([]);
    expect(sim.log.map((e) => e.kind)).toEqual(['quote']);
  });

  it('answers [] for a currency Relay does not know', async () => {
    const unknownToken = { ...asset.ethUsdc, id: 9999, address: getAddress(`0x${'ab'.repeat(20)}`) };
    expect(await adapter.quote(quoteInput(unknownToken, asset.arbUsdc, 10n ** 9n), testSignal())).toEqual([]);
  });

  it('times out a slow Relay as UNAVAILABLE', async () => {
    sim.configure({ slowMs: 1500, faults: { quote: 'slow' } });
    const started = Date.now();
    const kind = await failureKind(adapter.quote(quoteInput(asset.ethEth, asset.baseEth, 10n ** 18n), testSignal(300)));
    expect(kind).toBe('UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(1200);
  });

  it('gives up on a hanging Relay within the configured deadline', async () => {
    sim.configure({ faults: { quote: 'hang' } });
    const started = Date.now();
    const kind = await failureKind(
      adapter.quote(quoteInput(asset.ethEth, asset.baseEth, 10n ** 18n), testSignal(60_000)),
    );
    expect(kind).toBe('UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(3500);
  });

  it.each([
    ['error5xx', 'UNAVAILABLE'],
    ['ratelimit', 'RATE_LIMITED'],
    ['malformed', 'BAD_RESPONSE'],
    ['oversized', 'BAD_RESPONSE'],
    ['redirect', 'BAD_RESPONSE'],
  ] as const)('maps the %s fault to %s', async (fault, expected) => {
    sim.configure({ faults: { quote: fault } });
    const kind = await failureKind(adapter.quote(quoteInput(asset.ethEth, asset.baseEth, 10n ** 18n), testSignal()));
    expect(kind).toBe(expected);
  });

  it('sends the x-api-key header only when a key is configured', async () => {
    await adapterWith('relay-secret').quote(quoteInput(asset.ethEth, asset.baseEth, 10n ** 18n), testSignal());
    await adapter.quote(quoteInput(asset.ethEth, asset.baseEth, 10n ** 18n), testSignal());
    expect(sim.log[0]?.headers['x-api-key']).toBe('relay-secret');
    expect(sim.log[1]?.headers['x-api-key']).toBeUndefined();
  });
});

const ALLOWED_META_KEYS = [
  'providerQuoteId',
  'selectedQuoteId',
  'executionMode',
  'walletExecution',
  'depositAddress',
  'depositMemo',
  'channelId',
  'expiresAt',
];

describe('execute', () => {
  it('returns approve + deposit calldata for an ERC-20 source, with the spender decoded from the approval', async () => {
    const amount = 250_000_000n;
    const result = await adapter.execute(
      executeInput(asset.ethUsdc, asset.arbUsdc, amount, EVM_USER, EVM_RECIPIENT),
      testSignal(),
    );
    const { exec, providerResult, trackingContext } = result;
    const requestId = providerResult.requestId as string;
    expect(requestId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(providerResult).toEqual({ requestId, status: 'AWAITING_WALLET', execution: 'evm-calldata' });
    expect(trackingContext).toEqual({ requestId, originChainId: 1, destinationChainId: 42161, vm: 'evm' });

    expect(exec?.chainId).toBe(1);
    expect(exec?.value).toBe('0');
    expect(exec?.srcToken).toBe(asset.ethUsdc.address);
    expect(exec?.srcAmount).toBe('250000000');
    expect(exec?.approvalToken).toBe(asset.ethUsdc.address);
    expect(exec?.approvalAmount).toBe('250000000');
    expect(exec?.approvalTarget).toBe(exec?.providerTarget);
    expect(exec?.providerTarget).toBe(getAddress(exec?.providerTarget ?? ''));
    const call = decodeFunctionData({ abi: depositoryAbi, data: exec?.providerCalldata as `0x${string}` });
    expect(call.functionName).toBe('depositErc20');
    expect(call.args.slice(0, 3)).toEqual([EVM_USER, asset.ethUsdc.address, amount]);

    expect(exec?.allSteps?.map((s) => s.id)).toEqual(['approve', 'deposit']);
    for (const step of exec?.allSteps ?? []) {
      expect(Object.keys(step).sort()).toEqual(['action', 'description', 'id', 'items', 'kind', 'requestId']);
      expect(step.requestId).toBe(requestId);
      for (const item of step.items as Record<string, unknown>[])
        expect(Object.keys(item).sort()).toEqual(['data', 'status']);
    }
    expect(exec?.meta).toEqual({ providerQuoteId: requestId, executionMode: 'evm-calldata', walletExecution: true });
    expect(result.dstAmountBase).toBeGreaterThan(0n);
    expect(result.fee?.usd).not.toBeNull();
    expect(lastQuoteBody()).toMatchObject({ user: EVM_USER, recipient: EVM_RECIPIENT, refundTo: EVM_USER });
  });

  it('returns a single payable deposit for native ETH and a fresh requestId on every execute', async () => {
    const input = executeInput(asset.ethEth, asset.baseEth, 5n * 10n ** 17n, EVM_USER, EVM_RECIPIENT);
    const first = await adapter.execute(input, testSignal());
    const second = await adapter.execute(input, testSignal());
    expect(second.providerResult.requestId).not.toBe(first.providerResult.requestId);
    const exec = first.exec;
    expect(exec?.value).toBe('500000000000000000');
    expect(exec?.srcToken).toBe('native');
    expect(exec?.approvalTarget).toBeUndefined();
    expect(exec?.approvalToken).toBeUndefined();
    expect(exec?.allSteps?.map((s) => s.id)).toEqual(['deposit']);
    const call = decodeFunctionData({ abi: depositoryAbi, data: exec?.providerCalldata as `0x${string}` });
    expect(call.functionName).toBe('depositNative');
  });

  it('returns TON messages for a native TON source, aimed at the non-bounceable depository form', async () => {
    const amount = 2_000_000_000n;
    const result = await adapter.execute(
      executeInput(asset.ton, asset.arbUsdc, amount, TON_USER, EVM_RECIPIENT),
      testSignal(),
    );
    const { exec, providerResult, trackingContext } = result;
    const requestId = providerResult.requestId as string;
    expect(providerResult).toEqual({ requestId, status: 'AWAITING_WALLET', execution: 'ton-messages' });
    expect(trackingContext).toEqual({ requestId, originChainId: 224235520, destinationChainId: 42161, vm: 'tonvm' });
    const [message] = firstItemData<{ messages: { to: string; value: string; body: string; bounce: boolean }[] }>(
      exec,
    ).messages;
    if (!message) throw new Error('no TON message');
    expect(exec?.chainId).toBeNull();
    expect(exec?.value).toBe('2000000000');
    expect(message.bounce).toBe(false);
    expect(TonAddress.isFriendly(exec?.providerTarget ?? '')).toBe(true);
    expect(TonAddress.parseFriendly(exec?.providerTarget ?? '').isBounceable).toBe(false);
    expect(TonAddress.parse(exec?.providerTarget ?? '').equals(TonAddress.parse(message.to))).toBe(true);
    expect(Cell.fromBase64(message.body).bits.length).toBeGreaterThan(0);
    expect(exec?.providerCalldata).toBeUndefined();
    expect(exec?.srcToken).toBe('native');
    expect(exec?.meta).toEqual({ providerQuoteId: requestId, executionMode: 'ton-messages', walletExecution: true });
  });

  it('returns a jetton transfer for a TON token source: gas as value, amount inside the BoC', async () => {
    const amount = 40_000_000n;
    const { exec } = await adapter.execute(
      executeInput(asset.tonUsdt, asset.ethUsdc, amount, TON_USER, EVM_RECIPIENT),
      testSignal(),
    );
    expect(exec?.value).toBe('50000000');
    expect(exec?.srcToken).toBe(asset.tonUsdt.address);
    expect(TonAddress.parseFriendly(exec?.providerTarget ?? '').isBounceable).toBe(true);
    const [message] = firstItemData<{ messages: { body: string }[] }>(exec).messages;
    const slice = Cell.fromBase64(message?.body ?? '').beginParse();
    expect(slice.loadUint(32)).toBe(0x0f8a7ea5);
    slice.loadUintBig(64);
    expect(slice.loadCoins()).toBe(amount);
  });

  it('returns Solana instructions for a Solana source', async () => {
    const { exec, providerResult, trackingContext } = await adapter.execute(
      executeInput(asset.sol, asset.ethEth, 3_000_000_000n, SOL_USER, EVM_RECIPIENT),
      testSignal(),
    );
    const data = firstItemData<{
      instructions: { programId: string; keys: { pubkey: string }[] }[];
      addressLookupTableAddresses: string[];
    }>(exec);
    expect(providerResult.execution).toBe('solana-instructions');
    expect(trackingContext).toMatchObject({ originChainId: 792703809, destinationChainId: 1, vm: 'svm' });
    expect(exec?.chainId).toBeNull();
    expect(exec?.providerTarget).toBe(data.instructions[0]?.programId);
    expect(data.instructions[0]?.keys[0]?.pubkey).toBe(SOL_USER);
    expect(data.addressLookupTableAddresses).toEqual([]);
    expect(exec?.value).toBeUndefined();
    expect(exec?.srcToken).toBe('native');
    expect(exec?.meta.executionMode).toBe('solana-instructions');
  });

  it('keeps raw provider payloads and request parameters out of exec.meta', async () => {
    for (const [src, dst, amount, user] of [
      [asset.ethUsdc, asset.sol, 10n ** 8n, EVM_USER],
      [asset.ton, asset.ethEth, 10n ** 11n, TON_USER],
      [asset.solUsdc, asset.ethEth, 10n ** 8n, SOL_USER],
      [asset.sol, asset.btc, 10n ** 10n, SOL_USER],
    ] as const) {
      const recipient = { solana: SOL_USER, bitcoin: BTC_RECIPIENT }[dst.chain] ?? EVM_RECIPIENT;
      const { exec } = await adapter.execute(executeInput(src, dst, amount, user, recipient), testSignal());
      for (const key of Object.keys(exec?.meta ?? {})) expect(ALLOWED_META_KEYS).toContain(key);
    }
  });

  it('refuses a depositor that is not an address on the origin chain (Relay INVALID_ADDRESS)', async () => {
    const input = executeInput(asset.ethEth, asset.baseEth, 10n ** 18n, SOL_USER, EVM_RECIPIENT);
    expect(await failureKind(adapter.execute(input, testSignal()))).toBe('REJECTED');
  });

  it('reports a route gone at execute as NO_ROUTE', async () => {
    sim.configure({ faults: { quote: 'noroute' } });
    const input = executeInput(asset.ethEth, asset.baseEth, 10n ** 18n, EVM_USER, EVM_RECIPIENT);
    expect(await failureKind(adapter.execute(input, testSignal()))).toBe('NO_ROUTE');
  });
});

const statusInput = (trackingContext: Record<string, unknown>, hash = ''): StatusInput => ({
  trackingContext,
  hash,
  inboundHash: '',
  src: asset.ethEth,
  dst: asset.arbUsdc,
  createdAt: new Date(),
  depositor: EVM_USER,
  recipient: EVM_USER,
  srcAmountBase: 10n ** 18n,
});

async function pollUntilFinal(trackingContext: Record<string, unknown>, tracker = adapter): Promise<StatusResult[]> {
  const seen: StatusResult[] = [];
  for (let i = 0; i < 10; i++) {
    const result = await tracker.status(statusInput(trackingContext), testSignal());
    seen.push(result);
    if (result.status !== 'PENDING') break;
  }
  return seen;
}

describe('status', () => {
  async function executed(src = asset.ethEth, dst = asset.arbUsdc, user = EVM_USER) {
    const result = await adapter.execute(executeInput(src, dst, 10n ** 18n, user, EVM_RECIPIENT), testSignal());
    return result.trackingContext;
  }

  it('can track as soon as a requestId is stored, without a hash', () => {
    expect(adapter.canTrack({ requestId: `0x${'1'.repeat(64)}` }, '')).toBe(true);
    expect(adapter.canTrack({}, '0xabc')).toBe(false);
    expect(adapter.pollIntervalMs).toBe(5_000);
  });

  it.each([
    ['success', 'SUCCESS'],
    ['failure', 'FAILED'],
    ['refund', 'REFUND'],
  ] as const)('walks a %s request from its deposit through the pending states to %s', async (outcome, expected) => {
    sim.configure({ outcome, settleAfterPolls: 3, autoDepositMs: 0 });
    const context = await executed();
    const seen = await pollUntilFinal(context, outcome === 'failure' ? failureSettledAdapter() : adapter);
    // v2 shows `submitted` as `pending`.
    expect(seen.map((s) => s.upstreamState)).toEqual(['depositing', 'pending', 'pending', outcome]);
    expect(seen.slice(0, -1).every((s) => s.status === 'PENDING' && !s.notFound)).toBe(true);
    expect(seen[0]?.inboundHash).toMatch(/^0x[0-9a-f]{64}$/);
    const final = seen.at(-1);
    expect(final?.status).toBe(expected);
    expect(final?.inboundHash).toBe(seen[0]?.inboundHash);
    if (expected === 'FAILED') expect(final?.outboundHash).toBeUndefined();
    else expect(final?.outboundHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(sim.log.filter((e) => e.kind === 'status').every((e) => e.path.startsWith('/intents/status/v2?'))).toBe(
      true,
    );
  });

  it('keeps the outcome captured at quote time', async () => {
    sim.configure({ outcome: 'refund', settleAfterPolls: 1, autoDepositMs: 0 });
    const context = await executed();
    sim.configure({ outcome: 'success' });
    expect((await pollUntilFinal(context)).at(-1)?.status).toBe('REFUND');
  });

  it('re-reads the outcome when the deposit is first indexed and reports the notified in-hash', async () => {
    sim.configure({ outcome: 'success', settleAfterPolls: 2 });
    const context = await executed(asset.sol, asset.ethEth, SOL_USER);
    sim.configure({ outcome: 'failure' });
    const txHash = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';
    const notified = await adapter.notifyDeposit(792703809, txHash, context.requestId as string, testSignal());
    expect(notified.indexed).toBe(true);
    const final = (await pollUntilFinal(context, failureSettledAdapter())).at(-1);
    expect(final?.status).toBe('FAILED');
    expect(final?.inboundHash).toBe(txHash);
    expect(sim.log.find((e) => e.path === '/transactions/index')?.kind).toBe('execute');
  });

  it('reports an unknown request as PENDING and not found', async () => {
    const result = await adapter.status(statusInput({ requestId: `0x${'f'.repeat(64)}` }), testSignal());
    expect(result).toMatchObject({ status: 'PENDING', notFound: true });
  });

  it('tells a deposit Relay cannot match from an indexed one', async () => {
    const result = await adapter.notifyDeposit(1, `0x${'e'.repeat(64)}`, `0x${'f'.repeat(64)}`, testSignal());
    expect(result.indexed).toBe(false);
  });

  it.each([
    ['error5xx', 'UNAVAILABLE'],
    ['malformed', 'BAD_RESPONSE'],
    ['ratelimit', 'RATE_LIMITED'],
  ] as const)('maps the %s status fault to %s', async (fault, expected) => {
    const context = await executed();
    sim.configure({ faults: { status: fault } });
    expect(await failureKind(adapter.status(statusInput(context), testSignal()))).toBe(expected);
  });
});

describe('a request waits for its deposit', () => {
  async function executed() {
    const result = await adapter.execute(
      executeInput(asset.ethEth, asset.arbUsdc, 10n ** 18n, EVM_USER, EVM_RECIPIENT),
      testSignal(),
    );
    return result.trackingContext;
  }

  const status = (context: Record<string, unknown>, hash = '') =>
    adapter.status(statusInput(context, hash), testSignal());

  async function reportDeposit(hash: string, context: Record<string, unknown>) {
    const response = await fetch(`${sim.url}/__sim/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hash, context }),
    });
    return { status: response.status, body: await response.json() };
  }

  async function requestsByHash(hash: string) {
    const response = await fetch(`${sim.url}/requests/v2?hash=${hash}`);
    const body = (await response.json()) as { requests: { id: string; status: string; data: { inTxs: unknown[] } }[] };
    return body.requests;
  }

  it('stays waiting, without an in-hash, while nothing was deposited', async () => {
    sim.configure({ settleAfterPolls: 1 });
    const context = await executed();
    for (let i = 0; i < 3; i++) {
      const result = await status(context);
      expect(result).toMatchObject({
        status: 'PENDING',
        upstreamState: 'waiting',
        substatus: 'WAITING_SOURCE_CONFIRMATIONS',
      });
      expect(result.inboundHash).toBeUndefined();
    }
    const byId = await fetch(`${sim.url}/requests/v2?id=${context.requestId}`);
    const [record] = ((await byId.json()) as { requests: { status: string; data: { inTxs: unknown[] } }[] }).requests;
    expect(record).toMatchObject({ status: 'waiting', data: { inTxs: [] } });
  });

  it('takes a deposit reported to the simulated chain: its hash is the in-hash, and requests by hash find it', async () => {
    sim.configure({ settleAfterPolls: 2 });
    const context = await executed();
    const deposit = `0x${'5a'.repeat(32)}`;
    expect(await reportDeposit(deposit, context)).toEqual({ status: 200, body: { seen: true } });

    const first = await status(context, deposit);
    expect(first).toMatchObject({ upstreamState: 'depositing', inboundHash: deposit });
    expect(first.hashCheck).toEqual({ hash: deposit, verdict: 'verified', decidesStatus: false });
    expect((await requestsByHash(deposit)).map((r) => r.id)).toEqual([context.requestId]);
    const final = (await pollUntilFinal(context)).at(-1);
    expect(final).toMatchObject({ status: 'SUCCESS', inboundHash: deposit });
  });

  it('counts its progress from the deposit, not from the first status read', async () => {
    sim.configure({ settleAfterPolls: 1 });
    const context = await executed();
    for (let i = 0; i < 3; i++) expect((await status(context)).upstreamState).toBe('waiting');
    await reportDeposit(`0x${'5b'.repeat(32)}`, context);
    expect((await status(context)).upstreamState).toBe('depositing');
    expect((await status(context)).upstreamState).toBe('success');
  });

  it('refuses a second report, whatever its hash, and a report for a request it does not know', async () => {
    const context = await executed();
    const deposit = `0x${'5c'.repeat(32)}`;
    expect((await reportDeposit(deposit, context)).status).toBe(200);
    const again = await reportDeposit(deposit, context);
    expect(again).toEqual({ status: 404, body: { message: 'no swap waits for this deposit' } });
    const stranger = `0x${'5d'.repeat(32)}`;
    expect((await reportDeposit(stranger, context)).status).toBe(404);
    expect((await reportDeposit(stranger, { requestId: `0x${'0'.repeat(64)}` })).status).toBe(404);
    expect((await reportDeposit(stranger, {})).status).toBe(404);

    const result = await status(context, stranger);
    expect(result.inboundHash).toBe(deposit);
    expect(result.hashCheck).toMatchObject({ hash: stranger, verdict: 'rejected' });
    expect(await requestsByHash(stranger)).toEqual([]);
  });

  it('takes a deposit indexed through /transactions/index, and then refuses another hash or a report', async () => {
    const context = await executed();
    const requestId = context.requestId as string;
    expect((await status(context)).upstreamState).toBe('waiting');
    const deposit = `0x${'6e'.repeat(32)}`;
    expect((await adapter.notifyDeposit(1, deposit, requestId, testSignal())).indexed).toBe(true);

    expect(await status(context)).toMatchObject({ upstreamState: 'depositing', inboundHash: deposit });
    expect((await requestsByHash(deposit)).map((r) => r.id)).toEqual([requestId]);
    expect((await adapter.notifyDeposit(1, deposit, requestId, testSignal())).indexed).toBe(true);
    expect((await adapter.notifyDeposit(1, deposit, undefined, testSignal())).indexed).toBe(true);
    expect((await adapter.notifyDeposit(1, `0x${'6f'.repeat(32)}`, requestId, testSignal())).indexed).toBe(false);
    expect((await reportDeposit(`0x${'70'.repeat(32)}`, context)).status).toBe(404);
    expect((await status(context)).inboundHash).toBe(deposit);
  });

  it("never takes another request's deposit: one chain transaction pays one request", async () => {
    const [first, second] = [await executed(), await executed()];
    const deposit = `0x${'72'.repeat(32)}`;
    expect((await reportDeposit(deposit, first)).status).toBe(200);
    expect((await reportDeposit(deposit, second)).status).toBe(404);
    const secondId = second.requestId as string;
    expect(
      (await adapter.notifyDeposit(1, deposit.toUpperCase().replace('0X', '0x'), secondId, testSignal())).indexed,
    ).toBe(false);

    const result = await status(second, deposit);
    expect(result).toMatchObject({ upstreamState: 'waiting' });
    expect(result.inboundHash).toBeUndefined();
    expect(result.hashCheck).toBeUndefined();
    expect((await requestsByHash(deposit)).map((r) => r.id)).toEqual([first.requestId]);
    expect((await reportDeposit(`0x${'73'.repeat(32)}`, second)).status).toBe(200);
  });

  it('deposits by itself, under its own hash, once the auto deposit is due at a status read', async () => {
    sim.configure({ autoDepositMs: 60 * 60 * 1000 });
    const context = await executed();
    expect((await status(context)).upstreamState).toBe('waiting');

    sim.configure({ autoDepositMs: 0 });
    const deposited = await status(context);
    expect(deposited.upstreamState).toBe('depositing');
    expect(deposited.inboundHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await reportDeposit(`0x${'71'.repeat(32)}`, context)).status).toBe(404);
    expect((await status(context)).inboundHash).toBe(deposited.inboundHash);
  });
});

describe('simulator wire format', () => {
  async function simGet(path: string) {
    const response = await fetch(`${sim.url}${path}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('shows `submitted` and `updatedAt` on v3 only, and finds requests by id and by hash', async () => {
    sim.configure({ outcome: 'success', settleAfterPolls: 6, autoDepositMs: 0 });
    const context = await adapter.execute(
      executeInput(asset.ethEth, asset.arbUsdc, 10n ** 18n, EVM_USER, EVM_RECIPIENT),
      testSignal(),
    );
    const requestId = context.providerResult.requestId as string;
    const states: unknown[] = [];
    for (let i = 0; i < 7; i++) {
      const { body } = await simGet(`/intents/status/v3?requestId=${requestId}`);
      expect(body.updatedAt).toBeTypeOf('number');
      expect(body.time).toBeUndefined();
      states.push(body.status);
    }
    expect(states).toContain('submitted');
    expect(states.at(-1)).toBe('success');

    const byId = await simGet(`/requests/v2?id=${requestId}`);
    const [request] = byId.body.requests as { id: string; data: { inTxs: { hash: string }[] } }[];
    expect(request?.id).toBe(requestId);
    const byHash = await simGet(`/requests/v2?hash=${request?.data.inTxs[0]?.hash}`);
    expect((byHash.body.requests as { id: string }[]).map((r) => r.id)).toEqual([requestId]);
  });

  it('answers an unknown request id with 404 and a message', async () => {
    const { status, body } = await simGet(`/intents/status/v2?requestId=0x${'0'.repeat(64)}`);
    expect(status).toBe(404);
    expect(body).toEqual({ message: 'Request not found' });
  });

  it('refuses a malformed quote body the way Fastify does', async () => {
    const response = await fetch(`${sim.url}/quote/v2`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ originChainId: 1 }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'FST_ERR_VALIDATION',
      message: expect.stringContaining('user'),
    });
  });
});

describe('mapRelayStatus', () => {
  // Illustrative v2 sample; hashes copied from Relay's docs examples.
  const sample = {
    status: 'success',
    details: '',
    inTxHashes: ['0xe53021eaa63d100b08338197d26953e2219bcbad828267dd936c549ff643aad7'],
    txHashes: ['0x9da7bc54dfe6229d6980fd62250d472f23dfe0f41a1cdc870c81a08b3445f254'],
    time: 1717000000,
    originChainId: 8453,
    destinationChainId: 10,
    quoteCreatedAt: 1716999990,
  };
  const parse = (body: unknown) => mapRelayStatus(relayStatusSchema.parse(body));

  it('maps success to SUCCESS with both hashes', () => {
    expect(parse(sample)).toEqual({
      status: 'SUCCESS',
      detail: 'Successful fill on destination',
      upstreamState: 'success',
      substatus: 'COMPLETED',
      inboundHash: sample.inTxHashes[0],
      outboundHash: sample.txHashes[0],
    });
  });

  it.each([
    ['refund', 'REFUND'],
    ['fallback', 'REFUND'],
    ['failure', 'PENDING'],
    ['waiting', 'PENDING'],
    ['depositing', 'PENDING'],
    ['pending', 'PENDING'],
    ['submitted', 'PENDING'],
    ['delayed', 'PENDING'],
    ['received', 'PENDING'],
  ] as const)('maps %s to %s', (state, expected) => {
    const result = parse({ ...sample, status: state });
    expect(result.status).toBe(expected);
    expect(result.upstreamState).toBe(state);
    expect(result.notFound).toBeUndefined();
    expect(result.inboundHash).toBe(sample.inTxHashes[0]);
    if (expected === 'REFUND') expect(result.outboundHash).toBe(sample.txHashes[0]);
    else expect(result.outboundHash).toBeUndefined();
  });

  it('keeps a state it does not know PENDING, and an unknown request not found', () => {
    expect(parse({ status: 'rebalancing' })).toMatchObject({ status: 'PENDING', upstreamState: 'rebalancing' });
    expect(parse({ status: 'unknown' })).toMatchObject({ status: 'PENDING', notFound: true });
    expect(parse({})).toMatchObject({ status: 'PENDING', notFound: true });
  });

  it("prefers Relay's own details text and tolerates null hash lists", () => {
    const result = parse({ status: 'delayed', details: 'Solver is rebalancing', inTxHashes: null, txHashes: null });
    expect(result).toEqual({
      status: 'PENDING',
      detail: 'Solver is rebalancing',
      upstreamState: 'delayed',
      substatus: 'DELAYED',
    });
  });
});
