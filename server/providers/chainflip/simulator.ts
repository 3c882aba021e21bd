import type { IncomingMessage, ServerResponse } from 'node:http';
import { base58, bech32m } from '@scure/base';
import { z } from 'zod';
import { keep } from '../../bounded-map';
import {
  autoDepositDue,
  type DepositReport,
  endingFor,
  fakeHex,
  parseScripts,
  type RunningSimulator,
  SIMULATOR_MEMORY,
  type SimRequest,
  type SimResponse,
  type SimRoute,
  type SimulatorOptions,
  sameAddress,
  stageAt,
  startSimulator,
} from '../simulator-kit';
import { type ChainflipAssetRef, type ChainflipChain, isRoutable } from './assets';
import {
  baseFromUsd,
  bps,
  CHAINS,
  chainOf,
  decimalRatio,
  decimalsOf,
  durations,
  handleQuote,
  type NO_ROUTE_EGRESS_FEE,
  type Pricing,
  priceSwap,
  QuoteRefusal,
  REFUND_FEE_BPS,
  USDC,
  wireFee,
} from './sim-market';
import {
  CHAINFLIP_OUTCOMES,
  CHAINFLIP_SCRIPT_NAMES,
  type ChainflipOutcome,
  type EgressStage,
  isPartialFill,
  PLANS,
  type Step,
} from './sim-plans';

export type { ChainflipOutcome } from './sim-plans';

import { CHANNEL_ID, type OpenSwapDepositChannelBody, openSwapDepositChannelBodySchema } from './wire';

const CHANNEL_LIFETIME_MS = 24 * 60 * 60 * 1000;
const NOT_FOUND: SimResponse = { status: 404, body: { message: 'resource not found' } };
const TOO_MANY: SimResponse = { status: 429, body: { message: 'Too many requests, please try again later' } };
const ADDRESS_FORMATS: Record<ChainflipChain, RegExp> = {
  Ethereum: /^0x[0-9a-fA-F]{40}$/,
  Arbitrum: /^0x[0-9a-fA-F]{40}$/,
  Bitcoin: /^(bc1[ac-hj-np-z02-9]{11,71}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/,
  Solana: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
};

// ---- Deposit channels and their swaps.

interface SeenDeposit {
  txRef: string;
  seenAt: number;
}

interface Channel {
  id: string;
  issuedBlock: number;
  srcChain: ChainflipChain;
  body: OpenSwapDepositChannelBody;
  depositAddress: string;
  openedAt: number;
  estimatedExpiryTime: number;
  srcChainExpiryBlock: number;
  outcome: ChainflipOutcome;
  /** Expired by the control endpoint, ahead of its time. */
  expired: boolean;
  swapId: string;
  deposit?: SeenDeposit;
  /** Status reads since the deposit was seen: the swap walks its plan by them. */
  polls: number;
  pricing: Pricing;
}

interface Progress {
  step: Step;
  deposit: SeenDeposit;
}

const isExpired = (channel: Channel) => channel.expired || Date.now() >= channel.estimatedExpiryTime;
const hasSwapRequest = (channel: Channel, progress: Progress | undefined) =>
  progress !== undefined && progress.step.state !== 'RECEIVING' && channel.outcome !== 'rejected';

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

/** What the swap had swapped by this step: everything once paid out, half of it for a partial fill. */
function swappedBy(channel: Channel, step: Step) {
  const p = channel.pricing;
  if (!step.swapEgress) return { input: 0n, intermediate: 0n, output: 0n, chunks: 0 };
  const intermediate = p.intermediateAmount ?? 0n;
  if (!isPartialFill(channel.outcome)) {
    return { input: p.swapInput, intermediate, output: p.swapOutput, chunks: p.chunks };
  }
  return {
    input: p.swapInput / 2n,
    intermediate: intermediate / 2n,
    output: p.swapOutput / 2n,
    chunks: Math.floor(p.chunks / 2),
  };
}

const refundEgressFee = (p: Pricing) => baseFromUsd(CHAINS[chainOf(p.src)].egressUsd, p.src);

/** A rejected deposit goes back whole (the backend shows the deposit amount); an unswapped input less fees. */
function refundAmount(channel: Channel, step: Step): bigint {
  const p = channel.pricing;
  if (channel.outcome === 'rejected') return p.depositAmount;
  const unswapped = p.swapInput - swappedBy(channel, step).input;
  return unswapped - refundEgressFee(p) - bps(unswapped, REFUND_FEE_BPS);
}

function egressFields(
  channel: Channel,
  { deposit }: Progress,
  stage: EgressStage,
  amount: bigint,
  txChain: ChainflipChain,
  kind: 'swap' | 'refund',
) {
  const at = (seconds: number) => deposit.seenAt + seconds * 1000;
  const scheduled = {
    amount: amount.toString(),
    scheduledAt: at(60),
    scheduledBlockIndex: `${channel.issuedBlock + 10}-4`,
  };
  if (stage === 'scheduled') return scheduled;
  if (stage === 'ignored') {
    // An ignored refund as the backend shows it (routes/v2/__tests__/__snapshots__/swap.test.ts.snap).
    const failure = {
      failedAt: at(90),
      failedBlockIndex: `${channel.issuedBlock + 15}-1`,
      mode: 'REFUND_OUTPUT_TOO_SMALL',
      reason: {
        name: 'ethereumIngressEgress.BelowEgressDustLimit',
        message: 'The amount is below the minimum egress amount.',
      },
    };
    return { ...scheduled, failure, failedAt: failure.failedAt, failedBlockIndex: failure.failedBlockIndex };
  }
  if (stage === 'aborted') {
    const failure = {
      failedAt: at(120),
      failedBlockIndex: `${channel.issuedBlock + 20}-7`,
      mode: 'SENDING_FAILED',
      reason: { name: 'BroadcastAborted', message: `The ${kind} broadcast was aborted` },
    };
    return { ...scheduled, failure, failedAt: failure.failedAt, failedBlockIndex: failure.failedBlockIndex };
  }
  const sent = { ...scheduled, txRef: fakeTxRef(txChain, `${kind}-egress:${channel.id}`) };
  if (stage === 'sent') return sent;
  return { ...sent, witnessedAt: at(150), witnessedBlockIndex: `${channel.issuedBlock + 25}-3` };
}

function depositFields(channel: Channel, { step, deposit }: Progress) {
  const seen = { amount: channel.pricing.depositAmount.toString(), txRef: deposit.txRef };
  if (step.state === 'RECEIVING') return { ...seen, txConfirmations: 1 };
  const at = deposit.seenAt + 30_000;
  const blockIndex = `${channel.issuedBlock + 5}-2`;
  if (channel.outcome !== 'rejected') return { ...seen, witnessedAt: at, witnessedBlockIndex: blockIndex };
  const failure = {
    failedAt: at,
    failedBlockIndex: blockIndex,
    mode: 'DEPOSIT_REJECTED',
    reason: { name: 'TransactionRejectedByBroker', message: 'The deposit was rejected by the broker' },
  };
  return { ...seen, failedAt: at, failedBlockIndex: blockIndex, failure };
}

function feesAt(channel: Channel, step: Step) {
  const p = channel.pricing;
  if (channel.outcome === 'rejected' || step.state === 'RECEIVING') return [];
  const fees = [wireFee('INGRESS', p.src, p.ingressFee)];
  const swapped = swappedBy(channel, step);
  if (step.swapEgress) {
    fees.push(
      wireFee('NETWORK', USDC, (p.networkFee * swapped.input) / p.swapInput),
      wireFee('EGRESS', p.dst, p.egressFee),
    );
  }
  if (step.refundEgress) {
    fees.push(
      wireFee('EGRESS', p.src, refundEgressFee(p)),
      wireFee('REFUND', p.src, bps(p.swapInput - swapped.input, REFUND_FEE_BPS)),
    );
  }
  return fees;
}

function swapFields(channel: Channel, { step, deposit }: Progress) {
  const p = channel.pricing;
  if (channel.outcome === 'rejected') {
    const amount = p.depositAmount.toString();
    return {
      originalInputAmount: amount,
      remainingInputAmount: amount,
      swappedInputAmount: '0',
      swappedIntermediateAmount: '0',
      swappedOutputAmount: '0',
    };
  }
  const swapped = swappedBy(channel, step);
  const chunk = { inputAmount: p.swapInput.toString(), scheduledAt: deposit.seenAt + 36_000, retryCount: 0 };
  return {
    originalInputAmount: p.swapInput.toString(),
    remainingInputAmount: (p.swapInput - swapped.input).toString(),
    swappedInputAmount: swapped.input.toString(),
    swappedIntermediateAmount: swapped.intermediate.toString(),
    swappedOutputAmount: swapped.output.toString(),
    ...(p.chunks > 1
      ? { dca: { executedChunks: swapped.chunks, remainingChunks: p.chunks - swapped.chunks } }
      : { regular: swapped.output > 0n ? { ...chunk, outputAmount: swapped.output.toString() } : chunk }),
  };
}

function renderSwap(channel: Channel, progress: Progress | undefined) {
  const p = channel.pricing;
  const { body } = channel;
  const { total, parts } = durations(p);
  const fillOrKillParams = {
    refundAddress: body.fillOrKillParams.refundAddress,
    minPrice: priceFromX128(body.fillOrKillParams.minPriceX128, p.src, p.dst),
    retryDurationBlocks: body.fillOrKillParams.retryDurationBlocks,
    maxOraclePriceSlippage: body.fillOrKillParams.maxOraclePriceSlippage ?? undefined,
  };
  const step = progress?.step;
  return {
    state: step?.state ?? 'WAITING',
    ...(hasSwapRequest(channel, progress) ? { swapId: channel.swapId } : {}),
    srcAsset: p.src.asset,
    srcChain: p.src.chain,
    destAsset: p.dst.asset,
    destChain: p.dst.chain,
    destAddress: body.destAddress,
    srcChainRequiredBlockConfirmations: CHAINS[channel.srcChain].confirmations,
    estimatedDurationsSeconds: parts,
    estimatedDurationSeconds: total,
    brokers: [],
    fees: step ? feesAt(channel, step) : [],
    depositChannel: {
      id: channel.id,
      createdAt: channel.openedAt,
      brokerCommissionBps: 0,
      depositAddress: channel.depositAddress,
      srcChainExpiryBlock: String(channel.srcChainExpiryBlock),
      estimatedExpiryTime: channel.estimatedExpiryTime,
      expectedDepositAmount: body.amount,
      isExpired: isExpired(channel),
      openedThroughBackend: true,
      affiliateBrokers: [],
      fillOrKillParams,
      ...(body.dcaParams ? { dcaParams: body.dcaParams } : {}),
    },
    ...(progress ? { deposit: depositFields(channel, progress) } : {}),
    ...(progress && progress.step.state !== 'RECEIVING' ? { swap: swapFields(channel, progress) } : {}),
    ...(progress?.step.swapEgress
      ? {
          swapEgress: egressFields(
            channel,
            progress,
            progress.step.swapEgress,
            swappedBy(channel, progress.step).output - p.egressFee,
            chainOf(p.dst),
            'swap',
          ),
        }
      : {}),
    ...(progress?.step.refundEgress
      ? {
          refundEgress: egressFields(
            channel,
            progress,
            progress.step.refundEgress,
            refundAmount(channel, progress.step),
            chainOf(p.src),
            'refund',
          ),
        }
      : {}),
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

/** What a deposit report names its channel by: the tracking context the adapter stored at execute. */
const reportedChannelSchema = z.looseObject({
  channelId: z.string().optional(),
  depositAddress: z.string().optional(),
});

export interface ChainflipSimulator extends RunningSimulator {
  /** Channel-opening bodies as received, oldest first. */
  openedChannels(): { id: string; body: OpenSwapDepositChannelBody }[];
  /** The kit's scripting, with Chainflip's own endings too (also `POST /__sim/chainflip/scripts`). */
  script(key: string, outcome: ChainflipOutcome | typeof NO_ROUTE_EGRESS_FEE): void;
}

/**
 * The swap backend on loopback. A channel waits for its deposit as Chainflip's do: until the simulated
 * chain reports one (`POST /__sim/deposits`), or `autoDepositMs` after it opened, or until it expires.
 */
export async function startChainflipSimulator({
  channelLifetimeMs = CHANNEL_LIFETIME_MS,
  ...opts
}: SimulatorOptions & {
  notFoundLimit?: NotFoundLimitOptions;
  channelLifetimeMs?: number;
} = {}): Promise<ChainflipSimulator> {
  const channels = new Map<string, Channel>();
  const remembered = opts.remember ?? SIMULATOR_MEMORY;
  const limiter = createNotFoundLimiter(opts.notFoundLimit ?? {});
  let nextIssuedBlock = 8_400_000;
  const nextChannelId: Record<ChainflipChain, number> = { Ethereum: 1, Arbitrum: 1, Bitcoin: 1, Solana: 1 };
  let nextSwapId = 700;

  const progressOf = (channel: Channel, settleAfterPolls: number): Progress | undefined =>
    channel.deposit && {
      step: stageAt(PLANS[channel.outcome], channel.polls, settleAfterPolls),
      deposit: channel.deposit,
    };

  function seeDeposit(channel: Channel, txRef: string) {
    channel.deposit = { txRef, seenAt: Date.now() };
    channel.polls = 0;
  }

  function takeReportedDeposit({ hash, context }: DepositReport): boolean {
    const named = reportedChannelSchema.safeParse(context);
    if (!named.success) return false;
    const { channelId, depositAddress } = named.data;
    const channel = channelId
      ? channels.get(channelId.toLowerCase())
      : [...channels.values()].find(
          (c) => depositAddress !== undefined && sameAddress(c.depositAddress, depositAddress),
        );
    if (!channel || channel.deposit || isExpired(channel)) return false;
    seeDeposit(channel, hash);
    return true;
  }

  function findChannel(id: string, settleAfterPolls: number): Channel | undefined {
    if (CHANNEL_ID.test(id)) return channels.get(id.toLowerCase());
    const all = [...channels.values()];
    if (/^\d+$/.test(id)) return all.find((c) => c.swapId === id && hasSwapRequest(c, progressOf(c, settleAfterPolls)));
    // The backend takes the latest swap request for a deposit hash.
    return all.findLast((c) => c.deposit?.txRef.toLowerCase() === id.toLowerCase());
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
    const profile = CHAINS[srcChain];
    const openedAt = Date.now();
    const channel: Channel = {
      id,
      issuedBlock,
      srcChain,
      body,
      depositAddress: fakeAddress(srcChain, `deposit:${id}`),
      openedAt,
      estimatedExpiryTime: openedAt + channelLifetimeMs,
      srcChainExpiryBlock: profile.blockHeight + (issuedBlock % 1000) + profile.blocksPerDay,
      outcome: endingFor(req, CHAINFLIP_OUTCOMES, body.destAddress),
      expired: false,
      swapId: String(nextSwapId++),
      polls: 0,
      pricing,
    };
    keep(channels, id.toLowerCase(), channel, remembered);
    return {
      status: 201,
      body: {
        id,
        depositAddress: channel.depositAddress,
        brokerCommissionBps: 0,
        maxBoostFeeBps: body.maxBoostFeeBps ?? 0,
        issuedBlock,
        srcChainExpiryBlock: String(channel.srcChainExpiryBlock),
        estimatedExpiryTime: channel.estimatedExpiryTime,
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
    if (!channel.deposit && !isExpired(channel) && autoDepositDue(channel.openedAt, req.config)) {
      seeDeposit(channel, fakeTxRef(channel.srcChain, `deposit-tx:${channel.id}`));
    }
    const progress = progressOf(channel, req.config.settleAfterPolls);
    if (progress) channel.polls += 1;
    return {
      status: 200,
      body: renderSwap(channel, progress),
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

  const simulator = await startSimulator('chainflip', routes, {
    ...opts,
    outcomes: CHAINFLIP_SCRIPT_NAMES,
    onReset: () => limiter.clear(),
    onDeposit: takeReportedDeposit,
  });
  installControls(simulator, {
    '/__sim/chainflip/expire': (body) => {
      const parsed = z.object({ channelId: z.string() }).safeParse(body);
      const channel = parsed.success ? channels.get(parsed.data.channelId.toLowerCase()) : undefined;
      if (!channel) return NOT_FOUND;
      channel.expired = true;
      return { status: 200, body: { id: channel.id, isExpired: true } };
    },
    '/__sim/chainflip/scripts': (body) => {
      const parsed = parseScripts(body, simulator.outcomes);
      if (!parsed) return { status: 400, body: { message: 'expected { scripts: [{ key, outcome }] }' } };
      for (const entry of parsed) simulator.script(entry.key, entry.outcome);
      return { status: 200, body: { scripted: parsed.length } };
    },
  });
  return Object.assign(simulator, {
    openedChannels: () => [...channels.values()].map(({ id, body }) => ({ id, body })),
  });
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Chainflip's own control endpoints (`POST` with a JSON body), in front of the kit's, which answers
 * every other `/__sim/*` path itself: `/__sim/chainflip/expire {channelId}` (the channel expires now)
 * and `/__sim/chainflip/scripts {scripts: [{key, outcome}]}` (the kit's scripts, with Chainflip's endings).
 */
function installControls(simulator: RunningSimulator, controls: Record<string, (body: unknown) => SimResponse>) {
  const { server } = simulator;
  const kitListeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const control = req.method === 'POST' ? controls[req.url?.split('?')[0] ?? ''] : undefined;
    if (!control) {
      for (const listener of kitListeners) listener.call(server, req, res);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { status, body } = control(safeJson(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
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
