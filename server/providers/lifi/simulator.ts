import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { concatHex, encodeAbiParameters, isAddress, parseAbiParameters, toFunctionSelector } from 'viem';
import { z } from 'zod';
import { keep } from '../../bounded-map';
import {
  autoDepositDue,
  convertAtMarket,
  type DepositReport,
  endingFor,
  fakeHex,
  filterSimAssets,
  type RunningSimulator,
  SIMULATOR_MEMORY,
  type SimAsset,
  type SimRequest,
  type SimResponse,
  type SimRoute,
  type SimulatorOptions,
  shiftedPrice,
  stageAt,
  startSimulator,
  usdOf,
} from '../simulator-kit';
import { type Built, LIFI_OUTCOMES, type LifiOutcome, STAGES, statusBody, type Tracked } from './sim-status';
import {
  EVM_NATIVE,
  findToken,
  gasPriceOf,
  LIFI_FEE_BPS,
  lifiChainOf,
  lifiToken,
  nativeOf,
  usdcOf,
} from './sim-tokens';
import { type LifiStep, type LifiToken, lifiStepSchema } from './wire';

export const LIFI_DIAMOND_ADDRESS = '0x1231DEB6f5749EF6cE6943a275A1D3E7486F4EaE';
/** What LI.FI's contracts put in an address field for a non-EVM receiver. */
const NON_EVM_RECEIVER = '0x11f111f111f111F111f111f111F111f111f111F1';
const MIN_USD = 1;
const DEFAULT_SLIPPAGE = 0.005;
const ICONS = 'https://raw.githubusercontent.com/lifinance/types/main/src/assets/icons';

interface Tool {
  key: string;
  name: string;
  logoURI: string;
  feeBps: bigint;
  seconds: number;
  gas: bigint;
}

const TOOLS = {
  across: {
    key: 'across',
    name: 'Across',
    logoURI: `${ICONS}/bridges/across.svg`,
    feeBps: 4n,
    seconds: 60,
    gas: 130_000n,
  },
  stargate: {
    key: 'stargate',
    name: 'Stargate',
    logoURI: `${ICONS}/bridges/stargate.svg`,
    feeBps: 6n,
    seconds: 180,
    gas: 320_000n,
  },
  '1inch': {
    key: '1inch',
    name: '1inch',
    logoURI: `${ICONS}/exchanges/oneinch.png`,
    feeBps: 10n,
    seconds: 30,
    gas: 180_000n,
  },
  uniswap: {
    key: 'uniswap',
    name: 'Uniswap V3',
    logoURI: `${ICONS}/exchanges/uniswap.png`,
    feeBps: 30n,
    seconds: 30,
    gas: 160_000n,
  },
} satisfies Record<string, Tool>;

const FEE_COLLECTION = { key: 'feeCollection', name: 'Integrator Fee', logoURI: `${ICONS}/bridges/lifi.svg` };

/** `GET /v1/tokens?chains=1,42161`: every catalog token on those chains, priced at seed prices. */
function tokens(req: { url: URL }) {
  const wanted = new Set((req.url.searchParams.get('chains') ?? '').split(',').filter(Boolean).map(Number));
  const byChain: Record<string, LifiToken[]> = {};
  for (const asset of filterSimAssets(
    (a) => a.chainSeed.lifiChainId !== undefined && wanted.has(a.chainSeed.lifiChainId),
  )) {
    const token = lifiToken(asset);
    const list = byChain[String(token.chainId)] ?? [];
    list.push(token);
    byChain[String(token.chainId)] = list;
  }
  return { status: 200, body: { tokens: byChain } };
}

// ---- Steps and routes.

let sequence = 0;
function uuid(seed: string): string {
  const hex = fakeHex(`${seed}:${++sequence}`, 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

interface Leg {
  from: SimAsset;
  to: SimAsset;
  fromAmount: bigint;
  tool: Tool;
  slippage: number;
  fromAddress?: string;
  toAddress?: string;
  collectFee: boolean;
  priceShiftBps: number;
}

interface Priced {
  lifiFee: bigint;
  toolFee: bigint;
  toAmount: bigint;
  toAmountMin: bigint;
}

function price(leg: Leg): Priced {
  const lifiFee = leg.collectFee ? (leg.fromAmount * LIFI_FEE_BPS) / 10_000n : 0n;
  const net = leg.fromAmount - lifiFee;
  const toolFee = (net * leg.tool.feeBps) / 10_000n;
  const toAmount = shiftedPrice(convertAtMarket(net - toolFee, leg.from, leg.to, 0), leg);
  const keepBps = BigInt(10_000 - Math.round(leg.slippage * 10_000));
  return { lifiFee, toolFee, toAmount, toAmountMin: (toAmount * keepBps) / 10_000n };
}

const crossesChains = (leg: Leg) => lifiChainOf(leg.from) !== lifiChainOf(leg.to);

function action(leg: Leg, fromAmount: bigint) {
  return {
    fromChainId: lifiChainOf(leg.from),
    fromAmount: fromAmount.toString(),
    fromToken: lifiToken(leg.from),
    ...(leg.fromAddress ? { fromAddress: leg.fromAddress } : {}),
    toChainId: lifiChainOf(leg.to),
    toToken: lifiToken(leg.to),
    ...(leg.toAddress ? { toAddress: leg.toAddress } : {}),
    slippage: leg.slippage,
  };
}

function gasCost(leg: Leg) {
  const chainId = lifiChainOf(leg.from);
  const native = nativeOf(chainId) as SimAsset;
  const gasPrice = gasPriceOf(chainId);
  const amount = leg.tool.gas * gasPrice;
  return {
    type: 'SEND',
    price: gasPrice.toString(),
    estimate: leg.tool.gas.toString(),
    limit: ((leg.tool.gas * 125n) / 100n).toString(),
    amount: amount.toString(),
    amountUSD: usdOf(amount, native),
    token: lifiToken(native),
  };
}

function feeCosts(leg: Leg, priced: Priced) {
  const token = lifiToken(leg.from);
  const costs = [];
  if (priced.lifiFee > 0n) {
    costs.push({
      name: 'LIFI Fixed Fee',
      description: 'Fixed LI.FI fee, independent of any other fee',
      percentage: '0.0025',
      token,
      amount: priced.lifiFee.toString(),
      amountUSD: usdOf(priced.lifiFee, leg.from),
      included: true,
    });
  }
  if (crossesChains(leg)) {
    costs.push({
      name: `${leg.tool.name} bridge fee`,
      description: `Fee charged by ${leg.tool.name} for the transfer`,
      percentage: (Number(leg.tool.feeBps) / 10_000).toString(),
      token,
      amount: priced.toolFee.toString(),
      amountUSD: usdOf(priced.toolFee, leg.from),
      included: true,
    });
  }
  return costs;
}

function buildStep(leg: Leg): LifiStep {
  const priced = price(leg);
  const net = leg.fromAmount - priced.lifiFee;
  const estimate = {
    tool: leg.tool.key,
    fromAmount: leg.fromAmount.toString(),
    fromAmountUSD: usdOf(leg.fromAmount, leg.from),
    toAmount: priced.toAmount.toString(),
    toAmountMin: priced.toAmountMin.toString(),
    toAmountUSD: usdOf(priced.toAmount, leg.to),
    approvalAddress: LIFI_DIAMOND_ADDRESS,
    feeCosts: feeCosts(leg, priced),
    gasCosts: [gasCost(leg)],
    executionDuration: leg.tool.seconds,
  };
  const toolDetails = { key: leg.tool.key, name: leg.tool.name, logoURI: leg.tool.logoURI };
  const feeStep = {
    id: uuid('fee'),
    type: 'protocol',
    tool: FEE_COLLECTION.key,
    toolDetails: FEE_COLLECTION,
    action: { ...action({ ...leg, to: leg.from }, leg.fromAmount) },
    estimate: {
      ...estimate,
      tool: FEE_COLLECTION.key,
      toAmount: net.toString(),
      toAmountMin: net.toString(),
      feeCosts: estimate.feeCosts.slice(0, 1),
      gasCosts: [],
      executionDuration: 0,
    },
  };
  const mainStep = {
    id: uuid(leg.tool.key),
    type: crossesChains(leg) ? 'cross' : 'swap',
    tool: leg.tool.key,
    toolDetails,
    action: action(leg, net),
    estimate: { ...estimate, fromAmount: net.toString() },
  };
  return {
    id: uuid('step'),
    type: 'lifi',
    tool: leg.tool.key,
    toolDetails,
    action: action(leg, leg.fromAmount),
    estimate,
    includedSteps: priced.lifiFee > 0n ? [feeStep, mainStep] : [mainStep],
    integrator: 'switchyard',
  };
}

function buildRoute(steps: LifiStep[], from: SimAsset, to: SimAsset, tags: string[]) {
  const first = steps[0] as LifiStep;
  const last = steps[steps.length - 1] as LifiStep;
  const gasCostUSD = steps
    .flatMap((step) => step.estimate.gasCosts ?? [])
    .reduce((sum, cost) => sum + Number(cost.amountUSD ?? 0), 0);
  return {
    id: uuid('route'),
    fromChainId: first.action.fromChainId,
    fromAmountUSD: usdOf(BigInt(first.action.fromAmount), from),
    fromAmount: first.action.fromAmount,
    fromToken: first.action.fromToken,
    ...(first.action.fromAddress ? { fromAddress: first.action.fromAddress } : {}),
    toChainId: last.action.toChainId,
    toAmountUSD: usdOf(BigInt(last.estimate.toAmount), to),
    toAmount: last.estimate.toAmount,
    toAmountMin: last.estimate.toAmountMin,
    toToken: last.action.toToken,
    ...(last.action.toAddress ? { toAddress: last.action.toAddress } : {}),
    gasCostUSD: gasCostUSD.toFixed(2),
    containsSwitchChain: false,
    steps,
    tags,
    insurance: { state: 'NOT_INSURABLE', feeAmountUsd: '0' },
  };
}

interface Transfer {
  from: SimAsset;
  to: SimAsset;
  fromAmount: bigint;
  slippage: number;
  fromAddress?: string;
  toAddress?: string;
}

/** Cross-chain: Across direct, and Stargate (behind a Uniswap swap into USDC when the source is not USDC). */
function routesFor(transfer: Transfer, priceShiftBps: number) {
  const base = { ...transfer, collectFee: true, priceShiftBps };
  if (lifiChainOf(transfer.from) === lifiChainOf(transfer.to)) {
    return [buildRoute([buildStep({ ...base, tool: TOOLS['1inch'] })], transfer.from, transfer.to, ['RECOMMENDED'])];
  }
  const across = buildRoute([buildStep({ ...base, tool: TOOLS.across })], transfer.from, transfer.to, [
    'RECOMMENDED',
    'CHEAPEST',
    'FASTEST',
  ]);
  const usdc = usdcOf(lifiChainOf(transfer.from));
  if (!usdc || usdc === transfer.from) {
    const stargate = buildStep({ ...base, tool: TOOLS.stargate });
    return [across, buildRoute([stargate], transfer.from, transfer.to, [])];
  }
  const swap = buildStep({ ...base, to: usdc, toAddress: transfer.fromAddress, tool: TOOLS.uniswap });
  const bridge = buildStep({
    ...base,
    from: usdc,
    fromAmount: BigInt(swap.estimate.toAmount),
    tool: TOOLS.stargate,
    collectFee: false,
  });
  return [across, buildRoute([swap, bridge], transfer.from, transfer.to, [])];
}

// ---- Transaction data.

const bridgeDataParams = parseAbiParameters(
  '(bytes32 transactionId, string bridge, string integrator, address referrer, address sendingAssetId, address receiver, uint256 minAmount, uint256 destinationChainId, bool hasSourceSwaps, bool hasDestinationCall)',
);
const swapParams = parseAbiParameters(
  'bytes32 transactionId, string integrator, string referrer, address receiver, uint256 minAmountOut, (address callTo, address approveTo, address sendingAssetId, address receivingAssetId, uint256 fromAmount, bytes callData, bool requiresDeposit)[] swapData',
);

/** Lowercased so a client's checksum typo never breaks ABI encoding. */
const evmOr = (address: string | undefined, fallback: string) =>
  (address && isAddress(address, { strict: false }) ? address : fallback).toLowerCase() as `0x${string}`;
const evmToken = (address: string) => evmOr(address, NON_EVM_RECEIVER);

function calldata(step: LifiStep, transactionId: `0x${string}`): `0x${string}` {
  const { action: act, estimate } = step;
  const receiver = evmOr(act.toAddress, NON_EVM_RECEIVER);
  if (act.fromChainId !== act.toChainId) {
    const name = `startBridgeTokensVia${step.tool.charAt(0).toUpperCase()}${step.tool.slice(1)}`;
    const selector = toFunctionSelector(
      `${name}((bytes32,string,string,address,address,address,uint256,uint256,bool,bool))`,
    );
    const args = encodeAbiParameters(bridgeDataParams, [
      {
        transactionId,
        bridge: step.tool,
        integrator: 'switchyard',
        referrer: EVM_NATIVE,
        sendingAssetId: evmToken(act.fromToken.address),
        receiver,
        minAmount: BigInt(act.fromAmount),
        destinationChainId: BigInt(act.toChainId),
        hasSourceSwaps: false,
        hasDestinationCall: false,
      },
    ]);
    return concatHex([selector, args]);
  }
  const selector = toFunctionSelector(
    'swapTokensGeneric(bytes32,string,string,address,uint256,(address,address,address,address,uint256,bytes,bool)[])',
  );
  const args = encodeAbiParameters(swapParams, [
    transactionId,
    'switchyard',
    '',
    receiver,
    BigInt(estimate.toAmountMin),
    [
      {
        callTo: LIFI_DIAMOND_ADDRESS,
        approveTo: LIFI_DIAMOND_ADDRESS,
        sendingAssetId: evmToken(act.fromToken.address),
        receivingAssetId: evmToken(act.toToken.address),
        fromAmount: BigInt(act.fromAmount),
        callData: `0x${fakeHex(step.id, 68)}`,
        requiresDeposit: true,
      },
    ],
  ]);
  return concatHex([selector, args]);
}

const hex = (value: bigint) => `0x${value.toString(16)}`;

function populate(step: LifiStep, from: SimAsset) {
  const transactionId = `0x${fakeHex(`tx:${step.id}`)}` as const;
  const gasLimit = (TOOLS[step.tool as keyof typeof TOOLS]?.gas ?? 250_000n) * 2n;
  return {
    ...step,
    transactionId,
    transactionRequest: {
      data: calldata(step, transactionId),
      to: LIFI_DIAMOND_ADDRESS,
      value: from.isNative ? hex(BigInt(step.action.fromAmount)) : '0x0',
      from: step.action.fromAddress,
      chainId: step.action.fromChainId,
      gasPrice: hex(gasPriceOf(step.action.fromChainId)),
      gasLimit: hex(gasLimit),
    },
  };
}

// ---- Status.

// ---- Request parsing.

const invalid = (message: string): SimResponse => ({ status: 400, body: { message, code: 1011 } });
/** LI.FI's NotProcessableError: the request is well-formed but cannot be served as it stands. */
const notProcessable = (message: string): SimResponse => ({ status: 422, body: { message, code: 1004 } });
const noQuotes: SimResponse = {
  status: 404,
  body: { message: 'No available quotes for the requested transfer', code: 1002 },
};

const routesRequestSchema = z.object({
  fromChainId: z.number().int(),
  fromAmount: z.string().regex(/^[1-9]\d*$/),
  fromTokenAddress: z.string().min(1),
  fromAddress: z.string().optional(),
  toChainId: z.number().int(),
  toTokenAddress: z.string().min(1),
  toAddress: z.string().optional(),
  options: z.looseObject({ slippage: z.number().min(0).max(1).optional() }).optional(),
});

function unavailable(fromChainId: number, from: string, toChainId: number, to: string, code: string, message: string) {
  const overallPath = `${fromChainId}:${from}-${toChainId}:${to}`;
  return {
    routes: [],
    unavailableRoutes: {
      filteredOut: [],
      failed: [
        {
          overallPath,
          subpaths: {
            [overallPath]: [{ errorType: 'NO_QUOTE', code, tool: 'lifi', message, action: { fromChainId, toChainId } }],
          },
        },
      ],
    },
  };
}

type Resolved = { ok: true; transfer: Transfer } | { ok: false; code: string; message: string };

function resolveTransfer(request: z.infer<typeof routesRequestSchema>): Resolved {
  const from = findToken(request.fromChainId, request.fromTokenAddress);
  const to = findToken(request.toChainId, request.toTokenAddress);
  if (!from || !to || from === to) {
    return { ok: false, code: 'NO_POSSIBLE_ROUTE', message: 'No route was found for this action.' };
  }
  const fromAmount = BigInt(request.fromAmount);
  if (Number(usdOf(fromAmount, from)) < MIN_USD) {
    return { ok: false, code: 'AMOUNT_TOO_LOW', message: 'The initial amount is too low to transfer using this tool.' };
  }
  return {
    ok: true,
    transfer: {
      from,
      to,
      fromAmount,
      slippage: request.options?.slippage ?? DEFAULT_SLIPPAGE,
      fromAddress: request.fromAddress,
      toAddress: request.toAddress,
    },
  };
}

const sameId = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

const numeric = (value: string | null) => (value && /^\d+$/.test(value) ? Number(value) : undefined);

const controlSchema = z.object({
  txHash: z.string().min(1),
  outcome: z.enum(['success', 'failure', 'refund']).optional(),
  fromChain: z.number().int().optional(),
  toChain: z.number().int().optional(),
  bridge: z.string().optional(),
  fromToken: z.string().optional(),
  toToken: z.string().optional(),
  fromAmount: z.string().regex(/^\d+$/).optional(),
  fromAddress: z.string().optional(),
  toAddress: z.string().optional(),
  /** The LI.FI transactionId the transfer carries (by default the latest built step's). */
  transactionId: z.string().optional(),
  /** Polls answered INVALID ("a third party service is not available") before the transfer shows. */
  invalidPolls: z.number().int().min(0).optional(),
});

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  } catch {
    return undefined;
  }
}

const CONTROL_PATH = '/__sim/lifi/transfers';

/**
 * LI.FI's API on loopback: `POST /v1/advanced/routes`, `POST /v1/advanced/stepTransaction`, `GET /v1/quote`,
 * `GET /v1/status`, plus `POST /__sim/lifi/transfers` to register a source hash with a chosen ending. A built
 * step's transfer exists once its deposit is seen: reported to `POST /__sim/deposits` with the step's
 * transactionId, or its own once `autoDepositMs` has passed; until then `/v1/status` answers NOT_FOUND.
 */
export async function startLifiSimulator(opts: SimulatorOptions = {}): Promise<RunningSimulator> {
  const tracked = new Map<string, Tracked>();
  const remembered = opts.remember ?? SIMULATOR_MEMORY;
  const built: Built[] = [];
  /** Each step of a multi-step route, by id, with the step before it. */
  const previousStep = new Map<string, string>();
  /** Steps whose transfer reached DONE: only then may the next step's transaction be built. */
  const settledSteps = new Map<string, true>();

  function remember(step: LifiStep, from: SimAsset, to: SimAsset, transactionId: string) {
    const rebuilt = built.findIndex((b) => sameId(b.transactionId, transactionId));
    if (rebuilt >= 0) built.splice(rebuilt, 1);
    built.push({
      stepId: step.id,
      tool: step.tool,
      from,
      to,
      fromAmount: BigInt(step.action.fromAmount),
      toAmount: BigInt(step.estimate.toAmount),
      fromAddress: step.action.fromAddress,
      toAddress: step.action.toAddress,
      transactionId,
      openedAt: Date.now(),
    });
    if (built.length > 5000) built.shift();
  }

  function transferOf(step: Built, txHash: string, outcome: LifiOutcome): Tracked {
    return {
      txHash,
      outcome,
      polls: 0,
      tool: step.tool,
      from: step.from,
      to: step.to,
      fromAmount: step.fromAmount,
      toAmount: step.toAmount,
      fromAddress: step.fromAddress,
      toAddress: step.toAddress,
      transactionId: step.transactionId,
      stepId: step.stepId,
    };
  }

  /**
   * The transfer of a built step asked for by its deposit's hash or by its LI.FI transactionId: none
   * while the step waits for its deposit, unless the auto deposit is due, when it deposits under a hash of its own.
   */
  function depositedTransfer(hashOrId: string, req: SimRequest): Tracked | undefined {
    const step =
      built.find((b) => b.depositHash !== undefined && sameId(b.depositHash, hashOrId)) ??
      built.find((b) => sameId(b.transactionId, hashOrId));
    if (!step) return undefined;
    if (!step.depositHash) {
      if (!autoDepositDue(step.openedAt, req.config)) return undefined;
      step.depositHash = `0x${fakeHex(`lifi-sim:deposit:${step.transactionId}`)}`;
    }
    const transfer = transferOf(step, step.depositHash, endingFor(req, LIFI_OUTCOMES, step.toAddress));
    keep(tracked, step.depositHash, transfer, remembered);
    return transfer;
  }

  function reportedDeposit({ hash, context }: DepositReport): boolean {
    const { transactionId } = context;
    const step =
      typeof transactionId === 'string' ? built.find((b) => sameId(b.transactionId, transactionId)) : undefined;
    const known = tracked.has(hash) || built.some((b) => b.depositHash !== undefined && sameId(b.depositHash, hash));
    if (!step || step.depositHash || known) return false;
    step.depositHash = hash;
    return true;
  }

  /**
   * A registered hash takes its details from the built step it belongs to: the one whose LI.FI
   * transactionId it was registered with, else the latest step on the same chains and tool.
   */
  function observe(
    txHash: string,
    query: URLSearchParams,
    outcomeOf: (step: Built | undefined) => LifiOutcome,
    transactionId?: string,
  ): Tracked {
    const fromChain = numeric(query.get('fromChain'));
    const toChain = numeric(query.get('toChain'));
    const bridge = query.get('bridge') ?? undefined;
    const ownId = (transactionId ?? txHash).toLowerCase();
    const match =
      built.find((b) => b.transactionId.toLowerCase() === ownId) ??
      [...built]
        .reverse()
        .find(
          (b) =>
            (fromChain === undefined || lifiChainOf(b.from) === fromChain) &&
            (toChain === undefined || lifiChainOf(b.to) === toChain) &&
            (bridge === undefined || b.tool === bridge),
        );
    const outcome = outcomeOf(match);
    if (match) return transferOf(match, txHash, outcome);
    const from = nativeOf(fromChain ?? 1) as SimAsset;
    const to = nativeOf(toChain ?? fromChain ?? 1) as SimAsset;
    const fromAmount = 10n ** BigInt(from.decimals);
    return {
      txHash,
      outcome,
      polls: 0,
      tool: bridge ?? 'across',
      from,
      to,
      fromAmount,
      toAmount: convertAtMarket(fromAmount, from, to),
      transactionId: `0x${fakeHex(`tid:${txHash}`)}`,
    };
  }

  function rememberOrder<R extends { steps: LifiStep[] }>(routes: R[]): R[] {
    for (const route of routes) {
      route.steps.forEach((step, index) => {
        const before = route.steps[index - 1];
        if (before) keep(previousStep, step.id, before.id, remembered);
      });
    }
    return routes;
  }

  function quoteRoutes(req: SimRequest): SimResponse {
    const parsed = routesRequestSchema.safeParse(req.body);
    if (!parsed.success) return invalid(`Invalid request: ${parsed.error.issues[0]?.message ?? 'bad body'}`);
    const r = parsed.data;
    const resolved = resolveTransfer(r);
    if (!resolved.ok) {
      return {
        status: 200,
        body: unavailable(
          r.fromChainId,
          r.fromTokenAddress,
          r.toChainId,
          r.toTokenAddress,
          resolved.code,
          resolved.message,
        ),
      };
    }
    return {
      status: 200,
      body: {
        routes: rememberOrder(routesFor(resolved.transfer, req.config.priceShiftBps)),
        unavailableRoutes: { filteredOut: [], failed: [] },
      },
    };
  }

  function stepTransaction(req: SimRequest): SimResponse {
    const parsed = lifiStepSchema.safeParse(req.body);
    if (!parsed.success) return invalid('Invalid step: the body is not a LI.FI step');
    const step = parsed.data;
    if (!step.action.fromAddress) return invalid('The step action needs a fromAddress to build a transaction');
    const before = previousStep.get(step.id);
    if (before && !settledSteps.has(before)) {
      return notProcessable(
        'The previous step of this route has not been executed yet: its transaction depends on what that step delivers',
      );
    }
    const from = findToken(step.action.fromChainId, step.action.fromToken.address);
    const to = findToken(step.action.toChainId, step.action.toToken.address);
    const tool = TOOLS[step.tool as keyof typeof TOOLS];
    if (!from || !to || !tool) return noQuotes;
    const refreshed = buildStep({
      from,
      to,
      fromAmount: BigInt(step.action.fromAmount),
      tool,
      slippage: step.action.slippage ?? DEFAULT_SLIPPAGE,
      fromAddress: step.action.fromAddress,
      toAddress: step.action.toAddress,
      collectFee: (step.includedSteps ?? []).some((inner) => inner.tool === FEE_COLLECTION.key),
      priceShiftBps: req.config.priceShiftBps,
    });
    const populated = populate({ ...step, estimate: refreshed.estimate }, from);
    remember(populated, from, to, populated.transactionId);
    return { status: 200, body: populated };
  }

  function quote(req: SimRequest): SimResponse {
    const q = req.url.searchParams;
    for (const name of ['fromChain', 'toChain', 'fromToken', 'toToken', 'fromAddress', 'fromAmount']) {
      if (!q.get(name)) return invalid(`Required parameter "${name}" is missing`);
    }
    const fromChainId = numeric(q.get('fromChain'));
    const toChainId = numeric(q.get('toChain'));
    if (fromChainId === undefined || toChainId === undefined) return invalid('fromChain and toChain must be chain ids');
    if (!/^[1-9]\d*$/.test(q.get('fromAmount') ?? '')) return invalid('fromAmount must be a positive integer');
    const slippage = Number(q.get('slippage') ?? DEFAULT_SLIPPAGE);
    const resolved = resolveTransfer({
      fromChainId,
      toChainId,
      fromAmount: q.get('fromAmount') as string,
      fromTokenAddress: q.get('fromToken') as string,
      toTokenAddress: q.get('toToken') as string,
      fromAddress: q.get('fromAddress') ?? undefined,
      toAddress: q.get('toAddress') ?? q.get('fromAddress') ?? undefined,
      options: { slippage: Number.isFinite(slippage) ? slippage : DEFAULT_SLIPPAGE },
    });
    if (!resolved.ok) return noQuotes;
    const { transfer } = resolved;
    const tool = lifiChainOf(transfer.from) === lifiChainOf(transfer.to) ? TOOLS['1inch'] : TOOLS.across;
    const step = buildStep({ ...transfer, tool, collectFee: true, priceShiftBps: req.config.priceShiftBps });
    const populated = populate(step, transfer.from);
    remember(populated, transfer.from, transfer.to, populated.transactionId);
    return { status: 200, body: populated };
  }

  function status(req: SimRequest): SimResponse {
    const q = req.url.searchParams;
    const txHash = q.get('txHash') ?? q.get('transactionId');
    if (!txHash) return invalid('Required parameter "txHash" is missing');
    const transfer =
      tracked.get(txHash) ??
      [...tracked.values()].find((t) => sameId(t.transactionId, txHash)) ??
      depositedTransfer(txHash, req);
    // Nothing on chain yet, or a hash LI.FI cannot tie to any transfer.
    if (!transfer) return { status: 200, body: { status: 'NOT_FOUND' } };
    if (transfer.invalidPolls) {
      transfer.invalidPolls -= 1;
      return { status: 200, body: { status: 'INVALID', substatusMessage: 'A third party service is not available.' } };
    }
    const bridge = q.get('bridge');
    if (bridge && bridge !== transfer.tool) {
      return {
        status: 200,
        body: { status: 'INVALID', substatusMessage: `The transaction is not tied to the requested tool ${bridge}.` },
      };
    }
    const stage = stageAt(STAGES[transfer.outcome], transfer.polls, req.config.settleAfterPolls);
    transfer.polls += 1;
    if (stage[0] === 'DONE' && stage[1] !== 'REFUNDED' && transfer.stepId)
      keep(settledSteps, transfer.stepId, true, remembered);
    return { status: 200, body: statusBody(transfer, stage) };
  }

  const routes: SimRoute[] = [
    {
      method: 'POST',
      pattern: /^\/v1\/advanced\/routes\/?$/,
      kind: 'quote',
      handle: quoteRoutes,
      noRoute: (req) => {
        const r = routesRequestSchema.safeParse(req.body);
        const { fromChainId, fromTokenAddress, toChainId, toTokenAddress } = r.success
          ? r.data
          : { fromChainId: 0, fromTokenAddress: '', toChainId: 0, toTokenAddress: '' };
        const message = 'No route was found for this action.';
        const body = unavailable(
          fromChainId,
          fromTokenAddress,
          toChainId,
          toTokenAddress,
          'NO_POSSIBLE_ROUTE',
          message,
        );
        return { status: 200, body };
      },
    },
    { method: 'POST', pattern: /^\/v1\/advanced\/stepTransaction\/?$/, kind: 'execute', handle: stepTransaction },
    { method: 'GET', pattern: /^\/v1\/quote\/?$/, kind: 'quote', handle: quote, noRoute: () => noQuotes },
    { method: 'GET', pattern: /^\/v1\/status\/?$/, kind: 'status', handle: status },
    { method: 'GET', pattern: /^\/v1\/tokens\/?$/, kind: 'quote', handle: tokens },
  ];

  const sim = await startSimulator('lifi', routes, {
    ...opts,
    outcomes: LIFI_OUTCOMES,
    onReset: () => {
      tracked.clear();
      built.length = 0;
      previousStep.clear();
      settledSteps.clear();
    },
    onDeposit: reportedDeposit,
  });

  async function register(req: IncomingMessage, res: ServerResponse) {
    const parsed = controlSchema.safeParse(await readJson(req));
    const reply = (code: number, body: unknown) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (!parsed.success)
      return reply(400, { message: 'expected {txHash, outcome?, fromChain?, toChain?, bridge?, ...}' });
    const c = parsed.data;
    const query = new URLSearchParams();
    if (c.fromChain !== undefined) query.set('fromChain', String(c.fromChain));
    if (c.toChain !== undefined) query.set('toChain', String(c.toChain));
    const observed = observe(c.txHash, query, () => c.outcome ?? sim.config.outcome, c.transactionId);
    const from = (c.fromChain !== undefined && c.fromToken && findToken(c.fromChain, c.fromToken)) || observed.from;
    const to = (c.toChain !== undefined && c.toToken && findToken(c.toChain, c.toToken)) || observed.to;
    const fromAmount = c.fromAmount ? BigInt(c.fromAmount) : observed.fromAmount;
    const transfer: Tracked = {
      ...observed,
      tool: c.bridge ?? observed.tool,
      from,
      to,
      fromAmount,
      toAmount:
        from === observed.from && to === observed.to && !c.fromAmount
          ? observed.toAmount
          : convertAtMarket(fromAmount, from, to),
      fromAddress: c.fromAddress ?? observed.fromAddress,
      toAddress: c.toAddress ?? observed.toAddress,
      transactionId: c.transactionId ?? observed.transactionId,
      ...(c.invalidPolls ? { invalidPolls: c.invalidPolls } : {}),
    };
    keep(tracked, c.txHash, transfer, remembered);
    return reply(201, { txHash: transfer.txHash, outcome: transfer.outcome, tool: transfer.tool });
  }

  // The kit answers every /__sim/* path itself, so the LI.FI control endpoint sits in front of it.
  const [kitListener] = sim.server.listeners('request') as RequestListener[];
  sim.server.removeAllListeners('request');
  sim.server.on('request', (req, res) => {
    if (req.method === 'POST' && req.url?.split('?')[0] === CONTROL_PATH) return void register(req, res);
    return kitListener?.(req, res);
  });
  return sim;
}
