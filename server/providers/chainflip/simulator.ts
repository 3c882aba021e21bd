import type { IncomingMessage, ServerResponse } from 'node:http';
import { base58, bech32m } from '@scure/base';
import { z } from 'zod';
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
  type SimulatorOptions,
  stageAt,
  startSimulator,
  usdOf,
} from '../simulator-kit';
import { type ChainflipAssetRef, type ChainflipChain, chainflipDecimals, isRoutable } from './assets';
import { CHANNEL_ID, type OpenSwapDepositChannelBody, openSwapDepositChannelBodySchema, type SwapState } from './wire';

const MIN_SWAP_USD = 5;
const MAX_LIQUIDITY_USD = 2_000_000;
const DCA_CHUNK_USD = 5_000;
const DCA_CHUNK_INTERVAL_BLOCKS = 2;
const BLOCK_SECONDS = 6;
const MAX_DCA_CHUNKS = Math.ceil((24 * 60 * 60) / BLOCK_SECONDS / DCA_CHUNK_INTERVAL_BLOCKS);
const POOL_FEE_BPS = 5n;
const NETWORK_FEE_BPS = 10n;
const REFUND_FEE_BPS = 1n;
const CHANNEL_LIFETIME_MS = 24 * 60 * 60 * 1000;

interface ChainProfile {
  ingressUsd: number;
  egressUsd: number;
  depositSeconds: number;
  egressSeconds: number;
  confirmations: number;
  blockHeight: number;
  blocksPerDay: number;
}

const CHAINS: Record<ChainflipChain, ChainProfile> = {
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

const SWAP_SECONDS = 12;
const USDC: ChainflipAssetRef = { asset: 'USDC', chain: 'Ethereum' };
const NOT_FOUND: SimResponse = { status: 404, body: { message: 'resource not found' } };
const TOO_MANY: SimResponse = { status: 429, body: { message: 'Too many requests, please try again later' } };

const ADDRESS_FORMATS: Record<ChainflipChain, RegExp> = {
  Ethereum: /^0x[0-9a-fA-F]{40}$/,
  Arbitrum: /^0x[0-9a-fA-F]{40}$/,
  Bitcoin: /^(bc1[ac-hj-np-z02-9]{11,71}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/,
  Solana: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
};

// ---- The market: prices from the catalog seed, Chainflip-style fees and price impact.

class QuoteRefusal extends Error {}

const chainOf = (ref: ChainflipAssetRef) => ref.chain as ChainflipChain;

function simAssetOf(ref: ChainflipAssetRef): SimAsset {
  const asset = isRoutable(ref)
    ? findSimAsset((a) => a.chainSeed.chainflipChain === ref.chain && a.symbol === ref.asset)
    : undefined;
  if (!asset) throw new QuoteRefusal('invalid request');
  return asset;
}

const usdValue = (amount: bigint, ref: ChainflipAssetRef) => Number(usdOf(amount, simAssetOf(ref)));
const baseFromUsd = (usd: number, ref: ChainflipAssetRef) =>
  convertAtMarket(BigInt(Math.round(usd * 1e6)), simAssetOf(USDC), simAssetOf(ref), 0);
const isUsdc = (ref: ChainflipAssetRef) => ref.asset === USDC.asset && ref.chain === USDC.chain;
const bps = (amount: bigint, basisPoints: bigint) => (amount * basisPoints) / 10_000n;

/** `(num / 10^numDecimals) / (den / 10^denDecimals)` as a plain decimal string. */
function decimalRatio(num: bigint, numDecimals: number, den: bigint, denDecimals: number, precision = 18): string {
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

interface Pricing {
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

function priceSwap(src: ChainflipAssetRef, dst: ChainflipAssetRef, depositAmount: bigint, chunks = 1): Pricing {
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
  if (swapOutput <= egressFee) {
    throw new QuoteRefusal(`expected amount is below minimum swap amount (${baseFromUsd(MIN_SWAP_USD, src)})`);
  }
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

const decimalsOf = (ref: ChainflipAssetRef) => chainflipDecimals(ref) ?? 0;
const wireFee = (type: string, ref: ChainflipAssetRef, amount: bigint) => ({
  type,
  chain: ref.chain,
  asset: ref.asset,
  amount: amount.toString(),
});

function durations(p: Pricing) {
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

function handleQuote(req: SimRequest): SimResponse {
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
    const chunks = q.dcaV2Enabled === 'true' ? dcaChunks(usdValue(q.amount, src)) : 1;
    const quotes = [quoteBody(regular)];
    if (chunks > 1) quotes.push(quoteBody(priceSwap(src, dst, q.amount, chunks)));
    return { status: 200, body: quotes };
  } catch (error) {
    if (error instanceof QuoteRefusal) return { status: 400, body: { message: error.message } };
    throw error;
  }
}

// ---- Deposit channels and their swaps.

interface Channel {
  id: string;
  issuedBlock: number;
  srcChain: ChainflipChain;
  body: OpenSwapDepositChannelBody;
  depositAddress: string;
  openedAt: number;
  srcChainExpiryBlock: number;
  outcome: Outcome;
  polls: number;
  expired: boolean;
  swapId: string;
  depositTxRef: string;
  pricing: Pricing;
}

const PROGRESS: readonly SwapState[] = ['WAITING', 'RECEIVING', 'SWAPPING', 'SENDING', 'SENT', 'COMPLETED'];
const STAGES: Record<Outcome, readonly SwapState[]> = {
  success: PROGRESS,
  refund: PROGRESS,
  failure: ['WAITING', 'RECEIVING', 'SWAPPING', 'SENDING', 'FAILED'],
};
const progressOf = (state: SwapState) => (state === 'FAILED' ? 4 : PROGRESS.indexOf(state));

const hexBytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));

function fakeAddress(chain: ChainflipChain, seed: string): string {
  if (chain === 'Bitcoin') return bech32m.encode('bc', [1, ...bech32m.toWords(hexBytes(fakeHex(seed, 32)))]);
  if (chain === 'Solana') return base58.encode(hexBytes(fakeHex(seed, 32)));
  return `0x${fakeHex(seed, 20)}`;
}

function fakeTxRef(chain: ChainflipChain, seed: string): string {
  if (chain === 'Bitcoin') return fakeHex(seed, 32);
  if (chain === 'Solana') return base58.encode(hexBytes(fakeHex(seed, 64)));
  return `0x${fakeHex(seed, 32)}`;
}

function tsRestBodyError(issues: { message: string; path: (string | number)[] }[]): SimResponse {
  return {
    status: 400,
    body: {
      pathParameterErrors: null,
      headerErrors: null,
      queryParameterErrors: null,
      bodyErrors: { name: 'ZodError', issues: issues.map((issue) => ({ code: 'custom', ...issue })) },
    },
  };
}

function addressIssues(body: OpenSwapDepositChannelBody) {
  const checks = [
    { chain: body.destAsset.chain, address: body.destAddress },
    { chain: body.srcAsset.chain, address: body.fillOrKillParams.refundAddress },
  ];
  return checks
    .filter(({ chain, address }) => !ADDRESS_FORMATS[chain as ChainflipChain]?.test(address))
    .map(({ chain, address }) => ({
      message: `Address "${address}" is not a valid "${chain}" address for "mainnet"`,
      path: [],
    }));
}

function priceFromX128(x128: string, src: ChainflipAssetRef, dst: ChainflipAssetRef): string {
  return decimalRatio(BigInt(x128), decimalsOf(dst), 2n ** 128n, decimalsOf(src));
}

function egressFields(
  channel: Channel,
  state: SwapState,
  amount: bigint,
  txChain: ChainflipChain,
  kind: 'swap' | 'refund',
) {
  const at = (seconds: number) => channel.openedAt + seconds * 1000;
  const progress = progressOf(state);
  const scheduled = {
    amount: amount.toString(),
    scheduledAt: at(60),
    scheduledBlockIndex: `${channel.issuedBlock + 10}-4`,
  };
  if (state === 'FAILED') {
    const failure = {
      failedAt: at(120),
      failedBlockIndex: `${channel.issuedBlock + 20}-7`,
      mode: 'BROADCAST_ABORTED',
      reason: { name: 'BroadcastAborted', message: `The ${kind} broadcast was aborted` },
    };
    return { ...scheduled, failure, failedAt: failure.failedAt, failedBlockIndex: failure.failedBlockIndex };
  }
  if (progress < progressOf('SENT')) return scheduled;
  const sent = { ...scheduled, txRef: fakeTxRef(txChain, `${kind}-egress:${channel.id}`) };
  if (state !== 'COMPLETED') return sent;
  return { ...sent, witnessedAt: at(150), witnessedBlockIndex: `${channel.issuedBlock + 25}-3` };
}

function feesAt(channel: Channel, progress: number) {
  const p = channel.pricing;
  const fees = progress >= progressOf('SWAPPING') ? [wireFee('INGRESS', p.src, p.ingressFee)] : [];
  if (progress < progressOf('SENDING')) return fees;
  if (channel.outcome === 'refund') {
    const refundEgressFee = baseFromUsd(CHAINS[chainOf(p.src)].egressUsd, p.src);
    return [
      ...fees,
      wireFee('EGRESS', p.src, refundEgressFee),
      wireFee('REFUND', p.src, bps(p.swapInput, REFUND_FEE_BPS)),
    ];
  }
  return [...fees, wireFee('NETWORK', USDC, p.networkFee), wireFee('EGRESS', p.dst, p.egressFee)];
}

function swapFields(channel: Channel, progress: number) {
  const p = channel.pricing;
  const executed = channel.outcome !== 'refund' && progress >= progressOf('SENDING');
  const chunk = { inputAmount: p.swapInput.toString(), scheduledAt: channel.openedAt + 36_000, retryCount: 0 };
  return {
    originalInputAmount: p.swapInput.toString(),
    remainingInputAmount: executed ? '0' : p.swapInput.toString(),
    swappedInputAmount: executed ? p.swapInput.toString() : '0',
    swappedIntermediateAmount: executed ? (p.intermediateAmount ?? 0n).toString() : '0',
    swappedOutputAmount: executed ? p.swapOutput.toString() : '0',
    ...(p.chunks > 1
      ? { dca: { executedChunks: executed ? p.chunks : 0, remainingChunks: executed ? 0 : p.chunks } }
      : { regular: executed ? { ...chunk, outputAmount: p.swapOutput.toString() } : chunk }),
  };
}

function renderSwap(channel: Channel, state: SwapState) {
  const p = channel.pricing;
  const { body } = channel;
  const progress = progressOf(state);
  const { total, parts } = durations(p);
  const fillOrKillParams = {
    refundAddress: body.fillOrKillParams.refundAddress,
    minPrice: priceFromX128(body.fillOrKillParams.minPriceX128, p.src, p.dst),
    retryDurationBlocks: body.fillOrKillParams.retryDurationBlocks,
    maxOraclePriceSlippage: body.fillOrKillParams.maxOraclePriceSlippage ?? undefined,
  };
  const refundEgressAmount =
    p.swapInput - baseFromUsd(CHAINS[chainOf(p.src)].egressUsd, p.src) - bps(p.swapInput, REFUND_FEE_BPS);
  const egress =
    progress < progressOf('SENDING')
      ? {}
      : channel.outcome === 'refund'
        ? { refundEgress: egressFields(channel, state, refundEgressAmount, chainOf(p.src), 'refund') }
        : { swapEgress: egressFields(channel, state, p.egressAmount, chainOf(p.dst), 'swap') };
  return {
    state,
    ...(progress >= progressOf('SWAPPING') ? { swapId: channel.swapId } : {}),
    srcAsset: p.src.asset,
    srcChain: p.src.chain,
    destAsset: p.dst.asset,
    destChain: p.dst.chain,
    destAddress: body.destAddress,
    srcChainRequiredBlockConfirmations: CHAINS[channel.srcChain].confirmations,
    estimatedDurationsSeconds: parts,
    estimatedDurationSeconds: total,
    brokers: [],
    fees: feesAt(channel, progress),
    depositChannel: {
      id: channel.id,
      createdAt: channel.openedAt,
      brokerCommissionBps: 0,
      depositAddress: channel.depositAddress,
      srcChainExpiryBlock: String(channel.srcChainExpiryBlock),
      estimatedExpiryTime: channel.openedAt + CHANNEL_LIFETIME_MS,
      expectedDepositAmount: body.amount,
      isExpired: channel.expired,
      openedThroughBackend: true,
      affiliateBrokers: [],
      fillOrKillParams,
      ...(body.dcaParams ? { dcaParams: body.dcaParams } : {}),
    },
    ...(progress >= progressOf('RECEIVING')
      ? {
          deposit: {
            amount: p.depositAmount.toString(),
            txRef: channel.depositTxRef,
            ...(progress === progressOf('RECEIVING')
              ? { txConfirmations: 1 }
              : { witnessedAt: channel.openedAt + 30_000, witnessedBlockIndex: `${channel.issuedBlock + 5}-2` }),
          },
        }
      : {}),
    ...(progress >= progressOf('SWAPPING') ? { swap: swapFields(channel, progress) } : {}),
    ...egress,
    fillOrKillParams,
    ...(body.dcaParams ? { dcaParams: body.dcaParams } : {}),
    lastStatechainUpdateAt: Date.now(),
  };
}

export interface NotFoundLimitOptions {
  windowMs?: number;
  /** Not-founds a client may cause in the window; one more bans it. */
  maxNotFounds?: number;
  banMs?: number;
}

/** The backend's `notFoundRateLimit` middleware: per client, ban after more than N 404s in the window. */
function createNotFoundLimiter({ windowMs = 60_000, maxNotFounds = 10, banMs = 600_000 }: NotFoundLimitOptions) {
  const records = new Map<string, { timestamps: number[]; bannedUntil: number }>();
  const recordFor = (client: string) => {
    let record = records.get(client);
    if (!record) {
      record = { timestamps: [], bannedUntil: 0 };
      records.set(client, record);
    }
    return record;
  };
  return {
    banned: (client: string) => recordFor(client).bannedUntil > Date.now(),
    notFound(client: string) {
      const record = recordFor(client);
      const now = Date.now();
      record.timestamps = record.timestamps.filter((t) => t >= now - windowMs);
      record.timestamps.push(now);
      if (record.timestamps.length > maxNotFounds) {
        record.bannedUntil = now + banMs;
        record.timestamps = [];
      }
    },
    clear: () => records.clear(),
  };
}

const clientOf = (headers: Record<string, string>) => headers['cf-connecting-ip'] ?? 'loopback';

export interface ChainflipSimulator extends RunningSimulator {
  /** Channel-opening bodies as received, oldest first. */
  openedChannels(): { id: string; body: OpenSwapDepositChannelBody }[];
}

export async function startChainflipSimulator(
  opts: SimulatorOptions & { notFoundLimit?: NotFoundLimitOptions } = {},
): Promise<ChainflipSimulator> {
  const channels = new Map<string, Channel>();
  const limiter = createNotFoundLimiter(opts.notFoundLimit ?? {});
  let nextIssuedBlock = 8_400_000;
  const nextChannelId: Record<ChainflipChain, number> = { Ethereum: 1, Arbitrum: 1, Bitcoin: 1, Solana: 1 };
  let nextSwapId = 700;

  const currentState = (channel: Channel, settleAfterPolls: number): SwapState =>
    channel.expired ? 'WAITING' : stageAt(STAGES[channel.outcome], channel.polls, settleAfterPolls);

  function findChannel(id: string, settleAfterPolls: number): Channel | undefined {
    if (CHANNEL_ID.test(id)) return channels.get(id.toLowerCase());
    const all = [...channels.values()];
    const reached = (channel: Channel, state: SwapState) =>
      progressOf(currentState(channel, settleAfterPolls)) >= progressOf(state);
    if (/^\d+$/.test(id)) return all.find((c) => c.swapId === id && reached(c, 'SWAPPING'));
    return all.find((c) => c.depositTxRef.toLowerCase() === id.toLowerCase() && reached(c, 'RECEIVING'));
  }

  function openChannel(req: SimRequest): SimResponse {
    const parsed = openSwapDepositChannelBodySchema.safeParse(req.body);
    if (!parsed.success) {
      return tsRestBodyError(parsed.error.issues.map((i) => ({ message: i.message, path: i.path as string[] })));
    }
    const body = parsed.data;
    if (!isRoutable(body.srcAsset) || !isRoutable(body.destAsset)) {
      return tsRestBodyError([{ message: 'invalid asset and chain combination', path: ['srcAsset'] }]);
    }
    const invalidAddresses = addressIssues(body);
    if (invalidAddresses.length) return tsRestBodyError(invalidAddresses);
    let pricing: Pricing;
    try {
      pricing = priceSwap(body.srcAsset, body.destAsset, BigInt(body.amount), body.dcaParams?.numberOfChunks ?? 1);
    } catch (error) {
      if (error instanceof QuoteRefusal) return { status: 400, body: { message: error.message } };
      throw error;
    }
    const srcChain = chainOf(body.srcAsset);
    const issuedBlock = nextIssuedBlock++;
    const id = `${issuedBlock}-${srcChain}-${nextChannelId[srcChain]++}`;
    const openedAt = Date.now();
    const profile = CHAINS[srcChain];
    const channel: Channel = {
      id,
      issuedBlock,
      srcChain,
      body,
      depositAddress: fakeAddress(srcChain, `deposit:${id}`),
      openedAt,
      srcChainExpiryBlock: profile.blockHeight + (issuedBlock % 1000) + profile.blocksPerDay,
      outcome: req.outcomeFor(body.destAddress),
      polls: 0,
      expired: false,
      swapId: String(nextSwapId++),
      depositTxRef: fakeTxRef(srcChain, `deposit-tx:${id}`),
      pricing,
    };
    channels.set(id.toLowerCase(), channel);
    return {
      status: 201,
      body: {
        id,
        depositAddress: channel.depositAddress,
        brokerCommissionBps: 0,
        maxBoostFeeBps: body.maxBoostFeeBps ?? 0,
        issuedBlock,
        srcChainExpiryBlock: String(channel.srcChainExpiryBlock),
        estimatedExpiryTime: openedAt + CHANNEL_LIFETIME_MS,
        channelOpeningFee: '0',
      },
    };
  }

  function swapStatus(req: SimRequest, match: RegExpMatchArray): SimResponse {
    const client = clientOf(req.headers);
    if (limiter.banned(client)) return TOO_MANY;
    const channel = findChannel(decodeURIComponent(match[1] ?? ''), req.config.settleAfterPolls);
    if (!channel) {
      limiter.notFound(client);
      return NOT_FOUND;
    }
    const state = currentState(channel, req.config.settleAfterPolls);
    channel.polls += 1;
    return {
      status: 200,
      body: renderSwap(channel, state),
      headers: { 'x-chainflip-last-statechain-update': String(Date.now()) },
    };
  }

  const routes: SimRoute[] = [
    {
      method: 'GET',
      pattern: /^\/v2\/quote\/?$/,
      kind: 'quote',
      handle: handleQuote,
      noRoute: () => ({ status: 400, body: { message: 'Insufficient liquidity for the requested amount' } }),
    },
    { method: 'POST', pattern: /^\/api\/openSwapDepositChannel\/?$/, kind: 'execute', handle: openChannel },
    { method: 'GET', pattern: /^\/v2\/swaps\/([^/]+)\/?$/, kind: 'status', handle: swapStatus },
  ];

  const simulator = await startSimulator('chainflip', routes, { ...opts, onReset: () => limiter.clear() });
  installExpireControl(simulator, (channelId) => {
    const channel = channels.get(channelId.toLowerCase());
    if (channel) channel.expired = true;
    return channel !== undefined;
  });
  return Object.assign(simulator, {
    openedChannels: () => [...channels.values()].map(({ id, body }) => ({ id, body })),
  });
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** `POST /__sim/chainflip/expire {channelId}`: the channel expires with no deposit. */
function installExpireControl(simulator: RunningSimulator, expire: (channelId: string) => boolean) {
  const { server } = simulator;
  const kitListeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || !req.url?.startsWith('/__sim/chainflip/expire')) {
      for (const listener of kitListeners) listener.call(server, req, res);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const parsed = z.object({ channelId: z.string() }).safeParse(safeJson(Buffer.concat(chunks).toString('utf8')));
      const found = parsed.success && expire(parsed.data.channelId);
      res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(found ? { id: parsed.data.channelId, isExpired: true } : NOT_FOUND.body));
    });
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
