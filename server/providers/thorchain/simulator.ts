import type { IncomingMessage, ServerResponse } from 'node:http';
import { keep } from '../../bounded-map';
import {
  fakeHex,
  type RunningSimulator,
  SIMULATOR_MEMORY,
  type SimRequest,
  type SimResponse,
  type SimRoute,
  type SimulatorOptions,
  shiftedPrice,
  stageAt,
  startSimulator,
} from '../simulator-kit';
import {
  CHAINS,
  centsToE8,
  clamp,
  type PoolAsset,
  QUOTE_TTL_SECONDS,
  resolveAsset,
  type SimChain,
  simulateSwap,
  swapMemo,
  THOR_BLOCK_SECONDS,
  WARNING,
} from './sim-market';
import {
  midgardAction,
  type SimDeposit,
  type SimSwap,
  type SwapOutcome,
  simTxId,
  stagesFor,
  statusBody,
  UNOBSERVED_BODY,
} from './sim-swaps';

export type { SimDeposit } from './sim-swaps';

// ---- Quote.

/**
 * THORNode v3 answers query errors through its gRPC gateway. A plain error of the quote handler (bad
 * input, dust, a memo too long) is served as HTTP 400; one raised by the simulated swap itself keeps
 * the handler's code 2 and is served as HTTP 500 (test/regression/suites/api/quotes/swap.yaml).
 */
const badRequest = (message: string): SimResponse => ({ status: 400, body: { code: 3, message, details: [] } });
const swapFailed = (message: string): SimResponse => ({
  status: 500,
  body: { code: 2, message: `failed to simulate swap: ${message}`, details: [] },
});
/** A quote refused as the swap handler refuses a suspended pool (swap_current.go); scripted by destination. */
export const NO_ROUTE_POOL_UNAVAILABLE = 'no-route-pool-unavailable';
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** What the latest quote with a destination handed out: the deposit a wallet following it would make. */
export interface QuotedDeposit {
  from: PoolAsset;
  to: PoolAsset;
  amount: bigint;
  destination: string;
  refundAddress: string | null;
  vault: string;
  memo: string;
}

function validationError(params: URLSearchParams, to: PoolAsset, from: PoolAsset): string | undefined {
  const destination = params.get('destination');
  if (destination && !(CHAINS[to.chain] as SimChain).address.test(destination)) {
    return `bad destination address: ${destination} is not recognizable`;
  }
  if (BigInt(params.get('tolerance_bps') || '0') > 10_000n) return 'tolerance basis points must be less than 10000';
  if (BigInt(params.get('liquidity_tolerance_bps') || '0') >= 10_000n) {
    return 'liquidity tolerance basis points must be less than 10000';
  }
  const refund = params.get('refund_address');
  if (refund && !(CHAINS[from.chain] as SimChain).address.test(refund)) {
    return `bad refund address: ${refund} is not recognizable`;
  }
  return undefined;
}

/** The price limit the node swaps against: only `tolerance_bps` sets one, from the fee-less output. */
function tradeTarget(params: URLSearchParams, feelessOut: bigint): bigint {
  const tolerance = params.get('tolerance_bps');
  return tolerance ? (feelessOut * (10_000n - BigInt(tolerance))) / 10_000n : 0n;
}

/**
 * `queryQuoteSwap` (querier_quotes.go): below the dust threshold is the only amount error; an amount
 * under `recommended_min_amount_in` is quoted like any other.
 */
function handleQuote(req: SimRequest, remember: (deposit: QuotedDeposit) => void): SimResponse {
  const params = req.url.searchParams;
  if (!params.get('from_asset')) return badRequest('missing from_asset parameter');
  if (!params.get('to_asset')) return badRequest('missing to_asset parameter');
  if (!params.get('amount')) return badRequest('missing Amount parameter');
  if (params.get('tolerance_bps') && params.get('liquidity_tolerance_bps')) {
    return badRequest('must only include one of: tolerance_bps or liquidity_tolerance_bps');
  }
  const amountText = params.get('amount') as string;
  if (!/^\d+$/.test(amountText)) return badRequest(`bad amount: invalid Uint: ${amountText}`);
  const from = resolveAsset(params.get('from_asset'));
  const to = resolveAsset(params.get('to_asset'));
  if (!from || !to) return swapFailed('pool does not exist');
  if (from.notation === to.notation) return swapFailed('swap Source and Target cannot be the same.');
  const fromChain = CHAINS[from.chain] as SimChain;
  const amount = BigInt(amountText);
  if (amount < fromChain.dust) return badRequest('amount less than dust threshold');
  const invalid = validationError(params, to, from);
  if (invalid) return badRequest(invalid);
  if (req.scriptedFor(params.get('destination') ?? undefined) === NO_ROUTE_POOL_UNAVAILABLE) {
    return swapFailed(`pool(${to.notation}) is not available`);
  }

  const interval = BigInt(params.get('streaming_interval') || '0');
  const swap = simulateSwap(from, to, amount, interval, BigInt(params.get('streaming_quantity') || '0'));
  const expectedOut = shiftedPrice(swap.expectedOut, req.config);
  if (expectedOut <= 0n) return swapFailed('fail to add outbound tx: not enough asset to pay for fees');
  const target = tradeTarget(params, swap.feelessOut);
  const emit = expectedOut + swap.outboundFee;
  if (emit < target) return swapFailed(`emit asset ${emit} less than price limit ${target}`);
  if (expectedOut < target) {
    return swapFailed(`fail to add outbound tx: outbound amount does not meet requirements (${expectedOut}/${target})`);
  }

  const liquidityTolerance = BigInt(params.get('liquidity_tolerance_bps') || '0');
  const inboundConfirmationSeconds = fromChain.confirmations * fromChain.blockSeconds;
  const outboundDelayBlocks = to.chain === 'THOR' ? 0n : clamp(swap.usdCents / 500_000n, 0n, 720n);
  const streamingBlocks = swap.streamingQuantity > 0n ? interval * (swap.streamingQuantity - 1n) : 0n;
  const outboundDelaySeconds = Number(outboundDelayBlocks) * THOR_BLOCK_SECONDS;
  const streamingSeconds = Number(streamingBlocks) * THOR_BLOCK_SECONDS;
  const limit = liquidityTolerance > 0n ? (expectedOut * (10_000n - liquidityTolerance)) / 10_000n : target;
  const destination = params.get('destination');
  const refundAddress = params.get('refund_address');
  const streaming = interval > 0n ? `/${interval}/${params.get('streaming_quantity') || '0'}` : '';
  const memo = destination ? swapMemo(to, destination, refundAddress, limit, streaming) : undefined;
  if (memo && fromChain.maxMemoLength && memo.length > fromChain.maxMemoLength) {
    return badRequest('generated memo too long for source chain');
  }
  const vault = fromChain.vault ?? '';
  if (memo && destination) remember({ from, to, amount, destination, refundAddress, vault, memo });

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
          ((swap.outboundFee + swap.liquidityFee) * 10_000n) / (expectedOut + swap.outboundFee + swap.liquidityFee),
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
      memo,
      expected_amount_out: expectedOut.toString(),
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

/** The quote's own memo when the deposit follows it, else one built for the deposit's parties. */
function memoFor(
  quoted: QuotedDeposit | undefined,
  deposit: SimDeposit,
  to: PoolAsset,
  destination: string,
  refundAddress: string | undefined,
): string {
  if (quoted && !deposit.destination && !deposit.refundAddress) return quoted.memo;
  return swapMemo(to, destination, refundAddress ?? null, 0n, '');
}

const OUTCOMES: readonly SwapOutcome[] = ['success', 'failure', 'refund', 'partial'];

/** The ending scripted for the swap's destination (`POST /__sim/scripts`), THORChain's `partial` included. */
function scriptedOutcome(req: SimRequest | undefined, destination: string): SwapOutcome | undefined {
  const scripted = req?.scriptedFor(destination);
  return OUTCOMES.includes(scripted as SwapOutcome) ? (scripted as SwapOutcome) : undefined;
}

export interface ThorchainSimulator extends RunningSimulator {
  /** Registers an inbound the fake network observed (also `POST /__sim/thorchain/observe`). */
  observe(deposit: SimDeposit): void;
}

/** The destination a swap memo names (`=:ASSET:DEST[/REFUND]:…` or `SWAP:…`), as THORChain reads it. */
function destinationInMemo(memo: string | undefined): string | undefined {
  const [action, , parties] = memo?.split(':') ?? [];
  if (!action || !['=', 's', 'swap'].includes(action.toLowerCase())) return undefined;
  return parties?.split('/')[0] || undefined;
}

/**
 * THORNode on loopback. A deposit the simulated chain saw (`POST /__sim/deposits`, with the swap's tracking
 * context) follows that swap's own quote: the one whose vault and memo the context names. An unknown hash
 * nobody reported is taken as a deposit following the latest quote that named a destination (its vault,
 * memo, amount and refund address), unless `observe` registered it with other details first.
 */
export async function startThorchainSimulator(opts: SimulatorOptions = {}): Promise<ThorchainSimulator> {
  const swaps = new Map<string, SimSwap>();
  const remembered = opts.remember ?? SIMULATOR_MEMORY;
  let lastQuoted: QuotedDeposit | undefined;
  /** Each quote by its vault and memo, what a swap's tracking context names it by. */
  const quotes = new Map<string, QuotedDeposit>();
  /** Deposits the simulated chain saw, by hash: the quote each followed. */
  const deposited = new Map<string, QuotedDeposit>();
  const quoteKey = (vault: unknown, memo: unknown) => `${String(vault).toLowerCase()} ${String(memo)}`;
  let currentOutcome: () => SwapOutcome = () => 'success';

  function register(deposit: SimDeposit, req?: SimRequest, quoted = lastQuoted): SimSwap | undefined {
    const from = deposit.fromAsset ? resolveAsset(deposit.fromAsset) : (quoted?.from ?? resolveAsset('BTC.BTC'));
    const to = deposit.toAsset ? resolveAsset(deposit.toAsset) : (quoted?.to ?? resolveAsset('ETH.ETH'));
    if (!from || !to || !/^\d+$/.test(deposit.amount ?? '0')) return undefined;
    if (deposit.outcome && !OUTCOMES.includes(deposit.outcome)) return undefined;
    const fromQuote = quoted && quoted.from === from && quoted.to === to ? quoted : undefined;
    const amount = deposit.amount ? BigInt(deposit.amount) : (fromQuote?.amount ?? 10_000_000n);
    const fromChain = CHAINS[from.chain] as SimChain;
    const destination =
      deposit.destination ??
      destinationInMemo(deposit.memo) ??
      fromQuote?.destination ??
      (CHAINS[to.chain] as SimChain).defaultAddress;
    const refundAddress = deposit.refundAddress ?? fromQuote?.refundAddress ?? undefined;
    const sender = deposit.fromAddress ?? refundAddress ?? fromChain.defaultAddress;
    const swap: SimSwap = {
      hash: simTxId(deposit.hash),
      outcome: deposit.outcome ?? scriptedOutcome(req, destination) ?? currentOutcome(),
      polls: 0,
      from,
      to,
      amount,
      expectedOut: simulateSwap(from, to, amount, 0n, 0n).expectedOut,
      destination,
      refundAddress: refundAddress ?? sender,
      sender,
      vault: deposit.toAddress ?? fromQuote?.vault ?? fromChain.vault ?? 'thor1g98cy3n9mmjrpn0sxmn63lztelera37n8n67c0',
      memo: deposit.memo ?? memoFor(fromQuote, deposit, to, destination, refundAddress),
      ...(deposit.unobserved ? { unobserved: true } : {}),
    };
    keep(swaps, swap.hash, swap, remembered);
    return swap;
  }

  const routes: SimRoute[] = [
    {
      method: 'GET',
      pattern: /^\/thorchain\/quote\/swap$/,
      kind: 'quote',
      handle: (req) =>
        handleQuote(req, (deposit) => {
          lastQuoted = deposit;
          keep(quotes, quoteKey(deposit.vault, deposit.memo), deposit, remembered);
        }),
      noRoute: () => swapFailed('pool does not exist'),
    },
    { method: 'GET', pattern: /^\/thorchain\/inbound_addresses$/, kind: 'other', handle: handleInboundAddresses },
    {
      method: 'GET',
      pattern: /^\/thorchain\/tx\/status\/([^/]+)$/,
      kind: 'status',
      handle(req, match) {
        const hash = simTxId(decodeURIComponent(match[1] ?? ''));
        if (!/^[0-9A-F]{64}$/.test(hash)) return { status: 400, body: { error: `invalid tx hash: ${match[1]}` } };
        const swap = swaps.get(hash) ?? (register({ hash }, req, deposited.get(hash) ?? lastQuoted) as SimSwap);
        if (swap.unobserved) return { status: 200, body: UNOBSERVED_BODY };
        const stage = stageAt(stagesFor(swap), swap.polls, req.config.settleAfterPolls);
        swap.polls += 1;
        return { status: 200, body: statusBody(swap, stage) };
      },
    },
    {
      // Midgard, which THORChain's simulator plays beside the node: a depositor's swaps, by the inbound's sender.
      method: 'GET',
      pattern: /^\/v2\/actions$/,
      kind: 'status',
      handle(req) {
        const address = req.url.searchParams.get('address')?.toLowerCase();
        for (const [hash, quoted] of deposited) if (!swaps.has(hash)) register({ hash }, req, quoted);
        const actions = [...swaps.values()]
          .filter((swap) => !swap.unobserved && (!address || swap.sender.toLowerCase() === address))
          .map(midgardAction);
        return { status: 200, body: { actions, count: String(actions.length), meta: {} } };
      },
    },
  ];

  const sim = await startSimulator('thorchain', routes, {
    ...opts,
    outcomes: ['partial', NO_ROUTE_POOL_UNAVAILABLE],
    onReset: () => {
      swaps.clear();
      quotes.clear();
      deposited.clear();
      lastQuoted = undefined;
    },
    onDeposit: ({ hash, context }) => {
      const quoted = quotes.get(quoteKey(context.inboundAddress, context.memo));
      if (!quoted || swaps.has(simTxId(hash))) return false;
      keep(deposited, simTxId(hash), quoted, remembered);
      return true;
    },
  });
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
            : { error: 'expected {hash, outcome?, fromAsset?, toAsset?, amount?, …} with pooled assets' },
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
