import type { transactions } from '../../drizzle/schema';

type TransactionRow = typeof transactions.$inferSelect;

/**
 * The columns a status answer is made of (the transaction, its explorer links, whether it is final
 * or settled): the status read selects only these, so the row's large JSON (quote, provider result,
 * execution) is never decoded for it.
 */
export const STATUS_FIELDS = [
  'id',
  'provider',
  'status',
  'substatus',
  'hash',
  'inboundHash',
  'outboundHash',
  'srcChain',
  'dstChain',
  'srcAsset',
  'dstAsset',
  'srcAmount',
  'dstAmount',
  'walletAddress',
  'recipientWalletAddress',
  'quotedFeeUsd',
  'feeAmount',
  'feeCurrency',
  'feeAmountUsd',
  'feeUsd',
  'feeDetails',
  'trackingContext',
  'createdAt',
  'updatedAt',
  'finalizedAt',
  'expectedBy',
] as const satisfies readonly (keyof TransactionRow)[];

export type StatusFields = Pick<TransactionRow, (typeof STATUS_FIELDS)[number]>;
