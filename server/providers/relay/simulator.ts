import { createHash } from 'node:crypto';
import { base58 } from '@scure/base';
import { beginCell, Address as TonAddress } from '@ton/core';
import { encodeFunctionData, erc20Abi, getAddress, isAddress, parseAbi } from 'viem';
import { z } from 'zod';
import { keep } from '../../bounded-map';
import { formatAmount } from '../../catalog/amounts';
import {
  autoDepositDue,
  convertAtMarket,
  type DepositReport,
  endingFor,
  fakeHex,
  findSimAsset,
  type RunningSimulator,
  SIMULATOR_MEMORY,
  type SimAsset,
  type SimRequest,
  type SimResponse,
  type SimRoute,
  type SimulatorConfig,
  type SimulatorOptions,
  sameAddress,
  shiftedPrice,
  startSimulator,
  usdOf,
} from '../simulator-kit';
import { RELAY_OUTCOMES, type RelayOutcome, type Stage, stageAfterDeposit } from './sim-stages';
import { RELAY_CHAIN, RELAY_NATIVE_CURRENCY, type RelayVm } from './wire';

/**
 * A Relay API stand-in: `POST /quote/v2` (and the deprecated `/quote`), `GET /intents/status/v2` and `/v3`,
 * `GET /requests/v2`, `POST /transactions/index`. A request id exists from the moment a quote is made (as
 * upstream) and waits for its deposit: one indexed through `/transactions/index`, one the simulated chain
 * reports (`POST /__sim/deposits`), or its own once `autoDepositMs` has passed. Its stages are walked by the
 * status polls after that. Its ending is the one scripted for its recipient, else `config.outcome`, at quote
 * time, re-read when `/transactions/index` is what sees the deposit.
 */

const DEFAULT_SLIPPAGE_BPS = 50n;
const depositoryAbi = parseAbi([
  'function depositNative(address depositor, bytes32 id) payable',
  'function depositErc20(address depositor, address currency, uint256 amount, bytes32 id)',
]);

// Simulated contract and program addresses: deterministic, clearly not Relay's real deployments.
const EVM_DEPOSITORY = getAddress(`0x${fakeHex('relay-sim:evm-depository', 20)}`);
const TON_DEPOSITORY = new TonAddress(0, Buffer.from(fakeHex('relay-sim:ton-depository'), 'hex')).toString();
const SOLANA_DEPOSITORY_PROGRAM = base58.encode(Buffer.from(fakeHex('relay-sim:svm-program'), 'hex'));
const SOLANA_VAULT = base58.encode(Buffer.from(fakeHex('relay-sim:svm-vault'), 'hex'));
const SPL_TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const TON_DEPOSIT_OP = 0x2a4f_5e1d;
const JETTON_TRANSFER_OP = 0x0f8a7ea5;
const JETTON_GAS_NANOTONS = 50_000_000n;
const JETTON_FORWARD_NANOTONS = 10_000_000n;

interface SimRelayRequest {
  requestId: string;
  outcome: RelayOutcome;
  /** The stage last shown: `updatedAt` moves only when it changes. */
  shownStage?: Stage;
  /** Status polls answered since the deposit was seen. */
  pollsSinceDeposit: number;
  origin: SimAsset;
  destination: SimAsset;
  originVm: RelayVm;
  destinationVm: RelayVm;
  user: string;
  recipient: string;
  amountIn: bigint;
  amountOut: bigint;
  openedAt: number;
  updatedAt: number;
  /** The deposit's hash, once the deposit is seen. */
  inTxHash?: string;
}

const quoteBodySchema = z.object({
  user: z.string().min(1),
  originChainId: z.number().int(),
  destinationChainId: z.number().int(),
  originCurrency: z.string().min(1),
  destinationCurrency: z.string().min(1),
  amount: z.string().regex(/^\d+$/),
  tradeType: z.enum(['EXACT_INPUT', 'EXACT_OUTPUT', 'EXPECTED_OUTPUT']),
  recipient: z.string().min(1).optional(),
  slippageTolerance: z
    .string()
    .regex(/^([0-9]{1,4}|10000)$/)
    .optional(),
  refundTo: z.string().optional(),
  referrer: z.string().optional(),
});
type QuoteBody = z.infer<typeof quoteBodySchema>;

const indexBodySchema = z.object({
  chainId: z.union([z.string().regex(/^\d+$/), z.number().int()]),
  txHash: z.string().min(1),
  requestId: z.string().optional(),
});

const relayError = (status: number, errorCode: string, message: string): SimResponse => ({
  status,
  body: { message, errorCode },
});
const noRoute = () => relayError(400, 'NO_SWAP_ROUTES_FOUND', 'No swap routes found');

/** Relay's API runs on Fastify: schema failures come back in Fastify's validation shape. */
function validationError(error: z.ZodError, where: string): SimResponse {
  const issue = error.issues[0];
  const key = issue?.path.join('/') ?? '';
  const message =
    issue?.code === 'invalid_type' && issue.input === undefined
      ? `${where} must have required property '${key}'`
      : `${where}/${key} ${issue?.message ?? 'is invalid'}`;
  return { status: 400, body: { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message } };
}

function vmOfChain(relayChainId: number): RelayVm | undefined {
  if (relayChainId === RELAY_CHAIN.solana) return 'svm';
  if (relayChainId === RELAY_CHAIN.ton) return 'tonvm';
  if (relayChainId === RELAY_CHAIN.bitcoin) return 'bvm';
  return findSimAsset((a) => a.chainSeed.relayChainId === relayChainId && a.chainSeed.type === 'EVM')
    ? 'evm'
    : undefined;
}

function relayAddress(asset: SimAsset, vm: RelayVm): string {
  if (asset.isNative) return RELAY_NATIVE_CURRENCY[vm];
  return vm === 'evm' ? asset.address.toLowerCase() : asset.address;
}

function findCurrency(relayChainId: number, currency: string, vm: RelayVm): SimAsset | undefined {
  return findSimAsset((a) => {
    if (a.chainSeed.relayChainId !== relayChainId) return false;
    const id = relayAddress(a, vm);
    return vm === 'evm' ? sameAddress(id, currency) : id === currency;
  });
}

function validAddress(address: string, vm: RelayVm): boolean {
  try {
    if (vm === 'evm') return isAddress(address, { strict: false });
    if (vm === 'svm') return base58.decode(address).length === 32;
    if (vm === 'tonvm') return Boolean(TonAddress.parse(address));
    return /^(bc1[02-9ac-hj-np-z]{8,87}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/.test(address);
  } catch {
    return false;
  }
}

const PRICE_DECIMALS = 18;
function usdCentsToBase(cents: bigint, asset: SimAsset): bigint {
  const [whole, frac = ''] = asset.priceUsd.split('.');
  const price = BigInt(whole + frac.slice(0, PRICE_DECIMALS).padEnd(PRICE_DECIMALS, '0'));
  return (cents * 10n ** BigInt(asset.decimals + PRICE_DECIMALS)) / (100n * price);
}

function nativeOf(asset: SimAsset): SimAsset {
  return findSimAsset((a) => a.chain === asset.chain && a.isNative) ?? asset;
}

function currencyObject(asset: SimAsset, vm: RelayVm) {
  return {
    chainId: asset.chainSeed.relayChainId,
    address: relayAddress(asset, vm),
    symbol: asset.symbol,
    name: asset.name,
    decimals: asset.decimals,
    metadata: { logoURI: asset.image, verified: true, isNative: asset.isNative },
  };
}

function currencyAmount(asset: SimAsset, vm: RelayVm, amount: bigint, minimumAmount = amount) {
  return {
    currency: currencyObject(asset, vm),
    amount: amount.toString(),
    amountFormatted: formatAmount(amount, asset.decimals),
    amountUsd: usdOf(amount, asset),
    minimumAmount: minimumAmount.toString(),
  };
}

/** A transaction hash in the chain's own form. */
function chainHash(seed: string, vm: RelayVm): string {
  if (vm === 'evm') return `0x${fakeHex(seed)}`;
  if (vm === 'svm') return base58.encode(Buffer.from(fakeHex(seed, 64), 'hex'));
  return fakeHex(seed);
}

function operationOf(origin: SimAsset, destination: SimAsset): string {
  if (origin.chain === destination.chain) return 'swap';
  return origin.symbol === destination.symbol ? 'bridge' : 'swap';
}

function timeEstimateSeconds(origin: SimAsset): number {
  if (origin.chain === 'bitcoin') return 600;
  if (origin.chain === 'ethereum') return 24;
  if (origin.chain === 'ton') return 10;
  return origin.chain === 'solana' ? 4 : 6;
}

function rateOf(amountIn: bigint, origin: SimAsset, amountOut: bigint, destination: SimAsset): string {
  const rate = Number(formatAmount(amountOut, destination.decimals)) / Number(formatAmount(amountIn, origin.decimals));
  return String(rate);
}

const gasCents = (chain: string) => (chain === 'ethereum' ? 120n : chain === 'bitcoin' ? 150n : 2n);

function transactionStep(id: string, description: string, requestId: string, data: unknown, withCheck = true) {
  return {
    id,
    action: 'Confirm transaction in your wallet',
    description,
    kind: 'transaction',
    requestId,
    items: [
      {
        status: 'incomplete',
        data,
        ...(withCheck && { check: { endpoint: `/intents/status?requestId=${requestId}`, method: 'GET' } }),
      },
    ],
  };
}

function evmSteps(body: QuoteBody, req: SimRelayRequest, orderId: `0x${string}`) {
  const chainId = body.originChainId;
  const gasFields = { chainId, maxFeePerGas: '1500000000', maxPriorityFeePerGas: '1000000' };
  const user = body.user as `0x${string}`;
  const description = `Depositing funds to the relayer to execute the swap for ${req.destination.symbol}`;
  if (req.origin.isNative) {
    const data = encodeFunctionData({ abi: depositoryAbi, functionName: 'depositNative', args: [user, orderId] });
    const tx = {
      from: body.user,
      to: EVM_DEPOSITORY.toLowerCase(),
      data,
      value: req.amountIn.toString(),
      ...gasFields,
    };
    return [transactionStep('deposit', description, req.requestId, tx)];
  }
  const token = req.origin.address.toLowerCase() as `0x${string}`;
  const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [EVM_DEPOSITORY, req.amountIn] });
  const deposit = encodeFunctionData({
    abi: depositoryAbi,
    functionName: 'depositErc20',
    args: [user, token, req.amountIn, orderId],
  });
  return [
    transactionStep(
      'approve',
      `Sign an approval for ${req.origin.symbol}`,
      req.requestId,
      { from: body.user, to: token, data: approve, value: '0', ...gasFields },
      false,
    ),
    transactionStep('deposit', description, req.requestId, {
      from: body.user,
      to: EVM_DEPOSITORY.toLowerCase(),
      data: deposit,
      value: '0',
      ...gasFields,
    }),
  ];
}

/** A jetton wallet address can only be read on chain; the stand-in derives a stable one. */
function jettonWalletOf(owner: string, master: string): string {
  const hash = createHash('sha256').update(`${owner}:${master}`).digest();
  return new TonAddress(0, hash).toString();
}

function tonSteps(body: QuoteBody, req: SimRelayRequest, orderId: `0x${string}`) {
  const queryId = BigInt(`0x${orderId.slice(2, 18)}`);
  const description = `Depositing funds to the relayer to execute the swap for ${req.destination.symbol}`;
  if (req.origin.isNative) {
    const payload = beginCell().storeUint(TON_DEPOSIT_OP, 32).storeUint(queryId, 64).storeUint(BigInt(orderId), 256);
    const message = {
      to: TON_DEPOSITORY,
      value: req.amountIn.toString(),
      body: payload.endCell().toBoc().toString('base64'),
      bounce: false,
    };
    return [transactionStep('deposit', description, req.requestId, { messages: [message] })];
  }
  const transfer = beginCell()
    .storeUint(JETTON_TRANSFER_OP, 32)
    .storeUint(queryId, 64)
    .storeCoins(req.amountIn)
    .storeAddress(TonAddress.parse(TON_DEPOSITORY))
    .storeAddress(TonAddress.parse(body.user))
    .storeBit(false)
    .storeCoins(JETTON_FORWARD_NANOTONS)
    .storeBit(true)
    .storeRef(beginCell().storeUint(BigInt(orderId), 256).endCell())
    .endCell();
  const message = {
    to: jettonWalletOf(body.user, req.origin.address),
    value: JETTON_GAS_NANOTONS.toString(),
    body: transfer.toBoc().toString('base64'),
    bounce: true,
  };
  return [transactionStep('deposit', description, req.requestId, { messages: [message] })];
}

function solanaSteps(body: QuoteBody, req: SimRelayRequest, orderId: `0x${string}`) {
  const amount = Buffer.alloc(8);
  amount.writeBigUInt64LE(req.amountIn);
  const discriminator = fakeHex(req.origin.isNative ? 'relay-sim:deposit-native' : 'relay-sim:deposit-token', 8);
  const keys = [
    { pubkey: body.user, isSigner: true, isWritable: true },
    { pubkey: SOLANA_VAULT, isSigner: false, isWritable: true },
    ...(req.origin.isNative
      ? [{ pubkey: RELAY_NATIVE_CURRENCY.svm, isSigner: false, isWritable: false }]
      : [
          { pubkey: req.origin.address, isSigner: false, isWritable: false },
          { pubkey: SPL_TOKEN_PROGRAM, isSigner: false, isWritable: false },
        ]),
  ];
  const instruction = {
    keys,
    programId: SOLANA_DEPOSITORY_PROGRAM,
    data: `${discriminator}${amount.toString('hex')}${orderId.slice(2)}`,
  };
  const description = `Depositing funds to the relayer to execute the swap for ${req.destination.symbol}`;
  return [
    transactionStep('deposit', description, req.requestId, {
      instructions: [instruction],
      addressLookupTableAddresses: [],
    }),
  ];
}

function bitcoinSteps(req: SimRelayRequest) {
  const psbt = Buffer.concat([
    Buffer.from('70736274ff', 'hex'),
    Buffer.from(fakeHex(`psbt:${req.requestId}`, 64), 'hex'),
  ]);
  const description = `Depositing funds to the relayer to execute the swap for ${req.destination.symbol}`;
  return [transactionStep('deposit', description, req.requestId, { psbt: psbt.toString('base64') })];
}

function stepsFor(body: QuoteBody, req: SimRelayRequest) {
  const orderId = `0x${fakeHex(`relay-sim:order:${req.requestId}`)}` as const;
  if (req.originVm === 'evm') return evmSteps(body, req, orderId);
  if (req.originVm === 'tonvm') return tonSteps(body, req, orderId);
  if (req.originVm === 'svm') return solanaSteps(body, req, orderId);
  return bitcoinSteps(req);
}

/** Drops what Relay's OpenAPI marks optional (currency symbol, name, metadata, formatted and USD amounts). */
function withoutOptionalFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutOptionalFields);
  if (!value || typeof value !== 'object') return value;
  const dropped = new Set(['symbol', 'name', 'metadata', 'amountFormatted', 'amountUsd', 'totalImpact', 'swapImpact']);
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !dropped.has(key))
      .map(([key, inner]) => [key, withoutOptionalFields(inner)]),
  );
}

export async function startRelaySimulator(
  opts: SimulatorOptions & { omitOptionalFields?: boolean } = {},
): Promise<RunningSimulator> {
  const requests = new Map<string, SimRelayRequest>();
  /** Deposit hash (lowercased) → the request it paid. */
  const depositors = new Map<string, string>();
  const remembered = opts.remember ?? SIMULATOR_MEMORY;
  let counter = 0;

  function remember(req: SimRelayRequest) {
    keep(requests, req.requestId, req, remembered);
  }

  function quote(sim: SimRequest): SimResponse {
    const { body: raw, config } = sim;
    const parsed = quoteBodySchema.safeParse(raw);
    if (!parsed.success) return validationError(parsed.error, 'body');
    const body = parsed.data;
    if (body.tradeType !== 'EXACT_INPUT') {
      return relayError(400, 'UNSUPPORTED_EXECUTION_TYPE', 'The simulator only quotes EXACT_INPUT');
    }
    const originVm = vmOfChain(body.originChainId);
    const destinationVm = vmOfChain(body.destinationChainId);
    if (!originVm || !destinationVm) return relayError(400, 'UNSUPPORTED_CHAIN', 'Unsupported chain');
    const recipient = body.recipient ?? body.user;
    if (!validAddress(body.user, originVm)) {
      return relayError(400, 'INVALID_ADDRESS', `Invalid address ${body.user} for chain ${body.originChainId}`);
    }
    if (!validAddress(recipient, destinationVm)) {
      return relayError(400, 'INVALID_RECIPIENT', `Invalid address ${recipient} for chain ${body.destinationChainId}`);
    }
    const origin = findCurrency(body.originChainId, body.originCurrency, originVm);
    const destination = findCurrency(body.destinationChainId, body.destinationCurrency, destinationVm);
    if (!origin || !destination || origin === destination) return noRoute();

    const amountIn = BigInt(body.amount);
    const relayerService = (amountIn * 5n) / 10_000n + usdCentsToBase(2n, origin);
    const relayerGas = usdCentsToBase(gasCents(destination.chain) / 2n + 1n, origin);
    const relayer = relayerService + relayerGas;
    if (amountIn <= relayer) return relayError(400, 'AMOUNT_TOO_LOW', 'Amount is too low to cover fees');
    const operation = operationOf(origin, destination);
    const atMarket = convertAtMarket(amountIn - relayer, origin, destination, operation === 'bridge' ? 0 : 30);
    const amountOut = shiftedPrice(atMarket, config);
    if (amountOut <= 0n) return relayError(400, 'AMOUNT_TOO_LOW', 'Amount is too low to cover fees');
    const slippageBps = body.slippageTolerance ? BigInt(body.slippageTolerance) : DEFAULT_SLIPPAGE_BPS;
    const minimumOut = (amountOut * (10_000n - slippageBps)) / 10_000n;

    counter += 1;
    const now = Date.now();
    const req: SimRelayRequest = {
      requestId: `0x${fakeHex(`relay-sim:request:${counter}`)}`,
      outcome: endingFor(sim, RELAY_OUTCOMES, recipient),
      pollsSinceDeposit: 0,
      origin,
      destination,
      originVm,
      destinationVm,
      user: body.user,
      recipient,
      amountIn,
      amountOut,
      openedAt: now,
      updatedAt: now,
    };
    remember(req);

    const originNative = nativeOf(origin);
    const gas = usdCentsToBase(gasCents(origin.chain), originNative);
    const inUsd = Number(usdOf(amountIn, origin));
    const outUsd = Number(usdOf(amountOut, destination));
    const impactUsd = (outUsd - inUsd).toFixed(2);
    const impactPercent = inUsd > 0 ? (((outUsd - inUsd) / inUsd) * 100).toFixed(2) : '0';
    const slippageUsd = usdOf(amountOut - minimumOut, destination);
    return {
      status: 200,
      body: {
        steps: stepsFor(body, req),
        fees: {
          gas: currencyAmount(originNative, originVm, gas),
          relayer: currencyAmount(origin, originVm, relayer),
          relayerGas: currencyAmount(origin, originVm, relayerGas),
          relayerService: currencyAmount(origin, originVm, relayerService),
          app: currencyAmount(origin, originVm, 0n),
        },
        details: {
          operation,
          sender: body.user,
          recipient,
          currencyIn: currencyAmount(origin, originVm, amountIn),
          currencyOut: currencyAmount(destination, destinationVm, amountOut, minimumOut),
          totalImpact: { usd: impactUsd, percent: impactPercent },
          swapImpact: { usd: '0', percent: '0' },
          rate: rateOf(amountIn, origin, amountOut, destination),
          slippageTolerance: {
            origin: { usd: '0', value: '0', percent: '0' },
            destination: {
              usd: slippageUsd,
              value: (amountOut - minimumOut).toString(),
              percent: (Number(slippageBps) / 100).toString(),
            },
          },
          timeEstimate: timeEstimateSeconds(origin),
          userBalance: '0',
        },
      },
    };
  }

  /** One chain transaction is one request's deposit: its calldata names that request alone. */
  const depositOfAnother = (req: SimRelayRequest, hash: string) => {
    const owner = depositors.get(hash.toLowerCase());
    return owner !== undefined && owner !== req.requestId;
  };

  function deposit(req: SimRelayRequest, hash: string) {
    keep(depositors, hash.toLowerCase(), req.requestId, remembered);
    req.inTxHash = hash;
    req.pollsSinceDeposit = 0;
    req.updatedAt = Date.now();
  }

  /** A status read: a request still waiting deposits by itself once its auto deposit is due. */
  function depositIfDue(req: SimRelayRequest, config: SimulatorConfig): SimRelayRequest {
    if (!req.inTxHash && autoDepositDue(req.openedAt, config)) {
      deposit(req, chainHash(`relay-sim:in:${req.requestId}`, req.originVm));
    }
    return req;
  }

  function stageOf(req: SimRelayRequest, settleAfterPolls: number): Stage {
    if (!req.inTxHash) return 'waiting';
    return stageAfterDeposit(req.outcome, req.pollsSinceDeposit, settleAfterPolls);
  }

  function hashesAt(req: SimRelayRequest, stage: Stage) {
    const inTxHashes = req.inTxHash ? [req.inTxHash] : [];
    let txHashes: string[] = [];
    if (stage === 'submitted' || stage === 'success') {
      txHashes = [chainHash(`relay-sim:fill:${req.requestId}`, req.destinationVm)];
    } else if (stage === 'refund') {
      txHashes = [chainHash(`relay-sim:refund:${req.requestId}`, req.originVm)];
    }
    return { inTxHashes, txHashes };
  }

  const notFound = (): SimResponse => ({ status: 404, body: { message: 'Request not found' } });

  function intentStatus(version: 'v2' | 'v3') {
    return ({ url, config }: SimRequest): SimResponse => {
      const known = requests.get(url.searchParams.get('requestId') ?? '');
      if (!known) return notFound();
      const req = depositIfDue(known, config);
      const stage = stageOf(req, config.settleAfterPolls);
      if (req.inTxHash) req.pollsSinceDeposit += 1;
      if (stage !== req.shownStage) {
        req.shownStage = stage;
        req.updatedAt = Date.now();
      }
      const shown = version === 'v2' && stage === 'submitted' ? 'pending' : stage;
      const unixSeconds = Math.floor(req.updatedAt / 1000);
      return {
        status: 200,
        body: {
          status: shown,
          details: '',
          ...hashesAt(req, stage),
          ...(version === 'v2' ? { time: unixSeconds } : { updatedAt: unixSeconds }),
          originChainId: req.origin.chainSeed.relayChainId,
          destinationChainId: req.destination.chainSeed.relayChainId,
          quoteCreatedAt: Math.floor(req.openedAt / 1000),
        },
      };
    };
  }

  function requestRecord(req: SimRelayRequest, settleAfterPolls: number) {
    const stage = stageOf(req, settleAfterPolls);
    const { inTxHashes, txHashes } = hashesAt(req, stage);
    const state = stage === 'submitted' ? 'pending' : stage;
    const timestamp = Math.floor(req.updatedAt / 1000);
    return {
      id: req.requestId,
      status: state,
      user: req.user,
      recipient: req.recipient,
      data: {
        inTxs: inTxHashes.map((hash) => ({
          hash,
          chainId: req.origin.chainSeed.relayChainId,
          type: 'onchain',
          timestamp,
        })),
        outTxs: txHashes.map((hash) => ({
          hash,
          chainId: (stage === 'refund' ? req.origin : req.destination).chainSeed.relayChainId,
          type: 'onchain',
          timestamp,
        })),
        currency: req.origin.symbol.toLowerCase(),
        metadata: {
          sender: req.user,
          recipient: req.recipient,
          currencyIn: currencyAmount(req.origin, req.originVm, req.amountIn),
          currencyOut: currencyAmount(req.destination, req.destinationVm, req.amountOut),
        },
        failReason: stage === 'failure' ? 'EXECUTION_REVERTED' : 'N/A',
        refundFailReason: 'N/A',
      },
      createdAt: new Date(req.openedAt).toISOString(),
      updatedAt: new Date(req.updatedAt).toISOString(),
    };
  }

  function listRequests({ url, config }: SimRequest): SimResponse {
    const id = url.searchParams.get('id');
    const hash = url.searchParams.get('hash')?.toLowerCase();
    const byId = id ? requests.get(id) : undefined;
    const candidates = id ? (byId ? [byId] : []) : hash ? [...requests.values()] : [];
    const matches = candidates
      .map((req) => depositIfDue(req, config))
      .filter((req) => {
        if (id) return true;
        const { inTxHashes, txHashes } = hashesAt(req, stageOf(req, config.settleAfterPolls));
        return [...inTxHashes, ...txHashes].some((h) => h.toLowerCase() === hash);
      });
    return { status: 200, body: { requests: matches.map((req) => requestRecord(req, config.settleAfterPolls)) } };
  }

  /**
   * Without a request id (as the SDK sends it) only a deposit already seen can be matched: the simulator
   * has no chain to read the transaction from. A request that has its deposit takes no other, and no
   * request takes another's deposit.
   */
  function indexTransaction(sim: SimRequest): SimResponse {
    const parsed = indexBodySchema.safeParse(sim.body);
    if (!parsed.success) return validationError(parsed.error, 'body');
    const { txHash, requestId } = parsed.data;
    const sameHash = (r: SimRelayRequest) => r.inTxHash?.toLowerCase() === txHash.toLowerCase();
    const req = requestId ? requests.get(requestId) : [...requests.values()].find(sameHash);
    if (!req) return { status: 404, body: { message: requestId ? 'Request not found' : 'Transaction not found' } };
    if ((req.inTxHash && !sameHash(req)) || (!req.inTxHash && depositOfAnother(req, txHash))) {
      return { status: 404, body: { message: 'Transaction not found' } };
    }
    if (!req.inTxHash) {
      deposit(req, txHash);
      req.outcome = endingFor(sim, RELAY_OUTCOMES, req.recipient);
    }
    return { status: 200, body: { message: 'Success' } };
  }

  function reportedDeposit({ hash, context }: DepositReport): boolean {
    const req = typeof context.requestId === 'string' ? requests.get(context.requestId) : undefined;
    if (!req || req.inTxHash || depositOfAnother(req, hash)) return false;
    deposit(req, hash);
    return true;
  }

  const routes: SimRoute[] = [
    {
      method: 'POST',
      pattern: /^\/quote(\/v2)?$/,
      kind: 'quote',
      handle: (req) => {
        const answer = quote(req);
        return opts.omitOptionalFields && answer.status === 200
          ? { ...answer, body: withoutOptionalFields(answer.body) }
          : answer;
      },
      noRoute,
    },
    { method: 'GET', pattern: /^\/intents\/status\/v2$/, kind: 'status', handle: intentStatus('v2') },
    { method: 'GET', pattern: /^\/intents\/status\/v3$/, kind: 'status', handle: intentStatus('v3') },
    { method: 'GET', pattern: /^\/requests\/v2$/, kind: 'status', handle: listRequests },
    // The one side-effecting call after the wallet signs: the deposit notification.
    { method: 'POST', pattern: /^\/transactions\/index$/, kind: 'execute', handle: indexTransaction },
  ];

  return startSimulator('relay', routes, {
    ...opts,
    outcomes: RELAY_OUTCOMES,
    onReset: () => {
      requests.clear();
      depositors.clear();
    },
    onDeposit: reportedDeposit,
  });
}
