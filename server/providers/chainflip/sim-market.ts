import { z } from 'zod';
import {
  convertAtMarket,
  findSimAsset,
  type SimAsset,
  type SimRequest,
  type SimResponse,
  usdOf,
} from '../simulator-kit';
import { type ChainflipAssetRef, type ChainflipChain, chainflipDecimals, isRoutable } from './assets';

// The simulated backend's market: prices from the catalog seed, Chainflip-style fees and price impact, the quote.

const MIN_SWAP_USD = 5;
const MAX_LIQUIDITY_USD = 2_000_000;
const DCA_CHUNK_USD = 5_000;
const DCA_CHUNK_INTERVAL_BLOCKS = 2;
const BLOCK_SECONDS = 6;
const MAX_DCA_CHUNKS = Math.ceil((24 * 60 * 60) / BLOCK_SECONDS / DCA_CHUNK_INTERVAL_BLOCKS);
const POOL_FEE_BPS = 5n;
const NETWORK_FEE_BPS = 10n;
export const REFUND_FEE_BPS = 1n;

interface ChainProfile {
  ingressUsd: number;
  egressUsd: number;
  depositSeconds: number;
  egressSeconds: number;
  confirmations: number;
  blockHeight: number;
  blocksPerDay: number;
}

export const CHAINS: Record<ChainflipChain, ChainProfile> = {
  Ethereum: {
    ingressUsd: 0.5,
    egressUsd: 1,
    depositSeconds: 24,
    egressSeconds: 96,
    confirmations: 2,
    blockHeight: 21_000_000,
    blocksPerDay: 7_200,
  },
  Arbitrum: {
    ingressUsd: 0.02,
    egressUsd: 0.03,
    depositSeconds: 12,
    egressSeconds: 12,
    confirmations: 2,
    blockHeight: 290_000_000,
    blocksPerDay: 345_600,
  },
  Bitcoin: {
    ingressUsd: 0.6,
    egressUsd: 1,
    depositSeconds: 1_200,
    egressSeconds: 600,
    confirmations: 3,
    blockHeight: 880_000,
    blocksPerDay: 144,
  },
  Solana: {
    ingressUsd: 0.005,
    egressUsd: 0.01,
    depositSeconds: 12,
    egressSeconds: 12,
    confirmations: 1,
    blockHeight: 320_000_000,
    blocksPerDay: 216_000,
  },
};

export const SWAP_SECONDS = 12;
export const USDC: ChainflipAssetRef = { asset: 'USDC', chain: 'Ethereum' };

export class QuoteRefusal extends Error {}

export const chainOf = (ref: ChainflipAssetRef) => ref.chain as ChainflipChain;

function simAssetOf(ref: ChainflipAssetRef): SimAsset {
  const asset = isRoutable(ref)
    ? findSimAsset((a) => a.chainSeed.chainflipChain === ref.chain && a.symbol === ref.asset)
    : undefined;
  if (!asset) throw new QuoteRefusal('invalid request');
  return asset;
}

const usdValue = (amount: bigint, ref: ChainflipAssetRef) => Number(usdOf(amount, simAssetOf(ref)));
export const baseFromUsd = (usd: number, ref: ChainflipAssetRef) =>
  convertAtMarket(BigInt(Math.round(usd * 1e6)), simAssetOf(USDC), simAssetOf(ref), 0);
const isUsdc = (ref: ChainflipAssetRef) => ref.asset === USDC.asset && ref.chain === USDC.chain;
export const bps = (amount: bigint, basisPoints: bigint) => (amount * basisPoints) / 10_000n;

/** `(num / 10^numDecimals) / (den / 10^denDecimals)` as a plain decimal string. */
export function decimalRatio(
  num: bigint,
  numDecimals: number,
  den: bigint,
  denDecimals: number,
  precision = 18,
): string {
  const scaled = (num * 10n ** BigInt(denDecimals + precision)) / (den * 10n ** BigInt(numDecimals));
  const digits = scaled.toString().padStart(precision + 1, '0');
  const whole = digits.slice(0, -precision);
  const fraction = digits.slice(-precision).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

function dcaChunks(usd: number): number {
  if (usd <= DCA_CHUNK_USD) return 1;
  const chunks = Math.ceil(usd / DCA_CHUNK_USD);
  return chunks > MAX_DCA_CHUNKS ? 1 : chunks;
}

export interface Pricing {
  src: ChainflipAssetRef;
  dst: ChainflipAssetRef;
  depositAmount: bigint;
  ingressFee: bigint;
  swapInput: bigint;
  intermediateAmount?: bigint;
  networkFee: bigint;
  swapOutput: bigint;
  egressFee: bigint;
  egressAmount: bigint;
  legs: { base: ChainflipAssetRef; fee: { ref: ChainflipAssetRef; amount: bigint } }[];
  chunks: number;
}

export function priceSwap(src: ChainflipAssetRef, dst: ChainflipAssetRef, depositAmount: bigint, chunks = 1): Pricing {
  const usd = usdValue(depositAmount, src);
  if (usd < MIN_SWAP_USD) {
    throw new QuoteRefusal(`expected amount is below minimum swap amount (${baseFromUsd(MIN_SWAP_USD, src)})`);
  }
  if (usd > MAX_LIQUIDITY_USD) throw new QuoteRefusal('Insufficient liquidity for the requested amount');
  const ingressFee = baseFromUsd(CHAINS[chainOf(src)].ingressUsd, src);
  if (ingressFee > depositAmount) throw new QuoteRefusal(`amount is lower than estimated ingress fee (${ingressFee})`);
  const swapInput = depositAmount - ingressFee;
  const twoLegs = !isUsdc(src) && !isUsdc(dst);
  const usdcLeg = isUsdc(src) ? swapInput : convertAtMarket(swapInput, simAssetOf(src), simAssetOf(USDC), 5);
  const impactBps = Math.min(300, Math.floor(usd / 2_000 / chunks));
  const totalFeeBps = Number(POOL_FEE_BPS) * (twoLegs ? 2 : 1) + Number(NETWORK_FEE_BPS) + impactBps;
  const swapOutput = convertAtMarket(swapInput, simAssetOf(src), simAssetOf(dst), totalFeeBps);
  const egressFee = baseFromUsd(CHAINS[chainOf(dst)].egressUsd, dst);
  if (swapOutput <= egressFee) throw egressFeeRefusal(egressFee);
  const firstLegBase = isUsdc(src) ? dst : src;
  const legs = [{ base: firstLegBase, fee: { ref: src, amount: bps(swapInput, POOL_FEE_BPS) } }];
  if (twoLegs) legs.push({ base: dst, fee: { ref: USDC, amount: bps(usdcLeg, POOL_FEE_BPS) } });
  return {
    src,
    dst,
    depositAmount,
    ingressFee,
    swapInput,
    intermediateAmount: twoLegs ? usdcLeg : undefined,
    networkFee: bps(usdcLeg, NETWORK_FEE_BPS),
    swapOutput,
    egressFee,
    egressAmount: swapOutput - egressFee,
    legs,
    chunks,
  };
}

export const decimalsOf = (ref: ChainflipAssetRef) => chainflipDecimals(ref) ?? 0;
export const wireFee = (type: string, ref: ChainflipAssetRef, amount: bigint) => ({
  type,
  chain: ref.chain,
  asset: ref.asset,
  amount: amount.toString(),
});

export function durations(p: Pricing) {
  const deposit = CHAINS[chainOf(p.src)].depositSeconds;
  const swap = SWAP_SECONDS + DCA_CHUNK_INTERVAL_BLOCKS * BLOCK_SECONDS * (p.chunks - 1);
  const egress = CHAINS[chainOf(p.dst)].egressSeconds;
  return { total: deposit + swap + egress, parts: { deposit, swap, egress } };
}

function quoteBody(p: Pricing) {
  const { total, parts } = durations(p);
  const livePriceProtected = p.src.asset !== 'FLIP' && p.dst.asset !== 'FLIP';
  return {
    type: p.chunks > 1 ? 'DCA' : 'REGULAR',
    srcAsset: p.src,
    destAsset: p.dst,
    isVaultSwap: false,
    isOnChain: false,
    depositAmount: p.depositAmount.toString(),
    ...(p.intermediateAmount === undefined ? {} : { intermediateAmount: p.intermediateAmount.toString() }),
    egressAmount: p.egressAmount.toString(),
    includedFees: [
      wireFee('INGRESS', p.src, p.ingressFee),
      wireFee('NETWORK', USDC, p.networkFee),
      wireFee('EGRESS', p.dst, p.egressFee),
    ],
    poolInfo: p.legs.map((leg) => ({
      baseAsset: leg.base,
      quoteAsset: USDC,
      fee: { chain: leg.fee.ref.chain, asset: leg.fee.ref.asset, amount: leg.fee.amount.toString() },
    })),
    lowLiquidityWarning: false,
    estimatedDurationSeconds: total,
    estimatedDurationsSeconds: parts,
    estimatedPrice: decimalRatio(p.swapOutput, decimalsOf(p.dst), p.swapInput, decimalsOf(p.src)),
    recommendedSlippageTolerancePercent: p.chunks > 1 ? 1.5 : 1,
    recommendedRetryDurationMinutes: p.chunks > 1 ? 10 : 5,
    ...(livePriceProtected ? { recommendedLivePriceSlippageTolerancePercent: 1 } : {}),
    ...(p.chunks > 1
      ? { dcaParams: { numberOfChunks: p.chunks, chunkIntervalBlocks: DCA_CHUNK_INTERVAL_BLOCKS } }
      : {}),
  };
}

const booleanString = z.enum(['true', 'false']).optional();
const quoteQuerySchema = z.object({
  srcChain: z.string(),
  srcAsset: z.string(),
  destChain: z.string(),
  destAsset: z.string(),
  amount: z
    .string()
    .regex(/^\d+$/)
    .transform((v) => BigInt(v))
    .refine((v) => v > 0n && v < 2n ** 128n),
  brokerCommissionBps: z.string().regex(/^\d*$/).optional(),
  isVaultSwap: booleanString,
  isOnChain: booleanString,
  dcaEnabled: booleanString,
  dcaV2Enabled: booleanString,
});

/** QuoteRequest.ts (chainflip-sdk-monorepo packages/swap/src/quoting): the output cannot pay its own egress. */
const egressFeeRefusal = (egressFee: bigint) =>
  new QuoteRefusal(`swap output amount is lower than the egress fee (${egressFee})`);

/** Quotes refused as the backend refuses an output too small to send; scripted by the quoted amount (`POST /__sim/scripts`). */
export const NO_ROUTE_EGRESS_FEE = 'no-route-egress-fee';

/**
 * `GET /v2/quote`. Its query names no recipient, so a scripted refusal is keyed by the quoted amount
 * in base units: the one thing of the swap's own the request carries.
 */
export function handleQuote(req: SimRequest): SimResponse {
  const query = quoteQuerySchema.safeParse(Object.fromEntries(req.url.searchParams));
  if (!query.success) return { status: 400, body: { message: 'invalid request' } };
  const q = query.data;
  const src = { asset: q.srcAsset, chain: q.srcChain };
  const dst = { asset: q.destAsset, chain: q.destChain };
  try {
    if (!isRoutable(src) || !isRoutable(dst)) throw new QuoteRefusal('invalid request');
    if (src.asset === dst.asset && src.chain === dst.chain) {
      throw new QuoteRefusal('Requested assets cannot be swapped');
    }
    const regular = priceSwap(src, dst, q.amount);
    if (req.scriptedFor(String(q.amount)) === NO_ROUTE_EGRESS_FEE) throw egressFeeRefusal(regular.egressFee);
    const chunks = q.dcaV2Enabled === 'true' ? dcaChunks(usdValue(q.amount, src)) : 1;
    const quotes = [quoteBody(regular)];
    if (chunks > 1) quotes.push(quoteBody(priceSwap(src, dst, q.amount, chunks)));
    return { status: 200, body: quotes };
  } catch (error) {
    if (error instanceof QuoteRefusal) return { status: 400, body: { message: error.message } };
    throw error;
  }
}
