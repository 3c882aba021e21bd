import { z } from 'zod';
import { ProviderError } from '../errors';
import { reportedInboundCheck } from '../hash-check';
import { createUpstream } from '../http';
import type { AdapterOptions } from '../options';
import type {
  ExecPayload,
  ExecuteInput,
  ExecutionResult,
  ProviderAdapter,
  ProviderRoute,
  QuoteInput,
  RouteAsset,
  RouteStep,
  StatusInput,
  StatusResult,
} from '../types';
import { type ChainflipAssetRef, chainflipAssetOf, chainflipDecimals, sameChainflipAsset } from './assets';
import { displayFee, feeItems } from './fees';
import { createNotFoundGuard, type NotFoundGuardOptions } from './not-found-guard';
import { lessSlippage, minPriceX128 } from './price';
import { mapSwapStatus } from './status';
import {
  dcaParamsSchema,
  depositChannelInfoSchema,
  errorBodySchema,
  feeSchema,
  type OpenSwapDepositChannelBody,
  quoteResponseSchema,
  swapStatusSchema,
  type WireQuote,
} from './wire';

const KEY = 'CHAINFLIP' as const;
const IMAGE =
  'https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/ethereum/assets/0x826180541412D574cf1336d22c0C0a287822678A/logo.png';
const RETRY_DURATION_BLOCKS = 100;
const QUOTE_TYPES = { REGULAR: 'chainflip:regular', DCA: 'chainflip:dca' } as const;
type QuoteType = keyof typeof QUOTE_TYPES;

/**
 * The backend's own words for "this pair or amount cannot be swapped" (400, or 503 for a disabled
 * asset). Its bare "invalid request" is not among them: that is a query it could not parse, a bug of
 * ours that must show in logs and metrics rather than pass for an empty route list. An output too small to
 * pay its egress is also no route (packages/swap/src/quoting/QuoteRequest.ts in chainflip-sdk-monorepo).
 */
const NO_ROUTE_MESSAGE =
  /minimum swap amount|maximum swap amount|cannot be swapped|insufficient liquidity|ingress fee|swap input amount|invalid asset and chain|is disabled|lower than the egress fee|lower than minimum egress amount/i;

const storedQuoteSchema = z.object({
  type: z.enum(['REGULAR', 'DCA']),
  srcAsset: z.object({ asset: z.string(), chain: z.string() }),
  destAsset: z.object({ asset: z.string(), chain: z.string() }),
  depositAmount: z.string(),
  egressAmount: z.string(),
  intermediateAmount: z.string().optional(),
  estimatedPrice: z.string().regex(/^\d+(\.\d+)?$/),
  recommendedSlippageTolerancePercent: z.number().optional(),
  recommendedLivePriceSlippageTolerancePercent: z.number().optional(),
  dcaParams: dcaParamsSchema.optional(),
  /** Every fee line quoted, the pools' liquidity fees as `LIQUIDITY`: what tracking compares the status fees with. */
  fees: z.array(feeSchema).optional(),
});
type StoredQuote = z.infer<typeof storedQuoteSchema>;

const tsRestValidationSchema = z.object({
  bodyErrors: z.object({ issues: z.array(z.looseObject({ message: z.string() })) }),
});

const trackingSchema = z.looseObject({
  channelId: z.string().min(1).optional(),
  quotedFees: z.array(feeSchema).optional(),
});

export interface ChainflipAdapterTuning {
  notFoundGuard?: NotFoundGuardOptions;
}

const isQuoteType = (type: string): type is QuoteType => Object.hasOwn(QUOTE_TYPES, type);

/** `{message}` from the backend's ServiceError, or the first zod issue of a ts-rest validation 400. */
function messageOf(body: unknown): string {
  const service = errorBodySchema.safeParse(body);
  if (service.success) return service.data.message;
  const validation = tsRestValidationSchema.safeParse(body);
  return validation.success ? (validation.data.bodyErrors.issues[0]?.message ?? '') : '';
}

function classifyQuoteError(status: number, body: unknown): ProviderError | undefined {
  const message = messageOf(body);
  if ((status === 400 || status === 503) && NO_ROUTE_MESSAGE.test(message)) {
    return new ProviderError(KEY, 'NO_ROUTE', message, status);
  }
  if (status === 400) return new ProviderError(KEY, 'REJECTED', message || 'quote refused', status);
  return undefined;
}

function classifyChannelError(status: number, body: unknown): ProviderError | undefined {
  if (status !== 400) return undefined;
  return new ProviderError(KEY, 'REJECTED', `deposit channel refused: ${messageOf(body) || 'invalid request'}`, status);
}

/** The quote's fee lines with the pools' fees among them, as the status body would name them. */
const quotedFees = (quote: WireQuote) => [
  ...quote.includedFees,
  ...(quote.poolInfo ?? []).map((pool) => ({ ...pool.fee, type: 'LIQUIDITY' })),
];

/** Only what execute and tracking need, as plain JSON (absent fields left out rather than `undefined`). */
function toStoredQuote(quote: WireQuote & { type: QuoteType }): StoredQuote {
  const stored: StoredQuote = {
    type: quote.type,
    srcAsset: { asset: quote.srcAsset.asset, chain: quote.srcAsset.chain },
    destAsset: { asset: quote.destAsset.asset, chain: quote.destAsset.chain },
    depositAmount: quote.depositAmount,
    egressAmount: quote.egressAmount,
    intermediateAmount: quote.intermediateAmount,
    estimatedPrice: quote.estimatedPrice,
    recommendedSlippageTolerancePercent: quote.recommendedSlippageTolerancePercent,
    recommendedLivePriceSlippageTolerancePercent: quote.recommendedLivePriceSlippageTolerancePercent ?? undefined,
    dcaParams: quote.dcaParams,
    fees: quotedFees(quote).map(({ type, chain, asset, amount }) => ({ type, chain, asset, amount })),
  };
  return JSON.parse(JSON.stringify(stored));
}

function stepsFor(type: QuoteType): RouteStep[] {
  return [
    { type: 'deposit', name: 'Chainflip deposit channel', image: IMAGE },
    { type: 'swap', name: type === 'DCA' ? 'Chainflip DCA swap' : 'Chainflip swap', image: IMAGE },
  ];
}

function toRoute(quote: WireQuote & { type: QuoteType }, slippageBps: number): ProviderRoute {
  const dstAmountBase = BigInt(quote.egressAmount);
  return {
    routeId: QUOTE_TYPES[quote.type],
    dstAmountBase,
    dstMinAmountBase: lessSlippage(dstAmountBase, slippageBps),
    estimatedTimeSeconds: Math.round(quote.estimatedDurationSeconds),
    fee: displayFee(feeItems(quotedFees(quote))),
    steps: stepsFor(quote.type),
    providerQuote: toStoredQuote(quote),
  };
}

/** Best first: the larger payout, REGULAR before DCA on a tie (it settles sooner). */
function rankRoutes(quotes: WireQuote[], slippageBps: number): ProviderRoute[] {
  const seen = new Set<string>();
  const typed = quotes.filter((q): q is WireQuote & { type: QuoteType } => {
    if (!isQuoteType(q.type) || seen.has(q.type)) return false;
    seen.add(q.type);
    return true;
  });
  return typed
    .map((quote) => toRoute(quote, slippageBps))
    .sort((a, b) => {
      if (a.dstAmountBase !== b.dstAmountBase) return a.dstAmountBase > b.dstAmountBase ? -1 : 1;
      return a.routeId === QUOTE_TYPES.REGULAR ? -1 : 1;
    });
}

function decimalsOf(ref: ChainflipAssetRef): number {
  const decimals = chainflipDecimals(ref);
  if (decimals === undefined) throw new ProviderError(KEY, 'REJECTED', `unknown Chainflip asset ${ref.asset}`);
  return decimals;
}

function readStoredQuote(input: ExecuteInput): StoredQuote {
  const parsed = storedQuoteSchema.safeParse(input.providerQuote);
  if (!parsed.success) throw new ProviderError(KEY, 'REJECTED', 'the stored quote is not a Chainflip quote');
  const quote = parsed.data;
  if (input.routeId !== QUOTE_TYPES[quote.type]) {
    throw new ProviderError(KEY, 'REJECTED', `route ${input.routeId} does not match the stored ${quote.type} quote`);
  }
  const src = chainflipAssetOf(input.src);
  const dst = chainflipAssetOf(input.dst);
  if (!src || !dst || !sameChainflipAsset(src, quote.srcAsset) || !sameChainflipAsset(dst, quote.destAsset)) {
    throw new ProviderError(KEY, 'REJECTED', 'the stored quote is for another pair');
  }
  if (quote.type === 'DCA' && !quote.dcaParams) {
    throw new ProviderError(KEY, 'REJECTED', 'the stored DCA quote has no DCA parameters');
  }
  return quote;
}

function channelBody(input: ExecuteInput, quote: StoredQuote): OpenSwapDepositChannelBody {
  const livePriceTolerance = quote.recommendedLivePriceSlippageTolerancePercent;
  return {
    srcAsset: quote.srcAsset,
    destAsset: quote.destAsset,
    destAddress: input.recipient,
    amount: input.amountBase.toString(),
    fillOrKillParams: {
      retryDurationBlocks: RETRY_DURATION_BLOCKS,
      refundAddress: input.depositor,
      minPriceX128: minPriceX128(
        quote.estimatedPrice,
        input.slippageBps,
        decimalsOf(quote.srcAsset),
        decimalsOf(quote.destAsset),
      ),
      // The SDK's default: protect against oracle drift with the backend's recommended tolerance.
      ...(livePriceTolerance ? { maxOraclePriceSlippage: Math.round(livePriceTolerance * 100) } : {}),
    },
    ...(quote.type === 'DCA' && quote.dcaParams ? { dcaParams: quote.dcaParams } : {}),
    quote: {
      egressAmount: quote.egressAmount,
      estimatedPrice: quote.estimatedPrice,
      ...(quote.intermediateAmount ? { intermediateAmount: quote.intermediateAmount } : {}),
      ...(quote.recommendedSlippageTolerancePercent === undefined
        ? {}
        : { recommendedSlippageTolerancePercent: quote.recommendedSlippageTolerancePercent }),
      ...(livePriceTolerance === undefined ? {} : { recommendedLivePriceSlippageTolerancePercent: livePriceTolerance }),
    },
  };
}

function execPayload(
  src: RouteAsset,
  amount: string,
  channel: { id: string; depositAddress: string; estimatedExpiryTime?: number },
): ExecPayload {
  return {
    chainId: src.chainType === 'EVM' ? src.chainId : null,
    providerTarget: channel.depositAddress,
    // A token deposit is a token transfer: no native value goes with it.
    value: src.isNative ? amount : '0',
    srcToken: src.isNative ? 'native' : src.address,
    srcAmount: amount,
    meta: {
      executionMode: 'deposit-channel',
      walletExecution: false,
      depositAddress: channel.depositAddress,
      channelId: channel.id,
      ...(channel.estimatedExpiryTime === undefined
        ? {}
        : { expiresAt: new Date(channel.estimatedExpiryTime).toISOString() }),
    },
  };
}

const notFoundResult = (detail: string): StatusResult => ({
  status: 'PENDING',
  notFound: true,
  detail,
  upstreamState: 'NOT_FOUND',
  substatus: 'NOT_FOUND_UPSTREAM',
});

export function createChainflipAdapter(options: AdapterOptions, tuning: ChainflipAdapterTuning = {}): ProviderAdapter {
  const upstream = createUpstream({
    provider: KEY,
    baseUrl: options.baseUrl,
    allowedHosts: options.allowedHosts,
    auth: options.config.apiKey ? { header: 'x-api-key', value: options.config.apiKey } : undefined,
  });
  const notFoundGuard = createNotFoundGuard(tuning.notFoundGuard);

  function pair(src: RouteAsset, dst: RouteAsset) {
    const from = chainflipAssetOf(src);
    const to = chainflipAssetOf(dst);
    if (!from || !to || sameChainflipAsset(from, to)) return undefined;
    return { from, to };
  }

  async function quote(input: QuoteInput, signal: AbortSignal): Promise<ProviderRoute[]> {
    const assets = pair(input.src, input.dst);
    if (!assets) return [];
    try {
      const { data } = await upstream.request({
        path: '/v2/quote',
        query: {
          srcChain: assets.from.chain,
          srcAsset: assets.from.asset,
          destChain: assets.to.chain,
          destAsset: assets.to.asset,
          amount: input.amountBase.toString(),
          isVaultSwap: false,
          isOnChain: false,
          dcaV2Enabled: true,
          brokerCommissionBps: 0,
        },
        schema: quoteResponseSchema,
        signal,
        classify: classifyQuoteError,
      });
      return rankRoutes(data, input.slippageBps);
    } catch (error) {
      if (error instanceof ProviderError && error.kind === 'NO_ROUTE') return [];
      throw error;
    }
  }

  async function execute(input: ExecuteInput, signal: AbortSignal): Promise<ExecutionResult> {
    const stored = readStoredQuote(input);
    const amount = input.amountBase.toString();
    const { data: channel } = await upstream.request({
      method: 'POST',
      path: '/api/openSwapDepositChannel',
      body: channelBody(input, stored),
      schema: depositChannelInfoSchema,
      signal,
      okStatuses: [201],
      classify: classifyChannelError,
    });
    return {
      providerResult: {
        channelId: channel.id,
        depositAddress: channel.depositAddress,
        status: 'AWAITING_DEPOSIT',
        execution: 'deposit-channel',
      },
      exec: execPayload(input.src, amount, channel),
      trackingContext: {
        channelId: channel.id,
        depositAddress: channel.depositAddress,
        srcChain: stored.srcAsset.chain,
        issuedBlock: channel.issuedBlock,
        openedAt: new Date().toISOString(),
        ...(stored.fees ? { quotedFees: stored.fees } : {}),
      },
      ...(channel.estimatedExpiryTime === undefined ? {} : { depositDeadline: new Date(channel.estimatedExpiryTime) }),
    };
  }

  function trackingId(trackingContext: Record<string, unknown>, hash: string, inboundHash = ''): string | undefined {
    const context = trackingSchema.safeParse(trackingContext);
    return (context.success ? context.data.channelId : undefined) ?? (inboundHash || hash || undefined);
  }

  const quotedFeesOf = (trackingContext: Record<string, unknown>) => {
    const context = trackingSchema.safeParse(trackingContext);
    return context.success ? context.data.quotedFees : undefined;
  };

  async function status(input: StatusInput, signal: AbortSignal): Promise<StatusResult> {
    const id = trackingId(input.trackingContext, input.hash, input.inboundHash);
    if (!id) return notFoundResult('Nothing to ask Chainflip about yet');
    if (notFoundGuard.exhausted()) return notFoundResult('backing off: not-found limiter');
    try {
      const { data } = await upstream.request({
        path: `/v2/swaps/${encodeURIComponent(id)}`,
        schema: swapStatusSchema,
        signal,
      });
      const result = mapSwapStatus(data, quotedFeesOf(input.trackingContext));
      const check = reportedInboundCheck(input.hash, data.deposit?.txRef ? [data.deposit.txRef] : []);
      return check ? { ...result, hashCheck: check } : result;
    } catch (error) {
      if (error instanceof ProviderError && error.upstreamStatus === 404) {
        notFoundGuard.record();
        return notFoundResult('Chainflip does not know this channel or deposit yet');
      }
      throw error;
    }
  }

  return {
    key: KEY,
    pollIntervalMs: 6_000,
    supports: (src, dst) => pair(src, dst) !== undefined,
    quote,
    execute,
    canTrack: (trackingContext, hash) => trackingId(trackingContext, hash) !== undefined,
    status,
  };
}
