import { base58 } from '@scure/base';
import { Address as TonAddress } from '@ton/core';
import { isAddress } from 'viem';
import { formatAmount, rescale } from '../../catalog/amounts';
import { isProviderError, ProviderError } from '../errors';
import { reportedInboundCheck } from '../hash-check';
import { createUpstream } from '../http';
import type { AdapterOptions } from '../options';
import {
  type DisplayFee,
  type ExecutionResult,
  type FeeItem,
  firstSeenAt,
  type HashCheck,
  type ProviderAdapter,
  type ProviderRoute,
  type QuoteInput,
  type RouteAsset,
  type RouteStep,
  type StatusInput,
  type StatusResult,
} from '../types';
import { badResponse, compactStep, type ExecBase, evmExec, solanaExec, tonExec } from './exec';
import { mapRelayStatus, relayNotFound } from './status';
import {
  RELAY_CHAIN,
  RELAY_NATIVE_CURRENCY,
  RELAY_PLACEHOLDER_ADDRESS,
  type RelayCurrencyAmount,
  type RelayIndexRequest,
  type RelayQuoteRequest,
  type RelayQuoteResponse,
  type RelayVm,
  relayErrorSchema,
  relayMessageSchema,
  relayQuoteResponseSchema,
  relayStatusSchema,
} from './wire';

const PROVIDER = 'RELAY' as const;
/** `/quote` is deprecated upstream; v2 takes the same body and answers the same shape (relay-kit `types/api.ts`). */
export const RELAY_QUOTE_PATH = '/quote/v2';
export const RELAY_STATUS_PATH = '/intents/status/v2';
export const RELAY_INDEX_PATH = '/transactions/index';
const REFERRER = 'switchyard';
const DEFAULT_TIME_ESTIMATE_SECONDS = 60;

/** Relay 4xx error codes that mean "no route for this request", answered as [] at quote. */
export const RELAY_NO_ROUTE_CODES = new Set([
  'NO_SWAP_ROUTES_FOUND',
  'NO_INTERNAL_SWAP_ROUTES_FOUND',
  'NO_QUOTES',
  'UNSUPPORTED_CURRENCY',
  'UNSUPPORTED_CHAIN',
  'UNSUPPORTED_ROUTE',
  'AMOUNT_TOO_LOW',
  'INSUFFICIENT_LIQUIDITY',
  'ROUTE_TEMPORARILY_RESTRICTED',
  'CHAIN_DISABLED',
  'SWAP_IMPACT_TOO_HIGH',
]);

/** Source VMs whose wallet payload we can hand out; a Bitcoin source (PSBT) is not supported. */
const EXECUTABLE_SOURCE_VMS = new Set<RelayVm>(['evm', 'svm', 'tonvm']);

export interface RelayTrackingContext {
  requestId: string;
  originChainId: number;
  destinationChainId: number;
  vm: RelayVm;
}

export interface RelayAdapter extends ProviderAdapter {
  /**
   * Tells Relay about a deposit transaction (`POST /transactions/index`), as the SDK does after the deposit step.
   * `chainId` is Relay's chain id (the tracking context's `originChainId`). A 404 means not found or not yet
   * confirmed (Bitcoin needs one confirmation): `indexed` is then false.
   */
  notifyDeposit(
    chainId: number,
    txHash: string,
    requestId?: string,
    signal?: AbortSignal,
  ): Promise<{ indexed: boolean; message?: string }>;
}

export function relayVmOf(asset: RouteAsset): RelayVm | undefined {
  const chainId = asset.providerIds.relay;
  if (chainId === undefined) return undefined;
  if (chainId === RELAY_CHAIN.solana) return 'svm';
  if (chainId === RELAY_CHAIN.ton) return 'tonvm';
  if (chainId === RELAY_CHAIN.bitcoin) return 'bvm';
  return asset.chainType === 'EVM' ? 'evm' : undefined;
}

export function relayCurrencyOf(asset: RouteAsset, vm: RelayVm): string {
  return asset.isNative ? RELAY_NATIVE_CURRENCY[vm] : asset.address;
}

function sameRelayCurrency(src: RouteAsset, srcVm: RelayVm, dst: RouteAsset, dstVm: RelayVm): boolean {
  if (src.providerIds.relay !== dst.providerIds.relay) return false;
  const [a, b] = [relayCurrencyOf(src, srcVm), relayCurrencyOf(dst, dstVm)];
  return srcVm === 'evm' ? a.toLowerCase() === b.toLowerCase() : a === b;
}

function fitsVm(address: string | undefined, vm: RelayVm): address is string {
  if (!address) return false;
  try {
    if (vm === 'evm') return isAddress(address, { strict: false });
    if (vm === 'svm') return base58.decode(address).length === 32;
    if (vm === 'tonvm') return Boolean(TonAddress.parse(address));
    return /^(bc1[02-9ac-hj-np-z]{8,87}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/.test(address);
  } catch {
    return false;
  }
}

function classifyQuoteError(status: number, body: unknown): ProviderError | undefined {
  if (status === 429 || status >= 500) return undefined;
  const parsed = relayErrorSchema.safeParse(body);
  const code = parsed.success ? parsed.data.errorCode : undefined;
  const message = (parsed.success && parsed.data.message) || `upstream refused (${status})`;
  if (code && RELAY_NO_ROUTE_CODES.has(code)) return new ProviderError(PROVIDER, 'NO_ROUTE', message, status);
  return new ProviderError(PROVIDER, 'REJECTED', code ? `${code}: ${message}` : message, status);
}

function quoteRequest(input: QuoteInput, srcVm: RelayVm, dstVm: RelayVm, user: string, recipient: string) {
  const body: RelayQuoteRequest = {
    user,
    originChainId: input.src.providerIds.relay as number,
    destinationChainId: input.dst.providerIds.relay as number,
    originCurrency: relayCurrencyOf(input.src, srcVm),
    destinationCurrency: relayCurrencyOf(input.dst, dstVm),
    amount: input.amountBase.toString(),
    tradeType: 'EXACT_INPUT',
    recipient,
    slippageTolerance: String(input.slippageBps),
    refundTo: user,
    referrer: REFERRER,
  };
  return body;
}

/** Relay amounts in the decimals Relay states, converted to the catalog asset's decimals. */
function toAssetBase(amount: string, relayDecimals: number | undefined, asset: RouteAsset): bigint {
  return rescale(BigInt(amount), relayDecimals ?? asset.decimals, asset.decimals);
}

function toCents(usd: number): string {
  return (Math.round(usd * 100) / 100).toFixed(2);
}

function usdOf(amount: RelayCurrencyAmount | undefined): number | null {
  if (amount?.amountUsd === undefined) return null;
  const value = Number(amount.amountUsd);
  return Number.isFinite(value) ? value : null;
}

const FEE_COMPONENTS = [
  { key: 'gas', label: 'Origin network gas', type: 'gas' },
  { key: 'relayer', label: 'Relayer fee', type: 'relayer' },
  { key: 'app', label: 'App fee', type: 'affiliate' },
] as const;

function feeItem(amount: RelayCurrencyAmount, label: string, type: FeeItem['type']): FeeItem | undefined {
  if (amount.amount === undefined) return undefined;
  const decimals = amount.currency?.decimals;
  const formatted =
    amount.amountFormatted ?? (decimals === undefined ? amount.amount : formatAmount(BigInt(amount.amount), decimals));
  return { label, type, amount: formatted, amountUsd: usdOf(amount), currency: amount.currency?.symbol ?? '' };
}

export function relayDisplayFee(fees: RelayQuoteResponse['fees']): DisplayFee {
  const details: FeeItem[] = [];
  for (const { key, label, type } of FEE_COMPONENTS) {
    const component = fees?.[key];
    const item = component && feeItem(component, label, type);
    if (item && BigInt(component.amount ?? '0') !== 0n) details.push(item);
  }
  const priced = FEE_COMPONENTS.map(({ key }) => usdOf(fees?.[key])).filter((v): v is number => v !== null);
  const usd = priced.length > 0 ? toCents(priced.reduce((sum, v) => sum + v, 0)) : null;
  return { usd, formatted: usd === null ? null : `$${usd}`, currency: usd === null ? null : 'USD', details };
}

function mainStepType(operation: string): RouteStep['type'] {
  if (operation === 'bridge') return 'bridge';
  if (operation === 'send') return 'send';
  return 'swap';
}

function routeSteps(response: RelayQuoteResponse, input: QuoteInput, operation: string): RouteStep[] {
  const steps: RouteStep[] = [];
  if (response.steps.some((s) => s.id === 'approve')) {
    steps.push({ type: 'approve', name: `Approve ${input.src.symbol}`, image: input.src.image });
  }
  steps.push({ type: mainStepType(operation), name: `Relay ${operation}`, image: input.dst.image });
  return steps;
}

function requestIdOf(response: RelayQuoteResponse): string | undefined {
  return response.steps.find((s) => s.requestId)?.requestId ?? response.requestId;
}

function toRoute(response: RelayQuoteResponse, input: QuoteInput): ProviderRoute {
  const { details } = response;
  const operation = details.operation ?? 'swap';
  const outDecimals = details.currencyOut.currency?.decimals;
  const route: ProviderRoute = {
    routeId: `relay:${operation}`,
    dstAmountBase: toAssetBase(details.currencyOut.amount, outDecimals, input.dst),
    estimatedTimeSeconds: Math.round(details.timeEstimate ?? DEFAULT_TIME_ESTIMATE_SECONDS),
    fee: relayDisplayFee(response.fees),
    steps: routeSteps(response, input, operation),
    providerQuote: {
      requestId: requestIdOf(response) ?? null,
      operation,
      originChainId: input.src.providerIds.relay ?? null,
      destinationChainId: input.dst.providerIds.relay ?? null,
      amountOut: details.currencyOut.amount,
      minimumAmountOut: details.currencyOut.minimumAmount ?? null,
      timeEstimate: details.timeEstimate ?? null,
    },
  };
  const minimum = details.currencyOut.minimumAmount;
  if (minimum !== undefined && !minimum.startsWith('-')) {
    route.dstMinAmountBase = toAssetBase(minimum, outDecimals, input.dst);
  }
  const srcUsd = usdOf(details.currencyIn);
  const dstUsd = usdOf(details.currencyOut);
  if (srcUsd !== null) route.srcUsd = toCents(srcUsd);
  if (dstUsd !== null) route.dstUsd = toCents(dstUsd);
  return route;
}

/** A TON client reports the external message's hash; Relay may report another form of the deposit. */
function inboundCheck(input: StatusInput, reported: string[]): HashCheck | undefined {
  const isTon = input.trackingContext.vm === 'tonvm';
  const { tonMessageHash, tonNormalizedHash } = input.trackingContext;
  const tonForms = isTon ? [tonMessageHash, tonNormalizedHash].filter((h): h is string => typeof h === 'string') : [];
  const verified = [input.hash, ...tonForms].some(
    (form) => reportedInboundCheck(form, reported)?.verdict === 'verified',
  );
  if (verified && input.hash) return { hash: input.hash, verdict: 'verified', decidesStatus: false };
  return reportedInboundCheck(input.hash, reported, !isTon);
}

/** Relay amounts compared in Relay's own units, from a stored quote field. */
const storedAmount = (value: unknown) => (typeof value === 'string' && /^\d+$/.test(value) ? BigInt(value) : undefined);

function trackingRequestId(context: Record<string, unknown>): string | undefined {
  const { requestId } = context;
  return typeof requestId === 'string' && requestId.length > 0 ? requestId : undefined;
}

export function createRelayAdapter(options: AdapterOptions): RelayAdapter {
  const { config, now = Date.now } = options;
  const upstream = createUpstream({
    provider: PROVIDER,
    baseUrl: options.baseUrl,
    allowedHosts: options.allowedHosts,
    auth: config.apiKey ? { header: 'x-api-key', value: config.apiKey } : undefined,
  });
  const bounded = (signal: AbortSignal) => AbortSignal.any([signal, AbortSignal.timeout(config.deadlineMs)]);

  async function requestQuote(body: RelayQuoteRequest, signal: AbortSignal): Promise<RelayQuoteResponse> {
    const { data } = await upstream.request({
      method: 'POST',
      path: RELAY_QUOTE_PATH,
      body,
      schema: relayQuoteResponseSchema,
      signal: bounded(signal),
      classify: classifyQuoteError,
    });
    return data;
  }

  /**
   * The calldata at execute comes from a fresh quote, whose minimum is what the solver enforces. When
   * the market moved, the slippage is tightened so the minimum is still the locked one; when even the
   * expected output is below it, the lock cannot be honoured.
   */
  async function quoteHoldingLockedTerms(body: RelayQuoteRequest, lockedMin: bigint | undefined, signal: AbortSignal) {
    const response = await requestQuote(body, signal);
    if (lockedMin === undefined) return response;
    const out = response.details.currencyOut;
    const expected = BigInt(out.amount);
    const minimum = storedAmount(out.minimumAmount) ?? expected;
    if (minimum >= lockedMin) return response;
    if (expected < lockedMin) {
      throw new ProviderError(
        PROVIDER,
        'TERMS_CHANGED',
        `expected ${expected} now, below the locked minimum ${lockedMin}`,
      );
    }
    const slippageTolerance = String(((expected - lockedMin) * 10_000n) / expected);
    const tightened = await requestQuote({ ...body, slippageTolerance }, signal);
    const held =
      storedAmount(tightened.details.currencyOut.minimumAmount) ?? BigInt(tightened.details.currencyOut.amount);
    if (held < lockedMin) {
      throw new ProviderError(PROVIDER, 'TERMS_CHANGED', `minimum ${held} now, below the locked minimum ${lockedMin}`);
    }
    return tightened;
  }

  function vmsFor(src: RouteAsset, dst: RouteAsset): { srcVm: RelayVm; dstVm: RelayVm } | undefined {
    const srcVm = relayVmOf(src);
    const dstVm = relayVmOf(dst);
    if (!srcVm || !dstVm || !EXECUTABLE_SOURCE_VMS.has(srcVm)) return undefined;
    if (src.id === dst.id || sameRelayCurrency(src, srcVm, dst, dstVm)) return undefined;
    return { srcVm, dstVm };
  }

  return {
    key: PROVIDER,
    pollIntervalMs: 5_000,

    supports(src, dst) {
      return vmsFor(src, dst) !== undefined;
    },

    async quote(input, signal) {
      const vms = vmsFor(input.src, input.dst);
      if (!vms) return [];
      const user = fitsVm(input.depositor, vms.srcVm) ? input.depositor : RELAY_PLACEHOLDER_ADDRESS[vms.srcVm];
      const recipient = fitsVm(input.recipient, vms.dstVm) ? input.recipient : RELAY_PLACEHOLDER_ADDRESS[vms.dstVm];
      try {
        const response = await requestQuote(quoteRequest(input, vms.srcVm, vms.dstVm, user, recipient), signal);
        return [toRoute(response, input)];
      } catch (error) {
        if (isProviderError(error) && error.kind === 'NO_ROUTE') return [];
        throw error;
      }
    },

    async execute(input, signal): Promise<ExecutionResult> {
      const vms = vmsFor(input.src, input.dst);
      if (!vms) throw new ProviderError(PROVIDER, 'REJECTED', 'Relay cannot execute this pair');
      const body = quoteRequest(input, vms.srcVm, vms.dstVm, input.depositor, input.recipient);
      const response = await quoteHoldingLockedTerms(body, storedAmount(input.providerQuote.minimumAmountOut), signal);
      const requestId = requestIdOf(response);
      if (!requestId) throw badResponse('quote has no requestId');
      const route = toRoute(response, input);
      const base: ExecBase = {
        srcToken: input.src.isNative ? 'native' : input.src.address,
        srcAmount: input.amountBase.toString(),
        allSteps: response.steps.map(compactStep),
        requestId,
      };
      const exec =
        vms.srcVm === 'evm'
          ? evmExec(response.steps, input, base)
          : vms.srcVm === 'tonvm'
            ? tonExec(response.steps, base)
            : solanaExec(response.steps, base);
      const trackingContext: RelayTrackingContext = {
        requestId,
        originChainId: body.originChainId,
        destinationChainId: body.destinationChainId,
        vm: vms.srcVm,
      };
      return {
        providerResult: { requestId, status: 'AWAITING_WALLET', execution: exec.meta.executionMode },
        exec,
        trackingContext: { ...trackingContext },
        dstAmountBase: route.dstAmountBase,
        ...(route.dstMinAmountBase !== undefined ? { dstMinAmountBase: route.dstMinAmountBase } : {}),
        fee: route.fee,
      };
    },

    canTrack(trackingContext) {
      return trackingRequestId(trackingContext) !== undefined;
    },

    async status(input: StatusInput, signal: AbortSignal): Promise<StatusResult> {
      const requestId = trackingRequestId(input.trackingContext);
      if (!requestId) return relayNotFound();
      const { status, data } = await upstream.request({
        path: RELAY_STATUS_PATH,
        query: { requestId },
        schema: relayStatusSchema,
        // Status is asked only under the poll's own deadline (askProvider), which is this same
        // deadlineMs: a second timer and a combined signal per poll would bound nothing more.
        signal,
        okStatuses: [200, 404],
      });
      if (status === 404) return relayNotFound();
      const firstSeen = firstSeenAt(input.trackingContext, 'failure');
      const result = mapRelayStatus(data, { now: now(), ...(firstSeen !== undefined && { firstSeen }) });
      const check = inboundCheck(input, (data.inTxHashes ?? []).filter(Boolean));
      return check ? { ...result, hashCheck: check } : result;
    },

    async notifyDeposit(chainId, txHash, requestId, signal = AbortSignal.timeout(config.deadlineMs)) {
      const body: RelayIndexRequest = { chainId: String(chainId), txHash, ...(requestId && { requestId }) };
      const { status, data } = await upstream.request({
        method: 'POST',
        path: RELAY_INDEX_PATH,
        body,
        schema: relayMessageSchema,
        signal: bounded(signal),
        okStatuses: [200, 404],
      });
      return { indexed: status === 200, ...(data.message !== undefined && { message: data.message }) };
    },
  };
}
