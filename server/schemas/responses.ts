import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../errors';
import { SUBSTATUSES } from '../providers/types';
import { TX_STATUSES } from '../transactions/statuses';
import { TIMELINE_SOURCES, TIMELINE_TYPES } from '../transactions/timeline';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/schemas';
import { assetSchema, chainSchema, sourceSchema } from './catalog';

/**
 * Response bodies of both interfaces. Every documented field is required with its
 * type; objects the spec calls provider-specific (routes, quotes, exec, providerResult) stay open to
 * additional fields, the rest are closed so a leaked field fails the contract tests.
 */
const open = <T extends z.core.$ZodLooseShape>(shape: T, description?: string) =>
  z.object(shape).meta({ additionalProperties: true, ...(description ? { description } : {}) });

const timestamp = z.iso.datetime().describe('ISO 8601 timestamp');

export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];
export const errorCodeSchema = z.enum(ERROR_CODES);

// ---- Catalog (v1 lists)

export const paginationSchema = z.object({
  page: z.number().int().min(1),
  perPage: z.number().int().min(1),
  total: z.number().int().min(0),
  hasMore: z.boolean(),
});

const v1List = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), pagination: paginationSchema });

export const chainListV1Response = v1List(chainSchema);
export const assetListV1Response = v1List(assetSchema);
export const sourceListV1Response = v1List(sourceSchema);

// ---- Routes, locks and fees

export const amountDisplaySchema = z.object({
  formatted: z.string(),
  currency: z.string(),
  usd: z.string().describe('USD value; empty when the asset has no price'),
  amount: z.string().describe('Exact amount in the asset’s own units'),
});

export const feeItemSchema = open(
  {
    label: z.string(),
    type: z.string().describe('network, gas, bridge, relayer, provider, liquidity, affiliate or other'),
    amount: z.string(),
    amountUsd: z.number().nullable(),
    currency: z.string(),
  },
  'One fee line item; providers may add fields.',
);

/** One type wherever a fee carries USD: quote, lock, execute, status and history. */
const feeUsd = z.number().nullable().describe('Estimated fee in USD; null when it cannot be priced');

export const feeSchema = open(
  {
    usd: feeUsd,
    formatted: z.string().nullable(),
    currency: z.string().nullable(),
    details: z.array(feeItemSchema),
  },
  'Fee object with the display fields (quote, lock, execute).',
);

export const feeBreakdownSchema = open({
  total: open({ usd: feeUsd, formatted: z.string().nullable(), currency: z.string().nullable() }),
  items: z.array(feeItemSchema),
});

export const routeStepSchema = z.object({
  type: z.string().describe('swap, bridge, deposit, approve or send'),
  name: z.string(),
  image: z.string(),
});

export const observedTimeSchema = z
  .object({
    p50Seconds: z.number().int().min(0).describe('Half of the swaps on this route finished within this, from execute'),
    p90Seconds: z.number().int().min(0).describe('Nine in ten finished within this'),
    samples: z.number().int().min(0).describe('Settled swaps on the route in the window (default 30 days)'),
    source: z
      .enum(['observed', 'provider'])
      .describe(
        "`observed`: our own settled swaps on this route; `provider`: too few of them, the provider's estimate (both figures) instead",
      ),
  })
  .nullable()
  .describe('How long this route usually takes; null when neither our swaps nor the provider say');

const routeShape = {
  provider: z.string().describe('Provider key; pass it as `provider` on lock'),
  routeId: z.string().describe('Pass it as `routeId` on lock'),
  src: amountDisplaySchema,
  dst: amountDisplaySchema,
  fee: feeSchema,
  feeBreakdown: feeBreakdownSchema,
  estimatedTime: z.number().describe('Seconds'),
  observedTime: observedTimeSchema,
  steps: z.array(routeStepSchema),
  minimumReceived: z.string().optional().describe('Minimum destination amount after slippage'),
  expiresAt: timestamp.optional(),
  exec: z.never().optional().describe('Never present: routes carry no execution payload'),
};

export const routeSchema = open(routeShape, 'One quote route; providers may add fields.');
export const quoteV1Response = z.object({ data: z.array(routeSchema) });

export const lockedQuoteSchema = open(
  {
    ...routeShape,
    lockId: z.string().describe('Pass it as `lockId` on execute'),
    expiresAt: timestamp.describe('When the lock stops being executable'),
    ttlMs: z.number().int().min(0),
  },
  'The locked route, refreshed at lock; no execution payload.',
);
export const lockV1Response = z.object({ data: lockedQuoteSchema });

// ---- Execute

export const execSchema = open(
  {
    chainId: z.number().int().nullable(),
    providerTarget: z.string().describe('Contract, deposit or provider target address of the wallet call'),
    providerCalldata: z.string().optional().describe('Hex calldata for EVM execution'),
    value: z.string().optional().describe('Native value to send, in base units'),
    srcToken: z.string().describe('Source token address or `native`'),
    srcAmount: z.string().describe('Base units'),
    approvalTarget: z.string().optional(),
    approvalToken: z.string().optional(),
    approvalAmount: z.string().optional(),
    allSteps: z
      .array(z.record(z.string(), z.unknown()))
      .optional()
      .describe('Ordered provider steps, executed in order'),
    meta: open({
      providerQuoteId: z.string().optional(),
      selectedQuoteId: z.string().optional(),
      executionMode: z
        .string()
        .describe('evm-calldata, deposit-address, deposit-channel, ton-messages or solana-instructions'),
      walletExecution: z.boolean(),
      depositAddress: z.string().optional(),
      depositMemo: z.string().optional(),
      channelId: z.string().optional(),
      expiresAt: timestamp.optional(),
    }),
  },
  'Wallet execution data; not provider tracking state.',
);

export const providerResultSchema = open(
  {
    txHash: z.string().optional(),
    status: z.string().describe('AWAITING_WALLET, AWAITING_DEPOSIT or SUBMITTED'),
    requestId: z.string().optional(),
    channelId: z.string().optional(),
    depositAddress: z.string().optional(),
    depositMemo: z.string().optional(),
    execution: z.string().describe('The execution mode, as in `exec.meta.executionMode`'),
  },
  'Provider-specific; never sent back to tracking.',
);

export const quoteSnapshotSchema = open(
  {
    src: amountDisplaySchema,
    dst: amountDisplaySchema,
    steps: z.array(routeStepSchema),
    fee: feeSchema,
    feeBreakdown: feeBreakdownSchema,
    estimatedTime: z.number(),
    minimumReceived: z
      .string()
      .optional()
      .describe('The minimum the execution payload enforces on chain; never below the locked one'),
  },
  'The route snapshot stored at lock; dst, fee and minimumReceived are what the execution payload carries.',
);

export const executeResultSchema = open({
  provider: z.string(),
  lockId: z.string(),
  providerResult: providerResultSchema,
  quote: quoteSnapshotSchema,
  fee: feeSchema,
  exec: execSchema.optional().describe('Present when the route needs a wallet action or exposes execution metadata'),
  transaction: z.object({
    id: z.string().describe('Public transaction ID for status and track'),
    status: z.enum(TX_STATUSES),
  }),
});
export const executeV1Response = z.object({ data: executeResultSchema });

// ---- Transactions

export const transactionAssetSchema = z.object({
  id: z.number().int().nullable(),
  symbol: z.string().nullable(),
  contract: z.string().nullable().describe('Null for native assets'),
  image: z.string().nullable(),
  chain: z.string().nullable(),
});

export const recordedFeeItemSchema = open(
  { label: z.string().optional(), amountUsd: z.number().nullable().optional(), currency: z.string().optional() },
  'Provider-specific fee detail; commonly carries label, amountUsd and currency.',
);

export const recordedFeeSchema = z
  .object({
    usd: feeUsd,
    formatted: z.string().nullable(),
    amount: z.string().nullable(),
    amountUsd: z.number().nullable(),
    currency: z.string().nullable(),
    details: z
      .union([z.array(recordedFeeItemSchema), z.record(z.string(), z.unknown())])
      .nullable()
      .describe('Provider-specific; shape varies'),
  })
  .describe('Fee object with the recorded fields (status, history).');

export type RecordedFeeDetails = z.output<typeof recordedFeeSchema>['details'];

/** A hash not known yet is the empty string, never null or absent, in every transaction answer. */
const hashField = (what: string) => z.string().describe(`${what}; empty until known`);

export const substatusSchema = z
  .enum(SUBSTATUSES)
  .nullable()
  .describe('Why the swap is where it is (see the README mapping); null until anything reported progress');

export const explorerUrlsSchema = z
  .object({
    inbound: z.string().optional().describe('The source (inbound) transaction on its chain explorer'),
    outbound: z
      .string()
      .optional()
      .describe('The payout on the destination chain explorer; a refund on the source chain explorer'),
    provider: z.string().optional().describe("The provider's own tracker page"),
  })
  .describe('Links present only once their transaction (or tracker id) is known');

const refundSchema = z.object({
  amount: z.string().nullable().describe('Returned, in the source asset; null until the provider reports it'),
  kept: z
    .string()
    .nullable()
    .describe('What the refund cost: the source amount less what was returned; null until that is known'),
  to: z.string().describe('The wallet the refund goes to: the source wallet'),
  chain: z.string().describe('The chain key it lands on: the source chain unless the provider names another'),
  hash: hashField('The refund transaction, on the source chain'),
  feeReported: z.boolean().describe('Whether the provider reported the refund’s fee lines, which `fee` then holds'),
});
/** A transaction's `refund`, as the status answer and support's detail carry it. */
export type TransactionRefund = z.infer<typeof refundSchema>;

const transactionShape = {
  id: z.string(),
  hash: hashField('The source hash the swap is tracked by'),
  inboundHash: hashField('The inbound (deposit) hash'),
  outboundHash: hashField('The destination-chain hash'),
  provider: z.string(),
  status: z.enum(TX_STATUSES),
  substatus: substatusSchema,
  reason: z
    .string()
    .nullable()
    .describe(
      "Why the provider refunds or failed the swap, in its words (a rejected deposit's reason); null when it gave none",
    ),
  srcAmount: z.string(),
  dstAmount: z
    .string()
    .describe(
      'What the swap delivers: quoted until the provider reports the amount it settled on; unchanged by a refund',
    ),
  quotedDstAmount: z
    .string()
    .nullable()
    .describe('The amount quoted, when the provider settled on another `dstAmount`; null otherwise'),
  refund: refundSchema.nullable().describe('The deposit going back to the sender instead of a swap; null otherwise'),
  walletAddress: z.string(),
  recipientWalletAddress: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
  fee: recordedFeeSchema,
  srcAsset: transactionAssetSchema,
  dstAsset: transactionAssetSchema,
  explorerUrls: explorerUrlsSchema,
};

export const transactionSchema = z.object(transactionShape);
const { updatedAt: _updatedAt, ...historyShape } = transactionShape;
export const historyItemSchema = z.object({ ...historyShape, amountUsd: z.number() });

export const transactionStatusSchema = z.object({
  transaction: transactionSchema,
  final: z.boolean().describe('True for SUCCESS, FAILED and REFUND'),
  expectedBy: timestamp
    .nullable()
    .describe(
      "When a pending swap is usually done: its start (or its deposit being seen) plus its route's p90; past it the swap is taking longer than usual. Null once final, or when the route has no times",
    ),
});
export const statusV1Response = z.object({ data: transactionStatusSchema });

export const webhookEventSchema = z.object({
  type: z
    .enum(WEBHOOK_EVENT_TYPES)
    .describe(
      "`transaction.final` for SUCCESS, FAILED and REFUND; `transaction.status_changed` for other changes; `transaction.late` (to endpoints that opted in) once a pending swap is past its route's p90 × LATE_FACTOR",
    ),
  timestamp: timestamp.describe('When the change happened'),
  data: transactionSchema.describe('The object the status endpoint returns as `data.transaction`'),
});

export const trackResultSchema = z.object({
  transaction: z.object({
    id: z.string(),
    hash: hashField('The source hash the swap is tracked by'),
    inboundHash: hashField('The inbound (deposit) hash'),
    provider: z.string(),
    status: z.enum(TX_STATUSES),
  }),
  final: z.boolean(),
  tracking: z.boolean().describe('True when the provider is being polled for this transaction'),
});
export const trackV1Response = z.object({ data: trackResultSchema });

export const historyV1Response = z.object({
  data: z.array(historyItemSchema),
  pagination: paginationSchema.extend({
    nextCursor: z
      .string()
      .nullable()
      .describe('Pass as `cursor` for the rows after this page (keyset); null when nothing follows'),
  }),
});

export const timelineEventSchema = z.object({
  id: z.number().int().describe('Increases with time; unique per event'),
  at: timestamp,
  source: z.enum(TIMELINE_SOURCES).describe('What recorded the step'),
  type: z.enum(TIMELINE_TYPES).describe('What happened'),
  status: z.enum(TX_STATUSES).describe('The status after this step'),
  substatus: substatusSchema,
  hash: hashField('The hash the swap was tracked by after this step'),
  inboundHash: hashField('The inbound (deposit) hash after this step'),
  outboundHash: hashField('The destination-chain hash after this step'),
});
export const transactionExecutionSchema = z.object({
  outstanding: z.boolean().describe('True while the swap is pending and no source transaction is known yet'),
  execution: executeResultSchema
    .nullable()
    .describe('What execute answered: deposit details or the wallet call; null for swaps executed before it was kept'),
});
export const executionV1Response = z.object({ data: transactionExecutionSchema });

export const eventsV1Response = z.object({ data: z.array(timelineEventSchema).describe('Oldest first') });

// ---- Legacy interface

const legacyPage = { page: z.number().int(), perPage: z.number().int(), total: z.number().int() };

export const chainListLegacyResponse = z.object({ chains: z.array(chainSchema), ...legacyPage });
export const assetListLegacyResponse = z.object({ assets: z.array(assetSchema), ...legacyPage });
export const sourceListLegacyResponse = z.object({ sources: z.array(sourceSchema), ...legacyPage });

const { provider: _p, routeId: _r, fee: _f, exec: _e, ...legacyQuoteShape } = routeShape;

export const legacyQuoteSchema = z.object({
  provider: z.string(),
  quoteId: z.string().describe('The route ID'),
  quote: open({ routeId: z.string(), ...legacyQuoteShape }, 'Provider-specific route details.'),
  fee: feeSchema,
  exec: z.null().describe('Always null: execution data only exists after execute'),
});
export const quoteLegacyResponse = z.array(legacyQuoteSchema);

export const lockLegacyResponse = open(
  {
    provider: z.string(),
    quoteId: z.string().describe('The locked ID; pass it as `quoteId` on execute'),
    quote: open({ routeId: z.string(), ...legacyQuoteShape, fee: feeSchema }, 'Provider-specific route details.'),
    exec: z.null(),
    expiresAt: timestamp,
    ttlMs: z.number().int().min(0),
  },
  'The locked quote; routes may add transaction, approval or deposit data.',
);

export const executeLegacyResponse = open({
  provider: z.string(),
  providerResult: providerResultSchema,
  quote: quoteSnapshotSchema,
  exec: execSchema.nullable(),
  transaction: z.object({
    transaction: z.object({ id: z.string(), status: z.enum(TX_STATUSES) }),
  }),
});

export const historyLegacyResponse = z.object({ items: z.array(historyItemSchema), ...legacyPage });

// ---- Errors

export const problemSchema = z.object({ code: errorCodeSchema, field: z.string(), message: z.string() });

export const v1ErrorSchema = z.object({
  error: z.object({
    code: errorCodeSchema.describe('Branch on this; see the codes listed for each status'),
    message: z.string().min(1).describe('Human-facing; may change'),
    field: z.string().describe('The first offending field, or empty'),
    requestId: z.string().regex(/^req_/).describe('Matches the X-Request-Id header'),
    details: z.object({ errors: z.array(problemSchema).min(1) }),
  }),
});

export const legacyErrorSchema = z.object({ error: z.object({ code: errorCodeSchema, message: z.string() }) });

// ---- Referral codes

export const referralStatusSchema = z.object({
  code: z.string().describe('The code in its registered spelling, or as given when it is not registered'),
  active: z.boolean().describe('True when lock and execute would attribute a swap to this code now'),
});
export const referralV1Response = z.object({ data: referralStatusSchema });

// ---- Operational endpoints

export const livenessResponse = z.object({ status: z.literal('ok') });

const dependencyCheck = z.object({
  ok: z.boolean(),
  latencyMs: z.number(),
  error: z.enum(['timeout', 'unreachable']).optional(),
});

export const readinessResponse = z.object({
  status: z.enum(['ready', 'unavailable']),
  ok: z.boolean(),
  checks: z.object({
    postgres: dependencyCheck,
    redis: dependencyCheck,
    /** Present with a read replica (DATABASE_READ_URL): whether it takes reads; it does not decide `ok`. */
    replica: z
      .object({
        ok: z.boolean(),
        latencyMs: z.number(),
        lagSeconds: z.number().nullable(),
        error: z.enum(['lagging', 'unreachable']).optional(),
      })
      .optional(),
  }),
});

export const openApiDocumentResponse = open(
  {
    openapi: z.literal('3.1.0'),
    info: open({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  },
  'This OpenAPI 3.1 document.',
);
