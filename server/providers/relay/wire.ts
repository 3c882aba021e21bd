import { z } from 'zod';

/**
 * Relay API wire shapes (relayprotocol/relay-kit `packages/sdk/src/types/api.ts`, the openapi-typescript
 * output of Relay's OpenAPI, and `TransactionStepItem.ts` for the per-VM step item data).
 */

export const RELAY_CHAIN = { bitcoin: 8253038, solana: 792703809, ton: 224235520 } as const;

export type RelayVm = 'evm' | 'svm' | 'tonvm' | 'bvm';

/** Currency ids Relay uses for natives: the zero address of each VM, in that VM's own encoding. */
export const RELAY_NATIVE_CURRENCY: Record<RelayVm, string> = {
  evm: '0x0000000000000000000000000000000000000000',
  svm: '11111111111111111111111111111111',
  bvm: 'bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8',
  // Unverified: no Relay source names TON's native currency id; this is TON's zero address, by analogy.
  tonvm: 'EQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAM9c',
};

/** The SDK's quote-only "dead" addresses (`packages/sdk/src/constants/address.ts`): valid, never funded. */
export const RELAY_PLACEHOLDER_ADDRESS: Record<RelayVm, string> = {
  evm: '0x000000000000000000000000000000000000dead',
  svm: 'CbKGgVKLJFb8bBrf58DnAkdryX6ubewVytn7X957YwNr',
  bvm: '34xp4vRoCGJym3xR7yCVPFHoCNxv4Twseo',
  tonvm: 'EQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAADerZ0z',
};

export interface RelayQuoteRequest {
  user: string;
  originChainId: number;
  destinationChainId: number;
  originCurrency: string;
  destinationCurrency: string;
  amount: string;
  tradeType: 'EXACT_INPUT';
  recipient: string;
  slippageTolerance: string;
  refundTo: string;
  referrer: string;
}

const baseUnits = z.string().regex(/^\d+$/);
const signedBaseUnits = z.string().regex(/^-?\d+$/);
const decimalString = z.string().regex(/^-?\d+(\.\d+)?$/);

/** Every field of a currency and of an amount is optional in Relay's OpenAPI; absent ones are not errors. */
export const relayCurrencySchema = z.looseObject({
  chainId: z.number().int().optional(),
  address: z.string().optional(),
  symbol: z.string().optional(),
  name: z.string().optional(),
  decimals: z.number().int().min(0).max(36).optional(),
});

/** Relay's `CurrencyAmount`: fee components may be negative (network rewards). */
export const relayCurrencyAmountSchema = z.looseObject({
  currency: relayCurrencySchema.optional(),
  amount: signedBaseUnits.optional(),
  amountFormatted: z.string().optional(),
  amountUsd: decimalString.optional(),
  minimumAmount: signedBaseUnits.optional(),
});
export type RelayCurrencyAmount = z.infer<typeof relayCurrencyAmountSchema>;

export const relayStepItemSchema = z.looseObject({
  status: z.string().optional(),
  data: z.unknown().optional(),
  check: z.looseObject({ endpoint: z.string().optional(), method: z.string().optional() }).optional(),
});

export const relayStepSchema = z.looseObject({
  id: z.string().optional(),
  action: z.string().optional(),
  description: z.string().optional(),
  kind: z.string().optional(),
  requestId: z.string().optional(),
  depositAddress: z.string().optional(),
  items: z.array(relayStepItemSchema).default([]),
});
export type RelayStep = z.infer<typeof relayStepSchema>;

export const relayQuoteResponseSchema = z.looseObject({
  requestId: z.string().optional(),
  steps: z.array(relayStepSchema),
  fees: z
    .looseObject({
      gas: relayCurrencyAmountSchema.optional(),
      relayer: relayCurrencyAmountSchema.optional(),
      relayerGas: relayCurrencyAmountSchema.optional(),
      relayerService: relayCurrencyAmountSchema.optional(),
      app: relayCurrencyAmountSchema.optional(),
    })
    .optional(),
  details: z.looseObject({
    operation: z.string().optional(),
    sender: z.string().optional(),
    recipient: z.string().optional(),
    currencyIn: relayCurrencyAmountSchema.optional(),
    currencyOut: relayCurrencyAmountSchema.extend({ amount: baseUnits }),
    rate: z.string().optional(),
    timeEstimate: z.number().nonnegative().optional(),
  }),
});
export type RelayQuoteResponse = z.infer<typeof relayQuoteResponseSchema>;

/** 4xx body of `/quote`: `{ message, errorCode, errorData?, requestId?, … }`. */
export const relayErrorSchema = z.looseObject({ message: z.string().optional(), errorCode: z.string().optional() });

const hex = z.string().regex(/^0x[0-9a-fA-F]*$/);

/** EVM step item data. `value` is a decimal string in the docs; BigInt() also takes a 0x form. */
export const relayEvmTxSchema = z.looseObject({
  from: z.string().optional(),
  to: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  data: hex,
  value: z.string().regex(/^(\d+|0x[0-9a-fA-F]+)$/),
  chainId: z.number().int().optional(),
  gas: z.union([z.string(), z.number()]).optional(),
  maxFeePerGas: z.string().optional(),
  maxPriorityFeePerGas: z.string().optional(),
});
export type RelayEvmTx = z.infer<typeof relayEvmTxSchema>;

/** TON step item data (`relay-ton-wallet-adapter`): internal messages for a TON Connect request (1–4). */
export const relayTonMessagesSchema = z.looseObject({
  messages: z
    .array(
      z.looseObject({
        from: z.string().optional(),
        to: z.string().min(1),
        value: z.union([baseUnits, z.number().int().nonnegative()]).transform(String),
        body: z.string().optional(),
        stateInit: z.string().optional(),
        bounce: z.boolean().optional(),
        mode: z.number().int().optional(),
      }),
    )
    .min(1)
    .max(4),
});
export type RelayTonMessages = z.infer<typeof relayTonMessagesSchema>;

export const relaySolanaInstructionsSchema = z.looseObject({
  instructions: z
    .array(
      z.looseObject({
        keys: z.array(z.looseObject({ pubkey: z.string(), isSigner: z.boolean(), isWritable: z.boolean() })),
        programId: z.string().min(1),
        data: z.string(),
      }),
    )
    .min(1),
  addressLookupTableAddresses: z.array(z.string()).default([]),
});
export type RelaySolanaInstructions = z.infer<typeof relaySolanaInstructionsSchema>;

/**
 * `GET /intents/status/v2` (v1 `/intents/status` has `fallback`/`received`, v3 adds `submitted` and renames
 * `time` to `updatedAt`). The status stays a string so that a new upstream state maps to PENDING, not to an error.
 */
export const relayStatusSchema = z.looseObject({
  status: z.string().optional(),
  details: z.string().nullish(),
  inTxHashes: z.array(z.string()).nullish(),
  txHashes: z.array(z.string()).nullish(),
  time: z.number().optional(),
  updatedAt: z.number().optional(),
  originChainId: z.number().int().optional(),
  destinationChainId: z.number().int().optional(),
  quoteCreatedAt: z.number().optional(),
});
export type RelayStatusResponse = z.infer<typeof relayStatusSchema>;

/** `POST /transactions/index` body: the chain id travels as a string. */
export interface RelayIndexRequest {
  chainId: string;
  txHash: string;
  requestId?: string;
}

export const relayMessageSchema = z.looseObject({ message: z.string().optional() });
