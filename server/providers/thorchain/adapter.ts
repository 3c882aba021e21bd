import { formatAmount, formatDisplay, rescale } from '../../catalog/amounts';
import { isProviderError, ProviderError } from '../errors';
import { createUpstream } from '../http';
import type { AdapterOptions } from '../options';
import type {
  DisplayFee,
  ExecuteInput,
  ExecutionResult,
  FeeItem,
  ProviderAdapter,
  ProviderKey,
  ProviderRoute,
  QuoteInput,
  RouteAsset,
  RouteStep,
  StatusInput,
  StatusResult,
} from '../types';
import { NODE_PROFILES, nodeDecimals, symbolOfNotation, type ThorNode, thorAssetNotation, thorTxId } from './assets';
import { fitMemoLimit, maxMemoLength } from './memo';
import { depositExecution, evmExecution, lessBps, lockedMinimum } from './payloads';
import { classifyQuoteError, isNoRouteText } from './quote-errors';
import { mapTxStatus } from './status';
import { checksSender, inboundMismatch } from './verify';
import {
  errorText,
  isErrorBody,
  midgardActionsSchema,
  type QuoteFees,
  type QuoteSwapResponse,
  quoteAnswerSchema,
  type StatusAnswer,
  statusAnswerSchema,
} from './wire';

export { THORCHAIN_ROUTER_ABI } from './payloads';

export interface ThorchainAdapterOptions extends AdapterOptions {
  /** Which node family's paths to use (`/thorchain/…` or `/mayachain/…`). */
  node?: ThorNode;
}

type SwapMode = 'streaming' | 'rapid';

const SWAP_MODES: Record<SwapMode, { streaming_interval: number; streaming_quantity?: number }> = {
  streaming: { streaming_interval: 1, streaming_quantity: 0 },
  rapid: { streaming_interval: 0 },
};

/** Nine Realms' public nodes identify integrators by this header (xchainjs `NINE_REALMS_CLIENT_HEADER`). */
const CLIENT_ID_HEADER = 'x-client-id';

/**
 * A UTXO deposit's memo must fit one OP_RETURN (80 bytes), which a refund address next to the
 * destination overflows; THORChain then refunds to the address the deposit came from.
 */
const partiesOf = (input: QuoteInput) => ({
  destination: input.recipient,
  refundAddress: input.src.chainType === 'UTXO' ? undefined : input.depositor,
});

const byAmountOutDescending = (a: ProviderRoute, b: ProviderRoute) =>
  a.dstAmountBase === b.dstAmountBase ? 0 : a.dstAmountBase < b.dstAmountBase ? 1 : -1;

const sumUints = (...values: (string | undefined)[]) => values.reduce((sum, v) => sum + BigInt(v ?? '0'), 0n);

export function createThorchainAdapter(options: ThorchainAdapterOptions): ProviderAdapter {
  const node: ThorNode = options.node ?? 'thorchain';
  const profile = NODE_PROFILES[node];
  const key: ProviderKey = options.config.key;
  const upstream = createUpstream({
    provider: key,
    baseUrl: options.baseUrl,
    allowedHosts: options.allowedHosts,
    auth: options.config.apiKey ? { header: CLIENT_ID_HEADER, value: options.config.apiKey } : undefined,
  });
  const midgard =
    options.midgardUrl &&
    createUpstream({ provider: key, baseUrl: options.midgardUrl, allowedHosts: options.allowedHosts });

  const routeIdOf = (mode: SwapMode) => `${node}:${mode}`;
  const modeOfRoute = (routeId: string): SwapMode => {
    const mode = (Object.keys(SWAP_MODES) as SwapMode[]).find((m) => routeIdOf(m) === routeId);
    if (!mode) throw new ProviderError(key, 'REJECTED', `unknown route ${routeId}`);
    return mode;
  };

  function assetSupported(asset: RouteAsset): boolean {
    const chain = asset.providerIds.thorchain;
    if (!chain || !profile.chains.has(chain)) return false;
    return asset.isNative || asset.chainType === 'EVM';
  }

  function supports(src: RouteAsset, dst: RouteAsset): boolean {
    if (!assetSupported(src) || !assetSupported(dst)) return false;
    // A source on the node's own chain is paid with a MsgDeposit, which has no deposit address to hand out.
    if (src.providerIds.thorchain === profile.nativeChain) return false;
    if (src.chainType !== 'EVM' && src.chainType !== 'UTXO' && src.chainType !== 'COSMOS') return false;
    return thorAssetNotation(src) !== thorAssetNotation(dst);
  }

  function swapPlan(input: QuoteInput) {
    const fromAsset = thorAssetNotation(input.src) as string;
    const toAsset = thorAssetNotation(input.dst) as string;
    const amount = rescale(input.amountBase, input.src.decimals, nodeDecimals(node, fromAsset));
    return { fromAsset, toAsset, amount };
  }

  async function requestQuote(
    input: QuoteInput,
    mode: SwapMode,
    signal: AbortSignal,
    parties: { destination?: string; refundAddress?: string },
  ): Promise<QuoteSwapResponse> {
    const plan = swapPlan(input);
    const { data } = await upstream.request({
      path: `/${node}/quote/swap`,
      query: {
        from_asset: plan.fromAsset,
        to_asset: plan.toAsset,
        amount: plan.amount.toString(),
        destination: parties.destination || undefined,
        refund_address: parties.refundAddress || undefined,
        ...SWAP_MODES[mode],
        liquidity_tolerance_bps: input.slippageBps > 0 ? input.slippageBps : undefined,
      },
      schema: quoteAnswerSchema,
      signal,
      classify: (status, body) => classifyQuoteError(key, status, body),
    });
    if (isErrorBody(data)) {
      const message = errorText(data);
      throw new ProviderError(key, isNoRouteText(message) ? 'NO_ROUTE' : 'REJECTED', message);
    }
    return data;
  }

  function displayFee(fees: QuoteFees): DisplayFee {
    const decimals = nodeDecimals(node, fees.asset);
    const currency = symbolOfNotation(fees.asset);
    const item = (label: string, type: FeeItem['type'], amount: string | undefined): FeeItem[] =>
      amount && BigInt(amount) > 0n
        ? [{ label, type, amount: formatAmount(BigInt(amount), decimals), amountUsd: null, currency }]
        : [];
    const total =
      fees.total !== undefined ? BigInt(fees.total) : sumUints(fees.outbound, fees.liquidity, fees.affiliate);
    return {
      usd: null,
      formatted: formatDisplay(total, decimals, currency),
      currency,
      details: [
        ...item('Outbound fee', 'network', fees.outbound),
        ...item('Liquidity fee', 'liquidity', fees.liquidity),
        ...item('Affiliate fee', 'affiliate', fees.affiliate),
      ],
    };
  }

  function stepsFor(input: QuoteInput, mode: SwapMode): RouteStep[] {
    const approve: RouteStep[] =
      input.src.chainType === 'EVM' && !input.src.isNative
        ? [{ type: 'approve', name: `Approve ${profile.label} router`, image: input.src.image }]
        : [];
    const swapName = mode === 'streaming' ? `${profile.label} streaming swap` : `${profile.label} swap`;
    return [...approve, { type: 'swap', name: swapName, image: profile.image }];
  }

  const estimatedSeconds = (data: QuoteSwapResponse) =>
    data.total_swap_seconds ??
    (data.inbound_confirmation_seconds ?? 0) + (data.outbound_delay_seconds ?? 0) + (data.streaming_swap_seconds ?? 0);

  /**
   * The memo's price limit, computed by us: THORNode writes no limit at all for a tolerance of 0,
   * which would let the swap fill at any price.
   */
  const minAmountOut = (data: QuoteSwapResponse, slippageBps: number) =>
    lessBps(BigInt(data.expected_amount_out), slippageBps);

  /**
   * THORNode quotes amounts under its recommended minimum, but a refund of one may not cover the
   * outbound fee (querier_quotes.go `calculateMinSwapAmount`): such a swap is not offered.
   */
  function belowRecommendedMinimum(input: QuoteInput, data: QuoteSwapResponse): ProviderError | undefined {
    const minimum = data.recommended_min_amount_in;
    const { amount } = swapPlan(input);
    if (minimum === undefined || amount >= BigInt(minimum)) return undefined;
    return new ProviderError(
      key,
      'NO_ROUTE',
      `${amount} (1e8 units) is below ${profile.label}'s recommended minimum ${minimum}: a refund could be lost to fees`,
    );
  }

  /** The memo with the price limit written in, within what the source chain carries; the limit is never lowered to fit. */
  function memoWithLimit(input: QuoteInput, data: QuoteSwapResponse, memo: string, limit: bigint) {
    const maxLength = maxMemoLength(input.src.chainType);
    const fitted = fitMemoLimit(memo, limit, maxLength);
    if (!fitted || fitted.limit > BigInt(data.expected_amount_out)) {
      throw new ProviderError(
        key,
        'NO_ROUTE',
        `the memo with the price limit ${limit} does not fit the ${maxLength} bytes a ${input.src.chain} deposit carries`,
      );
    }
    return fitted;
  }

  function toRoute(input: QuoteInput, mode: SwapMode, data: QuoteSwapResponse, minOut: bigint): ProviderRoute {
    const plan = swapPlan(input);
    const dstNodeDecimals = nodeDecimals(node, plan.toAsset);
    return {
      routeId: routeIdOf(mode),
      dstAmountBase: rescale(BigInt(data.expected_amount_out), dstNodeDecimals, input.dst.decimals),
      dstMinAmountBase: rescale(minOut, dstNodeDecimals, input.dst.decimals),
      estimatedTimeSeconds: estimatedSeconds(data),
      fee: displayFee(data.fees),
      steps: stepsFor(input, mode),
      expiresAt: new Date(data.expiry * 1000),
      providerQuote: {
        node,
        mode,
        fromAsset: plan.fromAsset,
        toAsset: plan.toAsset,
        amount: plan.amount.toString(),
        ...SWAP_MODES[mode],
        liquidityToleranceBps: input.slippageBps,
        expectedAmountOut: data.expected_amount_out,
        minAmountOut: minOut.toString(),
        recommendedMinAmountIn: data.recommended_min_amount_in ?? null,
        expiry: data.expiry,
      },
    };
  }

  async function quoteRoute(input: QuoteInput, mode: SwapMode, signal: AbortSignal): Promise<ProviderRoute> {
    const data = await requestQuote(input, mode, signal, partiesOf(input));
    const tooSmall = belowRecommendedMinimum(input, data);
    if (tooSmall) throw tooSmall;
    const minOut = minAmountOut(data, input.slippageBps);
    const limit = data.memo ? memoWithLimit(input, data, data.memo, minOut).limit : minOut;
    return toRoute(input, mode, data, limit);
  }

  async function quote(input: QuoteInput, signal: AbortSignal): Promise<ProviderRoute[]> {
    if (!supports(input.src, input.dst) || swapPlan(input).amount <= 0n) return [];
    const modes = Object.keys(SWAP_MODES) as SwapMode[];
    const settled = await Promise.allSettled(modes.map((mode) => quoteRoute(input, mode, signal)));
    const routes: ProviderRoute[] = [];
    const failures: unknown[] = [];
    settled.forEach((result, i) => {
      if (result.status === 'fulfilled') {
        routes.push(result.value);
        return;
      }
      failures.push(result.reason);
      if (isProviderError(result.reason) && result.reason.kind === 'NO_ROUTE') {
        const reason = result.reason.message;
        options.log?.debug({ provider: key, routeId: routeIdOf(modes[i] as SwapMode), reason }, 'route left out');
      }
    });
    if (routes.length) return routes.sort(byAmountOutDescending);
    const hardFailure = failures.find((e) => !(isProviderError(e) && e.kind === 'NO_ROUTE'));
    if (hardFailure) throw hardFailure;
    return [];
  }

  /**
   * The fresh quote at execute must still deliver what the lock promised; the memo then carries the
   * locked minimum (or the fresh one, when the price improved), so the user signs the terms they saw.
   */
  function holdLockedTerms(input: ExecuteInput, data: QuoteSwapResponse, memo: string) {
    const fresh = BigInt(data.expected_amount_out);
    const locked = lockedMinimum(input);
    if (locked !== undefined && fresh < locked) {
      throw new ProviderError(key, 'TERMS_CHANGED', `expected ${fresh} now, below the locked minimum ${locked}`);
    }
    const freshMin = minAmountOut(data, input.slippageBps);
    return memoWithLimit(input, data, memo, locked !== undefined && locked > freshMin ? locked : freshMin);
  }

  async function execute(input: ExecuteInput, signal: AbortSignal): Promise<ExecutionResult> {
    if (!supports(input.src, input.dst)) throw new ProviderError(key, 'REJECTED', 'pair not supported');
    const mode = modeOfRoute(input.routeId);
    const data = await requestQuote(input, mode, signal, partiesOf(input));
    const tooSmall = belowRecommendedMinimum(input, data);
    if (tooSmall) throw tooSmall;
    const vault = data.inbound_address;
    if (!vault || !data.memo) throw new ProviderError(key, 'BAD_RESPONSE', 'quote without inbound_address or memo');
    const { memo, limit } = holdLockedTerms(input, data, data.memo);

    const exec =
      input.src.chainType === 'EVM'
        ? evmExecution(key, input, data, vault, memo)
        : depositExecution(input, data, vault, memo);
    const plan = swapPlan(input);
    const route = toRoute(input, mode, data, limit);
    return {
      providerResult:
        exec.meta.executionMode === 'evm-calldata'
          ? { status: 'AWAITING_WALLET', execution: 'evm-calldata' }
          : { status: 'AWAITING_DEPOSIT', depositAddress: vault, depositMemo: memo, execution: 'deposit-address' },
      exec,
      trackingContext: {
        node,
        fromAsset: plan.fromAsset,
        toAsset: plan.toAsset,
        inboundAddress: vault,
        memo,
        expiry: data.expiry,
      },
      dstAmountBase: route.dstAmountBase,
      dstMinAmountBase: route.dstMinAmountBase,
      fee: route.fee,
      depositDeadline: new Date(data.expiry * 1000),
    };
  }

  const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

  /** The deposit the stored context and the lock describe, in the node's terms. */
  function expectedInbound(input: StatusInput) {
    const fromAsset = text(input.trackingContext.fromAsset) ?? thorAssetNotation(input.src);
    return {
      inboundAddress: text(input.trackingContext.inboundAddress),
      memo: text(input.trackingContext.memo),
      fromAsset,
      amount: rescale(input.srcAmountBase, input.src.decimals, nodeDecimals(node, fromAsset ?? '')),
      depositor: input.depositor,
      checkSender: checksSender(input.src),
    };
  }

  /**
   * Status is looked up by the client's hash alone, so the inbound behind it must be this swap's
   * deposit (vault, memo, sender, amount) before anything it says counts.
   */
  async function status(input: StatusInput, signal: AbortSignal): Promise<StatusResult> {
    const context = input.trackingContext;
    const toAsset = text(context.toAsset) ?? thorAssetNotation(input.dst) ?? '';
    const claimed = input.hash || input.inboundHash;
    const check = (verdict: 'verified' | 'rejected' | 'unknown', reason?: string) => ({
      hash: claimed,
      verdict,
      ...(reason ? { reason } : {}),
      decidesStatus: true,
    });
    let body: StatusAnswer;
    try {
      ({ data: body } = await upstream.request({
        path: `/${node}/tx/status/${encodeURIComponent(thorTxId(claimed))}`,
        schema: statusAnswerSchema,
        signal,
        okStatuses: [200, 400, 404],
      }));
    } catch (error) {
      if (isProviderError(error) && error.upstreamStatus === 404) {
        return {
          status: 'PENDING',
          detail: 'not indexed yet',
          upstreamState: 'not_found',
          notFound: true,
          substatus: 'NOT_FOUND_UPSTREAM',
          hashCheck: check('unknown'),
        };
      }
      throw error;
    }
    const inbound = isErrorBody(body) ? undefined : body.tx;
    const mismatch = inbound ? inboundMismatch(inbound, expectedInbound(input)) : undefined;
    if (mismatch) {
      return {
        status: 'PENDING',
        detail: `the transaction ${claimed} is not this swap's deposit: ${mismatch}`,
        upstreamState: 'hash_rejected',
        hashCheck: check('rejected', mismatch),
      };
    }
    const result = mapTxStatus(body, {
      toAsset,
      nativeChain: profile.nativeChain,
      dstDecimals: input.dst.decimals,
      dstNodeDecimals: nodeDecimals(node, toAsset),
      nodeDecimalsOf: (notation) => nodeDecimals(node, notation),
      srcDecimals: input.src.decimals,
    });
    return { ...result, hashCheck: check(inbound ? 'verified' : 'unknown') };
  }

  /**
   * The depositor's swaps as Midgard lists them whose inbound carries our memo and the locked amount from the
   * depositor. Midgard does not show the vault paid, so status must still verify each hash found.
   */
  async function findDeposits(input: StatusInput, signal: AbortSignal): Promise<string[]> {
    const expected = expectedInbound(input);
    if (!midgard || !expected.memo || !input.depositor) return [];
    const { data } = await midgard.request({
      path: '/v2/actions',
      query: { address: input.depositor, type: 'swap' },
      schema: midgardActionsSchema,
      signal,
    });
    return data.actions.flatMap((action) =>
      action.in
        .filter(
          (inbound) =>
            !inboundMismatch(
              {
                id: inbound.txID,
                from_address: inbound.address,
                memo: action.metadata?.swap?.memo,
                coins: inbound.coins,
              },
              { ...expected, inboundAddress: undefined, checkSender: true },
            ),
        )
        .map((inbound) => inbound.txID),
    );
  }

  return {
    key,
    pollIntervalMs: 10_000,
    supports,
    quote,
    execute,
    canTrack: (_trackingContext, hash) => hash.trim().length > 0,
    status,
    findDeposits,
  };
}
