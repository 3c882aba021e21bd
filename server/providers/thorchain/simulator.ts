import type { IncomingMessage, ServerResponse } from 'node:http';
import { getAddress } from 'viem';
import { rescale } from '../../catalog/amounts';
import {
  convertAtMarket,
  fakeHex,
  findSimAsset,
  type Outcome,
  type RunningSimulator,
  type SimAsset,
  type SimRequest,
  type SimResponse,
  type SimRoute,
  sameAddress,
  stageAt,
  startSimulator,
  usdOf,
} from '../simulator-kit';

/** Pools (by `CHAIN.SYMBOL`) the fake network has; RUNE is the settlement asset. */
const POOLS = new Set([
  'BTC.BTC',
  'ETH.ETH',
  'LTC.LTC',
  'DOGE.DOGE',
  'BCH.BCH',
  'GAIA.ATOM',
  'AVAX.AVAX',
  'BSC.BNB',
  'BASE.ETH',
  'ETH.USDC',
  'ETH.USDT',
  'ETH.WBTC',
  'AVAX.USDC',
  'BSC.USDT',
  'BASE.USDC',
  'THOR.RUNE',
]);

const EVM_VAULT = getAddress(`0x${fakeHex('thorchain-sim:evm-vault', 20)}`);
const routerFor = (chain: string) => getAddress(`0x${fakeHex(`thorchain-sim:router:${chain}`, 20)}`);

const UTXO_NOTES =
  'First output should be to inbound_address, second output should be change back to self, third output should be OP_RETURN, limited to 80 bytes. Do not send below the dust threshold. Do not use exotic spend scripts, locks or address formats.';
const EVM_NOTES =
  'Base Asset: Send the inbound_address the asset with the memo encoded in hex in the data field. Tokens: First approve router to spend tokens from user: asset.approve(router, amount). Then call router.depositWithExpiry(inbound_address, asset, amount, memo, expiry). Asset is the token contract address. Amount should be in native asset decimals (eg 1e18 for most tokens). Do not swap to smart contract addresses.';
const COSMOS_NOTES =
  'Transfer the inbound_address the asset with the memo. Do not use multi-in, multi-out transactions.';
const THOR_NOTES =
  'Broadcast a MsgDeposit to the THORChain network with the appropriate memo. Do not use multi-in, multi-out transactions.';
const WARNING = 'Do not cache this response. Do not send funds after the expiry.';

interface SimChain {
  blockSeconds: number;
  confirmations: number;
  /** In 1e8 of the chain's gas asset; 0 means none. */
  dust: bigint;
  outboundFeeCents: bigint;
  gasAsset: string;
  vault?: string;
  router?: string;
  gasRate: string;
  gasRateUnits: string;
  notes: string;
  defaultAddress: string;
}

const evmChain = (chain: string, blockSeconds: number, gasAsset: string, feeCents: bigint): SimChain => ({
  blockSeconds,
  confirmations: chain === 'ETH' ? 2 : 1,
  dust: 0n,
  outboundFeeCents: feeCents,
  gasAsset,
  vault: EVM_VAULT,
  router: routerFor(chain),
  gasRate: '3',
  gasRateUnits: 'gwei',
  notes: EVM_NOTES,
  defaultAddress: '0x86d526d6624AbC0178cF7296cD538Ecc080A95F1',
});

const CHAINS: Record<string, SimChain> = {
  BTC: {
    blockSeconds: 600,
    confirmations: 1,
    dust: 1000n,
    outboundFeeCents: 300n,
    gasAsset: 'BTC.BTC',
    vault: 'bc1qt9723ak9t7lu7a97lt9kelq4gnrlmyvk4yhzwr',
    gasRate: '8',
    gasRateUnits: 'satsperbyte',
    notes: UTXO_NOTES,
    defaultAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
  },
  LTC: {
    blockSeconds: 150,
    confirmations: 1,
    dust: 10000n,
    outboundFeeCents: 5n,
    gasAsset: 'LTC.LTC',
    vault: 'ltc1q2ck4cfjyx3ng9d5smfd3qrytf2kf2fe2wlrsqr',
    gasRate: '10',
    gasRateUnits: 'satsperbyte',
    notes: UTXO_NOTES,
    defaultAddress: 'ltc1qg82sxhlj4gzdm5qkj8v2gxnlfsykn8x9m3rvtq',
  },
  DOGE: {
    blockSeconds: 60,
    confirmations: 1,
    dust: 100000000n,
    outboundFeeCents: 50n,
    gasAsset: 'DOGE.DOGE',
    vault: 'DE8xsUYCLtRpZzEmDt2WVKHHBpDpgbQbM6',
    gasRate: '500000',
    gasRateUnits: 'satsperbyte',
    notes: UTXO_NOTES,
    defaultAddress: 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L',
  },
  BCH: {
    blockSeconds: 600,
    confirmations: 1,
    dust: 10000n,
    outboundFeeCents: 5n,
    gasAsset: 'BCH.BCH',
    vault: 'qzdnaqcwd6r0ghnzqk3d3l3l2h4g4ps4cydmn6jkf0',
    gasRate: '3',
    gasRateUnits: 'satsperbyte',
    notes: UTXO_NOTES,
    defaultAddress: 'qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a',
  },
  GAIA: {
    blockSeconds: 6,
    confirmations: 1,
    dust: 0n,
    outboundFeeCents: 5n,
    gasAsset: 'GAIA.ATOM',
    vault: 'cosmos1rdly788mpmwvemd5yr8wu0499zs4v4qnaptum4',
    gasRate: '750000',
    gasRateUnits: 'uatom',
    notes: COSMOS_NOTES,
    defaultAddress: 'cosmos1syavy2npfyt9tcncdtsdzf7kny9lh777pahuux',
  },
  ETH: evmChain('ETH', 12, 'ETH.ETH', 200n),
  AVAX: evmChain('AVAX', 2, 'AVAX.AVAX', 10n),
  BSC: evmChain('BSC', 3, 'BSC.BNB', 5n),
  BASE: evmChain('BASE', 2, 'BASE.ETH', 5n),
  THOR: {
    blockSeconds: 6,
    confirmations: 0,
    dust: 0n,
    outboundFeeCents: 2n,
    gasAsset: 'THOR.RUNE',
    gasRate: '2000000',
    gasRateUnits: 'tor',
    notes: THOR_NOTES,
    defaultAddress: 'thor1dheycdevq39qlkxs2a6wuuzyn4aqxhve4qxtxt',
  },
};

const THOR_BLOCK_SECONDS = 6;
const QUOTE_TTL_SECONDS = 15 * 60;
const POOL_DEPTH_CENTS = 2_000_000_000n;
const BASE_LIQUIDITY_FEE_BPS = 5n;
const STREAMING_CHUNK_CENTS = 50_000n;
const MAX_STREAMING_QUANTITY = 100n;

// ---- Assets and pools.

interface PoolAsset {
  asset: SimAsset;
  chain: string;
  notation: string;
}

function resolveAsset(notation: string | null): PoolAsset | undefined {
  if (!notation) return undefined;
  const upper = notation.toUpperCase();
  const [chain = '', rest = ''] = upper.split(/\.(.*)/s);
  const [symbol = '', address] = rest.split('-');
  if (!POOLS.has(`${chain}.${symbol}`) || !CHAINS[chain]) return undefined;
  const asset = findSimAsset(
    (a) =>
      a.chainSeed.thorchainChain === chain &&
      a.symbol.toUpperCase() === symbol &&
      (address ? !a.isNative && sameAddress(a.address, address) : a.isNative),
  );
  if (!asset) return undefined;
  const canonical = asset.isNative ? `${chain}.${symbol}` : `${chain}.${symbol}-${asset.address.toUpperCase()}`;
  return { asset, chain, notation: canonical };
}

const centsOf = (amountBase: bigint, asset: SimAsset) => BigInt(usdOf(amountBase, asset).replace('.', ''));

/** A USD amount (in cents) expressed in 1e8 units of an asset, at seed prices. */
function centsToE8(cents: bigint, asset: SimAsset): bigint {
  const dollar = { ...asset, priceUsd: '1', decimals: 2 };
  return rescale(convertAtMarket(cents, dollar, asset, 0), asset.decimals, 8);
}

const clamp = (value: bigint, min: bigint, max: bigint) => (value < min ? min : value > max ? max : value);

interface SwapSimulation {
  expectedOut: bigint;
  liquidityFee: bigint;
  outboundFee: bigint;
  liquidityBps: bigint;
  minAmountIn: bigint;
  maxStreamingQuantity: bigint;
  streamingQuantity: bigint;
  usdCents: bigint;
}

function simulateSwap(
  from: PoolAsset,
  to: PoolAsset,
  amountE8: bigint,
  interval: bigint,
  quantity: bigint,
): SwapSimulation {
  const fromBase = rescale(amountE8, 8, from.asset.decimals);
  const gross = rescale(convertAtMarket(fromBase, from.asset, to.asset, 0), to.asset.decimals, 8);
  const usdCents = centsOf(fromBase, from.asset);
  const maxStreamingQuantity = clamp(usdCents / STREAMING_CHUNK_CENTS, 1n, MAX_STREAMING_QUANTITY);
  const streamingQuantity =
    interval > 0n ? (quantity === 0n || quantity > maxStreamingQuantity ? maxStreamingQuantity : quantity) : 0n;
  const slipDivisor = POOL_DEPTH_CENTS * (streamingQuantity > 0n ? streamingQuantity : 1n);
  const liquidityFee = (gross * usdCents) / slipDivisor + (gross * BASE_LIQUIDITY_FEE_BPS) / 10_000n;
  const srcFeeCents = CHAINS[from.chain]?.outboundFeeCents ?? 0n;
  const dstFeeCents = CHAINS[to.chain]?.outboundFeeCents ?? 0n;
  const outboundFee = centsToE8(dstFeeCents, to.asset);
  // thornode: recommended_min_amount_in = MAX(outbound_fee(src), outbound_fee(dst)) * 4.
  const maxFeeCents = srcFeeCents > dstFeeCents ? srcFeeCents : dstFeeCents;
  const emit = gross - liquidityFee;
  return {
    expectedOut: emit > outboundFee ? emit - outboundFee : 0n,
    liquidityFee,
    outboundFee,
    liquidityBps: gross > 0n ? (liquidityFee * 10_000n) / gross : 0n,
    minAmountIn: centsToE8(maxFeeCents * 4n, from.asset),
    maxStreamingQuantity,
    streamingQuantity,
    usdCents,
  };
}

// ---- Quote.

const quoteError = (error: string): SimResponse => ({ status: 400, body: { error } });
const nowSeconds = () => Math.floor(Date.now() / 1000);

function swapMemo(to: PoolAsset, destination: string, refund: string | null, limit: bigint, streaming: string) {
  return `=:${to.notation}:${destination}${refund ? `/${refund}` : ''}:${limit}${streaming}`;
}

function handleQuote(req: SimRequest): SimResponse {
  const params = req.url.searchParams;
  for (const name of ['from_asset', 'to_asset', 'amount']) {
    if (!params.get(name)) return quoteError(`missing required parameter ${name}`);
  }
  const amountText = params.get('amount') as string;
  if (!/^\d+$/.test(amountText)) return quoteError(`bad amount: invalid Uint: ${amountText}`);
  const from = resolveAsset(params.get('from_asset'));
  const to = resolveAsset(params.get('to_asset'));
  if (!from || !to) return quoteError('failed to simulate swap: pool does not exist');
  if (from.notation === to.notation)
    return quoteError('failed to simulate swap: swap Source and Target cannot be the same.');
  const fromChain = CHAINS[from.chain] as SimChain;
  const amount = BigInt(amountText);
  if (amount < fromChain.dust) return quoteError('amount less than dust threshold');
  const tolerance = BigInt(params.get('liquidity_tolerance_bps') || '0');
  if (tolerance >= 10_000n) return quoteError('liquidity tolerance basis points must be less than 10000');

  const interval = BigInt(params.get('streaming_interval') || '0');
  const swap = simulateSwap(from, to, amount, interval, BigInt(params.get('streaming_quantity') || '0'));
  if (amount < swap.minAmountIn || swap.expectedOut === 0n) {
    return quoteError(`amount less than min swap amount (recommended_min_amount_in: ${swap.minAmountIn})`);
  }

  const inboundConfirmationSeconds = fromChain.confirmations * fromChain.blockSeconds;
  const outboundDelayBlocks = to.chain === 'THOR' ? 0n : clamp(swap.usdCents / 500_000n, 0n, 720n);
  const streamingBlocks = swap.streamingQuantity > 0n ? interval * (swap.streamingQuantity - 1n) : 0n;
  const outboundDelaySeconds = Number(outboundDelayBlocks) * THOR_BLOCK_SECONDS;
  const streamingSeconds = Number(streamingBlocks) * THOR_BLOCK_SECONDS;
  const limit = tolerance > 0n ? (swap.expectedOut * (10_000n - tolerance)) / 10_000n : 0n;
  const destination = params.get('destination');
  const streaming = interval > 0n ? `/${interval}/${params.get('streaming_quantity') || '0'}` : '';

  return {
    status: 200,
    body: {
      inbound_address: fromChain.vault,
      inbound_confirmation_blocks: fromChain.confirmations || undefined,
      inbound_confirmation_seconds: inboundConfirmationSeconds || undefined,
      outbound_delay_blocks: Number(outboundDelayBlocks),
      outbound_delay_seconds: outboundDelaySeconds,
      fees: {
        asset: to.notation,
        affiliate: '0',
        outbound: swap.outboundFee.toString(),
        liquidity: swap.liquidityFee.toString(),
        total: (swap.outboundFee + swap.liquidityFee).toString(),
        slippage_bps: Number(swap.liquidityBps),
        total_bps: Number(
          ((swap.outboundFee + swap.liquidityFee) * 10_000n) /
            (swap.expectedOut + swap.outboundFee + swap.liquidityFee),
        ),
      },
      router: fromChain.router,
      expiry: nowSeconds() + QUOTE_TTL_SECONDS,
      warning: WARNING,
      notes: fromChain.notes,
      dust_threshold: fromChain.dust > 0n ? fromChain.dust.toString() : undefined,
      recommended_min_amount_in: swap.minAmountIn.toString(),
      recommended_gas_rate: from.chain === 'THOR' ? undefined : fromChain.gasRate,
      gas_rate_units: from.chain === 'THOR' ? undefined : fromChain.gasRateUnits,
      memo: destination ? swapMemo(to, destination, params.get('refund_address'), limit, streaming) : undefined,
      expected_amount_out: swap.expectedOut.toString(),
      max_streaming_quantity: Number(swap.maxStreamingQuantity),
      streaming_swap_blocks: Number(streamingBlocks),
      streaming_swap_seconds: streamingSeconds,
      total_swap_seconds: Math.max(outboundDelaySeconds, streamingSeconds) + inboundConfirmationSeconds,
    },
  };
}

function handleInboundAddresses(): SimResponse {
  const body = Object.entries(CHAINS)
    .filter(([, chain]) => chain.vault)
    .map(([code, chain]) => {
      const gas = resolveAsset(chain.gasAsset) as PoolAsset;
      return {
        chain: code,
        pub_key: `thorpub1addwnpepq${fakeHex(`thorchain-sim:pubkey:${code}`, 24)}`,
        address: chain.vault,
        router: chain.router,
        halted: false,
        global_trading_paused: false,
        chain_trading_paused: false,
        chain_lp_actions_paused: false,
        gas_rate: chain.gasRate,
        gas_rate_units: chain.gasRateUnits,
        outbound_tx_size: '1000',
        outbound_fee: centsToE8(chain.outboundFeeCents, gas.asset).toString(),
        dust_threshold: chain.dust.toString(),
      };
    });
  return { status: 200, body };
}

// ---- Status.

export interface SimDeposit {
  hash: string;
  outcome?: Outcome;
  fromAsset?: string;
  toAsset?: string;
  /** Inbound amount in 1e8 units. */
  amount?: string;
  destination?: string;
  refundAddress?: string;
}

interface SimSwap {
  hash: string;
  outcome: Outcome;
  polls: number;
  from: PoolAsset;
  to: PoolAsset;
  amount: bigint;
  expectedOut: bigint;
  destination: string;
  refundAddress: string;
}

type Stage =
  | 'observed'
  | 'confirmed'
  | 'swapping'
  | 'finalised'
  | 'delay_done'
  | 'signed'
  | 'native_done'
  | 'refund_scheduled'
  | 'refund_delay_done'
  | 'refunded'
  | 'failed';

function stagesFor(swap: SimSwap): Stage[] {
  const inbound: Stage[] = ['observed', 'confirmed', 'swapping'];
  if (swap.outcome === 'failure') return [...inbound, 'failed'];
  if (swap.outcome === 'refund') return [...inbound, 'refund_scheduled', 'refund_delay_done', 'refunded'];
  if (swap.to.chain === 'THOR') return [...inbound, 'native_done'];
  return [...inbound, 'finalised', 'delay_done', 'signed'];
}

const simTxId = (hash: string) => hash.trim().replace(/^0x/i, '').toUpperCase();
const outTxId = (kind: string, hash: string) => fakeHex(`thorchain-sim:${kind}:${hash}`).toUpperCase();

function stagesBody(swap: SimSwap, stage: Stage) {
  const fromChain = CHAINS[swap.from.chain] as SimChain;
  const index = stagesFor(swap).indexOf(stage);
  const confirmed = index >= 1;
  const swapping = index >= 2;
  const swapDone = index >= 3;
  const hasOutboundDelay = [
    'finalised',
    'delay_done',
    'signed',
    'refund_scheduled',
    'refund_delay_done',
    'refunded',
  ].includes(stage);
  const delayDone = ['delay_done', 'signed', 'refund_delay_done', 'refunded'].includes(stage);
  const signed = stage === 'signed' || stage === 'refunded';
  return {
    inbound_observed: { started: true, pre_confirmation_count: 1, final_count: 1, completed: true },
    inbound_confirmation_counted: fromChain.confirmations
      ? {
          counting_start_height: 19_500_000,
          chain: swap.from.chain,
          external_observed_height: 850_000,
          external_confirmation_delay_height: 850_000 + fromChain.confirmations,
          remaining_confirmation_seconds: confirmed ? 0 : fromChain.confirmations * fromChain.blockSeconds,
          completed: confirmed,
        }
      : undefined,
    inbound_finalised: { completed: swapping },
    swap_status: swapping
      ? { pending: !swapDone, ...(swapDone ? {} : { streaming: { interval: 1, quantity: 4, count: 2 } }) }
      : undefined,
    swap_finalised: { completed: swapDone },
    outbound_delay: hasOutboundDelay
      ? { remaining_delay_blocks: delayDone ? 0 : 5, remaining_delay_seconds: delayDone ? 0 : 30, completed: delayDone }
      : undefined,
    outbound_signed: delayDone
      ? { scheduled_outbound_height: 19_500_010, blocks_since_scheduled: signed ? 2 : 0, completed: signed }
      : undefined,
  };
}

function outTx(swap: SimSwap, kind: 'OUT' | 'REFUND', asset: PoolAsset, amount: bigint, to: string) {
  const chain = CHAINS[asset.chain] as SimChain;
  const native = asset.chain === 'THOR';
  return {
    id: native ? '0'.repeat(64) : outTxId(kind, swap.hash),
    chain: asset.chain,
    from_address: chain.vault ?? 'thor1g98cy3n9mmjrpn0sxmn63lztelera37n8n67c0',
    to_address: to,
    coins: [{ asset: asset.notation, amount: amount.toString() }],
    gas: native ? [] : [{ asset: chain.gasAsset, amount: '2500' }],
    memo: `${kind}:${swap.hash}`,
  };
}

function statusBody(swap: SimSwap, stage: Stage) {
  const fromChain = CHAINS[swap.from.chain] as SimChain;
  const memo =
    swap.outcome === 'failure' ? `=:${swap.to.notation}:not-an-address` : `=:${swap.to.notation}:${swap.destination}`;
  const refundAmount = (swap.amount * 9_950n) / 10_000n;
  const plannedOut = {
    chain: swap.to.chain,
    to_address: swap.destination,
    coin: { asset: swap.to.notation, amount: swap.expectedOut.toString() },
    refund: false,
  };
  const plannedRefund = {
    chain: swap.from.chain,
    to_address: swap.refundAddress,
    coin: { asset: swap.from.notation, amount: refundAmount.toString() },
    refund: true,
  };
  const outs: Partial<Record<Stage, { planned: unknown[]; out: unknown[] }>> = {
    finalised: { planned: [plannedOut], out: [] },
    delay_done: { planned: [plannedOut], out: [] },
    signed: { planned: [plannedOut], out: [outTx(swap, 'OUT', swap.to, swap.expectedOut, swap.destination)] },
    native_done: { planned: [plannedOut], out: [outTx(swap, 'OUT', swap.to, swap.expectedOut, swap.destination)] },
    refund_scheduled: { planned: [plannedRefund], out: [] },
    refund_delay_done: { planned: [plannedRefund], out: [] },
    refunded: { planned: [plannedRefund], out: [outTx(swap, 'REFUND', swap.from, refundAmount, swap.refundAddress)] },
  };
  return {
    tx: {
      id: swap.hash,
      chain: swap.from.chain,
      from_address: swap.refundAddress,
      to_address: fromChain.vault ?? 'thor1g98cy3n9mmjrpn0sxmn63lztelera37n8n67c0',
      coins: [{ asset: swap.from.notation, amount: swap.amount.toString() }],
      gas: [{ asset: fromChain.gasAsset, amount: '2500' }],
      memo,
    },
    planned_out_txs: outs[stage]?.planned,
    out_txs: outs[stage]?.out,
    stages: stagesBody(swap, stage),
  };
}

export async function startThorchainSimulator(
  opts: { port?: number; host?: string } = {},
): Promise<RunningSimulator & { observe(deposit: SimDeposit): void }> {
  const swaps = new Map<string, SimSwap>();
  let currentOutcome: () => Outcome = () => 'success';

  function register(deposit: SimDeposit): SimSwap | undefined {
    const from = resolveAsset(deposit.fromAsset ?? 'BTC.BTC');
    const to = resolveAsset(deposit.toAsset ?? 'ETH.ETH');
    if (!from || !to || !/^\d+$/.test(deposit.amount ?? '0')) return undefined;
    const amount = BigInt(deposit.amount ?? '10000000');
    const swap: SimSwap = {
      hash: simTxId(deposit.hash),
      outcome: deposit.outcome ?? currentOutcome(),
      polls: 0,
      from,
      to,
      amount,
      expectedOut: simulateSwap(from, to, amount, 0n, 0n).expectedOut,
      destination: deposit.destination ?? (CHAINS[to.chain] as SimChain).defaultAddress,
      refundAddress: deposit.refundAddress ?? (CHAINS[from.chain] as SimChain).defaultAddress,
    };
    swaps.set(swap.hash, swap);
    return swap;
  }

  const routes: SimRoute[] = [
    {
      method: 'GET',
      pattern: /^\/thorchain\/quote\/swap$/,
      kind: 'quote',
      handle: handleQuote,
      noRoute: () => quoteError('failed to simulate swap: pool does not exist'),
    },
    { method: 'GET', pattern: /^\/thorchain\/inbound_addresses$/, kind: 'other', handle: handleInboundAddresses },
    {
      method: 'GET',
      pattern: /^\/thorchain\/tx\/status\/([^/]+)$/,
      kind: 'status',
      handle(req, match) {
        const hash = simTxId(decodeURIComponent(match[1] ?? ''));
        if (!/^[0-9A-F]{64}$/.test(hash)) return { status: 400, body: { error: `invalid tx hash: ${match[1]}` } };
        const swap = swaps.get(hash) ?? (register({ hash, outcome: req.config.outcome }) as SimSwap);
        const stage = stageAt(stagesFor(swap), swap.polls, req.config.settleAfterPolls);
        swap.polls += 1;
        return { status: 200, body: statusBody(swap, stage) };
      },
    },
  ];

  const sim = await startSimulator('thorchain', routes, { ...opts, onReset: () => swaps.clear() });
  currentOutcome = () => sim.config.outcome;

  // The kit answers every `/__sim/*` path itself, so the observe control endpoint sits in front of it.
  const kitListener = sim.server.listeners('request')[0] as (req: IncomingMessage, res: ServerResponse) => void;
  sim.server.removeAllListeners('request');
  sim.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/__sim/thorchain/observe') return kitListener(req, res);
    void readJson(req).then((body) => {
      const deposit = body as SimDeposit | undefined;
      const swap = deposit && typeof deposit.hash === 'string' ? register(deposit) : undefined;
      res.writeHead(swap ? 200 : 400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          swap
            ? { hash: swap.hash, outcome: swap.outcome, fromAsset: swap.from.notation, toAsset: swap.to.notation }
            : { error: 'expected {hash, outcome?, fromAsset?, toAsset?, amount?} with pooled assets' },
        ),
      );
    });
  });

  return Object.assign(sim, {
    observe(deposit: SimDeposit) {
      if (!register(deposit)) throw new Error('thorchain simulator: unknown asset or bad amount');
    },
  });
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}
