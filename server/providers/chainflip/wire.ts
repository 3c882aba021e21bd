import { z } from 'zod';

export const CHANNEL_ID = /^(\d+)-([a-z]+)-(\d+)$/i;

const baseUnits = z.string().regex(/^\d+$/);
const plainDecimal = z.string().regex(/^\d+(\.\d+)?$/);

export const assetAndChainSchema = z.object({ asset: z.string().min(1), chain: z.string().min(1) });

/** `{type, chain, asset, amount}` as in `includedFees` (quote) and `fees` (status). */
export const feeSchema = z.looseObject({
  type: z.string(),
  chain: z.string(),
  asset: z.string(),
  amount: baseUnits,
});
export type WireFee = z.infer<typeof feeSchema>;

export const dcaParamsSchema = z.object({
  numberOfChunks: z.number().int().positive(),
  chunkIntervalBlocks: z.number().int().nonnegative(),
});

/** One element of the `GET /v2/quote` array (`RegularQuote | DCAQuote`). */
export const quoteSchema = z.looseObject({
  type: z.string(),
  srcAsset: assetAndChainSchema,
  destAsset: assetAndChainSchema,
  depositAmount: baseUnits,
  intermediateAmount: baseUnits.optional(),
  egressAmount: baseUnits,
  includedFees: z.array(feeSchema),
  poolInfo: z
    .array(z.looseObject({ fee: z.looseObject({ chain: z.string(), asset: z.string(), amount: baseUnits }) }))
    .optional(),
  estimatedDurationSeconds: z.number().nonnegative(),
  estimatedPrice: plainDecimal,
  recommendedSlippageTolerancePercent: z.number().nonnegative().optional(),
  recommendedLivePriceSlippageTolerancePercent: z.number().nonnegative().nullish(),
  dcaParams: dcaParamsSchema.optional(),
});
export type WireQuote = z.infer<typeof quoteSchema>;

export const quoteResponseSchema = z.array(quoteSchema);

/** Error bodies of the swap backend (`ServiceError.toJSON()`). */
export const errorBodySchema = z.looseObject({ message: z.string() });

/** `POST /api/openSwapDepositChannel` body, as `getOpenSwapDepositChannelSchema` accepts it. */
export const openSwapDepositChannelBodySchema = z.object({
  srcAsset: assetAndChainSchema,
  destAsset: assetAndChainSchema,
  destAddress: z.string().min(1),
  amount: baseUnits,
  maxBoostFeeBps: z.number().int().nonnegative().optional(),
  srcAddress: z.string().optional(),
  fillOrKillParams: z.object({
    retryDurationBlocks: z.number().int().nonnegative(),
    refundAddress: z.string().min(1),
    minPriceX128: baseUnits,
    maxOraclePriceSlippage: z.number().int().min(0).max(10_000).nullish(),
  }),
  dcaParams: dcaParamsSchema.optional(),
  quote: z
    .object({
      intermediateAmount: z.string().optional(),
      egressAmount: z.string(),
      estimatedPrice: z.string(),
      recommendedSlippageTolerancePercent: z.number().optional(),
      recommendedLivePriceSlippageTolerancePercent: z.number().optional(),
    })
    .optional(),
  takeCommission: z.boolean().optional(),
});
export type OpenSwapDepositChannelBody = z.infer<typeof openSwapDepositChannelBodySchema>;

/** `DepositChannelInfo`, the 201 answer to opening a channel. */
export const depositChannelInfoSchema = z.looseObject({
  id: z.string().regex(CHANNEL_ID),
  depositAddress: z.string().min(1),
  brokerCommissionBps: z.number(),
  maxBoostFeeBps: z.number(),
  issuedBlock: z.number().int(),
  srcChainExpiryBlock: z.string(),
  estimatedExpiryTime: z.number().optional(),
  channelOpeningFee: z.string(),
});

const failureSchema = z.looseObject({
  failedAt: z.number().optional(),
  mode: z.string().optional(),
  reason: z.looseObject({ name: z.string().optional(), message: z.string().optional() }).optional(),
});

const egressSchema = z.looseObject({
  amount: baseUnits.optional(),
  scheduledAt: z.number().optional(),
  txRef: z.string().optional(),
  witnessedAt: z.number().optional(),
  failure: failureSchema.optional(),
  failedAt: z.number().optional(),
});

export const SWAP_STATES = ['WAITING', 'RECEIVING', 'SWAPPING', 'SENDING', 'SENT', 'COMPLETED', 'FAILED'] as const;
export type SwapState = (typeof SWAP_STATES)[number];

/** `GET /v2/swaps/{id}` (`SwapStatusResponseV2`), the fields we read. */
export const swapStatusSchema = z.looseObject({
  state: z.enum(SWAP_STATES),
  swapId: z.string().optional(),
  srcAsset: z.string().optional(),
  srcChain: z.string().optional(),
  destAsset: z.string().optional(),
  destChain: z.string().optional(),
  depositChannel: z
    .looseObject({
      id: z.string(),
      depositAddress: z.string(),
      isExpired: z.boolean(),
      estimatedExpiryTime: z.number().optional(),
    })
    .optional(),
  deposit: z
    .looseObject({
      amount: baseUnits,
      txRef: z.string().optional(),
      txConfirmations: z.number().optional(),
      witnessedAt: z.number().optional(),
      failure: failureSchema.optional(),
    })
    .optional(),
  swap: z
    .looseObject({
      originalInputAmount: baseUnits.optional(),
      swappedInputAmount: baseUnits.optional(),
      swappedOutputAmount: baseUnits.optional(),
    })
    .optional(),
  swapEgress: egressSchema.optional(),
  refundEgress: egressSchema.optional(),
  fallbackEgress: egressSchema.optional(),
  fees: z.array(feeSchema).default([]),
});
export type SwapStatusBody = z.infer<typeof swapStatusSchema>;
export type SwapStatusInput = z.input<typeof swapStatusSchema>;
