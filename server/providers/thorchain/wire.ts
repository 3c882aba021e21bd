import { z } from 'zod';

/** THORNode amounts are unsigned integers encoded as strings (1e8 units). */
const uintString = z.string().regex(/^\d+$/);

/**
 * Two error shapes exist in the wild: the legacy LCD `{"error": "..."}` and the gRPC-gateway
 * `{"code": 3, "message": "...", "details": []}` of newer THORNode releases.
 */
export const errorBodySchema = z
  .looseObject({ error: z.string().optional(), message: z.string().optional(), code: z.number().optional() })
  .refine((body) => typeof body.error === 'string' || typeof body.message === 'string', 'no error text');
export type ErrorBody = z.output<typeof errorBodySchema>;

export const quoteFeesSchema = z.looseObject({
  asset: z.string(),
  affiliate: uintString.optional(),
  outbound: uintString.optional(),
  liquidity: uintString.optional(),
  total: uintString.optional(),
  slippage_bps: z.number().optional(),
  total_bps: z.number().optional(),
});
export type QuoteFees = z.output<typeof quoteFeesSchema>;

/** `QuoteSwapResponse` (thornode OpenAPI 3.9.0). */
export const quoteSwapResponseSchema = z.looseObject({
  inbound_address: z.string().optional(),
  inbound_confirmation_blocks: z.number().optional(),
  inbound_confirmation_seconds: z.number().optional(),
  outbound_delay_blocks: z.number().optional(),
  outbound_delay_seconds: z.number().optional(),
  fees: quoteFeesSchema,
  router: z.string().optional(),
  expiry: z.number().int().positive(),
  warning: z.string().optional(),
  notes: z.string().optional(),
  dust_threshold: uintString.optional(),
  recommended_min_amount_in: uintString.optional(),
  recommended_gas_rate: z.string().optional(),
  gas_rate_units: z.string().optional(),
  memo: z.string().optional(),
  expected_amount_out: uintString,
  max_streaming_quantity: z.number().optional(),
  streaming_swap_blocks: z.number().optional(),
  streaming_swap_seconds: z.number().optional(),
  total_swap_seconds: z.number().optional(),
});
export type QuoteSwapResponse = z.output<typeof quoteSwapResponseSchema>;

export const quoteAnswerSchema = z.union([quoteSwapResponseSchema, errorBodySchema]);

export const coinSchema = z.looseObject({ asset: z.string(), amount: uintString });

export const txSchema = z.looseObject({
  id: z.string().optional(),
  chain: z.string().optional(),
  from_address: z.string().optional(),
  to_address: z.string().optional(),
  coins: z.array(coinSchema).nullish(),
  gas: z.array(coinSchema).nullish(),
  memo: z.string().optional(),
});
export type WireTx = z.output<typeof txSchema>;

/**
 * Midgard `GET /v2/actions?address=…&type=swap` (midgard.ninerealms.com/v2/doc#operation/GetActions; a captured
 * answer: yieldi-labs/yieldi-web app/__mocks__/responses/actionsResponse.ts): each action's inbounds with their
 * tx id, sender and coins, and the swap's memo.
 */
export const midgardActionsSchema = z.looseObject({
  actions: z.array(
    z.looseObject({
      status: z.string().optional(),
      in: z.array(
        z.looseObject({ txID: z.string(), address: z.string().optional(), coins: z.array(coinSchema).nullish() }),
      ),
      metadata: z.looseObject({ swap: z.looseObject({ memo: z.string().optional() }).optional() }).optional(),
    }),
  ),
});

export const plannedOutTxSchema = z.looseObject({
  chain: z.string(),
  to_address: z.string().optional(),
  coin: coinSchema,
  refund: z.boolean().optional(),
});

const completedStage = z.looseObject({ completed: z.boolean() });

/** `TxStagesResponse`: only `inbound_observed` is required upstream. */
export const txStagesSchema = z.looseObject({
  inbound_observed: z.looseObject({
    started: z.boolean().optional(),
    pre_confirmation_count: z.number().optional(),
    final_count: z.number().optional(),
    completed: z.boolean(),
  }),
  inbound_confirmation_counted: z
    .looseObject({ remaining_confirmation_seconds: z.number().optional(), completed: z.boolean() })
    .optional(),
  inbound_finalised: completedStage.optional(),
  swap_status: z
    .looseObject({
      pending: z.boolean(),
      streaming: z
        .looseObject({ interval: z.number().optional(), quantity: z.number().optional(), count: z.number().optional() })
        .optional(),
    })
    .optional(),
  swap_finalised: completedStage.optional(),
  outbound_delay: z
    .looseObject({
      remaining_delay_blocks: z.number().optional(),
      remaining_delay_seconds: z.number().optional(),
      completed: z.boolean(),
    })
    .optional(),
  outbound_signed: z
    .looseObject({
      scheduled_outbound_height: z.number().optional(),
      blocks_since_scheduled: z.number().optional(),
      completed: z.boolean(),
    })
    .optional(),
});
export type TxStages = z.output<typeof txStagesSchema>;

/** `TxStatusResponse` (thornode OpenAPI 3.9.0). */
export const txStatusResponseSchema = z.looseObject({
  tx: txSchema.optional(),
  planned_out_txs: z.array(plannedOutTxSchema).nullish(),
  out_txs: z.array(txSchema).nullish(),
  stages: txStagesSchema,
});
export type TxStatusResponse = z.output<typeof txStatusResponseSchema>;

export const statusAnswerSchema = z.union([txStatusResponseSchema, errorBodySchema]);
export type StatusAnswer = z.output<typeof statusAnswerSchema>;

export const isErrorBody = (body: unknown): body is ErrorBody => errorBodySchema.safeParse(body).success;

export const errorText = (body: unknown): string => {
  const parsed = errorBodySchema.safeParse(body);
  if (!parsed.success) return '';
  return [parsed.data.error, parsed.data.message].filter(Boolean).join(' ');
};
