import { z } from 'zod';

// Shapes from lifinance/types (src/api.ts, src/step.ts). Objects stay loose: a step is posted back
// to /advanced/stepTransaction exactly as LI.FI sent it, unknown fields included.

const baseUnits = z.string().regex(/^\d+$/);
const hexOrDecimal = z.string().regex(/^(0x[0-9a-fA-F]+|\d+)$/);

export const tokenSchema = z.looseObject({
  address: z.string().min(1),
  chainId: z.number(),
  symbol: z.string(),
  decimals: z.number().int().min(0),
  name: z.string().optional(),
  coinKey: z.string().optional(),
  logoURI: z.string().optional(),
  priceUSD: z.string().optional(),
});

export const feeCostSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  percentage: z.string().optional(),
  token: tokenSchema,
  amount: baseUnits,
  amountUSD: z.string().optional(),
  included: z.boolean().optional(),
});

export const gasCostSchema = z.looseObject({
  type: z.string(),
  price: z.string().optional(),
  estimate: z.string().optional(),
  limit: z.string().optional(),
  amount: baseUnits,
  amountUSD: z.string().optional(),
  token: tokenSchema,
});

export const actionSchema = z.looseObject({
  fromChainId: z.number(),
  fromAmount: baseUnits,
  fromToken: tokenSchema,
  fromAddress: z.string().optional(),
  toChainId: z.number(),
  toToken: tokenSchema,
  toAddress: z.string().optional(),
  slippage: z.number().optional(),
});

export const estimateSchema = z.looseObject({
  tool: z.string().optional(),
  fromAmount: baseUnits,
  fromAmountUSD: z.string().optional(),
  toAmount: baseUnits,
  toAmountMin: baseUnits,
  toAmountUSD: z.string().optional(),
  approvalAddress: z.string(),
  feeCosts: z.array(feeCostSchema).optional(),
  gasCosts: z.array(gasCostSchema).optional(),
  executionDuration: z.number().min(0),
  skipApproval: z.boolean().optional(),
  approvalReset: z.boolean().optional(),
});

export const toolDetailsSchema = z.looseObject({
  key: z.string(),
  name: z.string(),
  logoURI: z.string(),
});

export const includedStepSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  tool: z.string(),
  toolDetails: toolDetailsSchema,
  action: actionSchema,
  estimate: estimateSchema.optional(),
});

export const transactionRequestSchema = z.looseObject({
  to: z.string().min(1),
  from: z.string().optional(),
  data: z.string().regex(/^0x[0-9a-fA-F]*$/),
  value: hexOrDecimal,
  chainId: z.number().optional(),
  gasLimit: z.string().optional(),
  gasPrice: z.string().optional(),
});

export const lifiStepSchema = z.looseObject({
  id: z.string().min(1),
  type: z.string(),
  tool: z.string().min(1),
  toolDetails: toolDetailsSchema,
  action: actionSchema,
  estimate: estimateSchema,
  includedSteps: z.array(includedStepSchema).optional(),
  transactionRequest: transactionRequestSchema.optional(),
  transactionId: z.string().optional(),
});

/** `POST /v1/advanced/stepTransaction` answers the posted step with its `transactionRequest` filled. */
export const populatedStepSchema = lifiStepSchema.extend({ transactionRequest: transactionRequestSchema });

export const routeSchema = z.looseObject({
  id: z.string(),
  fromChainId: z.number(),
  fromAmountUSD: z.string().optional(),
  fromAmount: baseUnits,
  fromToken: tokenSchema,
  fromAddress: z.string().optional(),
  toChainId: z.number(),
  toAmountUSD: z.string().optional(),
  toAmount: baseUnits,
  toAmountMin: baseUnits,
  toToken: tokenSchema,
  toAddress: z.string().optional(),
  gasCostUSD: z.string().optional(),
  containsSwitchChain: z.boolean().optional(),
  steps: z.array(lifiStepSchema).min(1),
  tags: z.array(z.string()).optional(),
});

export const routesResponseSchema = z.looseObject({
  routes: z.array(routeSchema),
  unavailableRoutes: z
    .looseObject({
      filteredOut: z.array(z.unknown()).optional(),
      failed: z.array(z.unknown()).optional(),
    })
    .optional(),
});

export const STATUS_VALUES = ['NOT_FOUND', 'INVALID', 'PENDING', 'DONE', 'FAILED'] as const;

const transactionInfoSchema = z.looseObject({
  txHash: z.string().optional(),
  txLink: z.string().optional(),
  chainId: z.number().optional(),
  amount: baseUnits.optional(),
  amountUSD: z.string().optional(),
  token: tokenSchema.optional(),
});

/** `StatusResponse`: FullStatusData, StatusData or FailedStatusData; NOT_FOUND carries little more than `status`. */
export const statusResponseSchema = z.looseObject({
  status: z.enum(STATUS_VALUES),
  substatus: z.string().optional(),
  substatusMessage: z.string().optional(),
  transactionId: z.string().optional(),
  tool: z.string().optional(),
  sending: transactionInfoSchema.optional(),
  receiving: transactionInfoSchema.optional(),
  feeCosts: z.array(feeCostSchema).optional(),
  lifiExplorerLink: z.string().optional(),
  fromAddress: z.string().optional(),
  toAddress: z.string().optional(),
});

/** Error body, e.g. `{"message":"No available quotes for the requested transfer","code":1002}`. */
export const errorBodySchema = z.looseObject({
  message: z.string().optional(),
  code: z.number().optional(),
});

export const LIFI_ERROR_CODES = {
  failedToBuildTransaction: 1001,
  noQuote: 1002,
  notFound: 1003,
  rateLimit: 1005,
  validation: 1011,
} as const;

export type LifiToken = z.infer<typeof tokenSchema>;
export type LifiFeeCost = z.infer<typeof feeCostSchema>;
export type LifiGasCost = z.infer<typeof gasCostSchema>;
export type LifiStep = z.infer<typeof lifiStepSchema>;
export type LifiPopulatedStep = z.infer<typeof populatedStepSchema>;
export type LifiRoute = z.infer<typeof routeSchema>;
export type LifiRoutesResponse = z.infer<typeof routesResponseSchema>;
export type LifiStatusResponse = z.infer<typeof statusResponseSchema>;
export type LifiStatus = (typeof STATUS_VALUES)[number];

export interface LifiRoutesRequest {
  fromChainId: number;
  fromAmount: string;
  fromTokenAddress: string;
  fromAddress?: string;
  toChainId: number;
  toTokenAddress: string;
  toAddress?: string;
  options: {
    slippage: number;
    order: 'CHEAPEST' | 'FASTEST';
    integrator: string;
    allowSwitchChain: boolean;
  };
}
