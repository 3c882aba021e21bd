import { formatUnits } from 'viem';
import { z } from 'zod';
import { isProviderError, ProviderError } from '../errors';
import { createUpstream } from '../http';
import type { AdapterOptions } from '../options';
import type {
  DisplayFee,
  ExecPayload,
  ExecutionResult,
  FeeItem,
  ProviderAdapter,
  ProviderRoute,
  QuoteInput,
  RouteAsset,
  RouteStep,
  StatusInput,
  StatusResult,
} from '../types';
import { mapLifiStatus } from './status';
import { sumUsd, usdNumber } from './usd';
import { transferMismatch } from './verify';
import {
  errorBodySchema,
  LIFI_ERROR_CODES,
  type LifiFeeCost,
  type LifiGasCost,
  type LifiPopulatedStep,
  type LifiRoute,
  type LifiRoutesRequest,
  type LifiStatusResponse,
  type LifiStep,
  lifiStepSchema,
  populatedStepSchema,
  routesResponseSchema,
  statusResponseSchema,
} from './wire';

export const LIFI_BASE_URL = 'https://li.quest';
export const LIFI_API_KEY_HEADER = 'x-lifi-api-key';
export const LIFI_INTEGRATOR = 'switchyard';
/** The LI.FI SDK polls `/status` every 5 s (waitForTransactionStatus). */
export const LIFI_POLL_INTERVAL_MS = 5_000;
const MAX_ROUTES = 3;

const EVM_NATIVE = '0x0000000000000000000000000000000000000000';
const EVM_NATIVE_ALIASES = new Set([EVM_NATIVE, '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee']);
/** LI.FI's own spelling of non-EVM natives, by LI.FI chain id. */
const NON_EVM_NATIVE_TOKENS: Record<number, string> = {
  1151111081099710: '11111111111111111111111111111111',
  20000000000001: 'bitcoin',
};

/** The token address LI.FI expects for one of our assets, or undefined when it cannot name it. */
export function lifiTokenAddress(asset: RouteAsset): string | undefined {
  const chainId = asset.providerIds.lifi;
  if (chainId === undefined) return undefined;
  if (asset.chainType === 'EVM') return asset.isNative ? EVM_NATIVE : asset.address;
  if (asset.isNative) return NON_EVM_NATIVE_TOKENS[chainId];
  return asset.address === 'native' ? undefined : asset.address;
}

const isNativeToken = (address: string) => EVM_NATIVE_ALIASES.has(address.toLowerCase());

export function lifiRouteId(route: Pick<LifiRoute, 'steps'>): string {
  return `lifi:${route.steps.map((step) => step.tool).join('+')}`;
}

function routesRequest(input: QuoteInput, fromToken: string, toToken: string): LifiRoutesRequest {
  return {
    fromChainId: input.src.providerIds.lifi as number,
    fromAmount: input.amountBase.toString(),
    fromTokenAddress: fromToken,
    ...(input.depositor ? { fromAddress: input.depositor } : {}),
    toChainId: input.dst.providerIds.lifi as number,
    toTokenAddress: toToken,
    ...(input.recipient ? { toAddress: input.recipient } : {}),
    options: {
      slippage: input.slippageBps / 10_000,
      order: 'CHEAPEST',
      integrator: LIFI_INTEGRATOR,
      allowSwitchChain: false,
    },
  };
}

function lifiErrorCode(body: unknown): number | undefined {
  const parsed = errorBodySchema.safeParse(body);
  return parsed.success ? parsed.data.code : undefined;
}

function noRouteClassifier(codes: number[]) {
  return (status: number, body: unknown): ProviderError | undefined => {
    const code = lifiErrorCode(body);
    if (status === 404 || (code !== undefined && codes.includes(code))) {
      return new ProviderError('LIFI', 'NO_ROUTE', 'LI.FI found no route for this transfer', status);
    }
    return undefined;
  };
}

const FEE_TYPES: [RegExp, FeeItem['type']][] = [
  [/integrator/i, 'affiliate'],
  [/li\.?fi/i, 'provider'],
  [/relay|solver|filler/i, 'relayer'],
  [/gas/i, 'gas'],
];

const feeType = (name: string): FeeItem['type'] => FEE_TYPES.find(([pattern]) => pattern.test(name))?.[1] ?? 'bridge';

const tokenAmount = (amount: string, decimals: number) => formatUnits(BigInt(amount), decimals);

function feeCostItem(cost: LifiFeeCost): FeeItem {
  return {
    label: cost.included === false ? `${cost.name} (paid on top)` : cost.name,
    type: feeType(cost.name),
    amount: tokenAmount(cost.amount, cost.token.decimals),
    amountUsd: usdNumber(cost.amountUSD),
    currency: cost.token.symbol,
  };
}

function gasCostItem(cost: LifiGasCost): FeeItem {
  return {
    label: 'Network gas',
    type: 'gas',
    amount: tokenAmount(cost.amount, cost.token.decimals),
    amountUsd: usdNumber(cost.amountUSD),
    currency: cost.token.symbol,
  };
}

function displayFee(steps: LifiStep[]): DisplayFee {
  const feeCosts = steps.flatMap((step) => step.estimate.feeCosts ?? []);
  const gasCosts = steps.flatMap((step) => step.estimate.gasCosts ?? []);
  const usd = sumUsd([...feeCosts, ...gasCosts].map((cost) => cost.amountUSD));
  return {
    usd,
    formatted: usd === null ? null : `$${usd}`,
    currency: usd === null ? null : 'USD',
    details: [...feeCosts.map(feeCostItem), ...gasCosts.map(gasCostItem)],
  };
}

type ToolStep = Pick<LifiStep, 'type' | 'tool' | 'toolDetails' | 'action'>;

function routeStep(step: ToolStep): RouteStep {
  const crossesChains = step.type === 'cross' || step.action.fromChainId !== step.action.toChainId;
  return { type: crossesChains ? 'bridge' : 'swap', name: step.toolDetails.name, image: step.toolDetails.logoURI };
}

function routeSteps(steps: LifiStep[]): RouteStep[] {
  return steps.flatMap((step) => {
    const included: ToolStep[] = (step.includedSteps ?? []).filter((inner) => inner.tool !== 'feeCollection');
    return (included.length ? included : [step]).map(routeStep);
  });
}

const executionSeconds = (steps: LifiStep[]) =>
  Math.round(steps.reduce((sum, step) => sum + step.estimate.executionDuration, 0));

function toProviderRoute(route: LifiRoute): ProviderRoute {
  return {
    routeId: lifiRouteId(route),
    dstAmountBase: BigInt(route.toAmount),
    dstMinAmountBase: BigInt(route.toAmountMin),
    estimatedTimeSeconds: executionSeconds(route.steps),
    fee: displayFee(route.steps),
    ...(route.fromAmountUSD ? { srcUsd: route.fromAmountUSD } : {}),
    ...(route.toAmountUSD ? { dstUsd: route.toAmountUSD } : {}),
    steps: routeSteps(route.steps),
    providerQuote: { lifiRouteId: route.id, steps: route.steps },
  };
}

/**
 * Best first by delivered amount (every route ends in the same token), one route per tool path.
 * Only routes of one step are offered: LI.FI executes steps one after another and a later step's
 * transaction can only be built once the earlier one settled (its calldata depends on what that
 * step really delivered), which one signed payload at execute cannot honour.
 */
export function rankRoutes(routes: LifiRoute[]): ProviderRoute[] {
  const ranked = routes
    .filter((route) => route.steps.length === 1)
    .sort((a, b) => {
      const diff = BigInt(b.toAmount) - BigInt(a.toAmount);
      return diff > 0n ? 1 : diff < 0n ? -1 : 0;
    });
  const seen = new Set<string>();
  const unique = ranked.filter((route) => {
    const id = lifiRouteId(route);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  return unique.slice(0, MAX_ROUTES).map(toProviderRoute);
}

const storedQuoteSchema = z.object({ lifiRouteId: z.string(), steps: z.array(lifiStepSchema).length(1) });

const trackingContextSchema = z.object({
  fromChainId: z.number().optional(),
  toChainId: z.number().optional(),
  bridge: z.string().optional(),
  transactionId: z.string().optional(),
});

export type LifiTrackingContext = z.infer<typeof trackingContextSchema>;

const addressed = (step: LifiStep, depositor: string, recipient: string): LifiStep => ({
  ...step,
  action: { ...step.action, fromAddress: depositor, toAddress: recipient },
});

function approvalFields(
  step: LifiPopulatedStep,
): Pick<ExecPayload, 'approvalTarget' | 'approvalToken' | 'approvalAmount'> {
  if (isNativeToken(step.action.fromToken.address) || step.estimate.skipApproval) return {};
  return {
    approvalTarget: step.estimate.approvalAddress,
    approvalToken: step.action.fromToken.address,
    approvalAmount: step.action.fromAmount,
  };
}

const decimalValue = (value: string) => BigInt(value).toString();

function execPayload(input: { src: RouteAsset }, lifiRouteId: string, step: LifiPopulatedStep): ExecPayload {
  const tx = step.transactionRequest;
  return {
    chainId: step.action.fromChainId,
    providerTarget: tx.to,
    providerCalldata: tx.data,
    value: decimalValue(tx.value),
    srcToken: input.src.isNative ? 'native' : input.src.address,
    srcAmount: step.action.fromAmount,
    ...approvalFields(step),
    meta: {
      providerQuoteId: step.id,
      selectedQuoteId: lifiRouteId,
      executionMode: 'evm-calldata',
      walletExecution: true,
    },
  };
}

function trackingContext(step: LifiPopulatedStep): LifiTrackingContext {
  return {
    fromChainId: step.action.fromChainId,
    toChainId: step.action.toChainId,
    bridge: step.tool,
    ...(step.transactionId ? { transactionId: step.transactionId } : {}),
  };
}

export function createLifiAdapter(options: AdapterOptions): ProviderAdapter {
  const { apiKey } = options.config;
  const upstream = createUpstream({
    provider: 'LIFI',
    baseUrl: options.baseUrl,
    allowedHosts: options.allowedHosts,
    beforeRequest: options.beforeRequest,
    ...(apiKey ? { auth: { header: LIFI_API_KEY_HEADER, value: apiKey } } : {}),
  });

  function supports(src: RouteAsset, dst: RouteAsset): boolean {
    if (src.chainType !== 'EVM') return false;
    const from = lifiTokenAddress(src);
    const to = lifiTokenAddress(dst);
    if (!from || !to) return false;
    return !(src.providerIds.lifi === dst.providerIds.lifi && from.toLowerCase() === to.toLowerCase());
  }

  async function stepTransaction(step: LifiStep, signal: AbortSignal): Promise<LifiPopulatedStep> {
    const { data } = await upstream.request({
      method: 'POST',
      path: 'v1/advanced/stepTransaction',
      body: step,
      schema: populatedStepSchema,
      signal,
      classify: noRouteClassifier([LIFI_ERROR_CODES.noQuote, LIFI_ERROR_CODES.failedToBuildTransaction]),
    });
    return data;
  }

  /**
   * The calldata at execute comes from a fresh step, whose `toAmountMin` is what it enforces. When the
   * market moved, the slippage is tightened so the minimum is still the locked one; when even the
   * expected output is below it, the lock cannot be honoured.
   */
  async function stepHoldingLockedTerms(step: LifiStep, signal: AbortSignal): Promise<LifiPopulatedStep> {
    const lockedMin = BigInt(step.estimate.toAmountMin);
    const populated = await stepTransaction(step, signal);
    const expected = BigInt(populated.estimate.toAmount);
    if (BigInt(populated.estimate.toAmountMin) >= lockedMin) return populated;
    if (expected < lockedMin) {
      throw new ProviderError(
        'LIFI',
        'TERMS_CHANGED',
        `expected ${expected} now, below the locked minimum ${lockedMin}`,
      );
    }
    const slippage = Number(((expected - lockedMin) * 10_000n) / expected) / 10_000;
    const tightened = await stepTransaction({ ...step, action: { ...step.action, slippage } }, signal);
    const held = BigInt(tightened.estimate.toAmountMin);
    if (held < lockedMin) {
      throw new ProviderError('LIFI', 'TERMS_CHANGED', `minimum ${held} now, below the locked minimum ${lockedMin}`);
    }
    return tightened;
  }

  async function fetchStatus(
    query: { txHash: string; fromChain?: number; toChain?: number; bridge?: string },
    signal: AbortSignal,
  ): Promise<LifiStatusResponse> {
    try {
      const { data } = await upstream.request({ path: 'v1/status', query, schema: statusResponseSchema, signal });
      return data;
    } catch (error) {
      // The docs promise 200 + NOT_FOUND for unknown hashes; a 404 means the same thing.
      if (isProviderError(error) && error.kind === 'REJECTED' && error.upstreamStatus === 404) {
        return { status: 'NOT_FOUND' };
      }
      throw error;
    }
  }

  return {
    key: 'LIFI',
    pollIntervalMs: LIFI_POLL_INTERVAL_MS,
    supports,

    async quote(input, signal) {
      const from = lifiTokenAddress(input.src);
      const to = lifiTokenAddress(input.dst);
      if (!supports(input.src, input.dst) || !from || !to) return [];
      try {
        const { data } = await upstream.request({
          method: 'POST',
          path: 'v1/advanced/routes',
          body: routesRequest(input, from, to),
          schema: routesResponseSchema,
          signal,
          classify: noRouteClassifier([LIFI_ERROR_CODES.noQuote]),
        });
        return rankRoutes(data.routes);
      } catch (error) {
        if (isProviderError(error) && error.kind === 'NO_ROUTE') return [];
        throw error;
      }
    },

    async execute(input, signal): Promise<ExecutionResult> {
      const stored = storedQuoteSchema.safeParse(input.providerQuote);
      if (!stored.success) {
        throw new ProviderError('LIFI', 'NO_ROUTE', 'the locked LI.FI route is not a single-transaction route');
      }
      const [step] = stored.data.steps as [LifiStep];
      const populated = await stepHoldingLockedTerms(addressed(step, input.depositor, input.recipient), signal);
      return {
        providerResult: {
          status: 'AWAITING_WALLET',
          requestId: populated.transactionId ?? populated.id,
          execution: 'evm-calldata',
        },
        exec: execPayload(input, stored.data.lifiRouteId, populated),
        trackingContext: trackingContext(populated),
        dstAmountBase: BigInt(populated.estimate.toAmount),
        dstMinAmountBase: BigInt(populated.estimate.toAmountMin),
        fee: displayFee([populated]),
      };
    },

    canTrack(context, hash) {
      if (hash.trim() !== '') return true;
      const parsed = trackingContextSchema.safeParse(context);
      return parsed.success && Boolean(parsed.data.transactionId);
    },

    /**
     * Asked by the client's hash when there is one, so the transfer LI.FI reports must be this swap's
     * (our transactionId, the depositor, the source chain, token and amount) before it counts.
     */
    async status(input: StatusInput, signal): Promise<StatusResult> {
      const parsed = trackingContextSchema.safeParse(input.trackingContext);
      const context: LifiTrackingContext = parsed.success ? parsed.data : {};
      const claimed = input.hash.trim() || input.inboundHash.trim();
      const txHash = claimed || context.transactionId;
      if (!txHash) {
        return {
          status: 'PENDING',
          notFound: true,
          detail: 'waiting for the source transaction hash',
          upstreamState: 'NOT_FOUND',
          substatus: 'NOT_FOUND_UPSTREAM',
        };
      }
      const query = { txHash, fromChain: context.fromChainId, toChain: context.toChainId };
      // `bridge` names the bridge of a cross-chain transfer; a same-chain swap has none to name.
      const bridge = context.fromChainId === context.toChainId ? undefined : context.bridge;
      let body = await fetchStatus({ ...query, bridge }, signal);
      // A stale `bridge` can be what LI.FI cannot resolve: ask once more without it.
      if (body.status === 'INVALID' && bridge) body = await fetchStatus(query, signal);
      const result = mapLifiStatus(body, {
        dstTokenAddress: lifiTokenAddress(input.dst),
        chainKeyOf: (id) => [input.src, input.dst].find((asset) => asset.providerIds.lifi === id)?.chain,
      });
      if (!claimed) return result;
      const { identified, reason } = transferMismatch(body, {
        transactionId: context.transactionId,
        fromChainId: context.fromChainId,
        fromToken: lifiTokenAddress(input.src),
        depositor: input.depositor,
        amount: input.srcAmountBase,
      });
      const hashCheck = {
        hash: claimed,
        verdict: reason ? ('rejected' as const) : identified ? ('verified' as const) : ('unknown' as const),
        ...(reason ? { reason } : {}),
        decidesStatus: true,
      };
      if (!reason) return { ...result, hashCheck };
      return {
        status: 'PENDING',
        detail: `the transaction ${claimed} is not this swap's transfer: ${reason}`,
        upstreamState: 'hash_rejected',
        hashCheck,
      };
    },
  };
}
